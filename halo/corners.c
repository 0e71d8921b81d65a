/* corners.c: takes an exchanged field on a rank touching cube corners, gives the corner halo
 * blocks filled from the adjacent edge halo turned a quarter about the corner (FV3's
 * copy_corners for scalars, fill_corners for vectors), on host memory or, queued on a CUDA
 * stream, on device memory (pack_cuda.cu). */
#include "halo_internal.h"

/* Tile corners in the order SW, SE, NW, NE (hx_corner_src), with the edges each needs. */
static const unsigned corner_edges[4] = {
    FPO_HALO_EDGE_S | FPO_HALO_EDGE_W, FPO_HALO_EDGE_S | FPO_HALO_EDGE_E,
    FPO_HALO_EDGE_N | FPO_HALO_EDGE_W, FPO_HALO_EDGE_N | FPO_HALO_EDGE_E};

static double get(const fpo_halo_field *f, int i, int j, int64_t k)
{
    int64_t at = (i - f->lo[0]) + (j - f->lo[1]) * f->stride[1] + k * f->stride[2];
    return f->dtype == FPO_HALO_F32 ? ((float *)f->data)[at] : ((double *)f->data)[at];
}

static void put(const fpo_halo_field *f, int i, int j, int64_t k, double v)
{
    int64_t at = (i - f->lo[0]) + (j - f->lo[1]) * f->stride[1] + k * f->stride[2];
    if (f->dtype == FPO_HALO_F32)
        ((float *)f->data)[at] = (float)v;
    else
        ((double *)f->data)[at] = v;
}

/* Fills the corner blocks of component c (of ncomp, fields f[]) at `pos` from the halo `dir`
 * names. For a vector, a turn t gives u = t v', v = -t u' of the source point. With a stream
 * the fields are device memory and the fill is queued there. */
static fpo_halo_status fill(const fpo_halo_decomp *d, const fpo_halo_field *f[2], int ncomp,
                            int c, fpo_halo_pos pos, int depth, fpo_halo_fill dir, void *stream,
                            fpo_halo_error *err)
{
    int hx = hx_half_x(pos), hy = hx_half_y(pos), ni, nj;
    fpo_halo_compute_size(d, pos, &ni, &nj);
    for (int corner = 0; corner < 4; corner++) {
        int t = hx_corner_turn(corner, dir), sc = ncomp == 2 ? 1 - c : 0;
        double sign = ncomp == 2 ? (c == 0 ? t : -t) : 1;
        if ((d->edges & corner_edges[corner]) != corner_edges[corner])
            continue;
        if (stream) {
            fpo_halo_status st = hx_cuda_corner(d, f[c], f[sc], corner, t, sign, pos, depth,
                                                stream, err);
            if (st)
                return st;
            continue;
        }
        for (int j = -depth; j < nj + depth; j++)
            for (int i = -depth; i < ni + depth; i++) {
                int si, sj;
                if (!hx_corner_src(corner, t, d->nx, d->ny, hx, hy, i, j, &si, &sj))
                    continue;
                for (int64_t k = 0; k < f[c]->hi[2] - f[c]->lo[2]; k++)
                    put(f[c], i, j, k, sign * get(f[sc], si, sj, k));
            }
    }
    return FPO_HALO_OK;
}

static fpo_halo_status check(const fpo_halo_decomp *d, const fpo_halo_field *f,
                             fpo_halo_pos pos, int depth, const char *what,
                             fpo_halo_error *err)
{
    if (!d || !f || !f->data)
        return hx_fail(err, FPO_HALO_EINVAL, "%s: null argument", what);
    if (depth < 1 || depth > d->nx || depth > d->ny)
        return hx_fail(err, FPO_HALO_EINVAL, "rank %d: %s: depth %d is not in 1 .. %d", d->rank,
                       what, depth, d->nx < d->ny ? d->nx : d->ny);
    if (f->stride[0] != 1 || f->lo[0] > -depth || f->lo[1] > -depth ||
        f->hi[0] < d->nx + !hx_half_x(pos) + depth || f->hi[1] < d->ny + !hx_half_y(pos) + depth)
        return hx_fail(err, FPO_HALO_EINVAL, "rank %d: %s: the field does not hold a halo of "
                       "depth %d", d->rank, what, depth);
    return FPO_HALO_OK;
}

fpo_halo_status fpo_halo_copy_corners(const fpo_halo_decomp *d, const fpo_halo_field *q,
                                      fpo_halo_pos pos, int depth, fpo_halo_fill dir,
                                      fpo_halo_error *err)
{
    return fpo_halo_copy_corners_on(d, q, pos, depth, dir, NULL, err);
}

fpo_halo_status fpo_halo_copy_corners_on(const fpo_halo_decomp *d, const fpo_halo_field *q,
                                         fpo_halo_pos pos, int depth, fpo_halo_fill dir,
                                         void *stream, fpo_halo_error *err)
{
    const fpo_halo_field *f[2] = {q, q};
    fpo_halo_status st = check(d, q, pos, depth, "fpo_halo_copy_corners", err);
    if (st)
        return st;
    if (pos != FPO_HALO_CENTER && pos != FPO_HALO_CORNER)
        return hx_fail(err, FPO_HALO_EINVAL, "rank %d: fpo_halo_copy_corners: a quarter turn "
                       "takes x-faces to y-faces; fill face values as a C- or D-grid pair",
                       d->rank);
    return fill(d, f, 1, 0, pos, depth, dir, stream, err);
}

fpo_halo_status fpo_halo_fill_corners(const fpo_halo_decomp *d, const fpo_halo_field *u,
                                      const fpo_halo_field *v, fpo_halo_kind kind, int depth,
                                      fpo_halo_fill udir, fpo_halo_fill vdir,
                                      fpo_halo_error *err)
{
    return fpo_halo_fill_corners_on(d, u, v, kind, depth, udir, vdir, NULL, err);
}

fpo_halo_status fpo_halo_fill_corners_on(const fpo_halo_decomp *d, const fpo_halo_field *u,
                                         const fpo_halo_field *v, fpo_halo_kind kind, int depth,
                                         fpo_halo_fill udir, fpo_halo_fill vdir, void *stream,
                                         fpo_halo_error *err)
{
    fpo_halo_item it = fpo_halo_vector(*u, *v, kind);
    fpo_halo_pos pos[2];
    const fpo_halo_field *f[2] = {u, v};
    fpo_halo_status st;
    if (kind == FPO_HALO_SCALAR || !hx_item_pos(&it, pos))
        return hx_fail(err, FPO_HALO_EINVAL, "fpo_halo_fill_corners: kind %d is not a vector "
                       "grid", (int)kind);
    if ((st = check(d, u, pos[0], depth, "fpo_halo_fill_corners (u)", err)) ||
        (st = check(d, v, pos[1], depth, "fpo_halo_fill_corners (v)", err)))
        return st;
    if ((st = fill(d, f, 2, 0, pos[0], depth, udir, stream, err)))
        return st;
    return fill(d, f, 2, 1, pos[1], depth, vdir, stream, err);
}
