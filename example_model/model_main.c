/* model_main.c: a command line and MPI ranks to a run of the FPO example model on Williamson
 * test case 1 (model/fvtp.fpo, model/winds.fpo): error norms per level on stdout, progress on
 * stderr, h in NetCDF; optionally the same run of the plain-C reference, compared bit for bit. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "em.h"
#include "fpo_halo.h"
#include "tp_step.h"
#include "tp_winds.h"

#ifndef EM_MODEL_HORD
#define EM_MODEL_HORD 8
#endif
enum { H = EM_TP_HALO };

/* The five alphas of test case 1; level k runs alpha k mod 5 unless -a fixes one. */
static const double tc1_alpha[5] = {0.0, 0.05, EM_PI / 2 - 0.05, EM_PI / 2, EM_PI / 4};

typedef struct opts {
    int n, nz, steps, level, check;
    double days, alpha;  /* alpha < -10: the five alphas by level */
    const char *path;
} opts;

/* One rank's state: its grid and every array, each level of the em_grid's padded shape. */
typedef struct model {
    fpo_halo_decomp d;
    em_grid g;
    int nz;
    size_t np;  /* points per level */
    double *alpha;
    double *q, *qy, *q0, *uc, *vc, *crx, *cry, *xfx, *yfx, *sg[4];
} model;

static double now(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void usage(void) {
    fprintf(stderr,
            "usage: fpo_example_model [-n N] [-z NZ] [-a ALPHA] [-d DAYS] [-s STEPS] [-f FILE.nc]\n"
            "                         [-k LEVEL] [-c]\n"
            "  run with 6 L^2 MPI ranks (layout L x L per tile); N cells per tile edge (24),\n"
            "  NZ levels (5: level k takes test case 1's alpha k mod 5 unless ALPHA is given),\n"
            "  DAYS (12), STEPS (6 N per 12 days), FILE: h of LEVEL (0) at start and end,\n"
            "  -c: also run the plain-C reference on rank 0 and compare h bit for bit\n");
}

static int parse(int argc, char **argv, opts *o) {
    *o = (opts){.n = 24, .nz = 5, .days = 12.0, .alpha = -100.0};
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        if (a[0] != '-' || strlen(a) != 2) return 0;
        if (a[1] == 'c') {
            o->check = 1;
            continue;
        }
        if (!v) return 0;
        switch (a[1]) {
        case 'n': o->n = atoi(v); break;
        case 'z': o->nz = atoi(v); break;
        case 'a': o->alpha = atof(v); break;
        case 'd': o->days = atof(v); break;
        case 's': o->steps = atoi(v); break;
        case 'f': o->path = v; break;
        case 'k': o->level = atoi(v); break;
        default: return 0;
        }
        k++;
    }
    if (o->steps == 0) o->steps = (int)ceil(6.0 * o->n * o->days / 12.0);
    return o->n >= 6 && o->nz >= 1 && o->steps >= 1 && o->days > 0 && o->level >= 0 &&
           o->level < o->nz;
}

/* A field of the model's arrays for FPO: every array covers the padded shape. */
static fpo_field fpo3(const model *m, void *data) {
    const em_grid *g = &m->g;
    fpo_field f = {.data = data, .dtype = FPO_F64, .axes = FPO_IJK,
                   .lo = {-H, -H, 0}, .hi = {g->nx + H + 1, g->ny + H + 1, m->nz},
                   .stride = {1, g->sx, (int64_t)m->np}};
    return f;
}

static fpo_field fpo2(const model *m, void *data, fpo_dtype dt) {
    const em_grid *g = &m->g;
    fpo_field f = {.data = data, .dtype = dt, .axes = FPO_IJ,
                   .lo = {-H, -H, 0}, .hi = {g->nx + H + 1, g->ny + H + 1, 1},
                   .stride = {1, g->sx, 0}};
    return f;
}

