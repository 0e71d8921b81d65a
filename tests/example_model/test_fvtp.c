/* test_fvtp.c: the reference fv_tp_2d: copy_corners agrees with the metric corner rotation,
 * the halo copies agree with the geometry, and 12 days of test case 1 conserve mass, come back
 * close to the start, converge, and treat alpha = 0 and pi/2 alike. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "em.h"
#include "em_test.h"

static double **fields(const em_sphere *s) {
    double **q = calloc(6, sizeof *q);
    for (int t = 0; t < 6; t++) q[t] = calloc(em_grid_points(&s->g[t]), sizeof(double));
    return q;
}

static void free_fields(double **q) {
    for (int t = 0; t < 6; t++) free(q[t]);
    free(q);
}

static int corner_block(int n, int i, int j) { return (i < 0 || i >= n) && (j < 0 || j >= n); }

static void test_halos(void) {
    const int n = 12;
    em_sphere s;
    em_error err;
    CHECK(em_sphere_init(&s, n, EM_TP_HALO, &err) == 0, "%s", err.msg);
    double **q = fields(&s), **uc = fields(&s), **vc = fields(&s), **u2 = fields(&s), **v2 = fields(&s);
    int h = s.h;
    /* scalar halo copies against the geometric centres, corner copies against em_locate */
    double worst = 0;
    int corner_bad = 0;
    for (int t = 0; t < 6; t++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) q[t][EM_AT(&s.g[t], i, j)] = s.g[t].cxyz[3 * EM_AT(&s.g[t], i, j) + 2];
    em_sphere_fill_cells(&s, q);
    for (int t = 0; t < 6; t++) {
        const em_grid *g = &s.g[t];
        for (int j = -h; j < n + h; j++)
            for (int i = -h; i < n + h; i++)
                if (!corner_block(n, i, j)) worst = fmax(worst, fabs(q[t][EM_AT(g, i, j)] - g->cxyz[3 * EM_AT(g, i, j) + 2]));
        for (int dir = EM_XDIR; dir <= EM_YDIR; dir++) {
            em_copy_corners(g, q[t], dir);
            for (int j = -h; j < n + h; j++)
                for (int i = -h; i < n + h; i++) {
                    if (!corner_block(n, i, j)) continue;
                    em_map m = em_locate(n, t, i + 0.5, j + 0.5, dir);
                    double bx, by;
                    em_map_apply(&m, i + 0.5, j + 0.5, &bx, &by);
                    const em_grid *src = &s.g[m.tile];
                    double p[3] = {0, 0, src->cxyz[3 * EM_AT(src, (int)floor(bx), (int)floor(by)) + 2]};
                    double got = q[t][EM_AT(g, i, j)];
                    /* the metric corner blocks hold the XDir copies */
                    double want = dir == EM_XDIR ? g->cxyz[3 * EM_AT(g, i, j) + 2] : got;
                    if (got != p[2] || fabs(got - want) > 1e-15) {
                        if (corner_bad++ < 4)
                            fprintf(stderr, "tile %d dir %d corner cell (%d,%d): copy %g, rotation %g, metric %g\n", t,
                                    dir, i, j, got, p[2], want);
                    }
                }
        }
    }
    printf("cell halo copies: max difference from the geometric centres %.2e; %d corner mismatches\n", worst, corner_bad);
    CHECK(worst < 1e-15, "halo copies off by %g", worst);
    CHECK(corner_bad == 0, "%d corner cells disagree", corner_bad);
    /* face vector copies against the winds computed from psi in the halo */
    for (int t = 0; t < 6; t++) {
        double *psi = calloc(em_grid_points(&s.g[t]), sizeof *psi);
        em_tc1_psi_corners(&s.g[t], EM_PI / 4, psi);
        em_tc1_cgrid(&s.g[t], psi, uc[t], vc[t]);
        for (int j = 0; j <= n; j++)
            for (int i = 0; i <= n; i++) {
                size_t at = EM_AT(&s.g[t], i, j);
                if (j < n) u2[t][at] = uc[t][at];
                if (i < n) v2[t][at] = vc[t][at];
            }
        free(psi);
    }
    em_sphere_fill_faces(&s, u2, v2);
    double fworst = 0;
    int faces = 0;
    for (int t = 0; t < 6; t++)
        for (int j = -h; j <= n + h; j++)
            for (int i = -h; i <= n + h; i++) {
                size_t at = EM_AT(&s.g[t], i, j);
                if (j < n + h && !corner_block(n, i < 0 ? -1 : i > n ? n : 0, j)) {
                    fworst = fmax(fworst, fabs(u2[t][at] - uc[t][at])), faces++;
                }
                if (i < n + h && !corner_block(n, i, j < 0 ? -1 : j > n ? n : 0)) {
                    fworst = fmax(fworst, fabs(v2[t][at] - vc[t][at])), faces++;
                }
            }
    printf("face copies (alpha = pi/4): %d faces, max difference from the geometric winds %.2e m/s\n", faces, fworst);
    CHECK(fworst < 1e-9 * EM_U0, "face copies off by %g", fworst);
    free_fields(q), free_fields(uc), free_fields(vc), free_fields(u2), free_fields(v2);
    em_sphere_free(&s);
}

