/* testgrid.h: arrays with halos for the program tests: allocate them, fill them with
 * patterns, describe them as fpo_field, and compare them point by point against a reference
 * computed by a plain C loop nest, naming the first mismatching index. */
#ifndef TESTGRID_H
#define TESTGRID_H

#include <stdbool.h>
#include <stdint.h>

#include "fpo_runtime.h"

/* An I-contiguous array covering [lo[d], hi[d]) on each axis; `data` is element lo. Axes the
 * array lacks have lo = 0, hi = 1. */
typedef struct tg_array {
    char *mem;
    void *data;
    fpo_dtype dtype;
    fpo_axes axes;
    int64_t lo[3], hi[3], stride[3];
    size_t bytes; /* of the allocation */
} tg_array;

/* A value of index (i, j, k), for filling arrays. */
typedef double (*tg_pattern)(int i, int j, int k);

tg_array tg_new(fpo_dtype dtype, fpo_axes axes, int64_t ilo, int64_t ihi, int64_t jlo,
                int64_t jhi, int64_t klo, int64_t khi);
/* Arrays live until tg_free or the end of the process. tg_new_padded leaves pad_j elements
 * after each I row and pad_k after each IJ plane (strides larger than the extents). */
/* 3D on [-h, nx + h) x [-h, ny + h) x [0, nz); 2D without K; 1D on [0, nz). */
tg_array tg_new_padded(fpo_dtype dtype, fpo_axes axes, int64_t ilo, int64_t ihi, int64_t jlo,
                       int64_t jhi, int64_t klo, int64_t khi, int pad_j, int pad_k);
tg_array tg_new3(fpo_dtype dtype, int h, int nx, int ny, int nz);
tg_array tg_new2(fpo_dtype dtype, int h, int nx, int ny);
tg_array tg_new1(fpo_dtype dtype, int nz);
tg_array tg_clone(const tg_array *a);
/* Copy the whole allocation of `src` into `dst`, a clone of it. */
void tg_copy(tg_array *dst, const tg_array *src);
void tg_free(tg_array *a);

fpo_field tg_field(const tg_array *a);

/* Element offset of (i, j, k) from `data`; aborts the test if it lies outside the array. For
 * axes the array lacks, the index is ignored. */
int64_t tg_index(const tg_array *a, int64_t i, int64_t j, int64_t k);
double tg_get(const tg_array *a, int64_t i, int64_t j, int64_t k);
void tg_set(tg_array *a, int64_t i, int64_t j, int64_t k, double v);

#define TG_F64(a, i, j, k) (((double *)(a)->data)[tg_index((a), (i), (j), (k))])
#define TG_F32(a, i, j, k) (((float *)(a)->data)[tg_index((a), (i), (j), (k))])
#define TG_I32(a, i, j, k) (((int32_t *)(a)->data)[tg_index((a), (i), (j), (k))])
#define TG_BOOL(a, i, j, k) (((bool *)(a)->data)[tg_index((a), (i), (j), (k))])

/* n 3D output arrays of `dtype` with a halo of h, filled with tg_junk, and in `ref` a clone
 * of each for the reference loop nest to write into. */
void tg_new_outputs(int n, fpo_dtype dtype, int h, int nx, int ny, int nz, tg_array *out,
                    tg_array *ref);

/* Set every element (halo included) to p(i, j, k), converted to the array's dtype. */
void tg_fill(tg_array *a, tg_pattern p);

/* sin(i) + 10 j + 100 k: every index visible in the value. */
double tg_wave(int i, int j, int k);
/* A value no program computes, for outputs: shows points written that should not be. */
double tg_junk(int i, int j, int k);

/* Compare every element (halo included) of `got` with `want`: equal when
 * |got - want| <= tol * max(1, |want|), NaN equal to NaN. Prints the first mismatch with its
 * index and the number of mismatches; returns that number. */
int tg_compare(const char *what, const tg_array *got, const tg_array *want, double tol);

/* Exit with a message unless `st` is FPO_OK. */
void tg_ok(fpo_status st, const fpo_error *err, const char *what);

#endif
