/* cuda_emu.c: fpo_cuda.h on the host, for the emulated CUDA build (library
 * fpo_runtime_cuda_emu): "device" memory is host memory, kernels run as loops when launched
 * (fpo_cuda_kernels.h), nothing is captured. It checks the CUDA back end's generated code
 * without a GPU. */
#include "fpo_cuda.h"

#include <stdlib.h>

struct fpo_cuda {
    void *pool;
};

fpo_status fpo_cuda_open(fpo_cuda **out, const char *program, fpo_error *err) {
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
    c->pool = calloc(1, bytes ? bytes : 1);
    if (!c->pool)
        return fpo_fail(err, FPO_ENOMEM, "%s_open: out of memory (%zu bytes)", program, bytes);
    *pool = c->pool;
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

void fpo_cuda_forget(fpo_cuda *c) { (void)c; }

void fpo_cuda_launched(fpo_cuda *c, const char *what) { (void)c, (void)what; }

fpo_status fpo_cuda_status(fpo_cuda *c, const char *program, fpo_error *err) {
    (void)c, (void)program, (void)err;
    return FPO_OK;
}

fpo_status fpo_cuda_wait(fpo_cuda *c, const char *program, fpo_error *err) {
    (void)c, (void)program, (void)err;
    return FPO_OK;
}
