/* tp_hand.h: the example model's transport step (fvtp.fpo's tp_step) written by hand, for the
 * benchmark's comparison: the model's own plain-C reference (example_model/fvtp.c, FV3's
 * fv_tp_2d line by line), level after level on one whole tile, in the model's array layout,
 * the levels shared out among the OpenMP threads as the generated step shares them. */
#ifndef TP_HAND_H
#define TP_HAND_H

#include "em.h"

/* What one thread works in: a level at a time. */
typedef struct tp_hand_thread {
    em_tp_winds w;    /* tile 0: the level's arrays */
    em_tp_work wk;
    double *ra_x, *ra_y;
} tp_hand_thread;

/* Every array holds nz levels (2D ones one) of (n + 7)^2 points: i, j in [-3, n + 4), I
 * fastest (EM_AT with halo 3). */
typedef struct tp_hand {
    int n, nz, nthreads;
    size_t plane;
    em_grid g;        /* n, nx, ny, h, sx, sy and area, rarea, dxa, dya only */
    tp_hand_thread *th;
    double *q, *crx, *cry, *xfx, *yfx;
} tp_hand;

/* Allocates the arrays (zeroed), each thread's for as many threads as OpenMP would use; 0 on
 * success. */
int tp_hand_open(tp_hand *t, int n, int nz);
/* One step: per level the swept areas, fv_tp_2d (hord 8) and the flux-form update of q. */
void tp_hand_step(tp_hand *t);
/* Its work arrays (swept areas, em_tp_work), all threads'. */
size_t tp_hand_bytes(const tp_hand *t);
void tp_hand_close(tp_hand *t);

#endif
