/* check.c: what a program's open checks: the domain, and each field's dtype, axes, layout
 * and the index range it covers, against what the program touches; on the CUDA back end, the
 * shared memory its kernels ask for against the device's. */
#include <inttypes.h>
#include <stdio.h>

#include "fpo_cuda.h"
#include "fpo_runtime.h"

static const char *const axis_name[3] = {"i", "j", "k"};
static const char *const axes_name[3] = {"3D (IJK)", "2D (IJ)", "1D (K)"};

static int axes_valid(fpo_axes axes) { return axes == FPO_IJK || axes == FPO_IJ || axes == FPO_K; }

/* Whether a field with `axes` has axis d (0 = I, 1 = J, 2 = K). */
static int axes_has(fpo_axes axes, int d) { return d == 2 ? axes != FPO_IJ : axes != FPO_K; }

/* The message for a field that misses part of [need_lo, need_hi) on axis d. */
static fpo_status fail_cover(const fpo_field *f, const char *program, const char *name, int d,
                             int64_t need_lo, int64_t need_hi, fpo_error *err) {
    const char *ax = axis_name[d];
    char hint[128];
    if (d < 2 && need_lo < f->lo[d] && need_lo < 0)
        snprintf(hint, sizeof hint, "allocate a halo of at least %" PRId64, -need_lo);
    else
        snprintf(hint, sizeof hint, "make it cover %s in [%" PRId64 ", %" PRId64 ")", ax,
                 need_lo < f->lo[d] ? need_lo : f->lo[d], need_hi > f->hi[d] ? need_hi : f->hi[d]);
    return fpo_fail(err, FPO_ESHAPE,
                    "%s: field '%s' covers %s in [%" PRId64 ", %" PRId64 ") but the program "
                    "touches %s in [%" PRId64 ", %" PRId64 "): %s",
                    program, name, ax, f->lo[d], f->hi[d], ax, need_lo, need_hi, hint);
}

fpo_status fpo_field_check(const fpo_field *f, const char *program, const char *name,
                           fpo_dtype dtype, fpo_axes axes, const int64_t need_lo[3],
                           const int64_t need_hi[3], fpo_error *err) {
    if (!f)
        return fpo_fail(err, FPO_EINVAL, "%s: field '%s' has no descriptor (null pointer)",
                        program, name);
    if (!f->data)
        return fpo_fail(err, FPO_EINVAL, "%s: field '%s' has no data (null pointer)", program,
                        name);
    if (f->dtype != dtype)
        return fpo_fail(err, FPO_EDTYPE, "%s: field '%s' is %s but the program takes %s",
                        program, name, fpo_dtype_name(f->dtype), fpo_dtype_name(dtype));
    if (!axes_valid(f->axes))
        return fpo_fail(err, FPO_EINVAL, "%s: field '%s' has invalid axes %d", program, name,
                        (int)f->axes);
    if (f->axes != axes)
        return fpo_fail(err, FPO_EDTYPE, "%s: field '%s' is %s but the program takes a %s field",
                        program, name, axes_name[f->axes], axes_name[axes]);
    for (int d = 0; d < 3; d++) {
        if (!axes_has(axes, d)) {
            if (f->stride[d] != 0)
                return fpo_fail(err, FPO_EINVAL,
                                "%s: field '%s' is %s but has %s stride %" PRId64
                                "; an axis the field lacks has stride 0",
                                program, name, axes_name[axes], axis_name[d], f->stride[d]);
            continue;
        }
        if (d == 0 && f->stride[0] != 1)
            return fpo_fail(err, FPO_EINVAL,
                            "%s: field '%s' has i stride %" PRId64
                            "; fields must be contiguous in i (stride 1)",
                            program, name, f->stride[0]);
        if (f->stride[d] < 0)
            return fpo_fail(err, FPO_EINVAL, "%s: field '%s' has negative %s stride %" PRId64,
                            program, name, axis_name[d], f->stride[d]);
        if (f->hi[d] < f->lo[d])
            return fpo_fail(err, FPO_EINVAL,
                            "%s: field '%s' has a reversed %s range [%" PRId64 ", %" PRId64 ")",
                            program, name, axis_name[d], f->lo[d], f->hi[d]);
        /* Each axis must step over all of the one below it, or points would share memory. */
        if (d > 0 && axes_has(axes, d - 1) &&
            f->stride[d] < f->stride[d - 1] * (f->hi[d - 1] - f->lo[d - 1]))
            return fpo_fail(err, FPO_EINVAL,
                            "%s: field '%s' has %s stride %" PRId64 " but one %s step needs %" PRId64
                            " elements; its points would overlap",
                            program, name, axis_name[d], f->stride[d], axis_name[d],
                            f->stride[d - 1] * (f->hi[d - 1] - f->lo[d - 1]));
        if (need_lo[d] >= need_hi[d])
            continue; /* the program touches no point on this axis */
        if (need_lo[d] < f->lo[d] || need_hi[d] > f->hi[d])
            return fail_cover(f, program, name, d, need_lo[d], need_hi[d], err);
    }
    return FPO_OK;
}

