/* bench.c: takes sizes (or --quick), prints the optimizer's figures for the chain step
 * (chain.fpo): time per step fused, unfused and hand-written; achieved bandwidth against a
 * STREAM triad run in the same process; memory of the fused and unfused forms; the call
 * overhead of an empty program; first call against steady state. Never fails on speed; fails
 * only when the three forms disagree (they must give the same bits). */
#include "chain_ref.h"
#include "chain_step.h"
#include "empty.h"
#include "hand.h"
#include "tp_ref.h"
#include "tp_step.h"
#ifdef FPO_BENCH_TP_HAND
#include "tp_hand.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int n) {
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return t[n / 2];
}

/* The best of n times: on a shared machine the least disturbed run. */
static double best(double *t, int n) {
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return t[0];
}

typedef struct Grid {
    int nx, ny, nz, h;
    size_t n;
    double *q, *u, *v, *delp, *out_f, *out_u, *out_h;
} Grid;

static double *field(Grid *g, int which) {
    double *a = malloc(g->n * sizeof *a);
    size_t x = 0;
    for (int k = 0; k < g->nz; k++)
        for (int j = -g->h; j < g->ny + g->h; j++)
            for (int i = -g->h; i < g->nx + g->h; i++, x++)
                a[x] = which == 0   ? 1.0 + 0.5 * ((i * 13 + j * 7 + k * 3) % 17) / 17.0
                       : which == 1 ? 0.3 * (((i + 2 * j + k) % 9) - 4) / 4.0
                       : which == 2 ? 0.2 * (((2 * i + j + 3 * k) % 7) - 3) / 3.0
                       : which == 3 ? 2.0 + 0.1 * ((i * 7 + j * 3 + k) % 5)
                                    : 0.0;
    return a;
}

static fpo_field fld(Grid *g, double *a) {
    return fpo_field_3d(a, FPO_F64, -g->h, g->nx + g->h, -g->h, g->ny + g->h, 0, g->nz);
}

/* STREAM triad a = b + s c over n doubles: best bandwidth of `reps`, in bytes per second. */
static double triad(size_t n, int reps) {
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (size_t x = 0; x < n; x++)
        a[x] = 0.0, b[x] = 1.0, c[x] = 2.0;
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
        for (size_t x = 0; x < n; x++)
            a[x] = b[x] + 3.0 * c[x];
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    volatile double sink = a[n / 2];
    (void)sink;
    free(a), free(b), free(c);
    return 3.0 * 8.0 * (double)n / best;
}

#ifdef FPO_BENCH_TP_HAND   /* the example model is built (its reference is the hand-written step) */
/* The example model's transport step (fvtp.fpo's tp_step) on one n x n tile of nz levels:
 * fused, unfused and by hand (tp_hand.c: the model's plain-C reference, level by level),
 * taking turns. Inputs are made-up fields in the model's layout, each point a hash of its
 * indices (noise: rougher than any real field, so the branches of the edge columns' selects,
 * fpo_pick_*, miss often here); the FPO forms get q with the corners copied as the model's
 * step copies them (qy: for the y-sweeps, q: then for the x-sweeps), which the reference
 * does itself. After one step from the same start the three must give the same bits; after
 * all steps fused and unfused must (the hand-written one then differs, since tp_step reads qy
 * as given while the reference copies q's corners anew). */
typedef struct tp_figures {
    double fused, unfused, hand;   /* best step, seconds */
    double fused_in, unfused_in;   /* ... on a rank inside its tile (no tile-edge code) */
    double fused_cached;           /* fused, whole tile, a level a thread from the caches,
                                      scaled to all levels: the arithmetic's own time */
    size_t mem_f, mem_u, mem_h;    /* temporaries, bytes */
    int bad_u, bad_h, bad_in;      /* outputs differ */
} tp_figures;

/* A made-up value in [0, 1) for point (i, j, k) of field `which`: a hash of the indices. */
static double noise(int i, int j, int k, int which) {
    unsigned x = (unsigned)(i + 7) * 73856093u ^ (unsigned)(j + 7) * 19349663u ^
                 (unsigned)(k + 1) * 83492791u ^ (unsigned)which * 2654435761u;
    return (double)(x % 1000) / 1000.0;
}

/* The same in [0, 1] from waves a few cells long: smooth, as a model's fields are at the grid
 * scale nearly everywhere (the tile-edge columns' branches are then predicted). */
