/* swgrid.c: an em_grid to the shallow-water scheme's metric terms (unit directions, the
 * angles of the centre-to-centre geodesics at faces, dual cell areas), and the test cases'
 * initial states: Williamson 2, 5, 6 and the Galewsky jet, with their Coriolis parameter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sw.h"

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* d with its component along the unit vector p removed, normalised (zero stays zero: the
 * geodesic between two centres that a cube corner's halo block makes one). */
static void tangent_unit(const double *p, double d[3]) {
    double k = dot3(d, p);
    for (int c = 0; c < 3; c++) d[c] -= k * p[c];
    double r = sqrt(dot3(d, d));
    for (int c = 0; c < 3; c++) d[c] = r > 0.0 ? d[c] / r : 0.0;
}

/* Spherical excess of the triangle a, b, c (unit vectors; Oosterom-Strackee). */
static double excess(const double *a, const double *b, const double *c) {
    double bxc[3] = {b[1] * c[2] - b[2] * c[1], b[2] * c[0] - b[0] * c[2], b[0] * c[1] - b[1] * c[0]};
    return 2.0 * atan2(fabs(dot3(a, bxc)), 1.0 + dot3(a, b) + dot3(b, c) + dot3(c, a));
}

void em_sw_metric_free(em_sw_metric *m) {
    double **a[] = {&m->tx[0], &m->tx[1], &m->tx[2], &m->ty[0], &m->ty[1], &m->ty[2],
                    &m->ex[0], &m->ex[1], &m->ex[2], &m->cu, &m->su, &m->rsu,
                    &m->ey[0], &m->ey[1], &m->ey[2], &m->cv, &m->sv, &m->rsv,
                    &m->cb, &m->rsb, &m->rarea_c, &m->wcu, &m->wpu, &m->wmu, &m->wcv, &m->wpv, &m->wmv};
    for (size_t k = 0; k < sizeof a / sizeof *a; k++) free(*a[k]), *a[k] = NULL;
}

/* A face's geodesic direction e from centre c0 to c1 and its angle to the edge from vertex
 * v0 to v1: e, cos, sin, 1 / sin^2. */
static void face_angle(const double *c0, const double *c1, const double *v0, const double *v1,
                       double *e[3], double *cs, double *sn, double *rs, size_t at) {
    double p[3], d[3], t[3];
    for (int c = 0; c < 3; c++) p[c] = v0[c] + v1[c], d[c] = c1[c] - c0[c], t[c] = v1[c] - v0[c];
    double r = sqrt(dot3(p, p));
    for (int c = 0; c < 3; c++) p[c] /= r;
    tangent_unit(p, d);
    tangent_unit(p, t);
    for (int c = 0; c < 3; c++) e[c][at] = d[c];
    double k = dot3(t, d);
    cs[at] = k;
    sn[at] = sqrt(fmax(0.0, 1.0 - k * k));
    rs[at] = 1.0 / (sn[at] * sn[at]);
}

/* Along-edge position of the midpoint of centres c0, c1 from the point pf, direction t. */
static double along(const double *c0, const double *c1, const double *pf, const double *t) {
    double m[3];
    for (int c = 0; c < 3; c++) m[c] = c0[c] + c1[c];
    double r = sqrt(dot3(m, m));
    for (int c = 0; c < 3; c++) m[c] = m[c] / r - pf[c];
    return dot3(m, t);
}

/* The weights wc, wp, wm of the faces on the tile's edges (1, 0, 0 elsewhere): linear
 * interpolation along the edge to the face's midpoint from the centres' midpoints of the face
 * and its neighbours (one-sided next to a cube corner). */
