/* ppm.c: a line of cell values across a whole tile to FV3's upwind PPM interface fluxes
 * (xppm/yppm): interior 4th-order interface values, the one-sided and dxa-weighted values next
 * to the tile edges, and the unlimited, smoothness-switched or monotone sub-grid profiles. */
#include <math.h>
#include <stdlib.h>

#include "em.h"

/* Interface values: p1, p2 inside; c1..c3 one-sided next to an edge (cubed-sphere.md). */
static const double p1 = 7.0 / 12.0, p2 = -1.0 / 12.0;
static const double c1 = -2.0 / 14.0, c2 = 11.0 / 14.0, c3 = 5.0 / 14.0;
static const double s11 = 11.0 / 14.0, s14 = 4.0 / 7.0, s15 = 3.0 / 14.0, r3 = 1.0 / 3.0;

#define EM_PPM_MAXN 4096
#define Q(k) q[(ptrdiff_t)(k) * stride]
#define DXA(k) dxa[(ptrdiff_t)(k) * stride]
#define C(f) c[(ptrdiff_t)(f) * stride]
#define FLUX(f) flux[(ptrdiff_t)(f) * stride]

double em_ppm_edge_value(const double *q, const double *dxa, ptrdiff_t stride, int e) {
    double left = ((2.0 * DXA(e - 1) + DXA(e - 2)) * Q(e - 1) - DXA(e - 1) * Q(e - 2)) /
                  (DXA(e - 2) + DXA(e - 1));
    double right = ((2.0 * DXA(e) + DXA(e + 1)) * Q(e) - DXA(e) * Q(e + 1)) / (DXA(e) + DXA(e + 1));
    return 0.5 * (left + right);
}

static double sign_of(double a, double b) { return b >= 0 ? fabs(a) : -fabs(a); }
/* min and max as FPO's builtins compute them (so the FPO model can match bit for bit). */
static double mn(double a, double b) { return a < b ? a : b; }
static double mx(double a, double b) { return a > b ? a : b; }
static double min3(double a, double b, double c) { return mn(a, mn(b, c)); }
static double max3(double a, double b, double c) { return mx(a, mx(b, c)); }

/* FV3's standard PPM constraint on the cell's left and right perturbations. */
static void pert_ppm(double *bl, double *br) {
    if (*bl * *br < 0.0) {
        double da1 = *bl - *br, da2 = da1 * da1, a6da = 3.0 * (*bl + *br) * da1;
        if (a6da < -da2)
            *br = -2.0 * *bl;
        else if (a6da > da2)
            *bl = -2.0 * *br;
    } else {
        *bl = 0.0, *br = 0.0;
    }
}

/* Unlimited and smoothness-switched PPM: interface values al at faces -1..n+1. */
static void interfaces(const double *q, const double *dxa, ptrdiff_t stride, int n, double *al) {
    for (int f = 2; f <= n - 2; f++) al[f] = p1 * (Q(f - 1) + Q(f)) + p2 * (Q(f - 2) + Q(f + 1));
    al[-1] = c1 * Q(-3) + c2 * Q(-2) + c3 * Q(-1);
    al[0] = em_ppm_edge_value(q, dxa, stride, 0);
    al[1] = c3 * Q(0) + c2 * Q(1) + c1 * Q(2);
    al[n - 1] = c1 * Q(n - 3) + c2 * Q(n - 2) + c3 * Q(n - 1);
    al[n] = em_ppm_edge_value(q, dxa, stride, n);
    al[n + 1] = c3 * Q(n) + c2 * Q(n + 1) + c1 * Q(n + 2);
}

