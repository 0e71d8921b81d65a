/* halo_mpi.c: program `halo_stmts` (halo_stmts.fpo) on 6 L x L ranks: its halo_update fills
 * the halos of a temporary and a parameter as fpo_halo_locate says the owners hold them, the
 * split update lets an unrelated stage run between start and finish, vector updates, corner
 * fills and edge syncs run, and the host callback sees the result and stops the run on
 * request. Also: opening without the decomposition is refused. */
#include "halo_stmts.h"

#include "fpo_halo.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 12, NZ = 2, H = 2 };

static double qval(int t, int gi, int gj, int k) { return t * 1000.0 + gi * 31.0 + gj + k * 0.5; }
static double rval(int t, int gi, int gj, int k) { return -(t * 100.0 + gi + gj * 7.0 + k); }

typedef struct Seen {
    int calls, step;
    double sum;
} Seen;

/* The host callback: sums `out` over the compute points; a negative step stops the run. */
fpo_status observe(void *user, const fpo_field *out, int32_t step, fpo_error *err) {
    Seen *s = user;
    if (step < 0)
        return fpo_fail(err, FPO_EINVAL, "observe: step %d is negative", step);
    s->calls++;
    s->step = step;
    s->sum = 0;
    const double *o = out->data;
    for (int64_t k = 0; k < out->hi[2] - out->lo[2]; k++)
        for (int64_t j = -out->lo[1]; j < out->hi[1] - 2 * H - out->lo[1] + H; j++)
            for (int64_t i = -out->lo[0]; i < out->hi[0] - out->lo[0] - H; i++)
                s->sum += o[k * out->stride[2] + j * out->stride[1] + i];
    return FPO_OK;
}

/* Value a rank sees at local (i, j) of a cell-centred field after an exchange. */
static double seen(const fpo_halo_decomp *d, double (*f)(int, int, int, int), int i, int j,
                   int k) {
    fpo_halo_point pt;
    if (i >= 0 && i < d->nx && j >= 0 && j < d->ny)
        return f(d->tile, d->i0 + i, d->j0 + j, k);
    if (!fpo_halo_locate(d, FPO_HALO_CENTER, i, j, &pt))
        return NAN;
    return f(pt.tile, pt.gi, pt.gj, k);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int layout = (int)lround(sqrt(size / 6.0));
    fpo_halo_decomp d;
    fpo_halo_error herr;
    if (fpo_halo_decomp_create(&d, MPI_COMM_WORLD, N, layout, layout, &herr)) {
        fprintf(stderr, "rank %d: %s\n", rank, herr.msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int ni = d.nx + 2 * H, nj = d.ny + 2 * H;
    size_t plane = (size_t)ni * (size_t)nj, npts = plane * NZ;
    size_t nu = (size_t)ni * (size_t)(nj + 1) * NZ, nv = (size_t)(ni + 1) * (size_t)nj * NZ;
    double *q = malloc(npts * sizeof *q), *r = malloc(npts * sizeof *r),
           *out = calloc(npts, sizeof *out), *c = calloc(npts, sizeof *c),
           *u = calloc(nu, sizeof *u), *v = calloc(nv, sizeof *v);
#define AT(a, i, j, k) (a)[(size_t)(k) * plane + (size_t)((j) + H) * (size_t)ni + (size_t)((i) + H)]
    for (int k = 0; k < NZ; k++)
        for (int j = -H; j < d.ny + H; j++)
            for (int i = -H; i < d.nx + H; i++) {
                bool inside = i >= 0 && i < d.nx && j >= 0 && j < d.ny;
                AT(q, i, j, k) = inside ? qval(d.tile, d.i0 + i, d.j0 + j, k) : NAN;
                AT(r, i, j, k) = inside ? rval(d.tile, d.i0 + i, d.j0 + j, k) : NAN;
            }
    halo_stmts_fields f = {
        .q = fpo_field_3d(q, FPO_F64, -H, d.nx + H, -H, d.ny + H, 0, NZ),
        .r = fpo_field_3d(r, FPO_F64, -H, d.nx + H, -H, d.ny + H, 0, NZ),
        .out = fpo_field_3d(out, FPO_F64, -H, d.nx + H, -H, d.ny + H, 0, NZ),
        .c = fpo_field_3d(c, FPO_F64, -H, d.nx + H, -H, d.ny + H, 0, NZ),
        .u = fpo_field_3d(u, FPO_F64, -H, d.nx + H, -H, d.ny + 1 + H, 0, NZ),
        .v = fpo_field_3d(v, FPO_F64, -H, d.nx + 1 + H, -H, d.ny + H, 0, NZ)};
    fpo_domain dom = {.nx = d.nx, .ny = d.ny, .nz = NZ, .i0 = d.i0, .j0 = d.j0,
                      .tile_nx = N, .tile_ny = N, .tile = d.tile};
    int bad = 0;
    halo_stmts *p;
    fpo_error err;
    Seen seen_by_cb = {0};

    /* Without the decomposition, open refuses (every rank alike, no collective call). */
    if (halo_stmts_open(&p, &dom, &f, &err) != FPO_EINVAL ||
        !strstr(err.msg, "give this rank's fpo_halo_decomp as fpo_options.halo")) {
        fprintf(stderr, "rank %d: open without a decomposition: %s\n", rank, err.msg);
        bad++;
    }
    fpo_options opt = {.halo = &d, .user = &seen_by_cb};
    if (halo_stmts_open_with(&p, &dom, &f, &opt, &err) || halo_stmts_run(p, 7, &err)) {
        fprintf(stderr, "rank %d: %s\n", rank, err.msg);
        bad++;
    } else {
        double want_sum = 0;
        for (int k = 0; k < NZ; k++)
            for (int j = 0; j < d.ny; j++)
                for (int i = 0; i < d.nx; i++) {
                    double w = seen(&d, qval, i - 2, j, k) + seen(&d, qval, i + 2, j, k) +
                               seen(&d, qval, i, j - 1, k) + seen(&d, qval, i, j + 1, k) +
                               seen(&d, rval, i - 1, j, k);
                    want_sum += w;
                    if (AT(out, i, j, k) != w || AT(c, i, j, k) != 1.0) {
                        if (bad++ < 5)
                            fprintf(stderr, "rank %d: (%d, %d, %d): out %g want %g, c %g\n", rank,
                                    i, j, k, AT(out, i, j, k), w, AT(c, i, j, k));
                    }
                }
        if (seen_by_cb.calls != 1 || seen_by_cb.step != 7 || seen_by_cb.sum != want_sum) {
            fprintf(stderr, "rank %d: callback: %d calls, step %d, sum %g want %g\n", rank,
                    seen_by_cb.calls, seen_by_cb.step, seen_by_cb.sum, want_sum);
            bad++;
        }
        /* The callback stops the run with its own message. */
        if (halo_stmts_run(p, -1, &err) != FPO_EINVAL ||
            strcmp(err.msg, "observe: step -1 is negative")) {
            fprintf(stderr, "rank %d: a failing callback gave: %s\n", rank, err.msg);
            bad++;
        }
    }
    int total = 0;
    MPI_Reduce(&bad, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("halo_stmts: %d ranks (layout %dx%d): %s\n", size, layout, layout,
               total ? "MISMATCH" : "halo statements and callback agree with the owners");
    halo_stmts_close(p);
    free(q), free(r), free(out), free(c), free(u), free(v);
    fpo_halo_decomp_free(&d);
    MPI_Finalize();
    return total != 0;
}
