/* sw_reference_main.c: command line to a run of the plain-C shallow-water reference (FV3's
 * c_sw + d_sw on the six tiles of one process): h's error norms against the initial state
 * (test case 2), the invariants' drift, the fingerprint of h, u and v; or (-T) the table of
 * test case 2's convergence and test case 5's invariants in Markdown. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

#include "sw.h"

static void usage(void) {
    fprintf(stderr,
            "usage: fpo_sw_reference [-t 2|5|6|g|j] [-n N] [-a ALPHA] [-d DAYS] [-s STEPS]\n"
            "                        [-c COURANT] [-o HORD] [-k DDDMP] [-b D2_BG] [-r NORD]\n"
            "                        [-x D4_BG] [-e EVERY] [-f FILE.nc] [-q] [-T]\n"
            "  test case (2), N cells per tile edge (24), ALPHA radians (0), DAYS (5),\n"
            "  STEPS (from COURANT, 0.5: the gravity-wave Courant number), HORD 2, 6 or 8 (8),\n"
            "  DDDMP, D2_BG del-2 divergence damping (0.2, 0); NORD 0, or 1, 2, 3 for del-4, del-6,\n"
            "  del-8 damping too, coefficient (da_min_c D4_BG)^(NORD + 1), D4_BG 0.16; invariants\n"
            "  printed every EVERY steps (a tenth of the run); FILE: CF NetCDF of h, winds,\n"
            "  vorticity and the invariants at the start and at every print; -q: no time series\n"
            "  printed; -T: the table\n"
            "  (test case 2 at N = 24, 48, 96, alpha 0 and pi/4, 5 days; test case 5 at N = 48,\n"
            "  15 days)\n");
}

static uint64_t fingerprint(const em_sw_ref *r) {
    uint64_t x = 0;
    for (int t = 0; t < 6; t++) x += em_sw_fingerprint(&r->s->g[t], r->h[t], r->u[t], r->v[t]);
    return x;
}

static void invariants(const em_sw_ref *r, double out[EM_SW_NINV]) {
    em_xsum acc[EM_SW_NINV];
    for (int k = 0; k < EM_SW_NINV; k++) em_xsum_init(&acc[k]);
    for (int t = 0; t < 6; t++)
        em_sw_invariants_add(acc, &r->s->g[t], &r->m[t], r->h[t], r->u[t], r->v[t], r->hs[t], r->fc[t]);
    for (int k = 0; k < EM_SW_NINV; k++) out[k] = em_xsum_value(&acc[k]);
}

typedef struct sw_run {
    em_sw_case tc;
    int n, steps, every, hord, quiet;
    const char *path;           /* NetCDF output, or NULL */
    double days, courant;
    em_sw_param p;
    em_norms e;
    double drift[EM_SW_NINV];   /* relative change of the invariants at the end */
    uint64_t fp;
} sw_run;

/* The file's record of r's state at time t (s), its invariants inv. */
static int record(em_sw_nc *f, const em_sw_ref *r, double t, const double inv[EM_SW_NINV],
                  double *glob, double *work) {
    int n = r->s->n;
    size_t nc = 6 * (size_t)n * n, np = em_grid_points(&r->s->g[0]);
    double *fld[4] = {glob, glob + nc, glob + 2 * nc, glob + 3 * nc};
    for (int t6 = 0; t6 < 6; t6++) {
        const em_grid *g = &r->s->g[t6];
        em_sw_cell_fields(g, &r->m[t6], r->u[t6], r->v[t6], work, work + np, work + 2 * np);
        em_to_global(g, r->h[t6], fld[0]);
        for (int k = 0; k < 3; k++) em_to_global(g, work + k * np, fld[k + 1]);
    }
    em_error err;
    if (em_sw_nc_write(f, t, (const double *const *)fld, inv, &err)) {
        fprintf(stderr, "fpo_sw_reference: %s\n", err.msg);
        return 1;
    }
    return 0;
}