/* Monotone PPM (Lin 2004): perturbations bl, br of cells -1..n. */
static void monotone(const double *q, const double *dxa, ptrdiff_t stride, int n, double *dm,
                     double *al, double *bl, double *br) {
    for (int k = -2; k <= n + 1; k++) {
        double xt = 0.25 * (Q(k + 1) - Q(k - 1));
        dm[k] = sign_of(mn(fabs(xt), mn(max3(Q(k - 1), Q(k), Q(k + 1)) - Q(k),
                                            Q(k) - min3(Q(k - 1), Q(k), Q(k + 1)))),
                        xt);
    }
    for (int f = 2; f <= n - 2; f++) al[f] = 0.5 * (Q(f - 1) + Q(f)) + r3 * (dm[f - 1] - dm[f]);
    for (int k = 2; k <= n - 3; k++) {
        double xt = 2.0 * dm[k];
        bl[k] = -sign_of(mn(fabs(xt), fabs(al[k] - Q(k))), xt);
        br[k] = sign_of(mn(fabs(xt), fabs(al[k + 1] - Q(k))), xt);
    }
    /* west (south) edge: cells -1, 0, 1 */
    bl[-1] = s14 * dm[-2] + s11 * (Q(-2) - Q(-1));
    double xt = em_ppm_edge_value(q, dxa, stride, 0);
    xt = mx(xt, mn(mn(Q(-2), Q(-1)), mn(Q(0), Q(1))));
    xt = mn(xt, mx(mx(Q(-2), Q(-1)), mx(Q(0), Q(1))));
    br[-1] = xt - Q(-1);
    bl[0] = xt - Q(0);
    xt = s15 * Q(0) + s11 * Q(1) - s14 * dm[1];
    br[0] = xt - Q(0);
    bl[1] = xt - Q(1);
    br[1] = al[2] - Q(1);
    for (int k = -1; k <= 1; k++) pert_ppm(&bl[k], &br[k]);
    /* east (north) edge: cells n-2, n-1, n */
    bl[n - 2] = al[n - 2] - Q(n - 2);
    xt = s15 * Q(n - 1) + s11 * Q(n - 2) + s14 * dm[n - 2];
    br[n - 2] = xt - Q(n - 2);
    bl[n - 1] = xt - Q(n - 1);
    xt = em_ppm_edge_value(q, dxa, stride, n);
    xt = mx(xt, mn(mn(Q(n - 2), Q(n - 1)), mn(Q(n), Q(n + 1))));
    xt = mn(xt, mx(mx(Q(n - 2), Q(n - 1)), mx(Q(n), Q(n + 1))));
    br[n - 1] = xt - Q(n - 1);
    bl[n] = xt - Q(n);
    br[n] = s11 * (Q(n + 1) - Q(n)) - s14 * dm[n + 1];
    for (int k = n - 2; k <= n; k++) pert_ppm(&bl[k], &br[k]);
}

void em_ppm_line(const double *q, const double *dxa, const double *c, double *flux, int n,
                 ptrdiff_t stride, int ord) {
    /* scratch indexed from -3: the lines of a tile are short, so it lives on the stack */
    double abuf[EM_PPM_MAXN + 8], lbuf[EM_PPM_MAXN + 8], rbuf[EM_PPM_MAXN + 8],
        dbuf[EM_PPM_MAXN + 8];
    double *al = abuf + 3, *bl = lbuf + 3, *br = rbuf + 3, *dm = dbuf + 3;
    if (n < 6 || n > EM_PPM_MAXN) return;  /* callers check the tile size (em_tp_work_init) */
    if (ord == EM_PPM_MONO) {
        monotone(q, dxa, stride, n, dm, al, bl, br);
        for (int f = 0; f <= n; f++) {
            double cr = C(f);
            if (cr > 0.0)
                FLUX(f) = Q(f - 1) + (1.0 - cr) * (br[f - 1] - cr * (bl[f - 1] + br[f - 1]));
            else
                FLUX(f) = Q(f) + (1.0 + cr) * (bl[f] + cr * (bl[f] + br[f]));
        }
        return;
    }
    interfaces(q, dxa, stride, n, al);
    if (ord == EM_PPM_LINEAR) {
        for (int f = 0; f <= n; f++) {
            double cr = C(f);
            if (cr > 0.0) {
                double qt = Q(f - 1);
                FLUX(f) = qt + (1.0 - cr) * (al[f] - qt - cr * (al[f - 1] + al[f] - (qt + qt)));
            } else {
                double qt = Q(f);
                FLUX(f) = qt + (1.0 + cr) * (al[f] - qt + cr * (al[f] + al[f + 1] - (qt + qt)));
            }
        }
        return;
    }
    /* EM_PPM_SMOOTH: the high-order correction only next to smooth cells */
    for (int k = -1; k <= n; k++) {
        bl[k] = al[k] - Q(k);
        br[k] = al[k + 1] - Q(k);
        dm[k] = bl[k] + br[k];  /* b0 */
    }
    for (int f = 0; f <= n; f++) {
        double cr = C(f);
        int smooth = fabs(3.0 * dm[f - 1]) < fabs(bl[f - 1] - br[f - 1]) ||
                     fabs(3.0 * dm[f]) < fabs(bl[f] - br[f]);
        if (cr > 0.0)
            FLUX(f) = Q(f - 1) + (smooth ? (1.0 - cr) * (br[f - 1] - cr * dm[f - 1]) : 0.0);
        else
            FLUX(f) = Q(f) + (smooth ? (1.0 + cr) * (bl[f] + cr * dm[f]) : 0.0);
    }
}
