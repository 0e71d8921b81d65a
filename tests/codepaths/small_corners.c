/* small_corners.c: program `small_corners` on 24 ranks of 2 x 2 cells (N = 4): its corner
 * fill of depth 3 is refused on every rank, by the fused build at open (naming the statement
 * and the rank's size), by the unfused build at its first run (the halo library's message);
 * SMALL_UNFUSED picks the form. */
#include "small_corners.h"

#include "sphere.h"

#include <stdlib.h>
#include <string.h>

enum { N = 4, NZ = 2, H = 3 };

int main(int argc, char **argv) {
    int rank, size, layout;
    fpo_halo_decomp d = cp_sphere(&argc, &argv, N, &rank, &size, &layout);
    int ni = d.nx + 2 * H, nj = d.ny + 2 * H;
    double *q = calloc((size_t)ni * (size_t)nj * NZ, sizeof *q);
    small_corners_fields f = {.q = fpo_field_3d(q, FPO_F64, -H, d.nx + H, -H, d.ny + H, 0, NZ)};
    fpo_domain dom = fpo_halo_domain(&d, NZ);   /* this rank's part of the decomposition */
    fpo_options opt = {.halo = &d};
    small_corners *p = NULL;
    fpo_error err = {0};
    fpo_status st = small_corners_open_with(&p, &dom, &f, &opt, &err);
#ifdef SMALL_UNFUSED
    const char *want = "depth 3 is not in 1 .. 2";
    if (!st)
        st = small_corners_run(p, &err);
#else
    const char *want = "small_corners: copy_corners(q) at ";
#endif
    int ok = st != FPO_OK && strstr(err.msg, want) &&
             (!strstr(want, "copy_corners") || strstr(err.msg, "this rank's domain is 2 x 2"));
    if (!ok)
        fprintf(stderr, "rank %d: status %d: %s\n", rank, (int)st, err.msg);
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0)
        printf("small_corners: %d ranks of %d x %d: %s (%s)\n", size, d.nx, d.ny,
               all ? "refused on every rank" : "NOT REFUSED", err.msg);
    if (p)
        small_corners_close(p);
    free(q);
    fpo_halo_decomp_free(&d);
    MPI_Finalize();
    return all ? 0 : 1;
}
