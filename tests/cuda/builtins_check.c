/* builtins_check.c: the builtins the C library and CUDA compute each their own way
 * (tests/cuda/builtins.fpo: one a level, f64 and f32), the CUDA back end against the C back
 * end, in units in the last place. Against the emulated build (the kernels compiled as C with
 * the C library's functions) every result must be the same bits; against the real one
 * (ON_GPU) each builtin within its stated tolerance (docs/cuda.md, "Builtins"). Prints, per
 * builtin, the largest difference and how many points differ. Usage: builtins_check [NX NY].
 * Exits 77 (skipped) where no device can be used. */
#include "bi_step.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef ON_GPU
#include <cuda_runtime.h>
#endif

/* Level k of builtins.fpo, and the most ulp the GPU may differ by, f64 and f32: CUDA's own
 * stated bounds (its Math API's appendix) are 0 for sqrt and mod, 1-3 for most in f64 (erfc 5,
 * tgamma 10), 1-4 in f32; glibc's own errors add to them. */
static const struct {
    const char *name;
    int64_t tol64, tol32;
} cases[] = {{"sqrt", 0, 0},   {"cbrt", 8, 8},   {"exp", 8, 8},    {"log", 8, 8},
             {"log10", 8, 8},  {"pow", 8, 8},    {"sin", 8, 8},    {"cos", 8, 8},
             {"tan", 8, 8},    {"asin", 8, 8},   {"acos", 8, 8},   {"atan", 8, 8},
             {"atan2", 8, 8},  {"sinh", 8, 8},   {"cosh", 8, 8},   {"tanh", 8, 8},
             {"asinh", 8, 8},  {"acosh", 8, 8},  {"atanh", 8, 8},  {"erf", 8, 8},
             {"erfc", 16, 16}, {"gamma", 32, 16}, {"mod", 0, 0}};
enum { NCASES = sizeof cases / sizeof *cases };

/* Noise in [0, 1): a hash of the point and the field. */
static double noise(size_t x, int f) {
    uint64_t h = (uint64_t)x * 0x9E3779B97F4A7C15ull ^ (uint64_t)(f + 1) * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return (double)(h >> 11) / 9007199254740992.0;
}

/* Distance in representable numbers (ulp) between two results: 0 for the same bits or two
 * NaNs, INT64_MAX for a NaN against a number (and for distances beyond it: results of
 * opposite signs far from 0, whose difference would overflow int64_t). */
static int64_t ulps64(double x, double y) {
    if (isnan(x) || isnan(y))
        return isnan(x) && isnan(y) ? 0 : INT64_MAX;
    int64_t a, b;
    memcpy(&a, &x, 8);
    memcpy(&b, &y, 8);
    a = a < 0 ? INT64_MIN - a : a;
    b = b < 0 ? INT64_MIN - b : b;
    uint64_t d = a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
    return d > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)d;
}

static int64_t ulps32(float x, float y) {
    if (isnan(x) || isnan(y))
        return isnan(x) && isnan(y) ? 0 : INT64_MAX;
    int32_t a, b;
    memcpy(&a, &x, 4);
    memcpy(&b, &y, 4);
    int64_t p = a < 0 ? (int64_t)INT32_MIN - a : a, q = b < 0 ? (int64_t)INT32_MIN - b : b;
    return p > q ? p - q : q - p;
}

/* `bytes` of memory where the CUDA back end takes its fields (device memory, or the host for
 * the emulated build), filled from `from`. */
static void *device_copy(const void *from, size_t bytes) {
    void *p;
#ifdef ON_GPU
    if (cudaMalloc(&p, bytes) != cudaSuccess) {
        fprintf(stderr, "builtins_check: cudaMalloc of %zu bytes failed\n", bytes);
        exit(1);
    }
    cudaMemcpy(p, from, bytes, cudaMemcpyHostToDevice);
#else
    p = malloc(bytes);
    memcpy(p, from, bytes);
#endif
    return p;
}

static void device_free(void *p) {
#ifdef ON_GPU
    cudaFree(p);
#else
    free(p);
#endif
}

static void host_copy(void *to, const void *dev, size_t bytes) {
#ifdef ON_GPU
    cudaMemcpy(to, dev, bytes, cudaMemcpyDeviceToHost);
#else
    memcpy(to, dev, bytes);
#endif
}

int main(int argc, char **argv) {
    int nx = argc > 1 ? atoi(argv[1]) : 64, ny = argc > 2 ? atoi(argv[2]) : 64, nz = NCASES;
#ifdef ON_GPU
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("no CUDA device\nskipped\n");
        return 77;
    }
