/* cuda_emu.c: fpo_cuda.h on the host, for the emulated CUDA build (library
 * fpo_runtime_cuda_emu): "device" memory is host memory, kernels run as loops when launched
 * (fpo_cuda_kernels.h), nothing is captured. It checks the CUDA back end's generated code
 * without a GPU. */
#define FPO_CUDA_EMULATE 1
#include "fpo_cuda_kernels.h"

#include <stdlib.h>
#include <string.h>

/* The emulated kernels' built-in indices and phases (fpo_cuda_kernels.h). */
fpo_dim3_ fpo_emu_thread_idx_, fpo_emu_block_idx_, fpo_emu_block_dim_, fpo_emu_grid_dim_;
int fpo_emu_phased_, fpo_emu_synced_;

struct fpo_cuda {
    void *pool;
    void *record;   /* --instrument bounds: the kernels' record, the pool's end */
};

fpo_status fpo_cuda_open(fpo_cuda **out, const char *program, int shared, int streams,
                         void *stream, fpo_error *err) {
    /* the emulated kernels' shared memory is static storage; FPO_CUDA_EMU_SHARED_MAX plays a
     * device that gives a block that many bytes, for open's check. The kernels run when
     * launched: a caller's stream orders nothing. */
    (void)stream, (void)streams;
    *out = NULL;
    const char *most = getenv("FPO_CUDA_EMU_SHARED_MAX");
    if (shared > 0 && most && *most) {
        fpo_status st = fpo_cuda_check_shared(program, shared, 0, atoi(most), err);
        if (st)
            return st;
    }
    *out = calloc(1, sizeof **out);
    return *out ? FPO_OK : fpo_fail(err, FPO_ENOMEM, "%s_open: out of memory", program);
}

void fpo_cuda_close(fpo_cuda *c) {
    if (c)
        free(c->pool);
    free(c);
}

fpo_status fpo_cuda_pool(fpo_cuda *c, size_t bytes, void **pool, const char *program,
                         fpo_error *err) {
    size_t at = (bytes + 255) / 256 * 256;   /* the record, after the temporaries */
    c->pool = calloc(1, at + FPO_CUDA_RECORD);
    if (!c->pool)
        return fpo_fail(err, FPO_ENOMEM, "%s_open: out of memory (%zu bytes)", program, bytes);
    *pool = c->pool;
    c->record = (char *)c->pool + at;
    return FPO_OK;
}

fpo_status fpo_cuda_check_field(const fpo_cuda *c, const fpo_field *f, const char *program,
                                const char *name, fpo_error *err) {
    (void)c, (void)f, (void)program, (void)name, (void)err;
    return FPO_OK;
}

void *fpo_cuda_stream(const fpo_cuda *c) {
    (void)c;
    return NULL;
}

/* (one stream: a chunk's walks run after its segment, before the next chunk's) */
void fpo_cuda_fork(fpo_cuda *c) { (void)c; }
void fpo_cuda_back(fpo_cuda *c) { (void)c; }
void fpo_cuda_join(fpo_cuda *c) { (void)c; }
void *fpo_cuda_launch_stream(const fpo_cuda *c) {
    (void)c;
    return NULL;
}

int fpo_cuda_enter(const fpo_cuda *c) {
    (void)c;
    return 0;
}

void fpo_cuda_leave(const fpo_cuda *c, int entered) { (void)c, (void)entered; }

int fpo_cuda_device_memory(const fpo_cuda *c) {
    (void)c;
    return 0;
}

int fpo_cuda_replay(fpo_cuda *c, const void *key, size_t n) {
    (void)c, (void)key, (void)n;
    return 0;
}

int fpo_cuda_capture(fpo_cuda *c) {
    (void)c;
    return 0;
}

int fpo_cuda_captured(fpo_cuda *c, const void *key, size_t n) {
    (void)c, (void)key, (void)n;
    return 0;
}

void fpo_cuda_bind(fpo_cuda *c, const void *fields, size_t n) { (void)c, (void)fields, (void)n; }

int fpo_cuda_graphs(const fpo_cuda *c) {
    (void)c;
    return 0;
}

void fpo_cuda_stretches(fpo_cuda *c, const void *key, size_t n) { (void)c, (void)key, (void)n; }

int fpo_cuda_stretch(fpo_cuda *c, int s) {
    (void)c, (void)s;
    return 0;
}

int fpo_cuda_stretch_end(fpo_cuda *c, int s) {
    (void)c, (void)s;
    return 1;
}

void fpo_cuda_launched(fpo_cuda *c, const char *what) { (void)c, (void)what; }

fpo_status fpo_cuda_status(fpo_cuda *c, const char *program, fpo_error *err) {
    (void)c, (void)program, (void)err;
    return FPO_OK;
}

fpo_status fpo_cuda_after(fpo_cuda *c, void *stream, const char *program, fpo_error *err) {
    (void)c, (void)stream, (void)program, (void)err;   /* (launches run as they are made) */
    return FPO_OK;
}

fpo_status fpo_cuda_wait(fpo_cuda *c, const char *program, fpo_error *err) {
    (void)c, (void)program, (void)err;
    return FPO_OK;
}

/* ---- --instrument: "device" memory is host memory ---- */

static int64_t at_of(const fpo_field *f, int64_t i, int64_t j, int64_t k) {
    return (i - f->lo[0]) * f->stride[0] + (j - f->lo[1]) * f->stride[1] + (k - f->lo[2]) * f->stride[2];
}

int fpo_cuda_find(fpo_cuda *c, int test, const fpo_field *f, int64_t i0, int64_t i1, int64_t j0,
                  int64_t j1, int64_t k0, int64_t k1, int64_t at[3]) {
    (void)c;
    if (f->axes == FPO_IJ)
        k1 = k0 + 1;
    for (int64_t k = k0; k < k1; k++)
        for (int64_t j = j0; j < j1; j++)
            for (int64_t i = i0; i < i1; i++) {
                int64_t x = at_of(f, i, j, k);
                double v = f->dtype == FPO_F64   ? ((const double *)f->data)[x]
                           : f->dtype == FPO_F32 ? (double)((const float *)f->data)[x]
                           : f->dtype == FPO_I32 ? (double)((const int32_t *)f->data)[x]
                                                 : 0.0;
                if (test ? v < 0 : v != v) {
                    at[0] = i, at[1] = j, at[2] = k;
                    return 1;
                }
            }
    return 0;
}

double fpo_cuda_value(fpo_cuda *c, const fpo_field *f, int64_t i, int64_t j, int64_t k) {
    (void)c;
    int64_t x = at_of(f, i, j, f->axes == FPO_IJ ? f->lo[2] : k);
    return f->dtype == FPO_F64   ? ((const double *)f->data)[x]
           : f->dtype == FPO_F32 ? (double)((const float *)f->data)[x]
           : f->dtype == FPO_I32 ? (double)((const int32_t *)f->data)[x]
                                 : (double)((const unsigned char *)f->data)[x];
}

int fpo_cuda_check(fpo_cuda *c, const char *what) {
    (void)c, (void)what;
    return 0;
}

void *fpo_cuda_record(fpo_cuda *c, size_t bytes) {
    return bytes <= FPO_CUDA_RECORD ? c->record : NULL;
}

int fpo_cuda_record_take(fpo_cuda *c, void *out, size_t bytes) {
    if (!c->record || bytes > FPO_CUDA_RECORD)
        return 0;
    memcpy(out, c->record, bytes);
    memset(c->record, 0, bytes);
    return 1;
}