static void edge_weights(const em_grid *g, em_sw_metric *m) {
    int h = g->h, n = g->n;
    size_t np = em_grid_points(g);
    for (size_t at = 0; at < np; at++) m->wcu[at] = m->wcv[at] = 1.0;
#define XYZ(i, j) (g->xyz + 3 * EM_AT(g, i, j))
#define CXYZ(i, j) (g->cxyz + 3 * EM_AT(g, i, j))
    for (int side = 0; side < 2; side++)      /* 0: x-faces on x = 0, N; 1: y-faces on y = 0, N */
        for (int e = 0; e <= n; e += n)       /* the tile's line x (or y) = e */
            for (int k = 0; k < n; k++) {     /* the face's position along it */
                int li = side == 0 ? e - g->i0 : k - g->i0, lj = side == 0 ? k - g->j0 : e - g->j0;
                if (li < -h + 2 || lj < -h + 2 || li > g->nx + h - 2 || lj > g->ny + h - 2) continue;
                int di = side == 0 ? 0 : 1, dj = side == 0 ? 1 : 0;   /* along the edge */
                int ci = side == 0 ? 1 : 0, cj = side == 0 ? 0 : 1;   /* across it */
                double pf[3], t[3], s[3];
                for (int c = 0; c < 3; c++) {
                    pf[c] = XYZ(li, lj)[c] + XYZ(li + di, lj + dj)[c];
                    t[c] = XYZ(li + di, lj + dj)[c] - XYZ(li, lj)[c];
                }
                double r = sqrt(dot3(pf, pf));
                for (int c = 0; c < 3; c++) pf[c] /= r;
                tangent_unit(pf, t);
                for (int q = -1; q <= 1; q++) {
                    int a = li + q * di, b = lj + q * dj;
                    s[q + 1] = along(CXYZ(a - ci, b - cj), CXYZ(a, b), pf, t);
                }
                double wc = 1.0, wp = 0.0, wm = 0.0;
                if (k == 0) {
                    wp = -s[1] / (s[2] - s[1]), wc = 1.0 - wp;
                } else if (k == n - 1) {
                    wm = s[1] / (s[1] - s[0]), wc = 1.0 - wm;
                } else {
                    wp = -s[1] / (s[2] - s[0]), wm = -wp;
                }
                size_t at = EM_AT(g, li, lj);
                double *dc = side == 0 ? m->wcu : m->wcv, *dp = side == 0 ? m->wpu : m->wpv,
                       *dm = side == 0 ? m->wmu : m->wmv;
                dc[at] = wc, dp[at] = wp, dm[at] = wm;
            }
#undef XYZ
#undef CXYZ
}

/* The centre of cell (i, j) as the y-faces see it: in a cube corner's halo block the copy
 * that FV3's copy_corners makes before a sweep in y (em_grid's cxyz holds the x one there). */
static const double *ydir_centre(const em_grid *g, int i, int j) {
    int n = g->n, gi = g->i0 + i, gj = g->j0 + j, si = gi, sj = gj;
    int lo_i = gi < 0, hi_i = gi >= n, lo_j = gj < 0, hi_j = gj >= n;
    if (lo_i && lo_j) si = -1 - gj, sj = gi;
    else if (hi_i && lo_j) si = n + gj, sj = n - 1 - gi;
    else if (hi_i && hi_j) si = 2 * n - 1 - gj, sj = gi;
    else if (lo_i && hi_j) si = gj - n, sj = n - 1 - gi;
    return g->cxyz + 3 * EM_AT(g, si - g->i0, sj - g->j0);
}

