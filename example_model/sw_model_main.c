/* sw_model_main.c: command line and MPI ranks to a run of the FPO shallow-water model (program
 * sw_step, example_model/sw/step.fpo) on 6 L^2 ranks: the test case's initial state, the steps,
 * h's error norms against the initial state (test case 2), the invariants' drift as a time
 * series, the fingerprint of h, u and v, the same on every layout and in the reference, and
 * (-f) the reference's NetCDF file, the ranks' fields gathered to rank 0; on the C back end or
 * (-B cuda) the CUDA one, every field copied to device memory (device.h). */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device.h"
#include "fpo_halo.h"
#include "sw.h"
#include "sw_step.h"

enum { H = EM_TP_HALO, SW_FIELDS = 64 };

static void usage(void) {
    fprintf(stderr,
            "usage: fpo_sw_model [-t 2|5|6|g|j] [-n N] [-a ALPHA] [-d DAYS] [-s STEPS]\n"
            "                    [-c COURANT] [-k DDDMP] [-b D2_BG] [-e EVERY] [-f FILE.nc]\n"
            "                    [-r NORD] [-x D4_BG] [-B BACKEND]\n"
            "  test case (2), N cells per tile edge (24), ALPHA radians (0), DAYS (5),\n"
            "  STEPS (from COURANT, 0.5: the gravity-wave Courant number), DDDMP, D2_BG del-2\n"
            "  divergence damping (0.2, 0); NORD 0, or 1, 2, 3 for del-4, del-6, del-8 damping\n"
            "  too, coefficient (da_min_c D4_BG)^(NORD + 1), D4_BG 0.16; invariants printed every\n"
            "  EVERY steps (a tenth of the run);\n"
            "  FILE: CF NetCDF of h, winds, vorticity and the invariants at the start and at\n"
            "  every print, as fpo_sw_reference -f writes it; BACKEND: sw_step's back end, c or\n"
            "  cuda (FPO_BACKEND from the environment, else c)\n");
}

typedef struct sw_rank {
    fpo_halo_decomp d;
    em_grid g;
    em_sw_metric m;
    size_t np;
    double *h, *h0, *u, *v, *hs, *hsb, *fc, *fb;
    /* on the CUDA back end (on_device): each array the program takes and its device copy */
    int on_device, ndev;
    em_status dev_st;
    em_error dev_err;
    double *host[SW_FIELDS], *dev[SW_FIELDS];
} sw_rank;

/* The array the program sees for the host array data: itself, or on the CUDA back end its
 * device copy, made at the first call (a failure is kept in dev_st, dev_err). */
static double *seen(sw_rank *r, double *data) {
    if (!r->on_device || r->dev_st) return data;
    for (int k = 0; k < r->ndev; k++)
        if (r->host[k] == data) return r->dev[k];
    void *d = NULL;
    size_t bytes = r->np * sizeof(double);
    if (r->ndev == SW_FIELDS) {
        snprintf(r->dev_err.msg, sizeof r->dev_err.msg, "more than %d device arrays", SW_FIELDS);
        r->dev_st = EM_EINVAL;
    }
    if (!r->dev_st) r->dev_st = em_dev_alloc(&d, bytes, &r->dev_err);
    if (!r->dev_st) r->dev_st = em_dev_put(d, data, bytes, &r->dev_err);
    if (r->dev_st) {
        em_dev_free(d);
        return data;
    }
    r->host[r->ndev] = data;
    r->dev[r->ndev++] = d;
    return d;
}

static fpo_field f3(sw_rank *r, double *data) {
    const em_grid *g = &r->g;
    fpo_field f = {.data = seen(r, data), .dtype = FPO_F64, .axes = FPO_IJK,
                   .lo = {-H, -H, 0}, .hi = {g->nx + H + 1, g->ny + H + 1, 1},
                   .stride = {1, g->sx, (int64_t)r->np}};
    return r->on_device ? fpo_field_on_device(f) : f;
}

static fpo_field f2(sw_rank *r, double *data) {
    const em_grid *g = &r->g;
    fpo_field f = {.data = seen(r, data), .dtype = FPO_F64, .axes = FPO_IJ,
                   .lo = {-H, -H, 0}, .hi = {g->nx + H + 1, g->ny + H + 1, 1},
                   .stride = {1, g->sx, 0}};
    return r->on_device ? fpo_field_on_device(f) : f;
}