#endif
    size_t n = (size_t)nx * (size_t)ny * (size_t)nz;
    double *a = malloc(n * 8), *b = malloc(n * 8), *o = calloc(n, 8), *gout = calloc(n, 8);
    float *a32 = malloc(n * 4), *b32 = malloc(n * 4), *o32 = calloc(n, 4), *gout32 = calloc(n, 4);
    for (size_t x = 0; x < n; x++) {
        a[x] = noise(x, 0), b[x] = noise(x, 1);
        a32[x] = (float)a[x], b32[x] = (float)b[x];
    }
    void *da = device_copy(a, n * 8), *db = device_copy(b, n * 8), *dout = device_copy(o, n * 8);
    void *da32 = device_copy(a32, n * 4), *db32 = device_copy(b32, n * 4);
    void *dout32 = device_copy(o32, n * 4);
    fpo_field f[6] = {fpo_field_3d(a, FPO_F64, 0, nx, 0, ny, 0, nz),
                      fpo_field_3d(b, FPO_F64, 0, nx, 0, ny, 0, nz),
                      fpo_field_3d(o, FPO_F64, 0, nx, 0, ny, 0, nz),
                      fpo_field_3d(a32, FPO_F32, 0, nx, 0, ny, 0, nz),
                      fpo_field_3d(b32, FPO_F32, 0, nx, 0, ny, 0, nz),
                      fpo_field_3d(o32, FPO_F32, 0, nx, 0, ny, 0, nz)};
    void *dev[6] = {da, db, dout, da32, db32, dout32};
    bi_step_fields hf, df;
    memcpy(&hf, f, sizeof hf);
    for (int i = 0; i < 6; i++) {
        f[i].data = dev[i];
        f[i].space = FPO_DEVICE;
    }
    memcpy(&df, f, sizeof df);
    fpo_domain dom = fpo_domain_local(nx, ny, nz);
    fpo_options oc = {.backend = "c"}, og = {.backend = "cuda"};
    fpo_error err;
    bi_step *pc = NULL, *pg = NULL;
    if (bi_step_open_with(&pc, &dom, &hf, &oc, &err)) {
        fprintf(stderr, "builtins_check: open (C): %s\n", err.msg);
        return 1;
    }
    if (bi_step_open_with(&pg, &dom, &df, &og, &err)) {
        fprintf(stderr, "builtins_check: open (CUDA): %s\n", err.msg);
        return strstr(err.msg, "needs a CUDA device") ? 77 : 1;   /* no usable device: skipped */
    }
    if (bi_step_run(pc, &err) || bi_step_run(pg, &err) || bi_step_wait(pg, &err)) {
        fprintf(stderr, "builtins_check: run: %s\n", err.msg);
        return 1;
    }
    host_copy(gout, dout, n * 8);
    host_copy(gout32, dout32, n * 4);
    size_t plane = (size_t)nx * (size_t)ny;
    int bad = 0;
    printf("%-6s %12s %14s %12s %14s   (%zu points each; tolerance f64 / f32)\n", "", "f64 max ulp",
           "points differ", "f32 max ulp", "points differ", plane);
    for (int k = 0; k < NCASES; k++) {
        int64_t m64 = 0, m32 = 0;
        size_t d64 = 0, d32 = 0, finite = 0;
        for (size_t x = (size_t)k * plane; x < (size_t)(k + 1) * plane; x++) {
            int64_t u = ulps64(o[x], gout[x]), v = ulps32(o32[x], gout32[x]);
            m64 = u > m64 ? u : m64, d64 += u != 0;
            m32 = v > m32 ? v : m32, d32 += v != 0;
            finite += isfinite(o[x]) && isfinite(o32[x]) && o[x] != 0;
        }
        if (finite < plane) {   /* every argument lies in its builtin's domain */
            printf("%s: %zu of %zu C results are not finite numbers other than 0\n",
                   cases[k].name, plane - finite, plane);
            bad = 1;
        }
#ifdef ON_GPU
        int64_t t64 = cases[k].tol64, t32 = cases[k].tol32;
#else
        int64_t t64 = 0, t32 = 0;   /* the same C library: the same bits */
#endif
        bool over = m64 > t64 || m32 > t32;
        bad |= over;
        printf("%-6s %12lld %14zu %12lld %14zu   (%lld / %lld)%s\n", cases[k].name, (long long)m64,
               d64, (long long)m32, d32, (long long)t64, (long long)t32,
               over ? "  OVER THE TOLERANCE" : "");
    }
    bi_step_close(pc);
    bi_step_close(pg);
    for (int i = 0; i < 6; i++)
        device_free(dev[i]);
    free(a), free(b), free(o), free(gout), free(a32), free(b32), free(o32), free(gout32);
    printf(bad ? "builtins: some differ by more than their tolerance\n"
               : "builtins: every builtin within its tolerance\n");
    return bad;
}
