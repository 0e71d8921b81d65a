/* halo_example.c: takes 6 ranks, gives the minimal use of halo/ shown in docs/halo.md: one
 * cell-centred field and one D-grid wind, exchanged to depth 3 with computation overlapped. */
#include <stdio.h>
#include <stdlib.h>

#include "fpo_halo.h"

int main(int argc, char **argv)
{
    enum { N = 24, H = 3, NK = 4 };
    fpo_halo_decomp d;
    fpo_halo_plan *plan;
    fpo_halo_error err;
    MPI_Init(&argc, &argv);
    if (fpo_halo_decomp_create(&d, MPI_COMM_WORLD, N, 1, 1, &err)) { /* 6 ranks: 1 x 1 */
        fprintf(stderr, "%s\n", err.msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* I-fastest arrays with a halo of H: q is nx x ny, u nx x (ny+1), v (nx+1) x ny */
    double *q = calloc((size_t)(d.nx + 2 * H) * (d.ny + 2 * H) * NK, sizeof *q);
    double *u = calloc((size_t)(d.nx + 2 * H) * (d.ny + 1 + 2 * H) * NK, sizeof *u);
    double *v = calloc((size_t)(d.nx + 1 + 2 * H) * (d.ny + 2 * H) * NK, sizeof *v);
    fpo_halo_item items[2] = {
        fpo_halo_scalar(fpo_halo_field_make(q, FPO_HALO_F64, -H, d.nx + H, -H, d.ny + H, NK),
                        FPO_HALO_CENTER),
        fpo_halo_vector(fpo_halo_field_make(u, FPO_HALO_F64, -H, d.nx + H, -H, d.ny + 1 + H, NK),
                        fpo_halo_field_make(v, FPO_HALO_F64, -H, d.nx + 1 + H, -H, d.ny + H, NK),
                        FPO_HALO_DGRID)};
    if (fpo_halo_plan_create(&plan, &d, H, 2, items, 0, &err) ||  /* once */
        fpo_halo_start(plan, &err) ||                             /* every step: */
        /* ... compute on the interior here ... */
        fpo_halo_finish(plan, &err) ||
        fpo_halo_fill_corners(&d, &items[1].f[0], &items[1].f[1], FPO_HALO_DGRID, H,
                              FPO_HALO_FILL_X, FPO_HALO_FILL_Y, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (d.rank == 0)
        printf("rank 0: tile %d, %d x %d cells, west neighbour rank %d (turn %d)\n", d.tile, d.nx,
               d.ny, d.nbr[FPO_HALO_W].rank, d.nbr[FPO_HALO_W].rot);
    fpo_halo_plan_destroy(plan);
    fpo_halo_decomp_free(&d);
    free(q), free(u), free(v);
    MPI_Finalize();
    return 0;
}