static double smooth(int i, int j, int k, int which) {
    return 0.5 + 0.5 * sin(0.37 * i + 0.11 * which) * cos(0.23 * j + 0.05 * k + 0.3 * which);
}

/* `steps` steps of the fused and unfused forms (and the hand-written one, when given) taking
 * turns, so a busy machine slows each alike: each form's best step, seconds. */
static void tp_turns(tp_step *pf, tp_ref *pu, tp_hand *th, int steps, double best3[3]) {
    double *t = malloc(sizeof(double) * 3 * (size_t)steps);
    fpo_error err;
    for (int s = 0; s < steps; s++) {
        double t0 = now();
        tp_step_run(pf, &err);
        t[s] = now() - t0;
        t0 = now();
        tp_ref_run(pu, &err);
        t[steps + s] = now() - t0;
        t0 = now();
        if (th)
            tp_hand_step(th);
        t[2 * steps + s] = now() - t0;
    }
    for (int f = 0; f < 3; f++)
        best3[f] = best(t + f * steps, steps);
    free(t);
}

/* Best of `reps` runs of p over the first `levels` levels of q, each from q's values in
 * `start` (put back untimed), so the fields stay as made however often it runs. */
static double tp_cached(tp_step *p, double *q, const double *start, size_t bytes, int reps) {
    double b = 1e30;
    fpo_error err;
    for (int s = 0; s < reps; s++) {
        memcpy(q, start, bytes);
        double t0 = now();
        tp_step_run(p, &err);
        double t = now() - t0;
        b = t < b ? t : b;
    }
    return b;
}