/* The bytes field f's descriptor spans from its first point [*lo, *hi) (empty: *lo == *hi). */
static void field_bytes(const fpo_field *f, uintptr_t *lo, uintptr_t *hi) {
    uint64_t last = 0;   /* elements from the first point to the last */
    for (int d = 0; d < 3; d++) {
        if (!f->stride[d])
            continue;   /* an axis the field lacks: its range says nothing */
        if (f->hi[d] <= f->lo[d]) {
            *lo = *hi = (uintptr_t)f->data;
            return;
        }
        last += (uint64_t)(f->hi[d] - f->lo[d] - 1) * (uint64_t)f->stride[d];
    }
    *lo = (uintptr_t)f->data;
    *hi = *lo + (uintptr_t)((last + 1) * fpo_dtype_size(f->dtype));
}

/* A field's points as rows of contiguous elements (its I extent; one element without I), at
 * data + (j * s1 + k * s2) elements for j < n1, k < n2: in increasing address order, since
 * fpo_field_check has each axis step over all of the one below it. */
typedef struct Rows {
    uintptr_t data;
    uint64_t len, e;         /* a row's bytes, an element's */
    int64_t n1, s1, n2, s2;  /* rows along J and K, and their strides in elements */
    int64_t j, k;            /* the row at hand */
} Rows;

static Rows rows_of(const fpo_field *f) {
    Rows r = {(uintptr_t)f->data, 1, (uint64_t)fpo_dtype_size(f->dtype), 1, 0, 1, 0, 0, 0};
    int64_t n[3];
    for (int d = 0; d < 3; d++)   /* (an axis it lacks, or of stride 0: one place) */
        n[d] = f->stride[d] && f->hi[d] > f->lo[d] ? f->hi[d] - f->lo[d] : 1;
    r.len = (uint64_t)n[0] * r.e;
    r.n1 = n[1], r.s1 = f->stride[1], r.n2 = n[2], r.s2 = f->stride[2];
    return r;
}

/* The first byte of the row at hand. */
static uintptr_t row_start(const Rows *r) {
    return r->data + (uintptr_t)((uint64_t)(r->j * r->s1 + r->k * r->s2) * r->e);
}

/* Whether fields a and b, whose byte ranges overlap, share a byte of their points: their
 * rows merged in address order (an interleaved layout, say rows of one field between those
 * of another, shares none); where that would take more than 2^22 rows, taken as shared. */
static int rows_meet(const fpo_field *a, const fpo_field *b) {
    const int64_t most = (int64_t)1 << 22;
    Rows x = rows_of(a), y = rows_of(b);
    if (x.n1 > most / x.n2 || y.n1 > most / y.n2 || x.n1 * x.n2 + y.n1 * y.n2 > most)
        return 1;   /* (the products tested before they are made: extents are the caller's) */
    while (x.k < x.n2 && y.k < y.n2) {
        uintptr_t xs = row_start(&x), ys = row_start(&y), xe = xs + x.len, ye = ys + y.len;
        if (xs < ye && ys < xe)
            return 1;
        Rows *next = xe <= ys ? &x : &y;   /* the row that ends first goes */
        if (++next->j == next->n1)
            next->j = 0, next->k++;
    }
    return 0;
}