/* The same array for halo/: cells, x-faces (xs = 1) or y-faces (ys = 1). */
static fpo_halo_field hfield(const model *m, double *data, int xs, int ys) {
    const em_grid *g = &m->g;
    fpo_halo_field f = {.data = data, .dtype = FPO_HALO_F64,
                        .lo = {-H, -H, 0}, .hi = {g->nx + H + xs, g->ny + H + ys, m->nz},
                        .stride = {1, g->sx, (int64_t)m->np}};
    return f;
}

static int fail(const char *what, const char *msg) {
    fprintf(stderr, "fpo_example_model: %s: %s\n", what, msg);
    return 1;
}

static int model_init(model *m, const opts *o, int size) {
    fpo_halo_error herr;
    em_error err;
    int lay = (int)lround(sqrt(size / 6.0));
    if (size % 6 || lay * lay * 6 != size)
        return fail("ranks", "the run needs 6 L^2 MPI ranks (6, 24, 54, ...)");
    if (fpo_halo_decomp_create(&m->d, MPI_COMM_WORLD, o->n, lay, lay, &herr))
        return fail("decomposition", herr.msg);
    if (m->d.nx < H || m->d.ny < H) return fail("decomposition", "fewer cells per rank than the halo (3)");
    if (em_grid_init(&m->g, o->n, m->d.tile, m->d.i0, m->d.j0, m->d.nx, m->d.ny, H, &err))
        return fail("grid", err.msg);
    m->nz = o->nz;
    m->np = em_grid_points(&m->g);
    size_t n3 = m->np * (size_t)m->nz;
    double **a3[] = {&m->q, &m->qy, &m->q0, &m->uc, &m->vc, &m->crx, &m->cry, &m->xfx, &m->yfx};
    int ok = 1;
    for (size_t k = 0; k < sizeof a3 / sizeof *a3; k++)
        ok &= (*a3[k] = calloc(n3, sizeof(double))) != NULL;
    for (int k = 0; k < 4; k++) ok &= (m->sg[k] = calloc(m->np, sizeof(double))) != NULL;
    ok &= (m->alpha = calloc((size_t)m->nz, sizeof(double))) != NULL;
    if (!ok) return fail("memory", "out of memory");
    const em_grid *g = &m->g;
    for (int k = 0; k < 4; k++) em_sg_point(g, g->sin_sg, k + 1, m->sg[k]);
    for (int k = 0; k < m->nz; k++) {
        m->alpha[k] = o->alpha < -10.0 ? tc1_alpha[k % 5] : o->alpha;
        em_tc1_h(g, m->q + k * m->np);
    }
    memcpy(m->q0, m->q, n3 * sizeof(double));
    return 0;
}

static void model_free(model *m) {
    free(m->q), free(m->qy), free(m->q0), free(m->uc), free(m->vc), free(m->crx), free(m->cry);
    free(m->xfx), free(m->yfx), free(m->alpha);
    for (int k = 0; k < 4; k++) free(m->sg[k]);
    em_grid_free(&m->g);
    fpo_halo_decomp_free(&m->d);
}

static fpo_domain model_domain(const model *m) {
    const em_grid *g = &m->g;
    return (fpo_domain){g->nx, g->ny, m->nz, g->i0, g->j0, g->n, g->n, g->tile};
}

/* Courant numbers and volume fluxes (tp_winds) from the stream function's C-grid winds, then
 * the shared tile-edge faces and the halos from the neighbours, as the reference does. */