/* On the CUDA back end: wait for the queued steps and bring the state (h, u, v) to the host. */
static int fetch(sw_rank *r, sw_step *p, em_error *err) {
    fpo_error ferr;
    if (sw_step_wait(p, &ferr)) {
        snprintf(err->msg, sizeof err->msg, "sw_step: %s", ferr.msg);
        return 1;
    }
    double *state[3] = {r->h, r->u, r->v};
    for (int k = 0; k < 3 && r->on_device; k++)
        if (em_dev_get(state[k], seen(r, state[k]), r->np * sizeof(double), err)) return 1;
    return 0;
}

/* The program's fields on this rank's arrays (their device copies on the CUDA back end). */
static sw_step_fields fields(sw_rank *r) {
    em_grid *g = &r->g;
    em_sw_metric *m = &r->m;
    return (sw_step_fields){
        .h = f3(r, r->h), .u = f3(r, r->u), .v = f3(r, r->v), .hs = f2(r, r->hs),
        .hsb = f2(r, r->hsb), .fc = f2(r, r->fc), .fb = f2(r, r->fb), .area = f2(r, g->area),
        .rarea = f2(r, g->rarea), .dx = f2(r, g->dx), .dy = f2(r, g->dy), .rdx = f2(r, g->rdx),
        .rdy = f2(r, g->rdy), .dxa = f2(r, g->dxa), .dya = f2(r, g->dya),
        .rdxa = f2(r, g->rdxa), .rdya = f2(r, g->rdya), .dxc = f2(r, g->dxc),
        .dyc = f2(r, g->dyc), .rdxc = f2(r, g->rdxc), .rdyc = f2(r, g->rdyc),
        .cosa_s = f2(r, g->cosa_s), .rsin2 = f2(r, g->rsin2), .tx0 = f2(r, m->tx[0]),
        .tx1 = f2(r, m->tx[1]), .tx2 = f2(r, m->tx[2]), .ty0 = f2(r, m->ty[0]),
        .ty1 = f2(r, m->ty[1]), .ty2 = f2(r, m->ty[2]), .ex0 = f2(r, m->ex[0]),
        .ex1 = f2(r, m->ex[1]), .ex2 = f2(r, m->ex[2]), .ey0 = f2(r, m->ey[0]),
        .ey1 = f2(r, m->ey[1]), .ey2 = f2(r, m->ey[2]), .cu = f2(r, m->cu), .su = f2(r, m->su),
        .rsu = f2(r, m->rsu), .cv = f2(r, m->cv), .sv = f2(r, m->sv), .rsv = f2(r, m->rsv),
        .wcu = f2(r, m->wcu), .wpu = f2(r, m->wpu), .wmu = f2(r, m->wmu),
        .wcv = f2(r, m->wcv), .wpv = f2(r, m->wpv), .wmv = f2(r, m->wmv), .cb = f2(r, m->cb),
        .rsb = f2(r, m->rsb), .rarea_c = f2(r, m->rarea_c)};
}

/* Decomposition, grid, metrics and initial state of this rank (every rank returns alike). */
static int setup(sw_rank *r, MPI_Comm comm, int n, em_sw_case tc, em_error *err) {
    int size, lay = 1;
    fpo_halo_error herr;
    memset(r, 0, sizeof *r);
    MPI_Comm_size(comm, &size);
    while (6 * lay * lay < size) lay++;
    if (6 * lay * lay != size) {
        snprintf(err->msg, sizeof err->msg, "the model runs on 6 L^2 MPI ranks (6, 24, 54, ...)");
        return 1;
    }
    if (fpo_halo_decomp_create(&r->d, comm, n, lay, lay, &herr)) {
        snprintf(err->msg, sizeof err->msg, "decomposition: %s", herr.msg);
        return 1;
    }
    int bad = r->d.nx < H || r->d.ny < H;
    if (!bad) bad = em_grid_init(&r->g, n, r->d.tile, r->d.i0, r->d.j0, r->d.nx, r->d.ny, H, err) != EM_OK;
    if (!bad) bad = em_sw_metric_init(&r->g, &r->m, err) != EM_OK;
    if (!bad) {
        r->np = em_grid_points(&r->g);
        double **a[] = {&r->h, &r->h0, &r->u, &r->v, &r->hs, &r->hsb, &r->fc, &r->fb};
        for (size_t k = 0; k < sizeof a / sizeof *a; k++) bad |= !(*a[k] = calloc(r->np, sizeof(double)));
    }
    if (!bad) bad = em_sw_init(&r->g, tc, r->h, r->u, r->v, r->hs, r->hsb, r->fc, r->fb, err) != EM_OK;
    if (!bad) memcpy(r->h0, r->h, r->np * sizeof(double));
    int any;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, comm);
    if (any && !bad) snprintf(err->msg, sizeof err->msg, "setup failed on another rank");
    return any;
}

