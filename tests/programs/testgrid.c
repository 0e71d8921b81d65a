/* testgrid.c: allocation, patterns and point-by-point comparison of test arrays (testgrid.h). */
#include "testgrid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t tg_size(fpo_dtype dtype) {
    switch (dtype) {
    case FPO_F32: return sizeof(float);
    case FPO_F64: return sizeof(double);
    case FPO_I32: return sizeof(int32_t);
    case FPO_BOOL: return sizeof(bool);
    }
    return 0;
}

/* Every block handed out, freed at exit (tests keep their arrays to the end). */
enum { TG_MAX_BLOCKS = 512 };
static char *tg_blocks[TG_MAX_BLOCKS];
static int tg_nblocks;

static void tg_free_blocks(void) {
    for (int b = 0; b < tg_nblocks; b++) free(tg_blocks[b]);
    tg_nblocks = 0;
}

static void tg_keep(char *mem) {
    if (tg_nblocks == 0) atexit(tg_free_blocks);
    if (tg_nblocks == TG_MAX_BLOCKS) {
        fprintf(stderr, "testgrid: more than %d arrays\n", TG_MAX_BLOCKS);
        exit(1);
    }
    tg_blocks[tg_nblocks++] = mem;
}

tg_array tg_new(fpo_dtype dtype, fpo_axes axes, int64_t ilo, int64_t ihi, int64_t jlo,
                int64_t jhi, int64_t klo, int64_t khi) {
    return tg_new_padded(dtype, axes, ilo, ihi, jlo, jhi, klo, khi, 0, 0);
}

tg_array tg_new_padded(fpo_dtype dtype, fpo_axes axes, int64_t ilo, int64_t ihi, int64_t jlo,
                       int64_t jhi, int64_t klo, int64_t khi, int pad_j, int pad_k) {
    tg_array a = {.dtype = dtype, .axes = axes};
    int64_t lo[3] = {ilo, jlo, klo}, hi[3] = {ihi, jhi, khi};
    int64_t pad[3] = {pad_j, pad_k, 0}; /* after a step along axis d */
    bool has[3] = {axes != FPO_K, axes != FPO_K, axes != FPO_IJ};
    int64_t n = 1; /* elements in one step along the next axis */
    for (int d = 0; d < 3; d++) {
        a.lo[d] = has[d] ? lo[d] : 0;
        a.hi[d] = has[d] ? hi[d] : 1;
        a.stride[d] = has[d] ? n : 0;
        if (has[d]) n = n * (a.hi[d] - a.lo[d]) + pad[d];
    }
    a.bytes = (size_t)n * tg_size(dtype);
    a.mem = calloc(1, a.bytes);
    if (!a.mem) {
        fprintf(stderr, "testgrid: out of memory\n");
        exit(1);
    }
    a.data = a.mem;
    tg_keep(a.mem);
    return a;
}

tg_array tg_new3(fpo_dtype dtype, int h, int nx, int ny, int nz) {
    return tg_new(dtype, FPO_IJK, -h, nx + h, -h, ny + h, 0, nz);
}

tg_array tg_new2(fpo_dtype dtype, int h, int nx, int ny) {
    return tg_new(dtype, FPO_IJ, -h, nx + h, -h, ny + h, 0, 1);
}

tg_array tg_new1(fpo_dtype dtype, int nz) { return tg_new(dtype, FPO_K, 0, 1, 0, 1, 0, nz); }

tg_array tg_clone(const tg_array *a) {
    tg_array c = *a;
    c.mem = malloc(a->bytes);
    if (!c.mem) {
        fprintf(stderr, "testgrid: out of memory\n");
        exit(1);
    }
    memcpy(c.mem, a->mem, a->bytes);
    c.data = c.mem + ((char *)a->data - a->mem);
    tg_keep(c.mem);
    return c;
}

void tg_copy(tg_array *dst, const tg_array *src) {
    if (dst->bytes != src->bytes) {
        fprintf(stderr, "testgrid: copy between arrays of different sizes\n");
        exit(1);
    }
    memcpy(dst->mem, src->mem, src->bytes);
}

void tg_free(tg_array *a) {
    for (int b = 0; b < tg_nblocks; b++)
        if (tg_blocks[b] == a->mem) tg_blocks[b] = tg_blocks[--tg_nblocks];
    free(a->mem);
    a->mem = a->data = NULL;
}

fpo_field tg_field(const tg_array *a) {
    fpo_field f = {.data = a->data, .dtype = a->dtype, .axes = a->axes};
    for (int d = 0; d < 3; d++) {
        f.lo[d] = a->lo[d];
        f.hi[d] = a->hi[d];
        f.stride[d] = a->stride[d];
    }
    /* FPO_BACKEND=cuda: the drivers run the emulated CUDA build (cuda_emu.* tests), whose
     * device memory is host memory, marked as device memory */
    const char *backend = getenv("FPO_BACKEND");
    if (backend && !strcmp(backend, "cuda"))
        f.space = FPO_DEVICE;
    return f;
}

