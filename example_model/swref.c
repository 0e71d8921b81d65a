/* swref.c: the shallow-water reference: FV3's c_sw + d_sw in shallow-water mode on the six
 * whole tiles of an em_sphere, in plain C, halo copies between the stages (the FPO program
 * example_model/sw/*.fpo is the same scheme, statement for statement). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sw.h"

/* Work arrays of each tile: their index in em_sw_ref.w. */
enum { UCA, VCA, UA, VA, V0, V1, V2, KEC, UC, VC, FX1, FY1, HC, KG, WAB, CRX, CRY, XFX, YFX,
       RAX, RAY, MFX, MFY, Q, UB, VB, CRUB, CRVB, UUP, VUP, KEB, UF, VF, DIV, BB, HB, UCF, VCF, DL,
       DL1, DL2, NWORK };

_Static_assert(NWORK < sizeof ((em_sw_ref *)0)->w[0] / sizeof(double *), "em_sw_ref.w is too small");

em_status em_sw_ref_init(em_sw_ref *r, const em_sphere *s, em_sw_case tc, em_error *err) {
    memset(r, 0, sizeof *r);
    r->s = s;
    r->da_min_c = INFINITY;
    for (int t = 0; t < 6; t++) {
        const em_grid *g = &s->g[t];
        size_t np = em_grid_points(g);
        double **a[] = {&r->h[t], &r->u[t], &r->v[t], &r->hs[t], &r->hsb[t], &r->fc[t], &r->fb[t]};
        int ok = 1;
        for (size_t k = 0; k < sizeof a / sizeof *a; k++) ok &= (*a[k] = calloc(np, sizeof(double))) != NULL;
        for (int k = 0; k <= NWORK; k++) ok &= (r->w[t][k] = calloc(np, sizeof(double))) != NULL;
        if (!ok) {
            em_sw_ref_free(r);
            snprintf(err->msg, sizeof err->msg, "em_sw_ref_init: out of memory");
            return EM_ENOMEM;
        }
        em_status st = em_sw_metric_init(g, &r->m[t], err);
        if (!st) st = em_tp_work_init(g, &r->wk[t], err);
        if (!st) st = em_sw_init(g, tc, r->h[t], r->u[t], r->v[t], r->hs[t], r->hsb[t], r->fc[t], r->fb[t], err);
        if (st) {
            em_sw_ref_free(r);
            return st;
        }
        if (r->m[t].da_min_c < r->da_min_c) r->da_min_c = r->m[t].da_min_c;
        r->tw.crx[t] = r->w[t][CRX], r->tw.cry[t] = r->w[t][CRY];
        r->tw.xfx[t] = r->w[t][XFX], r->tw.yfx[t] = r->w[t][YFX];
        r->tw.ra_x[t] = r->w[t][RAX], r->tw.ra_y[t] = r->w[t][RAY];
    }
    return EM_OK;
}

void em_sw_ref_free(em_sw_ref *r) {
    for (int t = 0; t < 6; t++) {
        free(r->h[t]), free(r->u[t]), free(r->v[t]), free(r->hs[t]), free(r->hsb[t]);
        free(r->fc[t]), free(r->fb[t]);
        for (int k = 0; k <= NWORK; k++) free(r->w[t][k]);
        em_sw_metric_free(&r->m[t]);
        em_tp_work_free(&r->wk[t]);
    }
    memset(r, 0, sizeof *r);
}

/* The tile's arrays, read at (i + di, j + dj): A(x, di, dj). */
#define AT(di, dj) (at + (ptrdiff_t)(di) + (ptrdiff_t)(dj) * sx)
#define W(k) (r->w[t][k])
#define W2(t, k) (r->w[t][k])

/* min and max as FPO's builtins compute them. */
static double mn(double a, double b) { return a < b ? a : b; }
static double mx(double a, double b) { return a > b ? a : b; }

/* The arrays of work array k of the six tiles. */
static double *const *col(em_sw_ref *r, int k, double *out[6]) {
    for (int t = 0; t < 6; t++) out[t] = r->w[t][k];
    return out;
}