typedef struct run {
    em_norms e;
    double hmin, hmax;
} run;

/* 12 days of test case 1 at N with `steps` steps. */
static run tc1(int n, int steps, double alpha, int hord) {
    em_sphere s;
    em_error err;
    run r = {{0}, 0, 0};
    CHECK(em_sphere_init(&s, n, EM_TP_HALO, &err) == 0, "%s", err.msg);
    double dt = 12 * 86400.0 / steps;
    em_tp_winds w;
    CHECK(em_tp_winds_tc1(&s, alpha, dt, &w, &err) == 0, "%s", err.msg);
    em_tp_work wk[6];
    for (int t = 0; t < 6; t++) CHECK(em_tp_work_init(&s.g[t], &wk[t], &err) == 0, "%s", err.msg);
    double **q = fields(&s), **q0 = fields(&s);
    for (int t = 0; t < 6; t++) {
        em_tc1_h(&s.g[t], q[t]);
        memcpy(q0[t], q[t], em_grid_points(&s.g[t]) * sizeof(double));
    }
    for (int k = 0; k < steps; k++) em_tp_step(&s, q, &w, hord, wk);
    em_norm_acc acc;
    em_norm_acc_init(&acc);
    r.hmin = INFINITY, r.hmax = -INFINITY;
    for (int t = 0; t < 6; t++) {
        em_norm_acc_add(&acc, &s.g[t], q[t], q0[t], q0[t]);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                r.hmin = fmin(r.hmin, q[t][EM_AT(&s.g[t], i, j)]);
                r.hmax = fmax(r.hmax, q[t][EM_AT(&s.g[t], i, j)]);
            }
    }
    CHECK(em_norms_finish(&acc, &r.e, &err) == 0, "%s", err.msg);
    printf("N=%d hord=%d alpha=%.4f dt=%.0fs: l1 %.4e l2 %.4e linf %.4e mass %+.2e min %+.3e max %.2f\n", n, hord,
           alpha, dt, r.e.l1, r.e.l2, r.e.linf, r.e.mass, r.hmin, r.hmax);
    free_fields(q), free_fields(q0);
    for (int t = 0; t < 6; t++) em_tp_work_free(&wk[t]);
    em_tp_winds_free(&w);
    em_sphere_free(&s);
    return r;
}

static void test_tc1(void) {
    const double alphas[5] = {0.0, 0.05, EM_PI / 2 - 0.05, EM_PI / 2, EM_PI / 4};
    run r24[5], mono;
    for (int a = 0; a < 5; a++) {
        r24[a] = tc1(24, 144, alphas[a], EM_PPM_MONO);
        CHECK(fabs(r24[a].e.mass) < 1e-12, "mass drift %g", r24[a].e.mass);
        CHECK(r24[a].hmin > -1e-9 && r24[a].hmax <= 1000.0, "monotone scheme out of range: %g %g", r24[a].hmin, r24[a].hmax);
        CHECK(r24[a].e.l2 < 0.5, "l2 error %g", r24[a].e.l2);
    }
    double ratio = r24[0].e.l2 / r24[3].e.l2;
    printf("alpha = 0 vs pi/2 at N=24: l2 ratio %.4f\n", ratio);
    CHECK(ratio > 0.5 && ratio < 2.0, "alpha 0 and pi/2 differ: %g", ratio);
    mono = tc1(48, 288, EM_PI / 4, EM_PPM_MONO);
    printf("alpha = pi/4, monotone: l2 N=24 -> 48 falls by %.2f\n", r24[4].e.l2 / mono.e.l2);
    CHECK(mono.e.l2 < 0.7 * r24[4].e.l2, "no convergence: %g -> %g", r24[4].e.l2, mono.e.l2);
    CHECK(fabs(mono.e.mass) < 1e-12, "mass drift %g", mono.e.mass);
    run lin = tc1(24, 144, EM_PI / 4, EM_PPM_LINEAR), smt = tc1(24, 144, EM_PI / 4, EM_PPM_SMOOTH);
    CHECK(fabs(lin.e.mass) < 1e-12 && fabs(smt.e.mass) < 1e-12, "mass drift %g %g", lin.e.mass, smt.e.mass);
    CHECK(lin.hmin < -1e-3, "the unlimited scheme should undershoot: min %g", lin.hmin);
    CHECK(lin.e.l2 < 0.5 && smt.e.l2 < 0.5, "l2 errors %g %g", lin.e.l2, smt.e.l2);
}

int main(void) {
    test_halos();
    test_tc1();
    if (em_failures) fprintf(stderr, "%d checks failed\n", em_failures);
    return em_failures != 0;
}