/* The invariants summed exactly over every rank. */
static void invariants(const sw_rank *r, double out[EM_SW_NINV]) {
    em_xsum acc[EM_SW_NINV];
    int64_t limbs[EM_SW_NINV][EM_XSUM_LIMBS], total[EM_SW_NINV][EM_XSUM_LIMBS];
    for (int k = 0; k < EM_SW_NINV; k++) em_xsum_init(&acc[k]);
    em_sw_invariants_add(acc, &r->g, &r->m, r->h, r->u, r->v, r->hs, r->fc);
    for (int k = 0; k < EM_SW_NINV; k++) {
        em_xsum_norm(&acc[k]);
        for (int l = 0; l < EM_XSUM_LIMBS; l++) limbs[k][l] = acc[k].limb[l];
    }
    MPI_Allreduce(limbs, total, EM_SW_NINV * EM_XSUM_LIMBS, MPI_INT64_T, MPI_SUM, r->d.comm);
    for (int k = 0; k < EM_SW_NINV; k++) {
        for (int l = 0; l < EM_XSUM_LIMBS; l++) acc[k].limb[l] = total[k][l];
        em_xsum_norm(&acc[k]);
        out[k] = em_xsum_value(&acc[k]);
    }
}

/* The NetCDF output (-f): the file and the four global fields on rank 0, the cell fields of
 * this rank (ue, vn, zeta: arrays of the grid's shape) on every rank. */
typedef struct sw_out {
    em_sw_nc f;
    double *glob, *work;
} sw_out;

/* Every rank learns whether rank 0 failed (st), with its message. */
static int share(int st, MPI_Comm comm, em_error *err) {
    MPI_Bcast(&st, 1, MPI_INT, 0, comm);
    if (st) MPI_Bcast(err->msg, sizeof err->msg, MPI_CHAR, 0, comm);
    return st;
}

/* Rank 0 creates path with the whole grid (degrees), as the reference does. */
static int out_open(sw_out *o, const sw_rank *r, em_sw_case tc, const char *path, em_error *err) {
    int n = r->g.n, me;
    size_t nc = 6 * (size_t)n * n, nv = 6 * ((size_t)n + 1) * ((size_t)n + 1);
    memset(o, 0, sizeof *o);
    MPI_Comm_rank(r->d.comm, &me);
    int bad = !(o->work = calloc(3 * r->np, sizeof *o->work));
    if (bad) snprintf(err->msg, sizeof err->msg, "out of memory");
    if (me == 0 && !bad) {
        double *lon = malloc(nc * sizeof *lon), *lat = malloc(nc * sizeof *lat),
               *area = malloc(nc * sizeof *area), *lonb = malloc(nv * sizeof *lonb),
               *latb = malloc(nv * sizeof *latb);
        o->glob = malloc(4 * nc * sizeof *o->glob);
        bad = !lon || !lat || !area || !lonb || !latb || !o->glob;
        if (bad) snprintf(err->msg, sizeof err->msg, "out of memory");
        if (!bad) bad = em_global_grid(n, lon, lat, area, lonb, latb, err) != EM_OK;
        if (!bad) {
            for (size_t k = 0; k < nc; k++) lon[k] *= 180.0 / EM_PI, lat[k] *= 180.0 / EM_PI;
            char title[128];
            snprintf(title, sizeof title, "shallow-water test case %c, FPO model (sw_step) on %d ranks, N=%d",
                     tc.id < 10 ? '0' + tc.id : tc.id, r->d.size, n);
            bad = em_sw_nc_create(&o->f, path, n, lon, lat, area, title, err) != EM_OK;
        }
        free(lon), free(lat), free(area), free(lonb), free(latb);
    }
    int any, zero = me == 0 && bad;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, r->d.comm);
    if (!any) return 0;
    if (!share(zero, r->d.comm, err)) snprintf(err->msg, sizeof err->msg, "out of memory on a rank");
    return 1;
}

