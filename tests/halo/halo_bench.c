/* halo_bench.c: takes the ranks it runs on (6 or 24: layouts 1x1, 2x2), gives for C48 and C96
 * tiles the time per exchange of a scalar and a D-grid vector (f64, depth 3), the bytes moved,
 * and the ratio to the same bytes sent raw and to one MPI_Sendrecv with a neighbour. Prints
 * figures; fails only on errors, never on speed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpo_halo.h"

#define H 3
#define REPS 5

static int rank;

static void die(const fpo_halo_error *err)
{
    fprintf(stderr, "halo_bench: %s\n", err->msg);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

/* Seconds per call of `what` (0 exchange, 1 raw messages, 2 one Sendrecv): the slowest rank's
 * mean over `iters` calls, the best of REPS such runs (the machine may be shared). */
static double timed(int what, int iters, fpo_halo_plan *plan, int npeers, const int *peer,
                    const size_t *sb, const size_t *rb, char *sbuf, char *rbuf, int partner,
                    int scount, int rcount)
{
    MPI_Request req[64];
    fpo_halo_error err;
    double t, slowest, best = 1e30;
    for (int rep = 0; rep < REPS; rep++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t = MPI_Wtime();
        for (int it = 0; it < iters; it++) {
            if (what == 0) {
                if (fpo_halo_exchange(plan, &err))
                    die(&err);
            } else if (what == 1) {
                size_t so = 0, ro = 0;
                int n = 0;
                for (int k = 0; k < npeers; ro += rb[k], so += sb[k], k++) {
                    if (rb[k])
                        MPI_Irecv(rbuf + ro, (int)rb[k], MPI_BYTE, peer[k], 7, MPI_COMM_WORLD,
                                  &req[n++]);
                    if (sb[k])
                        MPI_Isend(sbuf + so, (int)sb[k], MPI_BYTE, peer[k], 7, MPI_COMM_WORLD,
                                  &req[n++]);
                }
                MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
            } else {
                MPI_Sendrecv(sbuf, scount, MPI_BYTE, partner, 8, rbuf, rcount, MPI_BYTE, partner, 8,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
        }
        t = (MPI_Wtime() - t) / iters;
        MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        best = slowest < best ? slowest : best;
    }
    return best;
}

static void run(int n, int layout, int nk, int iters)
{
    fpo_halo_decomp d;
    fpo_halo_error err;
    fpo_halo_plan *plan;
    fpo_halo_item items[2];
    double *q, *u, *v, tplan, tx, traw, tsr;
    int peer[64], npeers, partner, scount, rcount, ranks;
    size_t sb[64], rb[64], stot = 0, rtot = 0, smax;
    char *sbuf, *rbuf;
    int ni, nj;
    if (fpo_halo_decomp_create(&d, MPI_COMM_WORLD, n, layout, layout, &err))
        die(&err);
    ni = d.nx + 2 * H;
    nj = d.ny + 2 * H;
    q = calloc((size_t)ni * nj * nk, sizeof *q);
    u = calloc((size_t)ni * (nj + 1) * nk, sizeof *u);
    v = calloc((size_t)(ni + 1) * nj * nk, sizeof *v);
    for (size_t k = 0; k < (size_t)ni * nj * nk; k++)
        q[k] = u[k] = v[k] = (double)k;
    items[0] = fpo_halo_scalar(fpo_halo_field_make(q, FPO_HALO_F64, -H, d.nx + H, -H, d.ny + H, nk),
                               FPO_HALO_CENTER);
    items[1] = fpo_halo_vector(
        fpo_halo_field_make(u, FPO_HALO_F64, -H, d.nx + H, -H, d.ny + 1 + H, nk),
        fpo_halo_field_make(v, FPO_HALO_F64, -H, d.nx + 1 + H, -H, d.ny + H, nk), FPO_HALO_DGRID);
    MPI_Barrier(MPI_COMM_WORLD);
    tplan = MPI_Wtime();
    if (fpo_halo_plan_create(&plan, &d, H, 2, items, 0, &err))
        die(&err);
    tplan = MPI_Wtime() - tplan;
    npeers = fpo_halo_plan_peers(plan, 64, peer, sb, rb);
    for (int k = 0; k < npeers; k++)
        stot += sb[k], rtot += rb[k];
    /* one Sendrecv of all my bytes with rank ^ 1, which is always a neighbour here */
    partner = rank ^ 1;
    scount = (int)stot;
    MPI_Sendrecv(&scount, 1, MPI_INT, partner, 9, &rcount, 1, MPI_INT, partner, 9, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    sbuf = calloc(stot + rtot + (size_t)rcount + 1, 1);
    rbuf = calloc(rtot + (size_t)rcount + 1, 1);
    timed(0, 3, plan, 0, NULL, NULL, NULL, NULL, NULL, 0, 0, 0); /* warm up */
    tx = timed(0, iters, plan, 0, NULL, NULL, NULL, NULL, NULL, 0, 0, 0);
    timed(1, 3, plan, npeers, peer, sb, rb, sbuf, rbuf, 0, 0, 0);
    traw = timed(1, iters, plan, npeers, peer, sb, rb, sbuf, rbuf, 0, 0, 0);
    timed(2, 3, plan, 0, NULL, NULL, NULL, sbuf, rbuf, partner, scount, rcount);
    tsr = timed(2, iters, plan, 0, NULL, NULL, NULL, sbuf, rbuf, partner, scount, rcount);
    MPI_Allreduce(&stot, &smax, 1, MPI_UNSIGNED_LONG, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&npeers, &ranks, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &tplan, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("| C%-3d | %5d | %dx%d | %3d | %9zu | %5d | %9.1f | %9.1f | %9.1f | %5.2f | %5.2f | %6.1f |\n",
               n, d.size, layout, layout, nk, smax, ranks, tx * 1e6, traw * 1e6, tsr * 1e6,
               tx / tsr, tx / traw, tplan * 1e3);
    fpo_halo_plan_destroy(plan);
    fpo_halo_decomp_free(&d);
    free(q), free(u), free(v), free(sbuf), free(rbuf);
}

int main(int argc, char **argv)
{
    int size, layout, quick = argc > 1 && !strcmp(argv[1], "--quick");
    int nk = quick ? 4 : 16;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    layout = (int)lround(sqrt(size / 6.0));
    if (6 * layout * layout != size) {
        if (rank == 0)
            fprintf(stderr, "halo_bench: run on 6 x L x L ranks (6, 24, 54, ...), not %d\n", size);
        MPI_Finalize();
        return 2;
    }
    if (rank == 0) {
        printf("halo_bench: a scalar and a D-grid vector, f64, depth %d, %d levels; times are "
               "per call, slowest rank, best of %d runs\n", H, nk, REPS);
        printf("| tile | ranks | layout | nk | bytes/rank | peers | exchange us | raw us | "
               "sendrecv us | x/sendrecv | x/raw | plan ms |\n");
        printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    }
    run(48, layout, nk, quick ? 10 : 100);
    if (!quick)
        run(96, layout, nk, 50);
    MPI_Finalize();
    return 0;
}
