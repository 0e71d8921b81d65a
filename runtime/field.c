/* field.c: field and domain descriptors: dtypes, contiguous field layouts, whole-tile domains. */
#include "fpo_runtime.h"

size_t fpo_dtype_size(fpo_dtype dtype) {
    switch (dtype) {
    case FPO_F32: return 4;
    case FPO_F64: return 8;
    case FPO_I32: return 4;
    case FPO_BOOL: return sizeof(_Bool);
    }
    return 0;
}

const char *fpo_dtype_name(fpo_dtype dtype) {
    switch (dtype) {
    case FPO_F32: return "f32";
    case FPO_F64: return "f64";
    case FPO_I32: return "i32";
    case FPO_BOOL: return "bool";
    }
    return "unknown dtype";
}

fpo_domain fpo_domain_local(int nx, int ny, int nz) {
    fpo_domain d = {.nx = nx, .ny = ny, .nz = nz, .i0 = 0, .j0 = 0,
                    .tile_nx = nx, .tile_ny = ny, .tile = 0};
    return d;
}

/* Axes lacking from a field get lo = 0, hi = 1, stride = 0; present axes are laid out
 * contiguously in the order I, J, K. */
fpo_field fpo_field_make(void *data, fpo_dtype dtype, fpo_axes axes, const int64_t lo[3],
                         const int64_t hi[3]) {
    int has[3] = {axes != FPO_K, axes != FPO_K, axes != FPO_IJ};
    fpo_field f = {.data = data, .dtype = dtype, .axes = axes};
    int64_t stride = 1;
    for (int d = 0; d < 3; d++) {
        if (!has[d]) {
            f.lo[d] = 0, f.hi[d] = 1, f.stride[d] = 0;
            continue;
        }
        f.lo[d] = lo[d], f.hi[d] = hi[d], f.stride[d] = stride;
        stride *= hi[d] > lo[d] ? hi[d] - lo[d] : 0;
    }
    return f;
}

fpo_field fpo_field_on_device(fpo_field f) {
    f.space = FPO_DEVICE;
    return f;
}

fpo_field fpo_field_3d(void *data, fpo_dtype dtype, int64_t ilo, int64_t ihi, int64_t jlo,
                       int64_t jhi, int64_t klo, int64_t khi) {
    int64_t lo[3] = {ilo, jlo, klo}, hi[3] = {ihi, jhi, khi};
    return fpo_field_make(data, dtype, FPO_IJK, lo, hi);
}

fpo_field fpo_field_2d(void *data, fpo_dtype dtype, int64_t ilo, int64_t ihi, int64_t jlo,
                       int64_t jhi) {
    int64_t lo[3] = {ilo, jlo, 0}, hi[3] = {ihi, jhi, 1};
    return fpo_field_make(data, dtype, FPO_IJ, lo, hi);
}

fpo_field fpo_field_1d(void *data, fpo_dtype dtype, int64_t klo, int64_t khi) {
    int64_t lo[3] = {0, 0, klo}, hi[3] = {1, 1, khi};
    return fpo_field_make(data, dtype, FPO_K, lo, hi);
}

unsigned fpo_domain_edges(const fpo_domain *d) {
    return (d->i0 == 0 ? FPO_EDGE_W : 0u) | (d->i0 + d->nx == d->tile_nx ? FPO_EDGE_E : 0u) |
           (d->j0 == 0 ? FPO_EDGE_S : 0u) | (d->j0 + d->ny == d->tile_ny ? FPO_EDGE_N : 0u);
}
