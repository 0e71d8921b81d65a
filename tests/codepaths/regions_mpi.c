/* regions_mpi.c: runs program `regions` (regions.fpo) on each rank of a cubed sphere of 6 L x L
 * ranks (L from the rank count) and compares every compute point with a reference that
 * applies the region rules by tile index. da_min, a decomposition-dependent scalar, is the
 * minimum over all ranks (MPI_Allreduce) and a run-time argument, so one build serves every
 * layout. Prints one line per check on rank 0; exit status 0 when all ranks agree. Tiles
 * of 12 x 12 cells, or N x N from the first argument: on a tile of 3 the south and north
 * regions overlap, and rows run the code that tests each region (emit_c.c's row versions
 * need a taller tile). */
#include "regions.h"

#include "sphere.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NZ = 2, H = 2 };
static int N = 12;   /* cells along a tile's edge: the first argument, 12 when none */

/* q at tile index (gi, gj) of tile t, level k: defined beyond the tile too (halo points), and
 * negative at some points so the region's `if (q > 0.0)` matters. */
static double qval(int t, int gi, int gj, int k) {
    return (gi - 4) * 0.5 + gj * 0.03125 + t * 0.25 + k * 0.125;
}

/* A cell "area" whose minimum over the sphere da_min is. */
static double area(int t, int gi, int gj) { return 1.5 + ((gi * 7 + gj * 3 + t) % 11); }

/* The reference: `out` by the region rules at tile index (gi, gj). */
static double ref_out(int t, int gi, int gj, int k) {
    double q = qval(t, gi, gj, k), o = q;
    int w = gi == 0, e = gi == N - 1, s = gj == 0, n = gj == N - 1;
    if (w)
        o += 1.0;
    if (e)
        o += 2.0;
    if (s)
        o += 4.0;
    if (n)
        o += 8.0;
    if (w && s)
        o += 16.0;
    if (e && s)
        o += 32.0;
    if (w && n)
        o += 64.0;
    if (e && n)
        o += 128.0;
    if (gi >= 1 && gi < 3 && q > 0.0)
        o += 256.0;
    if (gj >= N - 3 && gj < N - 1)
        o += 512.0;
    if (gi >= 1 && gi < N - 1 && gj >= 1 && gj < N - 1)
        o += 1024.0;
    return o;
}

/* The temporary t of the stencil: q, but 1000 just west of the tile and 2000 just east. */
static double ref_t(int t, int gi, int gj, int k) {
    return gi == -1 ? 1000.0 : gi == N ? 2000.0 : qval(t, gi, gj, k);
}

int main(int argc, char **argv) {
    int rank, size, layout;
    if (argc > 1)
        N = atoi(argv[1]);
    fpo_halo_decomp d = cp_sphere(&argc, &argv, N, &rank, &size, &layout);
    int ni = d.nx + 2 * H, nj = d.ny + 2 * H;
    size_t plane = (size_t)ni * (size_t)nj, npts = plane * NZ;
    double *q = malloc(npts * sizeof *q), *out = calloc(npts, sizeof *out),
           *hout = calloc(npts, sizeof *hout), *scaled = calloc(npts, sizeof *scaled);
    double local_min = INFINITY;
    for (int k = 0; k < NZ; k++)
        for (int j = -H; j < d.ny + H; j++)
            for (int i = -H; i < d.nx + H; i++)
                q[(size_t)k * plane + (size_t)(j + H) * (size_t)ni + (size_t)(i + H)] =
                    qval(d.tile, d.i0 + i, d.j0 + j, k);
    for (int j = 0; j < d.ny; j++)
        for (int i = 0; i < d.nx; i++)
            local_min = fmin(local_min, area(d.tile, d.i0 + i, d.j0 + j));
    double da_min;
    MPI_Allreduce(&local_min, &da_min, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    double want_min = INFINITY;   /* the reference: over the whole sphere */
    for (int t = 0; t < 6; t++)
        for (int gj = 0; gj < N; gj++)
            for (int gi = 0; gi < N; gi++)
                want_min = fmin(want_min, area(t, gi, gj));

    regions_fields f = {
        .q = fpo_field_3d(q, FPO_F64, -H, d.nx + H, -H, d.ny + H, 0, NZ),
        .out = fpo_field_3d(out, FPO_F64, -H, d.nx + H, -H, d.ny + H, 0, NZ),
        .halo_out = fpo_field_3d(hout, FPO_F64, -H, d.nx + H, -H, d.ny + H, 0, NZ),
        .scaled = fpo_field_3d(scaled, FPO_F64, -H, d.nx + H, -H, d.ny + H, 0, NZ)};
    fpo_domain dom = fpo_halo_domain(&d, NZ);   /* this rank's part of the decomposition */
    regions *p;
    fpo_error err;
    int bad = 0;
    if (regions_open(&p, &dom, &f, &err) || regions_run(p, da_min, &err)) {
        fprintf(stderr, "rank %d: %s\n", rank, err.msg);
        bad++;
    } else {
        for (int k = 0; k < NZ; k++)
            for (int j = 0; j < d.ny; j++)
                for (int i = 0; i < d.nx; i++) {
                    size_t x = (size_t)k * plane + (size_t)(j + H) * (size_t)ni + (size_t)(i + H);
                    int gi = d.i0 + i, gj = d.j0 + j;
                    double o = ref_out(d.tile, gi, gj, k);
                    double h = ref_t(d.tile, gi - 1, gj, k) + ref_t(d.tile, gi + 1, gj, k);
                    double s = qval(d.tile, gi, gj, k) / want_min;
                    if (out[x] != o || hout[x] != h || scaled[x] != s) {
                        if (bad++ < 5)
                            fprintf(stderr,
                                    "rank %d (%s): tile %d (%d, %d, %d): out %g want %g, "
                                    "halo_out %g want %g, scaled %g want %g\n",
                                    rank, regions_variant(p), d.tile, gi, gj, k, out[x], o,
                                    hout[x], h, scaled[x], s);
                    }
                }
    }
    int total = 0;
    MPI_Reduce(&bad, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("regions: %d ranks (layout %dx%d), da_min %g, %s\n", size, layout, layout, da_min,
               total ? "MISMATCH" : "every point matches the reference");
    regions_close(p);
    free(q);
    free(out);
    free(hout);
    free(scaled);
    fpo_halo_decomp_free(&d);
    MPI_Finalize();
    return total != 0;
}
