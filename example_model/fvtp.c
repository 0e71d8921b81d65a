/* fvtp.c: FV3's 2D transport fv_tp_2d on whole tiles (Lin-Rood splitting: inner advective
 * half-updates, outer PPM fluxes averaged) with copy_corners at cube corners, the Courant
 * numbers and volume fluxes it takes, and one transport step on the sphere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em.h"

void em_copy_corners(const em_grid *g, double *q, int dir) {
    int n = g->n, h = g->h;
#define QA(i, j) q[EM_AT(g, i, j)]
    for (int a = 0; a < h; a++)
        for (int b = 0; b < h; b++) {
            int lo_i = -1 - a, lo_j = -1 - b, hi_i = n + a, hi_j = n + b;
            if (dir == EM_XDIR) {
                QA(lo_i, lo_j) = QA(lo_j, -1 - lo_i);
                QA(hi_i, lo_j) = QA(n - 1 - lo_j, hi_i - n);
                QA(hi_i, hi_j) = QA(hi_j, 2 * n - 1 - hi_i);
                QA(lo_i, hi_j) = QA(n - 1 - hi_j, lo_i + n);
            } else {
                QA(lo_i, lo_j) = QA(-1 - lo_j, lo_i);
                QA(hi_i, lo_j) = QA(n + lo_j, n - 1 - hi_i);
                QA(hi_i, hi_j) = QA(2 * n - 1 - hi_j, hi_i);
                QA(lo_i, hi_j) = QA(hi_j - n, n - 1 - lo_i);
            }
        }
#undef QA
}

static double *alloc_field(const em_grid *g, int *ok) {
    double *p = calloc(em_grid_points(g), sizeof *p);
    if (!p) *ok = 0;
    return p;
}

em_status em_tp_work_init(const em_grid *g, em_tp_work *wk, em_error *err) {
    int ok = g->n >= 6 && g->n <= 4096 && g->h >= EM_TP_HALO && g->nx == g->n && g->ny == g->n;
    if (!ok) {
        snprintf(err->msg, sizeof err->msg,
                 "em_tp_work_init: needs a whole tile, 6 <= N <= 4096, halo >= %d", EM_TP_HALO);
        return EM_EINVAL;
    }
    double **a[] = {&wk->q_i, &wk->q_j, &wk->fx, &wk->fy, &wk->fx2, &wk->fy2, &wk->fyy};
    for (size_t k = 0; k < sizeof a / sizeof *a; k++) *a[k] = alloc_field(g, &ok);
    if (!ok) {
        em_tp_work_free(wk);
        snprintf(err->msg, sizeof err->msg, "em_tp_work_init: out of memory");
        return EM_ENOMEM;
    }
    return EM_OK;
}

void em_tp_work_free(em_tp_work *wk) {
    free(wk->q_i), free(wk->q_j), free(wk->fx), free(wk->fy), free(wk->fx2), free(wk->fy2),
        free(wk->fyy);
    memset(wk, 0, sizeof *wk);
}

void em_tp_winds_free(em_tp_winds *w) {
    for (int t = 0; t < 6; t++) {
        free(w->crx[t]), free(w->cry[t]), free(w->xfx[t]), free(w->yfx[t]), free(w->ra_x[t]),
            free(w->ra_y[t]);
    }
    memset(w, 0, sizeof *w);
}

em_status em_tp_winds_init(const em_sphere *s, const double *const uc[6],
                           const double *const vc[6], double dt, em_tp_winds *w,
                           em_error *err) {
    int ok = 1, n = s->n, h = s->h;
    memset(w, 0, sizeof *w);
    for (int t = 0; t < 6; t++) {
        const em_grid *g = &s->g[t];
        w->crx[t] = alloc_field(g, &ok), w->cry[t] = alloc_field(g, &ok);
        w->xfx[t] = alloc_field(g, &ok), w->yfx[t] = alloc_field(g, &ok);
        w->ra_x[t] = alloc_field(g, &ok), w->ra_y[t] = alloc_field(g, &ok);
    }
    if (!ok) {
        em_tp_winds_free(w);
        snprintf(err->msg, sizeof err->msg, "em_tp_winds_init: out of memory");
        return EM_ENOMEM;
    }
    /* the tile's own faces (W and S boundaries included) from its winds and metrics */
    for (int t = 0; t < 6; t++) {
        const em_grid *g = &s->g[t];
        for (int j = 0; j <= n; j++)
            for (int i = 0; i <= n; i++) {
                size_t at = EM_AT(g, i, j);
                if (j < n) {
                    double u = uc[t][at];
                    size_t up = u > 0 ? EM_AT(g, i - 1, j) : at;
                    double sn = g->sin_sg[9 * up + (u > 0 ? 2 : 0)];
                    w->crx[t][at] = dt * (u / sn) * g->rdxa[up];
                    w->xfx[t][at] = dt * u * g->dy[at];
                }
                if (i < n) {
                    double v = vc[t][at];
                    size_t up = v > 0 ? EM_AT(g, i, j - 1) : at;
                    double sn = g->sin_sg[9 * up + (v > 0 ? 3 : 1)];
                    w->cry[t][at] = dt * (v / sn) * g->rdya[up];
                    w->yfx[t][at] = dt * v * g->dx[at];
                }
            }
    }
    /* E and N boundaries and halos from the neighbours, so that shared faces agree bitwise */
    em_sphere_fill_faces(s, w->crx, w->cry);
    em_sphere_fill_faces(s, w->xfx, w->yfx);
    for (int t = 0; t < 6; t++) {
        const em_grid *g = &s->g[t];
        for (int j = -h; j < n + h; j++)
            for (int i = -h; i < n + h; i++) {
                size_t at = EM_AT(g, i, j);
                if (i >= 0 && i < n)
                    w->ra_x[t][at] = g->area[at] + w->xfx[t][at] - w->xfx[t][EM_AT(g, i + 1, j)];
                if (j >= 0 && j < n)
                    w->ra_y[t][at] = g->area[at] + w->yfx[t][at] - w->yfx[t][EM_AT(g, i, j + 1)];
            }
    }
    return EM_OK;
}