/* A record at time t (s): h and the cell fields of every rank gathered to rank 0, which
 * writes them with the invariants inv. */
static int out_record(sw_out *o, const sw_rank *r, double t, const double inv[EM_SW_NINV],
                      em_error *err) {
    size_t nc = 6 * (size_t)r->g.n * r->g.n;
    const double *mine[4] = {r->h, o->work, o->work + r->np, o->work + 2 * r->np};
    em_sw_cell_fields(&r->g, &r->m, r->u, r->v, o->work, o->work + r->np, o->work + 2 * r->np);
    for (int k = 0; k < 4; k++)
        if (em_gather(&r->g, mine[k], o->glob ? o->glob + k * nc : NULL, 0, r->d.comm, err))
            return 1;  /* every rank fails alike */
    int st = 0;
    if (o->glob) {
        const double *fld[4] = {o->glob, o->glob + nc, o->glob + 2 * nc, o->glob + 3 * nc};
        st = em_sw_nc_write(&o->f, t, fld, inv, err) != EM_OK;
    }
    return share(st, r->d.comm, err);
}

static int out_close(sw_out *o, MPI_Comm comm, em_error *err) {
    int st = o->glob ? em_sw_nc_close(&o->f, err) != EM_OK : 0;
    free(o->glob), free(o->work);
    return share(st, comm, err);
}

