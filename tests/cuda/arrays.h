/* arrays.h: the CUDA tests' fields: deterministic noise, and an array on the host with its copy
 * in device memory (with ON_GPU; else, for the emulated build, a host copy that the program
 * takes as device memory). cuda_check.c and cuda_bench.c share it. */
#ifndef FPO_TESTS_CUDA_ARRAYS_H
#define FPO_TESTS_CUDA_ARRAYS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef ON_GPU
#include <cuda_runtime.h>
#endif

/* Deterministic noise in [lo, lo + span): a hash of the point and the field. */
static inline double noise(int64_t x, int f, double lo, double span) {
    uint64_t h = (uint64_t)x * 0x9E3779B97F4A7C15ull ^ (uint64_t)(f + 1) * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return lo + span * (double)(h >> 11) / 9007199254740992.0;
}

typedef struct Arr {
    double *host, *dev;
    size_t n;
} Arr;

/* Field f's noise in `a`, on the host and copied to the device (its values again, say). */
static inline void arr_reset(Arr *a, int f, double lo, double span) {
    for (size_t x = 0; x < a->n; x++)
        a->host[x] = noise((int64_t)x, f, lo, span);
#ifdef ON_GPU
    cudaMemcpy(a->dev, a->host, a->n * sizeof(double), cudaMemcpyHostToDevice);
#else
    memcpy(a->dev, a->host, a->n * sizeof(double));
#endif
}

/* n doubles of field f's noise, on the host and copied to the device. */
static inline Arr arr(size_t n, int f, double lo, double span) {
    Arr a = {malloc(n * sizeof(double)), NULL, n};
#ifdef ON_GPU
    if (cudaMalloc((void **)&a.dev, n * sizeof(double)) != cudaSuccess) {
        fprintf(stderr, "cudaMalloc of %zu doubles failed\n", n);
        exit(1);
    }
#else
    a.dev = malloc(n * sizeof(double));
#endif
    arr_reset(&a, f, lo, span);
    return a;
}

static inline void arr_free(Arr *a) {
    free(a->host);
#ifdef ON_GPU
    cudaFree(a->dev);
#else
    free(a->dev);
#endif
}

/* The device copy's values back on the host (the caller frees them). */
static inline double *fetch(const Arr *a) {
    double *h = malloc(a->n * sizeof(double));
#ifdef ON_GPU
    cudaMemcpy(h, a->dev, a->n * sizeof(double), cudaMemcpyDeviceToHost);
#else
    memcpy(h, a->dev, a->n * sizeof(double));
#endif
    return h;
}

#endif
