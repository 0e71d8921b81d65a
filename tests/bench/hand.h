/* hand.h: the chain step (chain.fpo) written by hand in C, for the benchmark's comparison. */
#ifndef HAND_H
#define HAND_H

#include <stddef.h>

/* Arrays cover i in [-h, nx + h), j in [-h, ny + h), k in [0, nz), I fastest; the domain is one
 * whole tile (regions at i = 0, i = nx, j = 0, j = ny). */
typedef struct hand_grid {
    int nx, ny, nz, h;
} hand_grid;

typedef struct hand_work hand_work;
hand_work *hand_open(const hand_grid *g);
void hand_close(hand_work *w);
size_t hand_bytes(const hand_work *w);
void hand_step(hand_work *w, const double *q, const double *u, const double *v,
               const double *delp, double *q_out, double dtdx, double kd, double kv);

#endif