/* c_sw 1: D-grid winds to cell covariant (uca, vca), contravariant (ua, va) and 3D winds, the
 * kinetic energy; cells -1 .. N (the ring for the C-grid winds and d_sw's divergence). */
static void csw_agrid(em_sw_ref *r, int t) {
    const em_grid *g = &r->s->g[t];
    const em_sw_metric *m = &r->m[t];
    int n = g->n;
    ptrdiff_t sx = g->sx;
    const double *u = r->u[t], *v = r->v[t];
    for (int j = -1; j <= n; j++)
        for (int i = -1; i <= n; i++) {
            size_t at = EM_AT(g, i, j);
            double uca = 0.5 * (u[at] + u[AT(0, 1)]);
            double vca = 0.5 * (v[at] + v[AT(1, 0)]);
            double ua = (uca - vca * g->cosa_s[at]) * g->rsin2[at];
            double va = (vca - uca * g->cosa_s[at]) * g->rsin2[at];
            W(UA)[at] = ua, W(VA)[at] = va;
            W(V0)[at] = ua * m->tx[0][at] + va * m->ty[0][at];
            W(V1)[at] = ua * m->tx[1][at] + va * m->ty[1][at];
            W(V2)[at] = ua * m->tx[2][at] + va * m->ty[2][at];
            W(KEC)[at] = 0.5 * (ua * uca + va * vca);
        }
}

/* c_sw 2: C-grid covariant winds on the tile's faces, from the mean of the two 3D winds. */
static void csw_cgrid(em_sw_ref *r, int t) {
    const em_grid *g = &r->s->g[t];
    const em_sw_metric *m = &r->m[t];
    int n = g->n;
    ptrdiff_t sx = g->sx;
    double *a0 = W(V0), *a1 = W(V1), *a2 = W(V2);
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            size_t at = EM_AT(g, i, j);
            if (j < n)
                W(UC)[at] = 0.5 * ((a0[AT(-1, 0)] + a0[at]) * m->ex[0][at] +
                                   (a1[AT(-1, 0)] + a1[at]) * m->ex[1][at] +
                                   (a2[AT(-1, 0)] + a2[at]) * m->ex[2][at]);
            if (i < n)
                W(VC)[at] = 0.5 * ((a0[AT(0, -1)] + a0[at]) * m->ey[0][at] +
                                   (a1[AT(0, -1)] + a1[at]) * m->ey[1][at] +
                                   (a2[AT(0, -1)] + a2[at]) * m->ey[2][at]);
        }
}

/* c_sw 3: the half-step h on the C grid (first-order upwind fluxes, as FV3's c_sw), and with
 * it the kinetic energy plus geopotential times dt/2 of the tile's cells, KG. */
static void csw_mass(em_sw_ref *r, int t, double dt2) {
    const em_grid *g = &r->s->g[t];
    const em_sw_metric *m = &r->m[t];
    int n = g->n;
    ptrdiff_t sx = g->sx;
    const double *h = r->h[t], *u = r->u[t], *v = r->v[t];
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            size_t at = EM_AT(g, i, j);
            if (j < n) {
                double uf = m->wcu[at] * W(UC)[at] + m->wpu[at] * W(UC)[AT(0, 1)] + m->wmu[at] * W(UC)[AT(0, -1)];
                double ut = (uf - v[at] * m->cu[at]) * m->rsu[at];
                double xf = dt2 * ut * g->dy[at] * m->su[at];
                W(FX1)[at] = xf * (xf > 0.0 ? h[AT(-1, 0)] : h[at]);
            }
            if (i < n) {
                double vf = m->wcv[at] * W(VC)[at] + m->wpv[at] * W(VC)[AT(1, 0)] + m->wmv[at] * W(VC)[AT(-1, 0)];
                double vt = (vf - u[at] * m->cv[at]) * m->rsv[at];
                double yf = dt2 * vt * g->dx[at] * m->sv[at];
                W(FY1)[at] = yf * (yf > 0.0 ? h[AT(0, -1)] : h[at]);
            }
        }
    double *fx1 = W(FX1), *fy1 = W(FY1);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            size_t at = EM_AT(g, i, j);
            double hc = h[at] + (fx1[at] - fx1[AT(1, 0)] + fy1[at] - fy1[AT(0, 1)]) * g->rarea[at];
            W(KG)[at] = dt2 * (W(KEC)[at] + EM_GRAV * (hc + r->hs[t][at]));
        }
}