static int bench_tp(int n, int nz, int steps, int threads, double (*value)(int, int, int, int),
                    tp_figures *r) {
    const int h = 4;   /* the FPO fields' halo (the hand-written layout has 3) */
    int64_t lo = -h, hi = n + h + 1;
    size_t plane = (size_t)(hi - lo) * (size_t)(hi - lo), n3 = plane * (size_t)nz;
    tp_hand th;
    if (tp_hand_open(&th, n, nz)) {
        fprintf(stderr, "bench: tp: out of memory\n");
        return 1;
    }
    const em_grid *g = &th.g;
    const int eh = EM_TP_HALO;
    /* Inputs of the hand-written form, over its whole layout. */
    for (int k = 0; k < nz; k++)
        for (int j = -eh; j < n + eh + 1; j++)
            for (int i = -eh; i < n + eh + 1; i++) {
                size_t at = (size_t)k * th.plane + EM_AT(g, i, j);
                th.q[at] = 1.0 + 0.5 * value(i, j, k, 0);
                th.crx[at] = 0.2 * (value(i, j, k, 1) - 0.5);   /* Courant numbers */
                th.cry[at] = 0.2 * (value(i, j, k, 2) - 0.5);
                th.xfx[at] = 0.1 * (value(i, j, k, 3) - 0.5);   /* volume fluxes */
                th.yfx[at] = 0.1 * (value(i, j, k, 4) - 0.5);
                if (k == 0) {
                    size_t a2 = EM_AT(g, i, j);
                    th.g.area[a2] = 1.0 + 0.01 * value(i, j, 0, 5);
                    th.g.rarea[a2] = 1.0 / th.g.area[a2];
                    th.g.dxa[a2] = 1.0 + 0.02 * value(i, j, 0, 6);
                    th.g.dya[a2] = 1.0 + 0.02 * value(i, j, 0, 7);
                }
            }
    /* The FPO forms' fields: the same values where both layouts have points (q and qy with
     * the corners copied), 1 on the outermost ring only they have. */
    double *f3[8], *f2[4], *ybuf = malloc(th.plane * sizeof(double)),
                          *xbuf = malloc(th.plane * sizeof(double));
    for (int a = 0; a < 8; a++)
        f3[a] = malloc(n3 * sizeof(double));
    for (int a = 0; a < 4; a++)
        f2[a] = malloc(plane * sizeof(double));
    const double *src3[6] = {NULL, NULL, th.crx, th.cry, th.xfx, th.yfx};
    const double *src2[4] = {th.g.area, th.g.rarea, th.g.dxa, th.g.dya};
    for (int k = 0; k < nz; k++) {
        memcpy(ybuf, th.q + (size_t)k * th.plane, th.plane * sizeof(double));
        em_copy_corners(g, ybuf, EM_YDIR);
        memcpy(xbuf, ybuf, th.plane * sizeof(double));
        em_copy_corners(g, xbuf, EM_XDIR);
        for (int64_t j = lo; j < hi; j++)
            for (int64_t i = lo; i < hi; i++) {
                size_t at = (size_t)k * plane + (size_t)(j - lo) * (size_t)(hi - lo) +
                            (size_t)(i - lo);
                int in = i >= -eh && i < n + eh + 1 && j >= -eh && j < n + eh + 1;
                size_t e = in ? EM_AT(g, i, j) : 0, e3 = (size_t)k * th.plane + e;
                f3[0][at] = f3[7][at] = in ? xbuf[e] : 1.0;   /* q (fused, unfused) */
                f3[1][at] = f3[6][at] = in ? ybuf[e] : 1.0;   /* qy */
                for (int a = 2; a < 6; a++)
                    f3[a][at] = in ? src3[a][e3] : 0.0;
                if (k == 0)
                    for (int a = 0; a < 4; a++)
                        f2[a][at - (size_t)k * plane] = in ? src2[a][e] : 1.0;
            }
    }
    fpo_field d3[8], d2[4];
    for (int a = 0; a < 8; a++)
        d3[a] = fpo_field_3d(f3[a], FPO_F64, lo, hi, lo, hi, 0, nz);
    for (int a = 0; a < 4; a++)
        d2[a] = fpo_field_2d(f2[a], FPO_F64, lo, hi, lo, hi);
    tp_step_fields ff = {d3[0], d3[1], d3[2], d3[3], d3[4], d3[5], d2[0], d2[1], d2[2], d2[3]};
    tp_ref_fields fu = {d3[7], d3[6], d3[2], d3[3], d3[4], d3[5], d2[0], d2[1], d2[2], d2[3]};
    fpo_domain dom = fpo_domain_local(n, n, nz);
    fpo_error err;
    tp_step *pf;
    tp_ref *pu;
    if (tp_step_open(&pf, &dom, &ff, &err) || tp_ref_open(&pu, &dom, &fu, &err)) {
        fprintf(stderr, "bench: tp: %s\n", err.msg);
        return 1;
    }
    /* One step each from the same start: the three agree bit for bit. */
    tp_step_run(pf, &err);
    tp_ref_run(pu, &err);
    tp_hand_step(&th);
    r->bad_h = 0;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                size_t at = (size_t)k * plane + (size_t)(j - lo) * (size_t)(hi - lo) +
                            (size_t)(i - lo);
                double x = f3[0][at], y = th.q[(size_t)k * th.plane + EM_AT(g, i, j)];
                r->bad_h += memcmp(&x, &y, sizeof x) != 0;
            }
    double t[3];
    tp_turns(pf, pu, &th, steps, t);
    r->fused = t[0], r->unfused = t[1], r->hand = t[2];
    fpo_memory m;
    tp_step_memory(pf, &m);
    r->mem_f = m.pool_bytes;
    tp_ref_memory(pu, &m);
    r->mem_u = m.pool_bytes;
    r->mem_h = tp_hand_bytes(&th);
    r->bad_u = memcmp(f3[0], f3[7], n3 * sizeof(double)) != 0;
    /* The same fields as the middle rank of a 3 x 3 layout: its variant runs no tile-edge
     * (region) code, as most ranks of a run on many ranks; fused and unfused take turns on it,
     * from the same q, and must again agree. */
    tp_step *pfi;
    tp_ref *pui;
    fpo_domain din = dom;
    din.i0 = din.j0 = n;
    din.tile_nx = din.tile_ny = 3 * n;
    if (tp_step_open(&pfi, &din, &ff, &err) || tp_ref_open(&pui, &din, &fu, &err)) {
        fprintf(stderr, "bench: tp: %s\n", err.msg);
        return 1;
    }
    tp_turns(pfi, pui, NULL, steps, t);
    r->fused_in = t[0], r->unfused_in = t[1];
    r->bad_in = memcmp(f3[0], f3[7], n3 * sizeof(double)) != 0;
    tp_step_close(pfi);
    tp_ref_close(pui);
    /* The arithmetic's own time: the whole tile on one level a thread (threads share the
     * levels out), whose fields (at n = 96 about 0.9 MB: a plane of 88 KB of each 3D field,
     * the 2D metrics, the temporaries' rows) stay in the thread's caches from run to run,
     * scaled to nz levels. */
    int levels = threads < nz ? threads : nz;
    din = dom;
    din.nz = levels;
    if (tp_step_open(&pfi, &din, &ff, &err)) {
        fprintf(stderr, "bench: tp: %s\n", err.msg);
        return 1;
    }
    size_t qbytes = (size_t)levels * plane * sizeof(double);
    double *start = malloc(qbytes);
    memcpy(start, f3[0], qbytes);
    r->fused_cached = tp_cached(pfi, f3[0], start, qbytes, 10 * steps) * nz / levels;
    free(start);
    tp_step_close(pfi);
    tp_step_close(pf);
    tp_ref_close(pu);
    tp_hand_close(&th);
    for (int a = 0; a < 8; a++)
        free(f3[a]);
    for (int a = 0; a < 4; a++)
        free(f2[a]);
    free(xbuf), free(ybuf);
    return r->bad_u || r->bad_h || r->bad_in;
}

