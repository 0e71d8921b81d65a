/* tp_hand.c: takes the example model's transport inputs of one tile in the model's layout,
 * gives one step of tp_step by hand: per level the swept areas, FV3's fv_tp_2d as the model's
 * reference computes it (example_model/fvtp.c) and the update, as fvtp.fpo's tp_step does. */
#include "tp_hand.h"

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

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
    double **a2[] = {&g->area, &g->rarea, &g->dxa, &g->dya};
    for (size_t a = 0; a < sizeof a2 / sizeof *a2; a++)
        *a2[a] = calloc(t->plane, sizeof(double));
    int ok = t->q && t->crx && t->cry && t->xfx && t->yfx && g->area && g->rarea && g->dxa &&
             g->dya;
    t->nthreads = 1;
#ifdef _OPENMP
    t->nthreads = omp_get_max_threads();
#endif
    t->th = calloc((size_t)t->nthreads, sizeof *t->th);
    ok = ok && t->th;
    for (int r = 0; ok && r < t->nthreads; r++) {
        tp_hand_thread *th = &t->th[r];
        em_error err;
        th->ra_x = calloc(t->plane, sizeof(double));
        th->ra_y = calloc(t->plane, sizeof(double));
        ok = th->ra_x && th->ra_y && em_tp_work_init(g, &th->wk, &err) == EM_OK;
    }
    return ok ? 0 : 1;
}

void tp_hand_step(tp_hand *t) {
    const em_grid *g = &t->g;
    int n = t->n, h = EM_TP_HALO;
    ptrdiff_t sx = g->sx;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(t->nthreads)
#endif
    for (int k = 0; k < t->nz; k++) {
        tp_hand_thread *th = t->th;
#ifdef _OPENMP
        th += omp_get_thread_num();
#endif
        size_t off = (size_t)k * t->plane;
        double *q = t->q + off;
        const double *xfx = t->xfx + off, *yfx = t->yfx + off;
        /* the swept areas, as the FPO step computes them each step (swept_x, swept_y) */
        for (int j = -h; j < n + h; j++)
            for (int i = 0; i < n; i++) {
                size_t at = EM_AT(g, i, j);
                th->ra_x[at] = g->area[at] + xfx[at] - xfx[at + 1];
            }
        for (int j = 0; j < n; j++)
            for (int i = -h; i < n + h; i++) {
                size_t at = EM_AT(g, i, j);
                th->ra_y[at] = g->area[at] + yfx[at] - yfx[at + sx];
            }
        th->w.crx[0] = t->crx + off, th->w.cry[0] = t->cry + off;
        th->w.xfx[0] = t->xfx + off, th->w.yfx[0] = t->yfx + off;
        th->w.ra_x[0] = th->ra_x, th->w.ra_y[0] = th->ra_y;
        em_fv_tp_2d(g, q, &th->w, 0, EM_PPM_MONO, &th->wk);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                size_t at = EM_AT(g, i, j);
                q[at] += (th->wk.fx[at] - th->wk.fx[at + 1] + th->wk.fy[at] -
                          th->wk.fy[at + sx]) *
                         g->rarea[at];
            }
    }
}

size_t tp_hand_bytes(const tp_hand *t) {
    return (size_t)t->nthreads * (2 + 7) * t->plane * sizeof(double);
}

void tp_hand_close(tp_hand *t) {
    for (int r = 0; t->th && r < t->nthreads; r++) {
        em_tp_work_free(&t->th[r].wk);
        free(t->th[r].ra_x), free(t->th[r].ra_y);
    }
    free(t->th);
    double *a[] = {t->q, t->crx, t->cry, t->xfx, t->yfx, t->g.area, t->g.rarea, t->g.dxa,
                   t->g.dya};
    for (size_t k = 0; k < sizeof a / sizeof *a; k++)
        free(a[k]);
}
