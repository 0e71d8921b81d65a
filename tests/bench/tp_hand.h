/* tp_hand.h: the example model's transport step (fvtp.fpo's tp_step) written by hand, for the
 * benchmark's comparison: the model's own plain-C reference (example_model/fvtp.c, FV3's
 * fv_tp_2d line by line), level after level on one whole tile, in the model's array layout. */
#ifndef TP_HAND_H
#define TP_HAND_H

#include "em.h"

/* Every array holds nz levels (2D ones one) of (n + 7)^2 points: i, j in [-3, n + 4), I
 * fastest (EM_AT with halo 3). */
typedef struct tp_hand {
    int n, nz;
    size_t plane;
    em_grid g;        /* n, nx, ny, h, sx, sy and area, rarea, dxa, dya only */
    em_tp_winds w;    /* tile 0: one level's arrays at a time */
    em_tp_work wk;
    double *q, *crx, *cry, *xfx, *yfx, *ra_x, *ra_y;
} tp_hand;

/* Allocates the arrays (zeroed); 0 on success. */
int tp_hand_open(tp_hand *t, int n, int nz);
/* One step: per level the swept areas, fv_tp_2d (hord 8) and the flux-form update of q. */
void tp_hand_step(tp_hand *t);
size_t tp_hand_bytes(const tp_hand *t);   /* its work arrays (the swept areas and em_tp_work) */
void tp_hand_close(tp_hand *t);

#endif
