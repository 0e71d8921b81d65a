/* halo_mpi.c: program `halo_stmts` (halo_stmts.fpo) on 6 L x L ranks: its halo_update fills
 * the halos of a temporary and a parameter as fpo_halo_locate says the owners hold them, the
 * split update lets an unrelated stage run between start and finish, vector updates, corner
 * fills and edge syncs run, a scalar at the vertices is exchanged as the owners hold it
 * (`at: vertex`) and read at offsets, and the host callback sees the result and stops the run on
 * request. Also: opening without the decomposition is refused. With FPO_BACKEND=cuda on the
 * CUDA back end (emulated, or ON_GPU on a device, its fields in device memory). */
#include "halo_stmts.h"

#include "sphere.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef ON_GPU
#include <cuda_runtime_api.h>
#endif

enum { N = 12, NZ = 2, H = 2 };

/* With FPO_BACKEND=cuda the program runs on the CUDA back end and its fields are device
 * memory: a CUDA device's (ON_GPU: copies made here and copied back after the run), or the
 * emulated build's, which is host memory marked as the device's. */
static int on_cuda(void) {
    const char *b = getenv("FPO_BACKEND");
    return b && !strcmp(b, "cuda");
}

static fpo_field place(fpo_field f) { return on_cuda() ? fpo_field_on_device(f) : f; }

static double *to_device(double *h, size_t n) {
#ifdef ON_GPU
    double *d = NULL;
    if (on_cuda()) {
        if (cudaMalloc((void **)&d, n * sizeof *d) != cudaSuccess ||
            cudaMemcpy(d, h, n * sizeof *d, cudaMemcpyHostToDevice) != cudaSuccess) {
            fprintf(stderr, "halo_mpi: device copy failed\n");
            exit(1);
        }
        return d;
    }
#else
    (void)n;
#endif
    return h;
}

static void to_host(double *h, double *d, size_t n) {
#ifdef ON_GPU
    if (d != h && cudaMemcpy(h, d, n * sizeof *h, cudaMemcpyDeviceToHost) != cudaSuccess) {
        fprintf(stderr, "halo_mpi: copy from the device failed\n");
        exit(1);
    }
#else
    (void)h, (void)d, (void)n;
#endif
}

static void free_device(double *h, double *d) {
#ifdef ON_GPU
    if (d != h)
        cudaFree(d);
#else
    (void)h, (void)d;
#endif
}

static double qval(int t, int gi, int gj, int k) { return t * 1000.0 + gi * 31.0 + gj + k * 0.5; }
static double rval(int t, int gi, int gj, int k) { return -(t * 100.0 + gi + gj * 7.0 + k); }
static double uval(int t, int gi, int gj, int k) { return t * 10.0 + gi * 0.5 + gj * 3.0 + k; }
static double vval(int t, int gi, int gj, int k) { return t * 20.0 - gi * 2.0 + gj * 0.25 - k; }
static double wval(int t, int gi, int gj, int k) { return t * 500.0 + gi * 3.0 - gj * 40.0 + k; }

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
#ifdef ON_GPU
    double *copy = NULL;   /* the callback gets the program's fields: device memory here */
    if (on_cuda()) {
        size_t n = (size_t)out->stride[2] * (size_t)(out->hi[2] - out->lo[2]);
        copy = malloc(n * sizeof *copy);
        if (!copy || cudaMemcpy(copy, out->data, n * sizeof *copy, cudaMemcpyDeviceToHost))
            return fpo_fail(err, FPO_EINVAL, "observe: copy from the device failed");
        o = copy;
    }
#endif
    for (int64_t k = 0; k < out->hi[2] - out->lo[2]; k++)
        for (int64_t j = -out->lo[1]; j < out->hi[1] - 2 * H - out->lo[1] + H; j++)
            for (int64_t i = -out->lo[0]; i < out->hi[0] - out->lo[0] - H; i++)
                s->sum += o[k * out->stride[2] + j * out->stride[1] + i];
#ifdef ON_GPU
    free(copy);
