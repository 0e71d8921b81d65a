/* test_mpi.c: run on 6 L^2 ranks (L x L per tile): the norms reduced over ranks and the field
 * gathered to rank 0 are bit-identical to the serial whole-sphere results. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "em.h"
#include "em_test.h"

enum { N = 12 };

static double field(double lon, double lat, double bell) { return 1.01 * bell + 3.0 * sin(3.0 * lon + 7.0 * lat); }

/* Norms and the global field over the whole sphere, one tile at a time. */
static em_norms serial(double *global) {
    em_norm_acc acc;
    em_norm_acc_init(&acc);
    for (int t = 0; t < 6; t++) {
        em_grid g;
        em_error err;
        CHECK(em_grid_init(&g, N, t, 0, 0, N, N, 0, &err) == 0, "%s", err.msg);
        size_t np = em_grid_points(&g);
        double *h = calloc(np, sizeof *h), *ht = calloc(np, sizeof *ht);
        em_tc1_h(&g, ht);
        for (size_t k = 0; k < np; k++) h[k] = field(g.clon[k], g.clat[k], ht[k]);
        em_norm_acc_add(&acc, &g, h, ht, ht);
        em_to_global(&g, h, global);
        free(h), free(ht);
        em_grid_free(&g);
    }
    em_norms out;
    em_error err;
    CHECK(em_norms_finish(&acc, &out, &err) == 0, "%s", err.msg);
    return out;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, L = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int l = 1; l <= N; l++)
        if (6 * l * l == size && N % l == 0) L = l;
    CHECK(L > 0, "%d ranks is not 6 L^2 with L dividing %d", size, N);
    if (L == 0) {
        MPI_Finalize();
        return 1;
    }
    int t = rank / (L * L), ri = rank % L, rj = (rank / L) % L, w = N / L;
    em_grid g;
    em_error err;
    CHECK(em_grid_init(&g, N, t, ri * w, rj * w, w, w, 2, &err) == 0, "%s", err.msg);
    size_t np = em_grid_points(&g);
    double *h = calloc(np, sizeof *h), *ht = calloc(np, sizeof *ht);
    em_tc1_h(&g, ht);
    for (size_t k = 0; k < np; k++) h[k] = field(g.clon[k], g.clat[k], ht[k]);
    em_norm_acc acc;
    em_norm_acc_init(&acc);
    em_norm_acc_add(&acc, &g, h, ht, ht);
    CHECK(em_norm_acc_allreduce(&acc, MPI_COMM_WORLD, &err) == 0, "%s", err.msg);
    em_norms got, ref;
    CHECK(em_norms_finish(&acc, &got, &err) == 0, "%s", err.msg);
    double *gathered = calloc(6 * N * N, sizeof *gathered), *global = calloc(6 * N * N, sizeof *global);
    ref = serial(global);
    CHECK(memcmp(&got, &ref, sizeof got) == 0, "rank %d: norms differ from the serial ones", rank);
    CHECK(em_gather(&g, h, gathered, 0, MPI_COMM_WORLD, &err) == 0, "%s", err.msg);
    if (rank == 0) {
        CHECK(memcmp(gathered, global, 6 * N * N * sizeof(double)) == 0, "gathered field differs");
        printf("%d ranks (%dx%d per tile): l1 %.17g l2 %.17g linf %.17g mass %.17g, bit-identical to serial\n",
               size, L, L, got.l1, got.l2, got.linf, got.mass);
    }
    free(h), free(ht), free(gathered), free(global);
    em_grid_free(&g);
    int bad = em_failures, anybad = 0;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return anybad != 0;
}