fpo_status fpo_fields_apart(const fpo_field *const *f, const char *const *names,
                            const unsigned char *writes, int n, const char *program,
                            fpo_error *err) {
    for (int a = 0; a < n; a++) {
        uintptr_t alo, ahi, blo, bhi;
        field_bytes(f[a], &alo, &ahi);
        for (int b = 0; b < a; b++) {
            if (!writes[a] && !writes[b])
                continue;
            field_bytes(f[b], &blo, &bhi);
            if (alo < ahi && blo < bhi && alo < bhi && blo < ahi && rows_meet(f[a], f[b]))
                return fpo_fail(err, FPO_EINVAL,
                                "%s: fields '%s' and '%s' share memory, and the program writes "
                                "'%s': give a field it writes an array of its own",
                                program, names[b], names[a], names[writes[b] ? b : a]);
        }
    }
    return FPO_OK;
}

fpo_status fpo_field_check_offsets32(const fpo_field *f, int64_t row, const char *program,
                                     const char *name, fpo_error *err) {
    if (f->axes == FPO_K || f->hi[0] <= f->lo[0] || f->hi[1] <= f->lo[1])
        return FPO_OK;
    const int64_t lim = INT32_MAX, lo0 = f->lo[0], hi0 = f->hi[0] - 1, lo1 = f->lo[1],
                  hi1 = f->hi[1] - 1, sj = f->stride[1] > row ? f->stride[1] : row;
    int ok = lo0 >= -lim && hi0 <= lim && lo1 >= -lim && hi1 <= lim;
    if (ok) {   /* the farthest point: |i| + |j| * the row */
        int64_t m0 = -lo0 > hi0 ? -lo0 : hi0, m1 = -lo1 > hi1 ? -lo1 : hi1;
        ok = m1 == 0 || sj <= (lim - m0) / m1;
    }
    if (ok)
        return FPO_OK;
    return fpo_fail(err, FPO_EINVAL,
                    "%s: %s%s%s covers i in [%" PRId64 ", %" PRId64 ") and j in [%" PRId64
                    ", %" PRId64 ") with rows of %" PRId64 " elements: its points lie more "
                    "than 2147483647 elements from a level's origin, and the CUDA back end's "
                    "kernels index a level with 32-bit offsets",
                    program, name ? "field '" : "a temporary over the domain", name ? name : "",
                    name ? "'" : "", f->lo[0], f->hi[0], f->lo[1], f->hi[1], sj);
}

fpo_status fpo_domain_check(const fpo_domain *d, const char *program, fpo_error *err) {
    if (!d)
        return fpo_fail(err, FPO_EINVAL, "%s: no domain (null pointer)", program);
    const int size[3] = {d->nx, d->ny, d->nz};
    const char *const size_name[3] = {"nx", "ny", "nz"};
    for (int a = 0; a < 3; a++)
        if (size[a] <= 0)
            return fpo_fail(err, FPO_EINVAL, "%s: domain %s = %d; sizes must be positive",
                            program, size_name[a], size[a]);
    if (d->tile < 0 || d->tile > 5)
        return fpo_fail(err, FPO_EINVAL, "%s: domain tile = %d; tiles are numbered 0 to 5",
                        program, d->tile);
    if (d->i0 < 0 || d->tile_nx - d->i0 < d->nx)
        return fpo_fail(err, FPO_EINVAL,
                        "%s: domain i0 = %d, nx = %d does not fit a tile of tile_nx = %d "
                        "(need 0 <= i0 and i0 + nx <= tile_nx)",
                        program, d->i0, d->nx, d->tile_nx);
    if (d->j0 < 0 || d->tile_ny - d->j0 < d->ny)
        return fpo_fail(err, FPO_EINVAL,
                        "%s: domain j0 = %d, ny = %d does not fit a tile of tile_ny = %d "
                        "(need 0 <= j0 and j0 + ny <= tile_ny)",
                        program, d->j0, d->ny, d->tile_ny);
    return FPO_OK;
}

fpo_status fpo_cuda_check_shared(const char *program, int shared, int dev, int most,
                                 fpo_error *err) {
    if (shared <= most)
        return FPO_OK;
    return fpo_fail(err, FPO_EMISMATCH,
                    "%s: its CUDA segment kernels ask for %d bytes of shared memory a block "
                    "(fpo_add_program's CUDA_SHARED, fpo-gen --cuda-shared), and device %d gives "
                    "a block at most %d; build it with a smaller CUDA_SHARED, or run the C back "
                    "end",
                    program, shared, dev, most);
}
