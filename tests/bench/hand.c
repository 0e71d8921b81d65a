/* hand.c: takes the chain step's fields, gives q_out as chain.fpo does, written the way a
 * careful programmer would by hand: per J row (rows shared by threads), each level's fluxes and
 * update go straight into the vertical solve, whose sweeps keep their coefficients in per-thread
 * buffers; inputs are read and q_out written once. Same arithmetic, so the same bits. */
#include "hand.h"

#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

struct hand_work {
    hand_grid g;
    int nthreads;
    double *buf;      /* per thread: cp, dp (nz x nx each), x (nx), fx (nx + 1), fy (2 x nx) */
    size_t per_thread;
};

hand_work *hand_open(const hand_grid *g) {
    hand_work *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->g = *g;
#ifdef _OPENMP
    w->nthreads = omp_get_max_threads();
#else
    w->nthreads = 1;
#endif
    w->per_thread = (size_t)g->nx * (2 * (size_t)g->nz + 4) + 1;
    w->buf = calloc(w->per_thread * (size_t)w->nthreads, sizeof(double));
    if (!w->buf) {
        free(w);
        return NULL;
    }
    return w;
}

void hand_close(hand_work *w) {
    if (w)
        free(w->buf);
    free(w);
}

size_t hand_bytes(const hand_work *w) {
    return w->per_thread * (size_t)w->nthreads * sizeof(double);
}

void hand_step(hand_work *w, const double *q, const double *u, const double *v,
               const double *delp, double *q_out, double dtdx, double kd, double kv) {
    const int nx = w->g.nx, ny = w->g.ny, nz = w->g.nz, h = w->g.h;
    const ptrdiff_t sj = nx + 2 * h, sk = sj * (ny + 2 * h), o = h + h * sj;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(w->nthreads)
#endif
    for (int j = 0; j < ny; j++) {
#ifdef _OPENMP
        double *t = w->buf + w->per_thread * (size_t)omp_get_thread_num();
#else
        double *t = w->buf;
#endif
        double *cp = t, *dp = t + (size_t)nx * nz, *x = dp + (size_t)nx * nz, *fx = x + nx,
               *fy = fx + nx + 1;
        for (int k = 0; k < nz; k++) {
            const ptrdiff_t b = o + k * sk + j * sj;
            for (int i = 0; i <= nx; i++) {
                double cx = u[b + i] * dtdx;
                fx[i] = cx > 0.0 ? cx * q[b + i - 1] : cx * q[b + i];
                if (i == 0 || i == nx)
                    fx[i] = 0.0;
            }
            for (int r = 0; r < 2; r++)
                for (int i = 0; i < nx; i++) {
                    const ptrdiff_t c = b + r * sj + i;
                    double cy = v[c] * dtdx;
                    double f = cy > 0.0 ? cy * q[c - sj] : cy * q[c];
                    if (j + r == 0 || j + r == ny)
                        f = 0.5 * f;
                    fy[r * nx + i] = f;
                }
            double *cpk = cp + (size_t)k * nx, *dpk = dp + (size_t)k * nx;
            for (int i = 0; i < nx; i++) {
                const ptrdiff_t c = b + i;
                double qd = q[c] + kd * (q[c - 1] + q[c + 1] + q[c - sj] + q[c + sj] - 4.0 * q[c]);
                double d = qd - (fx[i + 1] - fx[i] + fy[nx + i] - fy[i]) / delp[c];
                if (k == 0) {
                    cpk[i] = -kv / (1.0 + kv);
                    dpk[i] = d / (1.0 + kv);
                } else if (k < nz - 1) {
                    double m = 1.0 + 2.0 * kv + kv * cpk[i - nx];
                    cpk[i] = -kv / m;
                    dpk[i] = (d + kv * dpk[i - nx]) / m;
                } else {
                    double mt = 1.0 + kv + kv * cpk[i - nx];
                    cpk[i] = 0.0;
                    dpk[i] = (d + kv * dpk[i - nx]) / mt;
                }
            }
        }
        for (int k = nz - 1; k >= 0; k--) {
            const ptrdiff_t b = o + k * sk + j * sj;
            double *cpk = cp + (size_t)k * nx, *dpk = dp + (size_t)k * nx;
            for (int i = 0; i < nx; i++) {
                x[i] = k == nz - 1 ? dpk[i] : dpk[i] - cpk[i] * x[i];
                q_out[b + i] = x[i] > 0.0 ? x[i] : 0.0;
            }
        }
    }
}
