/* sw_reference_main.c: command line to a run of the plain-C shallow-water reference (FV3's
 * c_sw + d_sw on the six tiles of one process): h's error norms against the initial state
 * (test case 2), the invariants' drift, the fingerprint of h, u and v. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

#include "sw.h"

static void usage(void) {
    fprintf(stderr,
            "usage: fpo_sw_reference [-t 2|5|6|g|j] [-n N] [-a ALPHA] [-d DAYS] [-s STEPS]\n"
            "                        [-c COURANT] [-o HORD] [-k DDDMP] [-b D2_BG]\n"
            "  test case (2), N cells per tile edge (24), ALPHA radians (0), DAYS (5),\n"
            "  STEPS (from COURANT, 0.5: the gravity-wave Courant number), HORD 2, 6 or 8 (8),\n"
            "  DDDMP, D2_BG divergence damping (0.2, 0)\n");
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

int main(int argc, char **argv) {
    int n = 24, steps = 0, hord = EM_PPM_MONO;
    double alpha = 0.0, days = 5.0, courant = 0.5;
    em_sw_param p = {.dddmp = 0.2, .d2_bg = 0.0};
    em_sw_case tc = {.id = 2};
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        if (!v || a[0] != '-' || strlen(a) != 2) return usage(), 2;
        switch (a[1]) {
        case 't': tc.id = isdigit((unsigned char)v[0]) ? atoi(v) : v[0]; break;
        case 'n': n = atoi(v); break;
        case 'a': alpha = atof(v); break;
        case 'd': days = atof(v); break;
        case 's': steps = atoi(v); break;
        case 'c': courant = atof(v); break;
        case 'o': hord = atoi(v); break;
        case 'k': p.dddmp = atof(v); break;
        case 'b': p.d2_bg = atof(v); break;
        default: return usage(), 2;
        }
        k++;
    }
    tc.alpha = alpha;
    em_sphere s;
    em_sw_ref r;
    em_error err;
    if (n < 6 || days <= 0 || em_sphere_init(&s, n, EM_TP_HALO, &err)) {
        if (n >= 6) fprintf(stderr, "%s\n", err.msg);
        return usage(), 2;
    }
    if (em_sw_ref_init(&r, &s, tc, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    /* dt: the gravity-wave Courant number on the shortest edge */
    double dmin = INFINITY;
    for (int t = 0; t < 6; t++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) dmin = fmin(dmin, s.g[t].dx[EM_AT(&s.g[t], i, j)]);
    if (steps <= 0) steps = (int)ceil(days * 86400.0 * em_sw_wave_speed(tc) / (courant * dmin));
    p.dt = days * 86400.0 / steps;
    p.hord = hord;
    double inv0[EM_SW_NINV], inv[EM_SW_NINV], *h0t[6];
    for (int t = 0; t < 6; t++) {
        h0t[t] = malloc(em_grid_points(&s.g[t]) * sizeof(double));
        memcpy(h0t[t], r.h[t], em_grid_points(&s.g[t]) * sizeof(double));
    }
    invariants(&r, inv0);
    int every = steps / 10 > 0 ? steps / 10 : 1;
    for (int k = 0; k < steps; k++) {
        em_sw_ref_step(&r, &p);
        if ((k + 1) % every == 0 || k + 1 == steps) {
            invariants(&r, inv);
            printf("day %7.3f  mass %+.3e  energy %+.3e  enstrophy %+.3e\n", (k + 1) * p.dt / 86400.0,
                   (inv[0] - inv0[0]) / inv0[0], (inv[1] - inv0[1]) / inv0[1], (inv[2] - inv0[2]) / inv0[2]);
            if (!isfinite(inv[1])) break;
        }
    }
    em_norm_acc acc;
    em_norm_acc_init(&acc);
    for (int t = 0; t < 6; t++) em_norm_acc_add(&acc, &s.g[t], r.h[t], h0t[t], h0t[t]);
    em_norms e;
    if (em_norms_finish(&acc, &e, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    printf("case %c N=%d alpha=%.4f steps=%d dt=%.1fs days=%g hord=%d: h l1 %.4e l2 %.4e linf %.4e "
           "mass %+.2e fingerprint %016llx\n", tc.id < 10 ? '0' + tc.id : tc.id, n, alpha, steps, p.dt, days,
           hord, e.l1, e.l2, e.linf, e.mass, (unsigned long long)fingerprint(&r));
    for (int t = 0; t < 6; t++) free(h0t[t]);
    em_sw_ref_free(&r);
    em_sphere_free(&s);
    return 0;
}