/* c_sw 4: the absolute vorticity at the vertices from the C-grid circulation (three cells at
 * a cube corner). */
static void csw_vort(em_sw_ref *r, int t, double dt2) {
    const em_grid *g = &r->s->g[t];
    const em_sw_metric *m = &r->m[t];
    int n = g->n;
    ptrdiff_t sx = g->sx;
    (void)dt2;
    const double *uc = W(UC), *vc = W(VC);
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            size_t at = EM_AT(g, i, j);
            double w = uc[AT(0, -1)] * g->dxc[AT(0, -1)] - uc[at] * g->dxc[at] -
                       vc[AT(-1, 0)] * g->dyc[AT(-1, 0)] + vc[at] * g->dyc[at];
            int ci = i == 0 ? 0 : i == n ? 1 : -1, cj = j == 0 ? 0 : j == n ? 1 : -1;
            if (ci == 0 && cj >= 0) w = w + vc[AT(-1, 0)] * g->dyc[AT(-1, 0)];  /* SW, NW */
            if (ci == 1 && cj >= 0) w = w - vc[at] * g->dyc[at];                /* SE, NE */
            W(WAB)[at] = r->fb[t][at] + m->rarea_c[at] * w;
        }
}

/* c_sw 5: the C-grid winds a half step on: absolute vorticity flux and the gradient. */
static void csw_winds(em_sw_ref *r, int t, double dt2) {
    const em_grid *g = &r->s->g[t];
    const em_sw_metric *m = &r->m[t];
    int n = g->n;
    ptrdiff_t sx = g->sx;
    const double *u = r->u[t], *v = r->v[t], *wab = W(WAB), *kg = W(KG);
    double *uc = W(UC), *vc = W(VC);
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            size_t at = EM_AT(g, i, j);
            if (j < n) {
                double fy1 = dt2 * (v[at] - uc[at] * m->cu[at]) / m->su[at];
                uc[at] = uc[at] + fy1 * (fy1 > 0.0 ? wab[at] : wab[AT(0, 1)]) +
                         g->rdxc[at] * (kg[AT(-1, 0)] - kg[at]);
            }
            if (i < n) {
                double fx1 = dt2 * (u[at] - vc[at] * m->cv[at]) / m->sv[at];
                vc[at] = vc[at] - fx1 * (fx1 > 0.0 ? wab[at] : wab[AT(1, 0)]) +
                         g->rdyc[at] * (kg[AT(0, -1)] - kg[at]);
            }
        }
}

/* d_sw 1: Courant numbers and volume fluxes of the time-centred C-grid winds (FV3's ut, vt
 * with the four-point mean of the other wind). */
static void dsw_courant(em_sw_ref *r, int t, double dt) {
    const em_grid *g = &r->s->g[t];
    const em_sw_metric *m = &r->m[t];
    int n = g->n;
    ptrdiff_t sx = g->sx;
    const double *uc = W(UC), *vc = W(VC);
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            size_t at = EM_AT(g, i, j);
            if (j < n) {
                double uf = m->wcu[at] * uc[at] + m->wpu[at] * uc[AT(0, 1)] + m->wmu[at] * uc[AT(0, -1)];
                W(UCF)[at] = uf;
                double ut = (uf - 0.25 * m->cu[at] * (vc[AT(-1, 0)] + vc[at] + vc[AT(-1, 1)] + vc[AT(0, 1)])) * m->rsu[at];
                if (j == 0 || j == n - 1) ut = (uf - r->v[t][at] * m->cu[at]) * m->rsu[at];
                double x0 = dt * ut;
                W(CRX)[at] = x0 > 0.0 ? x0 * g->rdxa[AT(-1, 0)] : x0 * g->rdxa[at];
                W(XFX)[at] = g->dy[at] * x0 * m->su[at];
            }
            if (i < n) {
                double vf = m->wcv[at] * vc[at] + m->wpv[at] * vc[AT(1, 0)] + m->wmv[at] * vc[AT(-1, 0)];
                W(VCF)[at] = vf;
                double vt = (vf - 0.25 * m->cv[at] * (uc[AT(0, -1)] + uc[AT(1, -1)] + uc[at] + uc[AT(1, 0)])) * m->rsv[at];
                if (i == 0 || i == n - 1) vt = (vf - r->u[t][at] * m->cv[at]) * m->rsv[at];
                double y0 = dt * vt;
                W(CRY)[at] = y0 > 0.0 ? y0 * g->rdya[AT(0, -1)] : y0 * g->rdya[at];
                W(YFX)[at] = g->dx[at] * y0 * m->sv[at];
            }
        }
}