em_status em_tp_winds_tc1(const em_sphere *s, double alpha, double dt, em_tp_winds *w,
                          em_error *err) {
    double *psi[6] = {0}, *uc[6] = {0}, *vc[6] = {0};
    int ok = 1;
    for (int t = 0; t < 6; t++) {
        psi[t] = alloc_field(&s->g[t], &ok);
        uc[t] = alloc_field(&s->g[t], &ok);
        vc[t] = alloc_field(&s->g[t], &ok);
        if (ok) {
            em_tc1_psi_corners(&s->g[t], alpha, psi[t]);
            em_tc1_cgrid(&s->g[t], psi[t], uc[t], vc[t]);
        }
    }
    em_status st = EM_ENOMEM;
    if (ok)
        st = em_tp_winds_init(s, (const double *const *)uc, (const double *const *)vc, dt, w, err);
    else
        snprintf(err->msg, sizeof err->msg, "em_tp_winds_tc1: out of memory");
    for (int t = 0; t < 6; t++) free(psi[t]), free(uc[t]), free(vc[t]);
    return st;
}

void em_fv_tp_2d(const em_grid *g, double *q, const em_tp_winds *w, int tile, int hord,
                 em_tp_work *wk) {
    int n = g->n, h = g->h, ord_in = hord == 10 ? EM_PPM_MONO : hord, ord_ou = hord;
    ptrdiff_t sx = g->sx;
    const double *crx = w->crx[tile], *cry = w->cry[tile], *xfx = w->xfx[tile],
                 *yfx = w->yfx[tile];
    /* inner y-sweep over every column (halo included) and the y-advected q_i */
    em_copy_corners(g, q, EM_YDIR);
    for (int i = -h; i < n + h; i++) {
        size_t at = EM_AT(g, i, 0);
        em_ppm_line(q + at, g->dya + at, cry + at, wk->fy2 + at, n, sx, ord_in);
    }
    for (int j = 0; j <= n; j++)
        for (int i = -h; i < n + h; i++) {
            size_t at = EM_AT(g, i, j);
            wk->fyy[at] = yfx[at] * wk->fy2[at];
        }
    for (int j = 0; j < n; j++)
        for (int i = -h; i < n + h; i++) {
            size_t at = EM_AT(g, i, j);
            wk->q_i[at] = (q[at] * g->area[at] + wk->fyy[at] - wk->fyy[at + sx]) / w->ra_y[tile][at];
        }
    /* outer x-fluxes of q_i */
    for (int j = 0; j < n; j++) {
        size_t at = EM_AT(g, 0, j);
        em_ppm_line(wk->q_i + at, g->dxa + at, crx + at, wk->fx + at, n, 1, ord_ou);
    }
    /* inner x-sweep over every row and the x-advected q_j */
    em_copy_corners(g, q, EM_XDIR);
    for (int j = -h; j < n + h; j++) {
        size_t at = EM_AT(g, 0, j);
        em_ppm_line(q + at, g->dxa + at, crx + at, wk->fx2 + at, n, 1, ord_in);
        for (int i = 0; i < n; i++) {
            size_t c = at + (size_t)i;
            double f0 = xfx[c] * wk->fx2[c], f1 = xfx[c + 1] * wk->fx2[c + 1];
            wk->q_j[c] = (q[c] * g->area[c] + f0 - f1) / w->ra_x[tile][c];
        }
    }
    /* outer y-fluxes of q_j */
    for (int i = 0; i < n; i++) {
        size_t at = EM_AT(g, i, 0);
        em_ppm_line(wk->q_j + at, g->dya + at, cry + at, wk->fy + at, n, sx, ord_ou);
    }
    /* average the inner and outer fluxes, times the volume fluxes */
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            size_t at = EM_AT(g, i, j);
            if (j < n) wk->fx[at] = 0.5 * (wk->fx[at] + wk->fx2[at]) * xfx[at];
            if (i < n) wk->fy[at] = 0.5 * (wk->fy[at] + wk->fy2[at]) * yfx[at];
        }
}

void em_tp_step(const em_sphere *s, double *const q[6], const em_tp_winds *w, int hord,
                em_tp_work wk[6]) {
    em_sphere_fill_cells(s, q);
    for (int t = 0; t < 6; t++) em_fv_tp_2d(&s->g[t], q[t], w, t, hord, &wk[t]);
    for (int t = 0; t < 6; t++) {
        const em_grid *g = &s->g[t];
        ptrdiff_t sx = g->sx;
        for (int j = 0; j < s->n; j++)
            for (int i = 0; i < s->n; i++) {
                size_t at = EM_AT(g, i, j);
                q[t][at] += (wk[t].fx[at] - wk[t].fx[at + 1] + wk[t].fy[at] - wk[t].fy[at + sx]) *
                            g->rarea[at];
            }
    }
}