static double now(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int n = 24, steps = 0, every = 0, me;
    const char *path = NULL, *backend = getenv("FPO_BACKEND");
    double alpha = 0.0, days = 5.0, courant = 0.5, dddmp = 0.2, d2_bg = 0.0, d4_bg = 0.16;
    int nord = 0;
    em_sw_case tc = {.id = 2};
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        if (!v || a[0] != '-' || strlen(a) != 2) {
            if (!me) usage();
            MPI_Finalize();
            return 2;
        }
        switch (a[1]) {
        case 't': tc.id = isdigit((unsigned char)v[0]) ? atoi(v) : v[0]; break;
        case 'n': n = atoi(v); break;
        case 'a': alpha = atof(v); break;
        case 'd': days = atof(v); break;
        case 's': steps = atoi(v); break;
        case 'c': courant = atof(v); break;
        case 'k': dddmp = atof(v); break;
        case 'b': d2_bg = atof(v); break;
        case 'e': every = atoi(v); break;
        case 'f': path = v; break;
        case 'B': backend = v; break;
        case 'r': nord = atoi(v); break;
        case 'x': d4_bg = atof(v); break;
        default:
            if (!me) usage();
            MPI_Finalize();
            return 2;
        }
        k++;
    }
    tc.alpha = alpha;
    sw_rank r;
    em_error err;
    int bad_args = n < 6 || days <= 0 || nord < 0 || nord > EM_SW_NORD_MAX;
    if (bad_args || setup(&r, MPI_COMM_WORLD, n, tc, &err)) {
        if (!me) bad_args ? usage() : (void)fprintf(stderr, "fpo_sw_model: %s\n", err.msg);
        MPI_Finalize();
        return 1;
    }
    /* dt as the reference chooses it: the gravity-wave Courant number on the shortest edge */
    double dmin = INFINITY, gmin, da;
    for (int j = 0; j < r.g.ny; j++)
        for (int i = 0; i < r.g.nx; i++) dmin = fmin(dmin, r.g.dx[EM_AT(&r.g, i, j)]);
    MPI_Allreduce(&dmin, &gmin, 1, MPI_DOUBLE, MPI_MIN, r.d.comm);
    MPI_Allreduce(&r.m.da_min_c, &da, 1, MPI_DOUBLE, MPI_MIN, r.d.comm);
    if (steps <= 0) steps = (int)ceil(days * 86400.0 * em_sw_wave_speed(tc) / (courant * gmin));
    double dt = days * 86400.0 / steps;
    if (every <= 0) every = steps / 10 > 0 ? steps / 10 : 1;

    /* on the CUDA back end every rank copies its arrays to device memory, or all stop */
    r.on_device = backend && !strcmp(backend, "cuda");
    char devices[160] = "";
    if (r.on_device) r.dev_st = em_dev_ready(r.d.comm, devices, sizeof devices, &r.dev_err);
    sw_step_fields f = fields(&r);
    int first = r.dev_st != EM_OK ? me : INT_MAX, any_bad;   /* the lowest failing rank says why */
    MPI_Allreduce(&first, &any_bad, 1, MPI_INT, MPI_MIN, r.d.comm);
    if (any_bad != INT_MAX) {
        if (any_bad == me) fprintf(stderr, "fpo_sw_model: rank %d: %s\n", me, r.dev_err.msg);
        MPI_Finalize();
        return 1;
    }
    fpo_domain dom = fpo_halo_domain(&r.d, 1);
    fpo_options opt = {.halo = &r.d, .backend = backend};
    fpo_error ferr;
    sw_step *p = NULL;
    int st = sw_step_open_with(&p, &dom, &f, &opt, &ferr);
    if (!st && !me) printf("backend: %s\n", sw_step_backend(p));
    if (!st && !me && r.on_device) printf("devices: %s\n", devices);
    double inv0[EM_SW_NINV], inv[EM_SW_NINV];
    invariants(&r, inv0);
    sw_out out;
    int bad = path && (out_open(&out, &r, tc, path, &err) || out_record(&out, &r, 0.0, inv0, &err));
    /* the time per step after the first (its setup, a CUDA graph's capture), from waiting for
     * it to the end, less the diagnostics and the output */
    double t0 = now(), elapsed = 0.0;
    int timed = steps;
    double dd8 = em_sw_dd8(da, d4_bg, nord);
    for (int k = 0; k < steps && !st && !bad; k++) {
        st = sw_step_run(p, dt, dddmp, d2_bg, da, nord, dd8, &ferr);
        if (!st && k == 0 && steps > 1 && !(st = sw_step_wait(p, &ferr))) t0 = now(), timed = steps - 1;
        if (!st && ((k + 1) % every == 0 || k + 1 == steps)) {
            if (fetch(&r, p, &err)) {
                if (!me) fprintf(stderr, "fpo_sw_model: %s\n", err.msg);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            double t1 = now();
            invariants(&r, inv);
            if (!me)
                printf("day %7.3f  mass %+.3e  energy %+.3e  enstrophy %+.3e\n", (k + 1) * dt / 86400.0,
                       (inv[0] - inv0[0]) / inv0[0], (inv[1] - inv0[1]) / inv0[1],
                       (inv[2] - inv0[2]) / inv0[2]);
            if (path) bad = out_record(&out, &r, (k + 1) * dt, inv, &err);
            elapsed -= now() - t1;
        }
    }
    elapsed += now() - t0;
    if (st) {
        if (!me) fprintf(stderr, "fpo_sw_model: sw_step: %s\n", ferr.msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (path && !bad) bad = out_close(&out, r.d.comm, &err);
    if (bad) {
        if (!me) fprintf(stderr, "fpo_sw_model: %s: %s\n", path, err.msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    em_norm_acc acc;
    em_norm_acc_init(&acc);
    em_norm_acc_add(&acc, &r.g, r.h, r.h0, r.h0);
    em_norms e;
    uint64_t fp = em_sw_fingerprint(&r.g, r.h, r.u, r.v), gfp;
    MPI_Allreduce(&fp, &gfp, 1, MPI_UINT64_T, MPI_SUM, r.d.comm);
    if (em_norm_acc_allreduce(&acc, r.d.comm, &err) || em_norms_finish(&acc, &e, &err)) {
        if (!me) fprintf(stderr, "fpo_sw_model: %s\n", err.msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (!me)
        printf("case %c N=%d alpha=%.4f steps=%d dt=%.1fs days=%g ranks=%d: h l1 %.4e l2 %.4e linf %.4e "
               "mass %+.2e fingerprint %016llx  (%.3f ms/step after the first)\n",
               tc.id < 10 ? '0' + tc.id : tc.id, n, alpha, steps, dt, days, r.d.size, e.l1, e.l2,
               e.linf, e.mass, (unsigned long long)gfp, 1e3 * elapsed / timed);
    sw_step_close(p);
    for (int k = 0; k < r.ndev; k++) em_dev_free(r.dev[k]);
    double **a[] = {&r.h, &r.h0, &r.u, &r.v, &r.hs, &r.hsb, &r.fc, &r.fb};
    for (size_t k = 0; k < sizeof a / sizeof *a; k++) free(*a[k]);
    em_sw_metric_free(&r.m);
    em_grid_free(&r.g);
    fpo_halo_decomp_free(&r.d);
    MPI_Finalize();
    return 0;
}