em_status em_sw_metric_init(const em_grid *g, em_sw_metric *m, em_error *err) {
    memset(m, 0, sizeof *m);
    size_t np = em_grid_points(g);
    double **a[] = {&m->tx[0], &m->tx[1], &m->tx[2], &m->ty[0], &m->ty[1], &m->ty[2],
                    &m->ex[0], &m->ex[1], &m->ex[2], &m->cu, &m->su, &m->rsu,
                    &m->ey[0], &m->ey[1], &m->ey[2], &m->cv, &m->sv, &m->rsv,
                    &m->cb, &m->rsb, &m->rarea_c, &m->wcu, &m->wpu, &m->wmu, &m->wcv, &m->wpv, &m->wmv};
    int ok = 1;
    for (size_t k = 0; k < sizeof a / sizeof *a; k++) ok &= (*a[k] = calloc(np, sizeof(double))) != NULL;
    if (!ok) {
        em_sw_metric_free(m);
        snprintf(err->msg, sizeof err->msg, "em_sw_metric_init: out of memory");
        return EM_ENOMEM;
    }
    int h = g->h, n = g->n;
    double r2 = g->radius * g->radius;
    m->da_min_c = INFINITY;
#define XYZ(i, j) (g->xyz + 3 * EM_AT(g, i, j))
#define CXYZ(i, j) (g->cxyz + 3 * EM_AT(g, i, j))
    for (int j = -h; j <= g->ny + h; j++)
        for (int i = -h; i <= g->nx + h; i++) {
            size_t at = EM_AT(g, i, j);
            if (i < g->nx + h && j < g->ny + h) {  /* cell: midpoints of opposite edges */
                const double *p = CXYZ(i, j);
                double dx[3], dy[3];
                for (int c = 0; c < 3; c++) {
                    dx[c] = (XYZ(i + 1, j)[c] + XYZ(i + 1, j + 1)[c]) - (XYZ(i, j)[c] + XYZ(i, j + 1)[c]);
                    dy[c] = (XYZ(i, j + 1)[c] + XYZ(i + 1, j + 1)[c]) - (XYZ(i, j)[c] + XYZ(i + 1, j)[c]);
                }
                tangent_unit(p, dx);
                tangent_unit(p, dy);
                for (int c = 0; c < 3; c++) m->tx[c][at] = dx[c], m->ty[c][at] = dy[c];
            }
            if (i > -h && j < g->ny + h)  /* x-face */
                face_angle(CXYZ(i - 1, j), CXYZ(i, j), XYZ(i, j), XYZ(i, j + 1), m->ex, m->cu,
                           m->su, m->rsu, at);
            if (j > -h && i < g->nx + h)  /* y-face */
                face_angle(ydir_centre(g, i, j - 1), ydir_centre(g, i, j), XYZ(i, j), XYZ(i + 1, j),
                           m->ey, m->cv, m->sv, m->rsv, at);
            if (i > -h && j > -h && i < g->nx + h && j < g->ny + h) {  /* vertex */
                int gi = g->i0 + i, gj = g->j0 + j;
                if (gi <= 0 || gi >= n || gj <= 0 || gj >= n) {
                    m->cb[at] = 0.0, m->rsb[at] = 1.0;
                } else {
                    double s = g->sin_sg[9 * at + 5];
                    m->cb[at] = g->cos_sg[9 * at + 5], m->rsb[at] = 1.0 / (s * s);
                }
                double da = r2 * (excess(CXYZ(i - 1, j - 1), CXYZ(i, j - 1), CXYZ(i, j)) +
                                  excess(CXYZ(i - 1, j - 1), CXYZ(i, j), CXYZ(i - 1, j)));
                m->rarea_c[at] = 1.0 / da;
                if (i >= 0 && j >= 0 && i <= g->nx && j <= g->ny && da < m->da_min_c) m->da_min_c = da;
            }
        }
    edge_weights(g, m);
#undef XYZ
#undef CXYZ
    return EM_OK;
}

/* ---- test cases ---------------------------------------------------------------------------- */

enum { GAL_N = 20000 };
static const double gal_umax = 80.0, gal_h0 = 10000.0;

static double gal_u(double lat) {
    const double th0 = EM_PI / 7.0, th1 = EM_PI / 2.0 - EM_PI / 7.0;
    if (lat <= th0 || lat >= th1) return 0.0;
    double en = exp(-4.0 / ((th1 - th0) * (th1 - th0)));
    return gal_umax / en * exp(1.0 / ((lat - th0) * (lat - th1)));
}

/* g h(theta) - g h(-pi/2) of the balanced jet at GAL_N + 1 latitudes from -pi/2 to pi/2
 * (Simpson's rule on each interval's two halves), and the constant that makes the mean depth
 * gal_h0. */