int64_t tg_index(const tg_array *a, int64_t i, int64_t j, int64_t k) {
    int64_t x[3] = {i, j, k};
    int64_t off = 0;
    for (int d = 0; d < 3; d++) {
        if (a->stride[d] == 0) continue;
        if (x[d] < a->lo[d] || x[d] >= a->hi[d]) {
            fprintf(stderr, "testgrid: index (%lld, %lld, %lld) outside the array\n",
                    (long long)i, (long long)j, (long long)k);
            exit(1);
        }
        off += (x[d] - a->lo[d]) * a->stride[d];
    }
    return off;
}

double tg_get(const tg_array *a, int64_t i, int64_t j, int64_t k) {
    int64_t o = tg_index(a, i, j, k);
    switch (a->dtype) {
    case FPO_F32: return ((const float *)a->data)[o];
    case FPO_F64: return ((const double *)a->data)[o];
    case FPO_I32: return ((const int32_t *)a->data)[o];
    case FPO_BOOL: return ((const bool *)a->data)[o];
    }
    return 0;
}

void tg_set(tg_array *a, int64_t i, int64_t j, int64_t k, double v) {
    int64_t o = tg_index(a, i, j, k);
    switch (a->dtype) {
    case FPO_F32: ((float *)a->data)[o] = (float)v; break;
    case FPO_F64: ((double *)a->data)[o] = v; break;
    case FPO_I32: ((int32_t *)a->data)[o] = (int32_t)v; break;
    case FPO_BOOL: ((bool *)a->data)[o] = v != 0; break;
    }
}

void tg_fill(tg_array *a, tg_pattern p) {
    for (int64_t k = a->lo[2]; k < a->hi[2]; k++)
        for (int64_t j = a->lo[1]; j < a->hi[1]; j++)
            for (int64_t i = a->lo[0]; i < a->hi[0]; i++)
                tg_set(a, i, j, k, p((int)i, (int)j, (int)k));
}

void tg_new_outputs(int n, fpo_dtype dtype, int h, int nx, int ny, int nz, tg_array *out,
                    tg_array *ref) {
    for (int m = 0; m < n; m++) {
        out[m] = tg_new3(dtype, h, nx, ny, nz);
        tg_fill(&out[m], tg_junk);
        ref[m] = tg_clone(&out[m]);
    }
}

double tg_wave(int i, int j, int k) { return sin(i) + 10.0 * j + 100.0 * k; }

double tg_junk(int i, int j, int k) { return -7777.0 - i - 0.5 * j - 0.25 * k; }

static bool tg_same(double got, double want, double tol) {
    if (isnan(got) || isnan(want)) return isnan(got) && isnan(want);
    if (got == want) return true;
    return fabs(got - want) <= tol * fmax(1.0, fabs(want));
}

int tg_compare(const char *what, const tg_array *got, const tg_array *want, double tol) {
    /* TG_DUMP=FILE: append every compared array's bytes (tests/optimizer compares the files
     * of the fused and unfused builds bit for bit). */
    const char *dump = getenv("TG_DUMP");
    FILE *df = dump ? fopen(dump, "ab") : NULL;
    if (df) {
        fprintf(df, "%s\n", what);
        fwrite(got->mem, 1, got->bytes, df);
        fclose(df);
    }
    for (int d = 0; d < 3; d++)
        if (got->lo[d] != want->lo[d] || got->hi[d] != want->hi[d] ||
            got->dtype != want->dtype) {
            fprintf(stderr, "FAIL %s: arrays of different shapes\n", what);
            return 1;
        }
    int bad = 0;
    int64_t n = 0;
    for (int64_t k = got->lo[2]; k < got->hi[2]; k++)
        for (int64_t j = got->lo[1]; j < got->hi[1]; j++)
            for (int64_t i = got->lo[0]; i < got->hi[0]; i++, n++) {
                double g = tg_get(got, i, j, k), w = tg_get(want, i, j, k);
                if (tg_same(g, w, tol)) continue;
                if (bad++ == 0)
                    fprintf(stderr,
                            "FAIL %s: first mismatch at (i=%lld, j=%lld, k=%lld): got %.17g, "
                            "want %.17g (tol %g)\n",
                            what, (long long)i, (long long)j, (long long)k, g, w, tol);
            }
    if (bad) fprintf(stderr, "FAIL %s: %d of %lld points differ\n", what, bad, (long long)n);
    return bad;
}

void tg_ok(fpo_status st, const fpo_error *err, const char *what) {
    if (st == FPO_OK) return;
    fprintf(stderr, "FAIL %s: status %d: %s\n", what, (int)st, err ? err->msg : "");
    exit(1);
}