#endif
    return FPO_OK;
}

/* Component c (0 u, 1 v) of the D-grid wind at a located point, in the asking rank's frame:
 * rot 1 (u, v) = (v', -u'), rot 3 (u, v) = (-v', u') (fpo_halo_nbr). */
static double turned(fpo_halo_point pt, int c, int k) {
    double u = uval(pt.tile, pt.gi, pt.gj, k), v = vval(pt.tile, pt.gi, pt.gj, k);
    if (pt.rot == 1)
        return c ? -u : v;
    if (pt.rot == 3)
        return c ? u : -v;
    return c ? v : u;
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
    int rank, size, layout;
    fpo_halo_decomp d = cp_sphere(&argc, &argv, N, &rank, &size, &layout);
#ifdef ON_GPU
    int ndev = 0;
    if (on_cuda() && (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0)) {
        if (rank == 0)
            printf("skipped: the CUDA back end needs a CUDA device, and none can be used here\n");
        fpo_halo_decomp_free(&d);
        MPI_Finalize();
        return 0;
    }
#endif
    int ni = d.nx + 2 * H, nj = d.ny + 2 * H;
    size_t plane = (size_t)ni * (size_t)nj, npts = plane * NZ;
    size_t nu = (size_t)ni * (size_t)(nj + 1) * NZ, nv = (size_t)(ni + 1) * (size_t)nj * NZ;
    double *q = malloc(npts * sizeof *q), *r = malloc(npts * sizeof *r),
           *out = calloc(npts, sizeof *out), *c = calloc(npts, sizeof *c),
           *u = calloc(nu, sizeof *u), *v = calloc(nv, sizeof *v);
    /* w and ws at the vertices: nx + 1 x ny + 1 compute points */
    const int wni = ni + 1, wnj = nj + 1;
    size_t nw = (size_t)wni * (size_t)wnj * NZ;
    double *w = malloc(nw * sizeof *w), *ws = calloc(nw, sizeof *ws);
#define WAT(a, i, j, k) (a)[((size_t)(k) * (size_t)wnj + (size_t)((j) + H)) * (size_t)wni + (size_t)((i) + H)]
    for (int k = 0; k < NZ; k++)
        for (int j = -H; j < d.ny + 1 + H; j++)
            for (int i = -H; i < d.nx + 1 + H; i++)
                WAT(w, i, j, k) = i >= 0 && i <= d.nx && j >= 0 && j <= d.ny
                                      ? wval(d.tile, d.i0 + i, d.j0 + j, k) : NAN;
#define AT(a, i, j, k) (a)[(size_t)(k) * plane + (size_t)((j) + H) * (size_t)ni + (size_t)((i) + H)]
    for (int k = 0; k < NZ; k++)
        for (int j = -H; j < d.ny + H; j++)
            for (int i = -H; i < d.nx + H; i++) {
                bool inside = i >= 0 && i < d.nx && j >= 0 && j < d.ny;
                AT(q, i, j, k) = inside ? qval(d.tile, d.i0 + i, d.j0 + j, k) : NAN;
                AT(r, i, j, k) = inside ? rval(d.tile, d.i0 + i, d.j0 + j, k) : NAN;
            }
    /* D-grid winds: u on y faces (nx x ny+1), v on x faces (nx+1 x ny). */
    const int uni = ni, unj = nj + 1, vni = ni + 1;
#define UAT(i, j, k) u[((size_t)(k) * (size_t)unj + (size_t)((j) + H)) * (size_t)uni + (size_t)((i) + H)]
#define VAT(i, j, k) v[((size_t)(k) * (size_t)nj + (size_t)((j) + H)) * (size_t)vni + (size_t)((i) + H)]
    for (int k = 0; k < NZ; k++) {
        for (int j = -H; j < d.ny + 1 + H; j++)
            for (int i = -H; i < d.nx + H; i++)
                UAT(i, j, k) = i >= 0 && i < d.nx && j >= 0 && j <= d.ny
                                   ? uval(d.tile, d.i0 + i, d.j0 + j, k) : NAN;
        for (int j = -H; j < d.ny + H; j++)
            for (int i = -H; i < d.nx + 1 + H; i++)
                VAT(i, j, k) = i >= 0 && i <= d.nx && j >= 0 && j < d.ny
                                   ? vval(d.tile, d.i0 + i, d.j0 + j, k) : NAN;
    }
    double *dq = to_device(q, npts), *dr = to_device(r, npts), *dout = to_device(out, npts),
           *dc = to_device(c, npts), *du = to_device(u, nu), *dv = to_device(v, nv),
           *dw = to_device(w, nw), *dws = to_device(ws, nw);
    halo_stmts_fields f = {
        .q = place(fpo_field_3d(dq, FPO_F64, -H, d.nx + H, -H, d.ny + H, 0, NZ)),
        .r = place(fpo_field_3d(dr, FPO_F64, -H, d.nx + H, -H, d.ny + H, 0, NZ)),
        .out = place(fpo_field_3d(dout, FPO_F64, -H, d.nx + H, -H, d.ny + H, 0, NZ)),
        .c = place(fpo_field_3d(dc, FPO_F64, -H, d.nx + H, -H, d.ny + H, 0, NZ)),
        .u = place(fpo_field_3d(du, FPO_F64, -H, d.nx + H, -H, d.ny + 1 + H, 0, NZ)),
        .v = place(fpo_field_3d(dv, FPO_F64, -H, d.nx + 1 + H, -H, d.ny + H, 0, NZ)),
        .w = place(fpo_field_3d(dw, FPO_F64, -H, d.nx + 1 + H, -H, d.ny + 1 + H, 0, NZ)),
        .ws = place(fpo_field_3d(dws, FPO_F64, -H, d.nx + 1 + H, -H, d.ny + 1 + H, 0, NZ))};
    fpo_domain dom = fpo_halo_domain(&d, NZ);   /* this rank's part of the decomposition */
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
    /* copy_corners(r, X) exchanges the build's HALO (2): a field r with a halo of 1 is refused
     * on every rank, naming the option. */
    halo_stmts_fields thin = f;
    thin.r = place(fpo_field_3d(dr, FPO_F64, -1, d.nx + 1, -1, d.ny + 1, 0, NZ));
    if (halo_stmts_open_with(&p, &dom, &thin, &opt, &err) != FPO_ESHAPE ||
        !strstr(err.msg, "halo_stmts: field 'r' has a halo of 1 but copy_corners(r) at ") ||
        !strstr(err.msg, "exchanges 2 (the build's HALO): allocate a halo of 2, or build with "
                         "fpo_add_program(... HALO 1)")) {
        fprintf(stderr, "rank %d: a halo thinner than HALO: %s\n", rank, err.msg);
        bad++;
    } else if (rank == 0) {
        printf("refused: %s\n", err.msg);
    }
    int failed = halo_stmts_open_with(&p, &dom, &f, &opt, &err) || halo_stmts_run(p, 7, &err) ||
                 halo_stmts_wait(p, &err);
    if (!failed && rank == 0)
        printf("back end: %s\n", halo_stmts_backend(p));
    to_host(q, dq, npts), to_host(r, dr, npts), to_host(out, dout, npts), to_host(c, dc, npts);
    to_host(u, du, nu), to_host(v, dv, nv), to_host(w, dw, nw), to_host(ws, dws, nw);
    if (failed) {
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
        /* copy_corners(r, X) ran (in a fused build as a stencil call, pass_corners): r is
         * what the halo library's fill makes of it, bit for bit (the fill copies, so a second
         * one changes nothing), and the corner blocks hold numbers. */
        double *r2 = malloc(npts * sizeof *r2);
        memcpy(r2, r, npts * sizeof *r2);
        fpo_halo_field hr = fpo_halo_field_make(r2, FPO_HALO_F64, -H, d.nx + H, -H, d.ny + H, NZ);
        fpo_halo_error herr;
        if (fpo_halo_copy_corners(&d, &hr, FPO_HALO_CENTER, H, FPO_HALO_FILL_X, &herr) ||
            memcmp(r, r2, npts * sizeof *r2)) {
            fprintf(stderr, "rank %d: r's corners are not those of fpo_halo_copy_corners\n", rank);
            bad++;
        }
        for (int k = 0; k < NZ; k++)
            for (int j = -H; j < d.ny + H; j++)
                for (int i = -H; i < d.nx + H; i++)
                    if (isnan(AT(r, i, j, k)) && bad++ < 5)
                        fprintf(stderr, "rank %d: r(%d, %d, %d) is NaN\n", rank, i, j, k);
        free(r2);
        /* fill_corners(u, v, vector: D, depth: 2) ran the same way: a second fill by the halo
         * library changes nothing (the points it reads lie off the shared edges sync_edges
         * wrote after it). */
        double *u2 = malloc(nu * sizeof *u2), *v2 = malloc(nv * sizeof *v2);
        memcpy(u2, u, nu * sizeof *u2);
        memcpy(v2, v, nv * sizeof *v2);
        fpo_halo_field hu = fpo_halo_field_make(u2, FPO_HALO_F64, -H, d.nx + H, -H, d.ny + 1 + H, NZ),
                       hv = fpo_halo_field_make(v2, FPO_HALO_F64, -H, d.nx + 1 + H, -H, d.ny + H, NZ);
        if (fpo_halo_fill_corners(&d, &hu, &hv, FPO_HALO_DGRID, 2, FPO_HALO_FILL_X,
                                  FPO_HALO_FILL_Y, &herr) ||
            memcmp(u, u2, nu * sizeof *u2) || memcmp(v, v2, nv * sizeof *v2)) {
            fprintf(stderr, "rank %d: u's and v's corners are not those of "
                            "fpo_halo_fill_corners\n", rank);
            bad++;
        }
        for (size_t x = 0; x < nu; x++)
            if (isnan(u[x]) && bad++ < 5)
                fprintf(stderr, "rank %d: u[%zu] is NaN\n", rank, x);
        for (size_t x = 0; x < nv; x++)
            if (isnan(v[x]) && bad++ < 5)
                fprintf(stderr, "rank %d: v[%zu] is NaN\n", rank, x);
        free(u2);
        free(v2);
        /* The vector update: u in the south halo row and north of the shared north row, v in
         * the west halo column are the owner's components, turned into this rank's frame (some
         * across a turned tile edge). */
        int checked = 0;
        fpo_halo_point pt;
        for (int k = 0; k < NZ; k++) {
            for (int i = 0; i < d.nx; i++)
                if (fpo_halo_locate(&d, FPO_HALO_YFACE, i, -1, &pt)) {
                    double w = turned(pt, 0, k);
                    checked += pt.rot != 0;
                    if (UAT(i, -1, k) != w && bad++ < 5)
                        fprintf(stderr, "rank %d: u(%d, -1, %d) = %g, want %g (turn %d)\n", rank,
                                i, k, UAT(i, -1, k), w, pt.rot);
                }
            for (int i = 0; i < d.nx; i++)   /* north of the shared edge row ny */
                if (fpo_halo_locate(&d, FPO_HALO_YFACE, i, d.ny + 1, &pt)) {
                    double w = turned(pt, 0, k);
                    if (UAT(i, d.ny + 1, k) != w && bad++ < 5)
                        fprintf(stderr, "rank %d: u(%d, %d, %d) = %g, want %g (turn %d)\n",
                                rank, i, d.ny + 1, k, UAT(i, d.ny + 1, k), w, pt.rot);
                }
            for (int j = 0; j < d.ny; j++)
                if (fpo_halo_locate(&d, FPO_HALO_XFACE, -1, j, &pt)) {
                    double w = turned(pt, 1, k);
                    checked += pt.rot != 0;
                    if (VAT(-1, j, k) != w && bad++ < 5)
                        fprintf(stderr, "rank %d: v(-1, %d, %d) = %g, want %g (turn %d)\n", rank,
                                j, k, VAT(-1, j, k), w, pt.rot);
                }
        }
        /* halo_update(w, at: vertex): every halo vertex with an owner holds the owner's value
         * (across a tile edge too), the compute vertices stay; copy_corners(w, Y, at: vertex)
         * filled the cube corners' halo blocks as the halo library's fill does (a second fill
         * changes nothing, and no vertex is NaN); `around` read them. */
        int wseen = 0;
        for (int k = 0; k < NZ; k++)
            for (int j = -H; j < d.ny + 1 + H; j++)
                for (int i = -H; i < d.nx + 1 + H; i++) {
                    double want, got = WAT(w, i, j, k);
                    if (i >= 0 && i <= d.nx && j >= 0 && j <= d.ny)
                        want = wval(d.tile, d.i0 + i, d.j0 + j, k);
                    else if (fpo_halo_locate(&d, FPO_HALO_CORNER, i, j, &pt))
                        want = wval(pt.tile, pt.gi, pt.gj, k), wseen += pt.tile != d.tile;
                    else
                        want = got;   /* a cube corner's block: below */
                    if ((got != want || isnan(got)) && bad++ < 5)
                        fprintf(stderr, "rank %d: w(%d, %d, %d) = %g, want %g\n", rank, i, j, k,
                                got, want);
                }
        double *w2 = malloc(nw * sizeof *w2);
        memcpy(w2, w, nw * sizeof *w2);
        fpo_halo_field hw = fpo_halo_field_make(w2, FPO_HALO_F64, -H, d.nx + 1 + H, -H,
                                                d.ny + 1 + H, NZ);
        if (fpo_halo_copy_corners(&d, &hw, FPO_HALO_CORNER, H, FPO_HALO_FILL_Y, &herr) ||
            memcmp(w, w2, nw * sizeof *w2)) {
            fprintf(stderr, "rank %d: w's corners are not those of fpo_halo_copy_corners\n",
                    rank);
            bad++;
        }
        free(w2);
        for (int k = 0; k < NZ; k++)
            for (int j = 0; j <= d.ny; j++)
                for (int i = 0; i <= d.nx; i++) {
                    double want = WAT(w, i - 2, j, k) + 10.0 * WAT(w, i + 1, j + 1, k) +
                                  100.0 * WAT(w, i, j, k);
                    double got = WAT(ws, i, j, k);
                    if (got != want && bad++ < 5)
                        fprintf(stderr, "rank %d: ws(%d, %d, %d) = %g, want %g\n", rank, i, j,
                                k, got, want);
                }
        int any = 0;
        MPI_Allreduce(&wseen, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (!any) {
            fprintf(stderr, "rank %d: no vertex of w from another tile\n", rank);
            bad++;
        }
        MPI_Allreduce(&checked, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (!any) {
            fprintf(stderr, "rank %d: no wind halo point across a turned edge\n", rank);
            bad++;
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
        /* That run stopped with the updates started before the callback in flight: the next
         * run is refused, saying so, and close takes them back (fpo_halo_plan_destroy). */
        if (halo_stmts_run(p, 8, &err) == FPO_OK || !strstr(err.msg, "close the program")) {
            fprintf(stderr, "rank %d: a run after a stopped one gave: %s\n", rank, err.msg);
            bad++;
        }
    }
    int total = 0;
    MPI_Reduce(&bad, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("halo_stmts: %d ranks (layout %dx%d): %s\n", size, layout, layout,
               total ? "MISMATCH" : "halo statements and callback agree with the owners");
    halo_stmts_close(p);
    free_device(q, dq), free_device(r, dr), free_device(out, dout), free_device(c, dc);
    free_device(u, du), free_device(v, dv), free_device(w, dw), free_device(ws, dws);
    free(q), free(r), free(out), free(c), free(u), free(v), free(w), free(ws);
    fpo_halo_decomp_free(&d);
    MPI_Finalize();
    return total != 0;
}