static void gal_table(double *gh, double *shift) {
    double d = EM_PI / GAL_N;
#define GAL_F(t) (EM_RADIUS * gal_u(t) * (2.0 * EM_OMEGA * sin(t) + tan(t) * gal_u(t) / EM_RADIUS))
    gh[0] = 0.0;
    for (int k = 0; k < GAL_N; k++) {
        double a = -EM_PI / 2 + k * d, b = a + d, c = 0.5 * (a + b);
        gh[k + 1] = gh[k] - d / 6.0 * (GAL_F(a) + 4.0 * GAL_F(c) + GAL_F(b));
    }
#undef GAL_F
    /* mean of gh over the sphere: (1/2) integral gh cos(theta) (trapezoid on the fine table) */
    double mean = 0.0;
    for (int k = 0; k < GAL_N; k++) {
        double a = -EM_PI / 2 + k * d, b = a + d;
        mean += 0.5 * d * (gh[k] * cos(a) + gh[k + 1] * cos(b));
    }
    mean *= 0.5;
    *shift = EM_GRAV * gal_h0 - mean;
}

static double gal_gh(const double *gh, double shift, double lat) {
    double x = (lat + EM_PI / 2) / (EM_PI / GAL_N);
    int k = (int)floor(x);
    if (k < 0) k = 0;
    if (k >= GAL_N) k = GAL_N - 1;
    double w = x - k;
    return shift + (1.0 - w) * gh[k] + w * gh[k + 1];
}

typedef struct sw_ic {
    em_sw_case tc;
    double *gh, shift;
} sw_ic;

/* Wind (east, north) and depth at a point of the sphere; surface height hs. */
static void ic_point(const sw_ic *ic, const double p[3], double *ue, double *vn, double *dep,
                     double *hs) {
    double lon, lat;
    em_xyz_lonlat(p, &lon, &lat);
    double a = EM_RADIUS, om = EM_OMEGA, g = EM_GRAV, ct = cos(lat), st = sin(lat);
    *hs = 0.0;
    switch (ic->tc.id) {
    case 2: {
        double al = ic->tc.alpha, u0 = EM_U0;
        double c = -cos(lon) * ct * sin(al) + st * cos(al);
        *ue = u0 * (ct * cos(al) + cos(lon) * st * sin(al));
        *vn = -u0 * sin(lon) * sin(al);
        *dep = (2.94e4 - (a * om * u0 + 0.5 * u0 * u0) * c * c) / g;
        break;
    }
    case 5: {
        double u0 = 20.0, r0 = EM_PI / 9.0, lc = 1.5 * EM_PI, tc = EM_PI / 6.0;
        double dl = lon - lc, dt = lat - tc;
        double r = fmin(r0, sqrt(dl * dl + dt * dt));
        *hs = 2000.0 * (1.0 - r / r0);
        *ue = u0 * ct;
        *vn = 0.0;
        *dep = 5960.0 - (a * om * u0 + 0.5 * u0 * u0) * st * st / g - *hs;
        break;
    }
    case 6: {
        const double w = 7.848e-6, k = 7.848e-6, R = 4.0, h0 = 8000.0;
        double cr = pow(ct, R), c2 = ct * ct;
        *ue = a * w * ct + a * k * pow(ct, R - 1) * (R * st * st - c2) * cos(R * lon);
        *vn = -a * k * R * pow(ct, R - 1) * st * sin(R * lon);
        double A = 0.5 * w * (2.0 * om + w) * c2 +
                   0.25 * k * k * cr * cr * ((R + 1) * c2 + (2 * R * R - R - 2) - 2 * R * R / c2);
        double B = 2.0 * (om + w) * k / ((R + 1) * (R + 2)) * cr * ((R * R + 2 * R + 2) - (R + 1) * (R + 1) * c2);
        double C = 0.25 * k * k * cr * cr * ((R + 1) * c2 - (R + 2));
        *dep = (g * h0 + a * a * (A + B * cos(R * lon) + C * cos(2 * R * lon))) / g;
        break;
    }
    default: {  /* Galewsky: 'g' perturbed, 'j' the balanced jet alone */
        *ue = gal_u(lat);
        *vn = 0.0;
        *dep = gal_gh(ic->gh, ic->shift, lat) / g;
        if (ic->tc.id == 'g') {
            double l = lon > EM_PI ? lon - 2.0 * EM_PI : lon, t2 = EM_PI / 4;
            *dep += 120.0 * ct * exp(-(l * 3.0) * (l * 3.0)) * exp(-((t2 - lat) * 15.0) * ((t2 - lat) * 15.0));
        }
        break;
    }
    }
}