static void dsw_swept(em_sw_ref *r, int t) {
    const em_grid *g = &r->s->g[t];
    int n = g->n, h = g->h;
    ptrdiff_t sx = g->sx;
    for (int j = -h; j < n + h; j++)
        for (int i = -h; i < n + h; i++) {
            size_t at = EM_AT(g, i, j);
            if (i >= 0 && i < n) W(RAX)[at] = g->area[at] + W(XFX)[at] - W(XFX)[AT(1, 0)];
            if (j >= 0 && j < n) W(RAY)[at] = g->area[at] + W(YFX)[at] - W(YFX)[AT(0, 1)];
        }
}

/* d_sw 2: the mass fluxes (fv_tp_2d) in MFX, MFY, and then (once the tiles agree on their
 * shared faces) h after them. */
static void dsw_fluxes(em_sw_ref *r, int t, int hord) {
    const em_grid *g = &r->s->g[t];
    em_fv_tp_2d(g, r->h[t], &r->tw, t, hord, &r->wk[t]);
    size_t bytes = em_grid_points(g) * sizeof(double);
    memcpy(W(MFX), r->wk[t].fx, bytes);
    memcpy(W(MFY), r->wk[t].fy, bytes);
}

static void dsw_mass(em_sw_ref *r, int t) {
    const em_grid *g = &r->s->g[t];
    int n = g->n;
    ptrdiff_t sx = g->sx;
    double *h = r->h[t], *fx = W(MFX), *fy = W(MFY);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            size_t at = EM_AT(g, i, j);
            h[at] = h[at] + (fx[at] - fx[AT(1, 0)] + fy[at] - fy[AT(0, 1)]) * g->rarea[at];
        }
}

/* d_sw 3: absolute vorticity of the cells from the D-grid circulation. */
static void dsw_vort(em_sw_ref *r, int t) {
    const em_grid *g = &r->s->g[t];
    int n = g->n;
    ptrdiff_t sx = g->sx;
    const double *u = r->u[t], *v = r->v[t];
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            size_t at = EM_AT(g, i, j);
            W(Q)[at] = g->rarea[at] * (u[at] * g->dx[at] - u[AT(0, 1)] * g->dx[AT(0, 1)] -
                                       v[at] * g->dy[at] + v[AT(1, 0)] * g->dy[AT(1, 0)]) +
                       r->fc[t][at];
        }
}

/* d_sw 4: advecting winds at the vertices (time-centred, contravariant, times dt/2) and their
 * Courant numbers along the edges. */