/* The file of run x: the grid (degrees), its title. */
static int open_file(em_sw_nc *f, const sw_run *x, double **glob, double **work, size_t np) {
    int n = x->n;
    size_t nc = 6 * (size_t)n * n, nv = 6 * ((size_t)n + 1) * ((size_t)n + 1);
    double *lon = malloc(nc * sizeof *lon), *lat = malloc(nc * sizeof *lat), *area = malloc(nc * sizeof *area),
           *lonb = malloc(nv * sizeof *lonb), *latb = malloc(nv * sizeof *latb);
    *glob = malloc(4 * nc * sizeof **glob), *work = calloc(3 * np, sizeof **work);
    em_error err;
    int bad = !lon || !lat || !area || !lonb || !latb || !*glob || !*work;
    if (!bad) bad = em_global_grid(n, lon, lat, area, lonb, latb, &err) != EM_OK;
    if (!bad) {
        for (size_t k = 0; k < nc; k++) lon[k] *= 180.0 / EM_PI, lat[k] *= 180.0 / EM_PI;
        char title[128];
        snprintf(title, sizeof title, "shallow-water test case %c, plain-C reference, N=%d",
                 x->tc.id < 10 ? '0' + x->tc.id : x->tc.id, n);
        bad = em_sw_nc_create(f, x->path, n, lon, lat, area, title, &err) != EM_OK;
    }
    if (bad) fprintf(stderr, "fpo_sw_reference: %s\n", lon && *work ? err.msg : "out of memory");
    free(lon), free(lat), free(area), free(lonb), free(latb);
    return bad;
}

/* One run: the initial state, the steps (the invariants every tenth of them unless quiet), the
 * norms of h against the initial state. */
static int run(sw_run *x) {
    em_sphere s;
    em_sw_ref r;
    em_error err;
    int n = x->n;
    if (em_sphere_init(&s, n, EM_TP_HALO, &err) || em_sw_ref_init(&r, &s, x->tc, &err)) {
        fprintf(stderr, "fpo_sw_reference: %s\n", err.msg);
        return 1;
    }
    /* dt: the gravity-wave Courant number on the shortest edge */
    double dmin = INFINITY;
    for (int t = 0; t < 6; t++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) dmin = fmin(dmin, s.g[t].dx[EM_AT(&s.g[t], i, j)]);
    int steps = x->steps;
    if (steps <= 0) steps = (int)ceil(x->days * 86400.0 * em_sw_wave_speed(x->tc) / (x->courant * dmin));
    x->steps = steps;
    x->p.dt = x->days * 86400.0 / steps;
    x->p.hord = x->hord;
    double inv0[EM_SW_NINV], inv[EM_SW_NINV], *h0t[6];
    for (int t = 0; t < 6; t++) {
        h0t[t] = malloc(em_grid_points(&s.g[t]) * sizeof(double));
        memcpy(h0t[t], r.h[t], em_grid_points(&s.g[t]) * sizeof(double));
    }
    invariants(&r, inv0);
    em_sw_nc f;
    double *glob = NULL, *work = NULL;
    int bad = 0;
    if (x->path && (open_file(&f, x, &glob, &work, em_grid_points(&s.g[0])) || record(&f, &r, 0.0, inv0, glob, work)))
        return 1;
    int every = x->every > 0 ? x->every : steps / 10 > 0 ? steps / 10 : 1;
    for (int k = 0; k < steps && !bad; k++) {
        em_sw_ref_step(&r, &x->p);
        if ((k + 1) % every == 0 || k + 1 == steps) {
            invariants(&r, inv);
            if (x->path) bad = record(&f, &r, (k + 1) * x->p.dt, inv, glob, work);
            for (int c = 0; c < EM_SW_NINV; c++) x->drift[c] = (inv[c] - inv0[c]) / inv0[c];
            if (!x->quiet)
                printf("day %7.3f  mass %+.3e  energy %+.3e  enstrophy %+.3e\n", (k + 1) * x->p.dt / 86400.0,
                       x->drift[0], x->drift[1], x->drift[2]);
            if (!isfinite(inv[1])) break;
        }
    }
    em_norm_acc acc;
    em_norm_acc_init(&acc);
    for (int t = 0; t < 6; t++) em_norm_acc_add(&acc, &s.g[t], r.h[t], h0t[t], h0t[t]);
    int st = em_norms_finish(&acc, &x->e, &err);
    if (st) fprintf(stderr, "fpo_sw_reference: %s\n", err.msg);
    x->fp = fingerprint(&r);
    if (x->path) {
        if (em_sw_nc_close(&f, &err)) fprintf(stderr, "fpo_sw_reference: %s\n", err.msg), st = 1;
        free(glob), free(work);
    }
    for (int t = 0; t < 6; t++) free(h0t[t]);
    em_sw_ref_free(&r);
    em_sphere_free(&s);
    return st != 0 || bad;
}