/* The wind at p as a 3D vector. */
static void ic_wind(const sw_ic *ic, const double p[3], double w[3]) {
    double ue, vn, dep, hs, lon, lat;
    ic_point(ic, p, &ue, &vn, &dep, &hs);
    em_xyz_lonlat(p, &lon, &lat);
    double east[3] = {-sin(lon), cos(lon), 0.0};
    double north[3] = {-sin(lat) * cos(lon), -sin(lat) * sin(lon), cos(lat)};
    for (int c = 0; c < 3; c++) w[c] = ue * east[c] + vn * north[c];
}

/* The tangential wind along the arc p0 -> p1: Simpson's rule on the arc's three points. */
static double edge_wind(const sw_ic *ic, const double *p0, const double *p1) {
    double m[3], t[3], w0[3], w1[3], w2[3];
    em_mid(p0, p1, m);
    for (int c = 0; c < 3; c++) t[c] = p1[c] - p0[c];
    double r = sqrt(dot3(t, t));
    for (int c = 0; c < 3; c++) t[c] /= r;
    ic_wind(ic, p0, w0), ic_wind(ic, m, w1), ic_wind(ic, p1, w2);
    /* the chord is parallel to the arc's tangent at its midpoint; at the ends take each
     * point's own tangent (the chord less its radial part) */
    double t0[3], t2[3];
    memcpy(t0, t, sizeof t), memcpy(t2, t, sizeof t);
    tangent_unit(p0, t0);
    tangent_unit(p1, t2);
    return (dot3(w0, t0) + 4.0 * dot3(w1, t) + dot3(w2, t2)) / 6.0;
}

double em_sw_wave_speed(em_sw_case tc) {
    switch (tc.id) {
    case 2: return sqrt(2.94e4) + EM_U0;
    case 5: return sqrt(EM_GRAV * 5960.0) + 20.0;
    case 6: return sqrt(EM_GRAV * 10500.0) + 100.0;
    default: return sqrt(EM_GRAV * 10500.0) + 80.0;
    }
}

static double coriolis(em_sw_case tc, const double *p) {
    double al = tc.id == 2 ? tc.alpha : 0.0;
    return 2.0 * EM_OMEGA * (-sin(al) * p[0] + cos(al) * p[2]);
}

em_status em_sw_init(const em_grid *g, em_sw_case tc, double *h, double *u, double *v,
                     double *hs, double *hsb, double *fc, double *fb, em_error *err) {
    sw_ic ic = {.tc = tc};
    if (tc.id != 2 && tc.id != 5 && tc.id != 6 && tc.id != 'g' && tc.id != 'j') {
        snprintf(err->msg, sizeof err->msg, "em_sw_init: unknown test case %d", tc.id);
        return EM_EINVAL;
    }
    if (tc.id == 'g' || tc.id == 'j') {
        if (!(ic.gh = malloc((GAL_N + 1) * sizeof(double)))) {
            snprintf(err->msg, sizeof err->msg, "em_sw_init: out of memory");
            return EM_ENOMEM;
        }
        gal_table(ic.gh, &ic.shift);
    }
    int hh = g->h;
    for (int j = -hh; j <= g->ny + hh; j++)
        for (int i = -hh; i <= g->nx + hh; i++) {
            size_t at = EM_AT(g, i, j);
            const double *pv = g->xyz + 3 * at;
            double ue, vn, dep, s;
            ic_point(&ic, pv, &ue, &vn, &dep, &s);
            hsb[at] = s;
            fb[at] = coriolis(tc, pv);
            if (i < g->nx + hh && j < g->ny + hh) {
                const double *pc = g->cxyz + 3 * at;
                ic_point(&ic, pc, &ue, &vn, &dep, &s);
                h[at] = dep, hs[at] = s, fc[at] = coriolis(tc, pc);
                u[at] = edge_wind(&ic, pv, g->xyz + 3 * EM_AT(g, i + 1, j));
                v[at] = edge_wind(&ic, pv, g->xyz + 3 * EM_AT(g, i, j + 1));
            }
        }
    free(ic.gh);
    return EM_OK;
}