#endif

#define CHECK(call)                                                                      \
    do {                                                                                 \
        if (call) {                                                                      \
            fprintf(stderr, "bench: %s: %s\n", #call, err.msg);                          \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

int main(int argc, char **argv) {
    bool quick = argc > 1 && !strcmp(argv[1], "--quick");
    Grid g = {quick ? 48 : 192, quick ? 48 : 192, quick ? 16 : 64, 2, 0, 0, 0, 0, 0, 0, 0, 0};
    int steps = quick ? 5 : 20;
    size_t stream_n = quick ? ((size_t)1 << 21) : ((size_t)1 << 24);
    g.n = (size_t)(g.nx + 2 * g.h) * (size_t)(g.ny + 2 * g.h) * (size_t)g.nz;
    g.q = field(&g, 0), g.u = field(&g, 1), g.v = field(&g, 2), g.delp = field(&g, 3);
    g.out_f = field(&g, 4), g.out_u = field(&g, 4), g.out_h = field(&g, 4);
    double t0;
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    const double dtdx = 0.3, kd = 0.05, kv = 0.2;
    fpo_error err;
    fpo_domain dom = fpo_domain_local(g.nx, g.ny, g.nz);

    /* Fused: open, first call, then steady state. */
    chain_step_fields ff = {fld(&g, g.q), fld(&g, g.u), fld(&g, g.v), fld(&g, g.delp),
                            fld(&g, g.out_f)};
    chain_step *pf;
    CHECK(chain_step_open(&pf, &dom, &ff, &err));
    /* First calls: each of nine fresh opens runs once, then three more times (the steady
     * state, under the same conditions); medians of both. */
    double firsts[9], seconds[27];
    for (int r = 0; r < 9; r++) {
        chain_step *p1;
        CHECK(chain_step_open(&p1, &dom, &ff, &err));
        t0 = now();
        CHECK(chain_step_run(p1, dtdx, kd, kv, &err));
        firsts[r] = now() - t0;
        for (int c = 0; c < 3; c++) {
            t0 = now();
            CHECK(chain_step_run(p1, dtdx, kd, kv, &err));
            seconds[3 * r + c] = now() - t0;
        }
        chain_step_close(p1);
    }
    double first = median(firsts, 9), steady = median(seconds, 27);
    CHECK(chain_step_run(pf, dtdx, kd, kv, &err));
    double *tf = malloc(sizeof(double) * (size_t)steps), *tu = malloc(sizeof(double) * (size_t)steps),
           *th = malloc(sizeof(double) * (size_t)steps);
    chain_ref_fields fu = {fld(&g, g.q), fld(&g, g.u), fld(&g, g.v), fld(&g, g.delp),
                           fld(&g, g.out_u)};
    chain_ref *pu;
    CHECK(chain_ref_open(&pu, &dom, &fu, &err));
    CHECK(chain_ref_run(pu, dtdx, kd, kv, &err));
    hand_grid hg = {g.nx, g.ny, g.nz, g.h};
    hand_work *hw = hand_open(&hg);
    hand_step(hw, g.q, g.u, g.v, g.delp, g.out_h, dtdx, kd, kv);
    /* The three forms take turns, so a busy machine slows each of them alike. */
    for (int s = 0; s < steps; s++) {
        t0 = now();
        CHECK(chain_step_run(pf, dtdx, kd, kv, &err));
        tf[s] = now() - t0;
        t0 = now();
        CHECK(chain_ref_run(pu, dtdx, kd, kv, &err));
        tu[s] = now() - t0;
        t0 = now();
        hand_step(hw, g.q, g.u, g.v, g.delp, g.out_h, dtdx, kd, kv);
        th[s] = now() - t0;
    }
    int same_u = !memcmp(g.out_f, g.out_u, g.n * sizeof(double));
    int same_h = !memcmp(g.out_f, g.out_h, g.n * sizeof(double));

    fpo_memory mf, mu;
    CHECK(chain_step_memory(pf, &mf));
    CHECK(chain_ref_memory(pu, &mu));

    /* The empty program: the cost of a call. */
    empty_fields ef = {fld(&g, g.q)};
    empty *pe;
    CHECK(empty_open(&pe, &dom, &ef, &err));
    int calls = quick ? 100000 : 2000000;
    t0 = now();
    for (int c = 0; c < calls; c++)
        CHECK(empty_run(pe, &err));
    double call = (now() - t0) / calls;

    double bw_stream = triad(stream_n, quick ? 5 : 10);
    double mf_t = best(tf, steps), mu_t = best(tu, steps), mh_t = best(th, steps);
    double points = (double)g.nx * g.ny * g.nz;
    /* What the fused schedule must move: 4 inputs read, q_out written, and each of its arrays
     * written once and read once. */
    double bytes = 8.0 * points * (5.0 + 2.0 * mf.arrays);

    printf("FPO benchmark: chain step (9 stencils, regions, tridiagonal solve), %d x %d x %d, "
           "%d threads, best of %d steps (forms taking turns)\n", g.nx, g.ny, g.nz, threads, steps);
    printf("| figure | value | goal |\n| --- | --- | --- |\n");
    printf("| time per step, fused | %.3f ms | |\n", 1e3 * mf_t);
    printf("| time per step, unfused | %.3f ms | |\n", 1e3 * mu_t);
    printf("| time per step, hand-written C | %.3f ms | |\n", 1e3 * mh_t);
    printf("| fused vs unfused (speed-up) | %.2fx | >= 2.5x |\n", mu_t / mf_t);
    printf("| fused vs hand-written (hand time / fused time) | %.2fx | >= 1.0x |\n", mh_t / mf_t);
    printf("| STREAM triad (same process) | %.2f GB/s | |\n", 1e-9 * bw_stream);
    printf("| fused achieved bandwidth (%.0f bytes/point) | %.2f GB/s = %.0f %% of triad | >= 70 %% |\n",
           bytes / points, 1e-9 * bytes / mf_t, 100.0 * bytes / mf_t / bw_stream);
    printf("| temporaries, fused (pool) | %.2f MB: %d arrays, %d planes and %d strips x %d threads, "
           "%d scalars | |\n", 1e-6 * (double)mf.pool_bytes, mf.arrays, mf.planes, mf.strips,
           mf.threads, mf.scalars);
    printf("| temporaries, unfused | %.2f MB: %d arrays | |\n", 1e-6 * (double)mu.pool_bytes,
           mu.arrays);
    printf("| hand-written work buffers | %.2f MB | |\n", 1e-6 * (double)hand_bytes(hw));
    printf("| call overhead, empty program | %.3f us | < 1 us |\n", 1e6 * call);
    printf("| first call after open vs the next three (fused, medians over 9 opens) | %.3f ms vs %.3f ms (%+.0f %%) | within 10 %% |\n",
           1e3 * first, 1e3 * steady, 100.0 * (first - steady) / steady);
    printf("| fused == unfused == hand-written, bit for bit | %s, %s | yes |\n",
           same_u ? "yes" : "NO", same_h ? "yes" : "NO");
    int tp_bad = 0;
#ifdef FPO_BENCH_TP_HAND
    tp_figures tp;
    int tp_n = quick ? 24 : 96, tp_nz = quick ? 8 : 64;
    tp_bad = bench_tp(tp_n, tp_nz, steps, threads, noise, &tp);
    /* What the step must move: q, qy, crx, cry, xfx, yfx read and q written (the 2D metrics
     * are a plane each), and each array temporary written and read once. */
    double tp_points = (double)tp_n * tp_n * tp_nz, tp_bytes = 8.0 * tp_points * 7.0;
    printf("| example model tp_step (fvtp.fpo, %d x %d x %d): fused / unfused | %.3f ms / %.3f ms "
           "= %.2fx | >= 2.5x |\n", tp_n, tp_n, tp_nz, 1e3 * tp.fused, 1e3 * tp.unfused,
           tp.unfused / tp.fused);
    printf("| example model tp_step, a rank inside its tile (no tile-edge code): fused / unfused | "
           "%.3f ms / %.3f ms = %.2fx | >= 2.5x |\n", 1e3 * tp.fused_in, 1e3 * tp.unfused_in,
           tp.unfused_in / tp.fused_in);
    printf("| example model tp_step: hand-written C (example_model/fvtp.c) / fused | %.3f ms / "
           "%.3f ms = %.2fx | >= 1.0x |\n", 1e3 * tp.hand, 1e3 * tp.fused, tp.hand / tp.fused);
    printf("| example model tp_step: fused achieved bandwidth (%.0f bytes/point) | %.2f GB/s = "
           "%.0f %% of triad | >= 70 %% |\n", tp_bytes / tp_points, 1e-9 * tp_bytes / tp.fused,
           100.0 * tp_bytes / tp.fused / bw_stream);
    /* Where the step stands between its two floors: moving its bytes at the triad's rate, and
     * its arithmetic alone (its fields in the caches). When the second is near the step's
     * time, the step is bound by arithmetic, and the bandwidth it reaches by what that allows. */
    printf("| example model tp_step: its arithmetic alone (a level a thread in the caches, x %d "
           "levels) / as run; its bytes at the triad's rate | %.3f ms / %.3f ms = %.0f %%; %.3f ms: "
           "arithmetic caps it at %.0f %% of triad | |\n", tp_nz, 1e3 * tp.fused_cached,
           1e3 * tp.fused, 100.0 * tp.fused_cached / tp.fused, 1e3 * tp_bytes / bw_stream,
           100.0 * tp_bytes / tp.fused_cached / bw_stream);
    printf("| example model tp_step: temporaries fused / unfused / hand-written | %.2f MB / %.2f "
           "MB / %.2f MB | |\n", 1e-6 * (double)tp.mem_f, 1e-6 * (double)tp.mem_u,
           1e-6 * (double)tp.mem_h);
    printf("| example model tp_step: fused == unfused == hand-written, bit for bit (inside the "
           "tile: fused == unfused) | %s, %s (%s) | yes |\n",
           tp.bad_u ? "NO" : "yes", tp.bad_h ? "NO" : "yes", tp.bad_in ? "NO" : "yes");
    /* The fields above are noise; the tile-edge columns branch (fpo_pick_*), which pays on
     * smooth fields and costs on noise: the same step on smooth ones. */
    tp_figures ts;
    tp_bad |= bench_tp(tp_n, tp_nz, steps, threads, smooth, &ts);
    printf("| example model tp_step on smooth fields (sin, cos): fused / unfused; inside a tile; "
           "arithmetic alone / as run | %.3f ms / %.3f ms = %.2fx; %.3f ms / %.3f ms = %.2fx; "
           "%.0f %% | >= 2.5x |\n", 1e3 * ts.fused, 1e3 * ts.unfused, ts.unfused / ts.fused,
           1e3 * ts.fused_in, 1e3 * ts.unfused_in, ts.unfused_in / ts.fused_in,
           100.0 * ts.fused_cached / ts.fused);
    printf("| example model tp_step on smooth fields: fused == unfused == hand-written, bit for "
           "bit (inside the tile: fused == unfused) | %s, %s (%s) | yes |\n",
           ts.bad_u ? "NO" : "yes", ts.bad_h ? "NO" : "yes", ts.bad_in ? "NO" : "yes");
#else
    printf("| example model tp_step | not measured: the example model is not built | |\n");
#endif
    chain_step_close(pf);
    chain_ref_close(pu);
    empty_close(pe);
    hand_close(hw);
    free(tf), free(tu), free(th);
    double *arrays[] = {g.q, g.u, g.v, g.delp, g.out_f, g.out_u, g.out_h};
    for (size_t a = 0; a < sizeof arrays / sizeof *arrays; a++)
        free(arrays[a]);
    return same_u && same_h && !tp_bad ? 0 : 1;
}