/* -T: test case 2's norms and observed orders, and test case 5's invariants, in Markdown. */
static int table(const sw_run *base) {
    static const int ns[3] = {24, 48, 96};
    static const double alphas[2] = {0.0, EM_PI / 4};
    printf("Test case 2, 5 days, h against the initial state (plain-C reference, hord %d, Courant %.2g, "
           "dddmp %.2g):\n\n", base->hord, base->courant, base->p.dddmp);
    printf("| alpha | N | steps | l1 | l2 | linf | l2 order |\n| --- | --- | --- | --- | --- | --- | --- |\n");
    for (int a = 0; a < 2; a++) {
        double prev = 0.0;
        for (int k = 0; k < 3; k++) {
            sw_run x = *base;
            x.tc = (em_sw_case){.id = 2, .alpha = alphas[a]};
            x.n = ns[k], x.days = 5.0, x.steps = 0, x.quiet = 1;
            if (run(&x)) return 1;
            char order[32] = "";
            if (k > 0) snprintf(order, sizeof order, "%.2f", log2(prev / x.e.l2));
            printf("| %s | %d | %d | %.3e | %.3e | %.3e | %s |\n", a ? "pi/4" : "0", x.n, x.steps, x.e.l1,
                   x.e.l2, x.e.linf, order);
            fflush(stdout);
            prev = x.e.l2;
        }
    }
    sw_run x = *base;
    x.tc = (em_sw_case){.id = 5};
    x.n = 48, x.days = 15.0, x.steps = 0, x.quiet = 1;
    if (run(&x)) return 1;
    printf("\nTest case 5, N = 48, 15 days (%d steps): relative change of total mass %+.2e, total energy "
           "%+.2e, potential enstrophy %+.2e\n", x.steps, x.drift[0], x.drift[1], x.drift[2]);
    return 0;
}

int main(int argc, char **argv) {
    sw_run x = {.tc = {.id = 2}, .n = 24, .hord = EM_PPM_MONO, .days = 5.0, .courant = 0.5,
                .p = {.dddmp = 0.2, .d2_bg = 0.0, .d4_bg = 0.16, .nord = 0}};
    int tab = 0;
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        if (a[0] == '-' && strlen(a) == 2 && (a[1] == 'T' || a[1] == 'q')) {
            if (a[1] == 'T') tab = 1;
            else x.quiet = 1;
            continue;
        }
        if (!v || a[0] != '-' || strlen(a) != 2) return usage(), 2;
        switch (a[1]) {
        case 't': x.tc.id = isdigit((unsigned char)v[0]) ? atoi(v) : v[0]; break;
        case 'n': x.n = atoi(v); break;
        case 'a': x.tc.alpha = atof(v); break;
        case 'd': x.days = atof(v); break;
        case 's': x.steps = atoi(v); break;
        case 'c': x.courant = atof(v); break;
        case 'o': x.hord = atoi(v); break;
        case 'k': x.p.dddmp = atof(v); break;
        case 'b': x.p.d2_bg = atof(v); break;
        case 'r': x.p.nord = atoi(v); break;
        case 'x': x.p.d4_bg = atof(v); break;
        case 'e': x.every = atoi(v); break;
        case 'f': x.path = v; break;
        default: return usage(), 2;
        }
        k++;
    }
    if (x.n < 6 || x.days <= 0 || x.courant <= 0 ||
        (x.hord != EM_PPM_LINEAR && x.hord != EM_PPM_SMOOTH && x.hord != EM_PPM_MONO) ||
        x.p.nord < 0 || x.p.nord > EM_SW_NORD_MAX)
        return usage(), 2;
    if (tab) return table(&x);
    if (run(&x)) return 1;
    printf("case %c N=%d alpha=%.4f steps=%d dt=%.1fs days=%g hord=%d: h l1 %.4e l2 %.4e linf %.4e "
           "mass %+.2e fingerprint %016llx\n", x.tc.id < 10 ? '0' + x.tc.id : x.tc.id, x.n, x.tc.alpha,
           x.steps, x.p.dt, x.days, x.hord, x.e.l1, x.e.l2, x.e.linf, x.e.mass, (unsigned long long)x.fp);
    return 0;
}
