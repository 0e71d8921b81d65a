/* edges.c: takes staggered items (C- or D-grid vectors), gives the plan that
 * overwrites each rank's north / east duplicate of a shared face with the neighbour's
 * south / west value, turned across tile edges (FV3's mpp_get_boundary sync). */
#include "halo_internal.h"

/* The points of rank r that duplicate a neighbour's: the east column of an XFACE component,
 * the north row of a YFACE one. Their owner is the rank for which they are the first point. */
fpo_halo_status hx_edge_points(const fpo_halo_decomp *r, fpo_halo_pos pos, int ncomp, int c,
                               int depth, hx_pts *out, fpo_halo_error *err)
{
    int m = 2 * r->n, east = pos == FPO_HALO_XFACE;
    int len = east ? r->ny : r->nx;
    (void)depth;
    if (pos != FPO_HALO_XFACE && pos != FPO_HALO_YFACE)
        return hx_fail(err, FPO_HALO_EINVAL, "rank %d: shared-edge sync: a component at "
                       "cell centres or corners has no single shared edge; use C- or D-grid "
                       "vectors", r->rank);
    for (int a = 0; a < len; a++) {
        int x = east ? 2 * (r->i0 + r->nx) : 2 * (r->i0 + a) + 1;
        int y = east ? 2 * (r->j0 + a) + 1 : 2 * (r->j0 + r->ny);
        int tile = r->tile, rot = 0;
        hx_pt q;
        if ((east ? x : y) == m)
            tile = hx_cross(r->n, tile, east ? FPO_HALO_E : FPO_HALO_N, &x, &y, &rot);
        hx_owner(r, tile, x, y, &q.rank, &q.si, &q.sj);
        q.i = east ? r->nx : a;
        q.j = east ? a : r->ny;
        hx_turn(rot, ncomp, c, &q.scomp, &q.sign);
        if (hx_pts_push(out, q, err))
            return FPO_HALO_ENOMEM;
    }
    return FPO_HALO_OK;
}

fpo_halo_status fpo_halo_plan_create_edges(fpo_halo_plan **plan, const fpo_halo_decomp *d,
                                           int nitems, const fpo_halo_item *items,
                                           unsigned flags, fpo_halo_error *err)
{
    return hx_plan_build(plan, d, 0, 0, nitems, items, flags, hx_edge_points,
                         "shared-edge sync", err);
}