static void dsw_vertex_winds(em_sw_ref *r, int t, double dt5, int hord) {
    const em_grid *g = &r->s->g[t];
    const em_sw_metric *m = &r->m[t];
    int n = g->n;
    ptrdiff_t sx = g->sx;
    const double *uc = W(UC), *vc = W(VC);
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            size_t at = EM_AT(g, i, j);
            double ub = dt5 * (uc[AT(0, -1)] + uc[at] - (vc[AT(-1, 0)] + vc[at]) * m->cb[at]) * m->rsb[at];
            double vb = dt5 * (vc[AT(-1, 0)] + vc[at] - (uc[AT(0, -1)] + uc[at]) * m->cb[at]) * m->rsb[at];
            /* on a tile edge: the normal wind from the edge's C-grid faces, the tangential one
             * from its D-grid faces (the faces off the edge fold with the grid) */
            if (i == 0 || i == n) {
                ub = dt5 * (W(UCF)[AT(0, -1)] + W(UCF)[at]);
                vb = dt5 * (r->v[t][AT(0, -1)] + r->v[t][at]);
            }
            if (j == 0 || j == n) {
                ub = dt5 * (r->u[t][AT(-1, 0)] + r->u[t][at]);
                vb = dt5 * (W(VCF)[AT(-1, 0)] + W(VCF)[at]);
            }
            W(UB)[at] = ub, W(VB)[at] = vb;
            W(CRUB)[at] = ub > 0.0 ? ub * g->rdx[AT(-1, 0)] : ub * g->rdx[at];
            W(CRVB)[at] = vb > 0.0 ? vb * g->rdy[AT(0, -1)] : vb * g->rdy[at];
        }
    /* the D-grid winds' upwind PPM values at the vertices, along their edges (FV3 xtp_u, ytp_v) */
    for (int j = 0; j <= n; j++) {
        size_t at = EM_AT(g, 0, j);
        em_ppm_line(r->u[t] + at, g->dx + at, W(CRUB) + at, W(UUP) + at, n, 1, hord);
    }
    for (int i = 0; i <= n; i++) {
        size_t at = EM_AT(g, i, 0);
        em_ppm_line(r->v[t] + at, g->dy + at, W(CRVB) + at, W(VUP) + at, n, sx, hord);
    }
}

/* d_sw 5a: the divergence at the tile's vertices (fluxes across the dual cell's sides; on a
 * tile edge the D-grid wind alone; three sides at a cube corner), as FV3 of opposite sign:
 * d = -D. */
static void dsw_div(em_sw_ref *r, int t) {
    const em_grid *g = &r->s->g[t];
    const em_sw_metric *m = &r->m[t];
    int n = g->n;
    ptrdiff_t sx = g->sx;
    const double *u = r->u[t], *v = r->v[t];
    double *uf = W(UF), *vf = W(VF), *dv = W(DIV);
    for (int j = -1; j <= n; j++)
        for (int i = -1; i <= n; i++) {
            size_t at = EM_AT(g, i, j);
            if (j >= 0) {  /* y-face (i, j) */
                if (j == 0 || j == n)
                    uf[at] = u[at] * g->dyc[at] * m->sv[at];
                else
                    uf[at] = (u[at] - 0.5 * (W(VA)[AT(0, -1)] + W(VA)[at]) * m->cv[at]) * g->dyc[at] * m->sv[at];
            }
            if (i >= 0) {  /* x-face (i, j) */
                if (i == 0 || i == n)
                    vf[at] = v[at] * g->dxc[at] * m->su[at];
                else
                    vf[at] = (v[at] - 0.5 * (W(UA)[AT(-1, 0)] + W(UA)[at]) * m->cu[at]) * g->dxc[at] * m->su[at];
            }
        }
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            size_t at = EM_AT(g, i, j);
            double d = vf[AT(0, -1)] - vf[at] + uf[AT(-1, 0)] - uf[at];
            int ci = i == 0 ? 0 : i == n ? 1 : -1, cj = j == 0 ? 0 : j == n ? 1 : -1;
            if (ci >= 0 && cj == 0) d = d - vf[AT(0, -1)];  /* SW, SE */
            if (ci >= 0 && cj == 1) d = d + vf[at];         /* NE, NW */
            dv[at] = m->rarea_c[at] * d;
        }
}

/* Whether vertex (i, j) of an N-cell tile lies in a cube corner's halo block (both outside). */
static int in_corner_block(int i, int j, int n) {
    return (i < 0 || i > n) && (j < 0 || j > n);
}

/* d_sw 5b: -1 times the Laplacian of d over the vertices of ring `ring` (FV3's divergence
 * damping of nord 1 to 3, one step): the differences along the D-grid edges times the dual
 * side over the edge (FV3's divg_u, divg_v), summed over the arms, over the dual cell's area.
 * An arm ending in a cube corner's halo block is left out; at the corner itself the arm along
 * j out of the tile (FV3). dsw.fpo's vertex_lap. */