static int model_winds(model *m, double dt) {
    const em_grid *g = &m->g;
    double *psi = calloc(m->np, sizeof *psi);
    if (!psi) return fail("memory", "out of memory");
    for (int k = 0; k < m->nz; k++) {
        em_tc1_psi_corners(g, m->alpha[k], psi);
        em_tc1_cgrid(g, psi, m->uc + k * m->np, m->vc + k * m->np);
    }
    free(psi);
    tp_winds_fields f = {
        .uc = fpo3(m, m->uc), .vc = fpo3(m, m->vc), .rdxa = fpo2(m, g->rdxa, FPO_F64),
        .rdya = fpo2(m, g->rdya, FPO_F64), .dx = fpo2(m, g->dx, FPO_F64),
        .dy = fpo2(m, g->dy, FPO_F64), .sin_w = fpo2(m, m->sg[0], FPO_F64),
        .sin_s = fpo2(m, m->sg[1], FPO_F64), .sin_e = fpo2(m, m->sg[2], FPO_F64),
        .sin_n = fpo2(m, m->sg[3], FPO_F64), .crx = fpo3(m, m->crx), .cry = fpo3(m, m->cry),
        .xfx = fpo3(m, m->xfx), .yfx = fpo3(m, m->yfx)};
    fpo_domain dom = model_domain(m);
    fpo_error err;
    tp_winds *p;
    if (tp_winds_open(&p, &dom, &f, &err) || tp_winds_run(p, dt, &err)) {
        tp_winds_close(p);
        return fail("tp_winds", err.msg);
    }
    tp_winds_close(p);
    fpo_halo_item items[2] = {
        fpo_halo_vector(hfield(m, m->crx, 1, 0), hfield(m, m->cry, 0, 1), FPO_HALO_CGRID),
        fpo_halo_vector(hfield(m, m->xfx, 1, 0), hfield(m, m->yfx, 0, 1), FPO_HALO_CGRID)};
    fpo_halo_plan *edges = NULL, *halo = NULL;
    fpo_halo_error herr;
    int rc = fpo_halo_plan_create_edges(&edges, &m->d, 2, items, 0, &herr) ||
             fpo_halo_exchange(edges, &herr) ||
             fpo_halo_plan_create(&halo, &m->d, H, 2, items, 0, &herr) ||
             fpo_halo_exchange(halo, &herr);
    if (edges) fpo_halo_plan_destroy(edges);
    if (halo) fpo_halo_plan_destroy(halo);
    return rc ? fail("wind halos", herr.msg) : 0;
}

/* h of every level gathered on rank 0 into out (nz x 6 N N), or one level into out. */
static int gather(const model *m, const double *f, int level, double *out) {
    em_error err;
    size_t nc = 6 * (size_t)m->g.n * (size_t)m->g.n;
    for (int k = level < 0 ? 0 : level; k < (level < 0 ? m->nz : level + 1); k++)
        if (em_gather(&m->g, f + k * m->np, out + (level < 0 ? k : 0) * nc, 0, MPI_COMM_WORLD,
                      &err))
            return fail("gather", err.msg);
    return 0;
}

/* FNV-1a over the bytes of n doubles: a fingerprint of h to compare layouts and builds. */
static uint64_t fingerprint(const double *a, size_t n) {
    uint64_t x = 1469598103934665603ull;
    const unsigned char *b = (const unsigned char *)a;
    for (size_t k = 0; k < n * sizeof *a; k++) x = (x ^ b[k]) * 1099511628211ull;
    return x;
}

/* The plain-C reference (fvtp.c) on rank 0, level by level, against the gathered h. */
static int check_reference(const model *m, const opts *o, double dt, const double *hall) {
    em_sphere s;
    em_error err;
    int n = m->g.n, bad = 0;
    size_t nc = 6 * (size_t)n * (size_t)n;
    double *hg = malloc(nc * sizeof *hg), *q[6] = {0};
    em_tp_work wk[6] = {{0}};
    if (!hg || em_sphere_init(&s, n, H, &err)) return fail("reference", hg ? err.msg : "out of memory");
    for (int t = 0; t < 6; t++)
        if (!(q[t] = calloc(em_grid_points(&s.g[t]), sizeof(double))) ||
            em_tp_work_init(&s.g[t], &wk[t], &err))
            return fail("reference", q[t] ? err.msg : "out of memory");
    for (int k = 0; k < m->nz; k++) {
        em_tp_winds w;
        if (em_tp_winds_tc1(&s, m->alpha[k], dt, &w, &err)) return fail("reference", err.msg);
        for (int t = 0; t < 6; t++) em_tc1_h(&s.g[t], q[t]);
        for (int st = 0; st < o->steps; st++) em_tp_step(&s, q, &w, EM_MODEL_HORD, wk);
        em_tp_winds_free(&w);
        for (int t = 0; t < 6; t++) em_to_global(&s.g[t], q[t], hg);
        size_t ndiff = 0;
        double maxd = 0.0;
        for (size_t c = 0; c < nc; c++) {
            double a = hall[k * nc + c], b = hg[c];
            if (memcmp(&a, &b, sizeof a)) ndiff++;
            maxd = fmax(maxd, fabs(a - b));
        }
        printf("reference level %d alpha=%.4f: %zu of %zu cells differ, max |diff| %.3e\n", k,
               m->alpha[k], ndiff, nc, maxd);
        bad |= ndiff != 0;
    }
    for (int t = 0; t < 6; t++) free(q[t]), em_tp_work_free(&wk[t]);
    em_sphere_free(&s);
    free(hg);
    printf("reference: %s\n", bad ? "DIFFERENT" : "bit-identical");
    return bad;
}

