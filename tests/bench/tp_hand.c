/* tp_hand.c: takes the example model's transport inputs of one tile in the model's layout,
 * gives one step of tp_step by hand: per level the swept areas, FV3's fv_tp_2d as the model's
 * reference computes it (example_model/fvtp.c) and the update, as fvtp.fpo's tp_step does. */
#include "tp_hand.h"

#include <stdlib.h>
#include <string.h>

int tp_hand_open(tp_hand *t, int n, int nz) {
    memset(t, 0, sizeof *t);
    t->n = n, t->nz = nz;
    em_grid *g = &t->g;
    g->n = g->nx = g->ny = n;
    g->h = EM_TP_HALO;
    g->sx = g->sy = n + 2 * EM_TP_HALO + 1;
    t->plane = em_grid_points(g);
    size_t n3 = t->plane * (size_t)nz;
    double **a3[] = {&t->q, &t->crx, &t->cry, &t->xfx, &t->yfx};
    for (size_t a = 0; a < sizeof a3 / sizeof *a3; a++)
        *a3[a] = calloc(n3, sizeof(double));
    double **a2[] = {&g->area, &g->rarea, &g->dxa, &g->dya, &t->ra_x, &t->ra_y};
    for (size_t a = 0; a < sizeof a2 / sizeof *a2; a++)
        *a2[a] = calloc(t->plane, sizeof(double));
    em_error err;
    int ok = t->q && t->crx && t->cry && t->xfx && t->yfx && g->area && g->rarea && g->dxa &&
             g->dya && t->ra_x && t->ra_y && em_tp_work_init(g, &t->wk, &err) == EM_OK;
    return ok ? 0 : 1;
}

void tp_hand_step(tp_hand *t) {
    const em_grid *g = &t->g;
    int n = t->n, h = EM_TP_HALO;
    ptrdiff_t sx = g->sx;
    for (int k = 0; k < t->nz; k++) {
        size_t off = (size_t)k * t->plane;
        double *q = t->q + off;
        const double *xfx = t->xfx + off, *yfx = t->yfx + off;
        /* the swept areas, as the FPO step computes them each step (swept_x, swept_y) */
        for (int j = -h; j < n + h; j++)
            for (int i = 0; i < n; i++) {
                size_t at = EM_AT(g, i, j);
                t->ra_x[at] = g->area[at] + xfx[at] - xfx[at + 1];
            }
        for (int j = 0; j < n; j++)
            for (int i = -h; i < n + h; i++) {
                size_t at = EM_AT(g, i, j);
                t->ra_y[at] = g->area[at] + yfx[at] - yfx[at + sx];
            }
        t->w.crx[0] = t->crx + off, t->w.cry[0] = t->cry + off;
        t->w.xfx[0] = t->xfx + off, t->w.yfx[0] = t->yfx + off;
        t->w.ra_x[0] = t->ra_x, t->w.ra_y[0] = t->ra_y;
        em_fv_tp_2d(g, q, &t->w, 0, EM_PPM_MONO, &t->wk);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                size_t at = EM_AT(g, i, j);
                q[at] += (t->wk.fx[at] - t->wk.fx[at + 1] + t->wk.fy[at] - t->wk.fy[at + sx]) *
                         g->rarea[at];
            }
    }
}

size_t tp_hand_bytes(const tp_hand *t) { return (2 + 7) * t->plane * sizeof(double); }

void tp_hand_close(tp_hand *t) {
    em_tp_work_free(&t->wk);
    double *a[] = {t->q, t->crx, t->cry, t->xfx, t->yfx, t->g.area, t->g.rarea, t->g.dxa,
                   t->g.dya, t->ra_x, t->ra_y};
    for (size_t k = 0; k < sizeof a / sizeof *a; k++)
        free(a[k]);
}