static void vertex_lap(em_sw_ref *r, int t, const double *d, double *dl, int ring) {
    const em_grid *g = &r->s->g[t];
    const em_sw_metric *m = &r->m[t];
    int n = g->n;
    ptrdiff_t sx = g->sx;
    for (int j = -ring; j <= n + ring; j++)
        for (int i = -ring; i <= n + ring; i++) {
            size_t at = EM_AT(g, i, j);
            double gw = (d[at] - d[AT(-1, 0)]) * g->dyc[AT(-1, 0)] * m->sv[AT(-1, 0)] * g->rdx[AT(-1, 0)];
            double ge = (d[AT(1, 0)] - d[at]) * g->dyc[at] * m->sv[at] * g->rdx[at];
            double gs = (d[at] - d[AT(0, -1)]) * g->dxc[AT(0, -1)] * m->su[AT(0, -1)] * g->rdy[AT(0, -1)];
            double gn = (d[AT(0, 1)] - d[at]) * g->dxc[at] * m->su[at] * g->rdy[at];
            int cube_corner = (i == 0 || i == n) && (j == 0 || j == n);
            if (in_corner_block(i - 1, j, n)) gw = 0.0;
            if (in_corner_block(i + 1, j, n)) ge = 0.0;
            if (in_corner_block(i, j - 1, n) || (cube_corner && j == 0)) gs = 0.0;
            if (in_corner_block(i, j + 1, n) || (cube_corner && j == n)) gn = 0.0;
            dl[at] = m->rarea_c[at] * (gs - gn + gw - ge);
        }
}

double em_sw_dd8(double da_min_c, double d4_bg, int nord) {
    double x = da_min_c * d4_bg, dd8 = x;
    for (int k = 0; k < nord; k++) dd8 = dd8 * x;
    return dd8;
}

/* d_sw 5: at the vertices the kinetic energy (FV3: vb v_up / 2 + ub u_up / 2; at a cube corner
 * the mean of the two edges' linear extrapolations), the divergence damping (FV3's, nord 0 to
 * 3) and the geopotential of the new h: BB, the vertex value whose differences along the edges
 * move the D-grid winds. */
static void dsw_energy(em_sw_ref *r, int t, const em_sw_param *p) {
    const em_grid *g = &r->s->g[t];
    const em_sw_metric *m = &r->m[t];
    int n = g->n;
    ptrdiff_t sx = g->sx;
    const double *h = r->h[t];
    double *keb = W(KEB);
    /* on a tile edge the wind across it is the advecting one itself (the upwind value of the
     * D-grid wind across the edge, a mean of two directions, is not) */
    double rdt = 1.0 / p->dt;
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            size_t at = EM_AT(g, i, j);
            double uup = W(UUP)[at], vup = W(VUP)[at];
            if (i == 0 || i == n) uup = W(UB)[at] * rdt;
            if (j == 0 || j == n) vup = W(VB)[at] * rdt;
            keb[at] = 0.5 * (W(VB)[at] * vup + W(UB)[at] * uup);
        }
    /* h at the vertices: the mean of the four cells; on a tile edge, where the grid lines
     * fold, the mean of the edge values of the two rows (columns) that meet there */
    double *hb = W(HB);
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            size_t at = EM_AT(g, i, j);
            hb[at] = 0.25 * (h[AT(-1, -1)] + h[AT(0, -1)] + h[AT(-1, 0)] + h[at]);
            if (i == 0 || i == n)
                hb[at] = 0.5 * (em_ppm_edge_value(h + AT(0, -1), g->dxa + AT(0, -1), 1, 0) +
                                em_ppm_edge_value(h + at, g->dxa + at, 1, 0));
            if (j == 0 || j == n)
                hb[at] = 0.5 * (em_ppm_edge_value(h + AT(-1, 0), g->dya + AT(-1, 0), sx, 0) +
                                em_ppm_edge_value(h + at, g->dya + at, sx, 0));
        }
    size_t c[4] = {EM_AT(g, 0, 0), EM_AT(g, n, 0), EM_AT(g, n, n), EM_AT(g, 0, n)};
    int di[4] = {1, -1, -1, 1}, dj[4] = {1, 1, -1, -1};
    for (int k = 0; k < 4; k++) {
        size_t at = c[k];
        keb[at] = 0.5 * (keb[AT(di[k], 0)] + keb[AT(0, dj[k])]);
        hb[at] = (h[AT(di[k] < 0 ? -1 : 0, dj[k] < 0 ? -1 : 0)] + h[AT(di[k] < 0 ? -1 : 0, dj[k] < 0 ? 0 : -1)] +
                  h[AT(di[k] < 0 ? 0 : -1, dj[k] < 0 ? -1 : 0)]) / 3.0;
    }
    /* del-(2 nord + 2): dd8 times vertex_lap applied nord times to the divergence (its halo
     * vertices the neighbours', em_sphere_fill_vertices), from ring nord - 1 in */
    const double *dv = W(DIV), *dl = dv;
    double *ring_out[3] = {W(DL), W(DL1), W(DL2)};
    for (int ring = p->nord - 1; ring >= 0; ring--) {
        vertex_lap(r, t, dl, ring_out[ring], ring);
        dl = ring_out[ring];
    }
    double dd8 = em_sw_dd8(r->da_min_c, p->d4_bg, p->nord);
    double dtg = p->dt * EM_GRAV;
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            size_t at = EM_AT(g, i, j);
            double damp = r->da_min_c * mx(p->d2_bg, mn(0.2, p->dddmp * fabs(dv[at] * p->dt)));
            double e = damp * dv[at];
            if (p->nord >= 1) e = e + dd8 * dl[at];
            W(BB)[at] = keb[at] + e + dtg * (hb[at] + r->hsb[t][at]);
        }
}