/* The NetCDF file: the grid, and h of one level at the start and the end. */
static int write_nc(const model *m, const opts *o, int rank, const double *h_end, double t_end) {
    size_t nc = 6 * (size_t)o->n * (size_t)o->n, nv = 6 * (size_t)(o->n + 1) * (size_t)(o->n + 1);
    double *h = rank == 0 ? malloc(nc * sizeof *h) : NULL;
    int rc = 0;
    if (rank == 0 && !h) return fail("memory", "out of memory");
    for (int rec = 0; rec < 2 && !rc; rec++) {
        rc = gather(m, rec ? h_end : m->q0, o->level, h);
        if (rc || rank != 0) continue;
        static em_ncfile f;
        em_error err;
        if (rec == 0) {
            double *lon = malloc(nc * sizeof *lon), *lat = malloc(nc * sizeof *lat),
                   *area = malloc(nc * sizeof *area), *lonb = malloc(nv * sizeof *lonb),
                   *latb = malloc(nv * sizeof *latb);
            char title[160];
            snprintf(title, sizeof title,
                     "Williamson test case 1, FPO example model (fv_tp_2d, hord %d), N=%d, "
                     "level %d, alpha=%.4f", EM_MODEL_HORD, o->n, o->level, m->alpha[o->level]);
            rc = !lon || !lat || !area || !lonb || !latb;
            if (rc) fail("memory", "out of memory");
            else if ((rc = em_global_grid(o->n, lon, lat, area, lonb, latb, &err) ||
                           em_nc_create(&f, o->path, o->n, lon, lat, area, lonb, latb, title,
                                        &err)))
                fail("netcdf", err.msg);
            free(lon), free(lat), free(area), free(lonb), free(latb);
        }
        if (!rc && (em_nc_write_h(&f, rec ? t_end : 0.0, h, &err) ||
                    (rec == 1 && em_nc_close(&f, &err))))
            rc = fail("netcdf", err.msg);
    }
    free(h);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!rc && rank == 0) printf("wrote %s (h of level %d at day 0 and day %g)\n", o->path, o->level, t_end / 86400.0);
    return rc;
}

