/* williamson.c: Williamson et al. (1992) test case 1 on an em_grid: the cosine bell at cell
 * centres, the stream function at vertices, and discretely non-divergent C- and D-grid winds
 * from its differences (FV3's test_cases signs). */
#include <math.h>

#include "em.h"

double em_tc1_bell(double lon, double lat) {
    const double lonc = 1.5 * EM_PI, latc = 0.0, r0 = EM_RADIUS / 3.0, h0 = 1000.0;
    double c = sin(latc) * sin(lat) + cos(latc) * cos(lat) * cos(lon - lonc);
    double r = EM_RADIUS * acos(fmax(-1.0, fmin(1.0, c)));
    return r < r0 ? 0.5 * h0 * (1.0 + cos(EM_PI * r / r0)) : 0.0;
}

/* The flow is a solid-body rotation u0 k x p about k = (-sin alpha, 0, cos alpha), and
 * psi = -a u0 (k . p). */
static void axis(double alpha, double k[3]) {
    k[0] = -sin(alpha);
    k[1] = 0.0;
    k[2] = cos(alpha);
}

static double psi_xyz(const double p[3], double alpha) {
    double k[3];
    axis(alpha, k);
    return -EM_RADIUS * EM_U0 * (k[0] * p[0] + k[1] * p[1] + k[2] * p[2]);
}

double em_tc1_psi(double lon, double lat, double alpha) {
    return -EM_RADIUS * EM_U0 * (sin(lat) * cos(alpha) - cos(lon) * cos(lat) * sin(alpha));
}

void em_tc1_wind(double lon, double lat, double alpha, double *u, double *v) {
    *u = EM_U0 * (cos(lat) * cos(alpha) + sin(lat) * cos(lon) * sin(alpha));
    *v = -EM_U0 * sin(lon) * sin(alpha);
}

void em_tc1_wind_xyz(const double p[3], double alpha, double w[3]) {
    double k[3];
    axis(alpha, k);
    w[0] = EM_U0 * (k[1] * p[2] - k[2] * p[1]);
    w[1] = EM_U0 * (k[2] * p[0] - k[0] * p[2]);
    w[2] = EM_U0 * (k[0] * p[1] - k[1] * p[0]);
}

double em_tc1_alpha(int k) {
    static const double alpha[5] = {0.0, 0.05, EM_PI / 2 - 0.05, EM_PI / 2, EM_PI / 4};
    return alpha[k % 5];
}

void em_tc1_h(const em_grid *g, double *h) {
    for (int j = -g->h; j < g->ny + g->h; j++)
        for (int i = -g->h; i < g->nx + g->h; i++) {
            size_t at = EM_AT(g, i, j);
            h[at] = em_tc1_bell(g->clon[at], g->clat[at]);
        }
}

void em_tc1_h_exact(const em_grid *g, double alpha, double t, double *h) {
    /* one revolution takes 12 days: turn the centres back by the angle the flow has turned */
    double rev = t / (12.0 * 86400.0), frac = rev - floor(rev);
    if (frac == 0.0) {
        em_tc1_h(g, h);
        return;
    }
    double k[3], th = -2.0 * EM_PI * frac, c = cos(th), s = sin(th);
    axis(alpha, k);
    for (int j = -g->h; j < g->ny + g->h; j++)
        for (int i = -g->h; i < g->nx + g->h; i++) {
            size_t at = EM_AT(g, i, j);
            const double *p = g->cxyz + 3 * at;
            double kp = k[0] * p[0] + k[1] * p[1] + k[2] * p[2];
            double kxp[3] = {k[1] * p[2] - k[2] * p[1], k[2] * p[0] - k[0] * p[2],
                             k[0] * p[1] - k[1] * p[0]};
            double r[3];
            for (int d = 0; d < 3; d++) r[d] = p[d] * c + kxp[d] * s + k[d] * kp * (1.0 - c);
            double lon = atan2(r[1], r[0]);
            h[at] = em_tc1_bell(lon < 0.0 ? lon + 2.0 * EM_PI : lon,
                                asin(fmax(-1.0, fmin(1.0, r[2]))));
        }
}

void em_tc1_psi_corners(const em_grid *g, double alpha, double *psi) {
    for (int j = -g->h; j <= g->ny + g->h; j++)
        for (int i = -g->h; i <= g->nx + g->h; i++) {
            size_t at = EM_AT(g, i, j);
            psi[at] = psi_xyz(g->xyz + 3 * at, alpha);
        }
}

void em_tc1_cgrid(const em_grid *g, const double *psi, double *uc, double *vc) {
    for (int j = -g->h; j <= g->ny + g->h; j++)
        for (int i = -g->h; i <= g->nx + g->h; i++) {
            size_t at = EM_AT(g, i, j);
            if (j < g->ny + g->h) uc[at] = -(psi[EM_AT(g, i, j + 1)] - psi[at]) / g->dy[at];
            if (i < g->nx + g->h) vc[at] = (psi[EM_AT(g, i + 1, j)] - psi[at]) / g->dx[at];
        }
}

void em_tc1_dgrid(const em_grid *g, double alpha, double *u, double *v) {
    int h = g->h;
#define EM_PSIC(i, j) psi_xyz(g->cxyz + 3 * EM_AT(g, i, j), alpha)
    for (int j = -h; j < g->ny + h; j++)
        for (int i = -h; i < g->nx + h; i++) {
            size_t at = EM_AT(g, i, j);
            if (j > -h) u[at] = -(EM_PSIC(i, j) - EM_PSIC(i, j - 1)) / g->dyc[at];
            if (i > -h) v[at] = (EM_PSIC(i, j) - EM_PSIC(i - 1, j)) / g->dxc[at];
        }
#undef EM_PSIC
}