/* d_sw 6: the D-grid winds: circulation along each edge plus the vorticity flux across it and
 * the difference of BB between its ends. */
static void dsw_winds(em_sw_ref *r, int t) {
    const em_grid *g = &r->s->g[t];
    int n = g->n;
    ptrdiff_t sx = g->sx;
    double *u = r->u[t], *v = r->v[t];
    const double *bb = W(BB), *fxq = r->wk[t].fx, *fyq = r->wk[t].fy;
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            size_t at = EM_AT(g, i, j);
            if (i < n) u[at] = (u[at] * g->dx[at] + bb[at] - bb[AT(1, 0)] + fyq[at]) * g->rdx[at];
            if (j < n) v[at] = (v[at] * g->dy[at] + bb[at] - bb[AT(0, 1)] - fxq[at]) * g->rdy[at];
        }
}


void em_sw_ref_step(em_sw_ref *r, const em_sw_param *p) {
    const em_sphere *s = r->s;
    double *a[6], *b[6], dt = p->dt, dt2 = 0.5 * dt;
    int T;
#define EACH for (T = 0; T < 6; T++)
    em_sphere_fill_dgrid(s, r->u, r->v);
    em_sphere_fill_cells(s, r->h);
    /* c_sw */
    EACH csw_agrid(r, T);
    EACH csw_cgrid(r, T);
    em_sphere_fill_faces(s, col(r, UC, a), col(r, VC, b));
    EACH csw_mass(r, T, dt2);
    em_sphere_fill_cells(s, col(r, KG, a));
    EACH csw_vort(r, T, dt2);
    EACH csw_winds(r, T, dt2);
    em_sphere_fill_faces(s, col(r, UC, a), col(r, VC, b));
    /* d_sw */
    EACH dsw_courant(r, T, dt);
    em_sphere_fill_faces(s, col(r, CRX, a), col(r, CRY, b));
    em_sphere_fill_faces(s, col(r, XFX, a), col(r, YFX, b));
    EACH dsw_swept(r, T);
    EACH dsw_vort(r, T);
    EACH dsw_fluxes(r, T, p->hord);
    em_sphere_fill_faces(s, col(r, MFX, a), col(r, MFY, b));
    EACH dsw_mass(r, T);
    em_sphere_fill_cells(s, r->h);
    em_sphere_fill_cells(s, col(r, Q, a));
    EACH {
        em_fv_tp_2d(&s->g[T], W2(T, Q), &r->tw, T, p->hord, &r->wk[T]);
        dsw_vertex_winds(r, T, 0.5 * dt, p->hord);
        dsw_div(r, T);
    }
    if (p->nord >= 1)
        em_sphere_fill_vertices(s, col(r, DIV, a));
    EACH {
        dsw_energy(r, T, p);
        dsw_winds(r, T);
    }
#undef EACH
}