static int run(const opts *o, int rank, int size) {
    model m = {0};
    double dt = o->days * 86400.0 / o->steps;
    if (model_init(&m, o, size) || model_winds(&m, dt)) return 1;
    const em_grid *g = &m.g;
    tp_step_fields f = {
        .q = fpo3(&m, m.q), .qy = fpo3(&m, m.qy), .crx = fpo3(&m, m.crx),
        .cry = fpo3(&m, m.cry), .xfx = fpo3(&m, m.xfx), .yfx = fpo3(&m, m.yfx),
        .area = fpo2(&m, g->area, FPO_F64), .rarea = fpo2(&m, g->rarea, FPO_F64),
        .dxa = fpo2(&m, g->dxa, FPO_F64), .dya = fpo2(&m, g->dya, FPO_F64)};
    fpo_domain dom = model_domain(&m);
    fpo_error err;
    tp_step *p;
    if (tp_step_open(&p, &dom, &f, &err)) return fail("tp_step", err.msg);
    fpo_halo_field hq = hfield(&m, m.q, 0, 0), hqy = hfield(&m, m.qy, 0, 0);
    fpo_halo_item item = fpo_halo_scalar(hq, FPO_HALO_CENTER);
    fpo_halo_plan *plan;
    fpo_halo_error herr;
    if (fpo_halo_plan_create(&plan, &m.d, H, 1, &item, 0, &herr)) return fail("halo", herr.msg);
    if (rank == 0)
        printf("fpo_example_model: N=%d nz=%d ranks=%d (layout %dx%d, %dx%d cells each) hord=%d "
               "steps=%d dt=%.1fs days=%g\n", o->n, m.nz, size, m.d.layout_x, m.d.layout_y,
               g->nx, g->ny, EM_MODEL_HORD, o->steps, dt, o->days);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now(), next = t0 + 5.0;
    for (int s = 0; s < o->steps; s++) {
        /* halo_update(q); copy_corners(q, Y) into qy; copy_corners(q, X); then the program */
        if (fpo_halo_exchange(plan, &herr)) return fail("halo", herr.msg);
        memcpy(m.qy, m.q, m.np * (size_t)m.nz * sizeof(double));
        if (fpo_halo_copy_corners(&m.d, &hqy, FPO_HALO_CENTER, H, FPO_HALO_FILL_Y, &herr) ||
            fpo_halo_copy_corners(&m.d, &hq, FPO_HALO_CENTER, H, FPO_HALO_FILL_X, &herr))
            return fail("corners", herr.msg);
        if (tp_step_run(p, &err)) return fail("tp_step", err.msg);
        double t1 = now();
        if (rank == 0 && (t1 >= next || s + 1 == o->steps) && t1 - t0 > 5.0) {
            double el = t1 - t0;
            fprintf(stderr, "step %d/%d  day %.2f  elapsed %.1f s  ETA %.1f s\n", s + 1, o->steps,
                    (s + 1) * dt / 86400.0, el, el / (s + 1) * (o->steps - s - 1));
            next = t1 + 5.0;
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double elapsed = now() - t0, t_end = o->steps * dt;
    tp_step_close(p);
    fpo_halo_plan_destroy(plan);

    /* norms per level against the exact solution, exact sums over ranks */
    double *ht = malloc(m.np * sizeof *ht);
    if (!ht) return fail("memory", "out of memory");
    int rc = 0;
    for (int k = 0; k < m.nz && !rc; k++) {
        em_norm_acc acc;
        em_norms e;
        em_error eerr;
        em_norm_acc_init(&acc);
        em_tc1_h_exact(g, m.alpha[k], t_end, ht);
        em_norm_acc_add(&acc, g, m.q + k * m.np, ht, m.q0 + k * m.np);
        if (em_norm_acc_allreduce(&acc, MPI_COMM_WORLD, &eerr) || em_norms_finish(&acc, &e, &eerr))
            rc = fail("norms", eerr.msg);
        else if (rank == 0)
            printf("level %d alpha=%.4f: l1 %.4e l2 %.4e linf %.4e mass %+.2e\n", k, m.alpha[k],
                   e.l1, e.l2, e.linf, e.mass);
    }
    free(ht);
    if (rank == 0)
        printf("time per step %.3f ms (%d steps, %.2f s)\n", 1e3 * elapsed / o->steps, o->steps,
               elapsed);
    /* a fingerprint of h on every level (the layouts' and builds' bit-identity checks) */
    size_t nc = 6 * (size_t)o->n * (size_t)o->n;
    double *hall = rank == 0 ? malloc(nc * (size_t)m.nz * sizeof *hall) : NULL;
    if (!rc && rank == 0 && !hall) rc = fail("memory", "out of memory");
    if (!rc) rc = gather(&m, m.q, -1, hall);
    if (!rc && rank == 0) {
        printf("h fingerprint %016llx\n", (unsigned long long)fingerprint(hall, nc * (size_t)m.nz));
        if (o->check) rc = check_reference(&m, o, dt, hall);
    }
    free(hall);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!rc && o->path) rc = write_nc(&m, o, rank, m.q, t_end);
    model_free(&m);
    return rc;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, rc = 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    opts o;
    if (!parse(argc, argv, &o)) {
        if (rank == 0) usage();
    } else {
        rc = run(&o, rank, size);
    }
    MPI_Finalize();
    return rc;
}
