/* chain_hand.cu: takes the chain step's fields in device memory, gives q_out as chain.fpo does,
 * written by hand as one kernel: a block of 32 x `rows` columns walks the levels up, each
 * thread computing at its own column the Courant numbers, fluxes (handed to its neighbours in
 * shared memory), diffusion and update of a level and the FORWARD sweep of the tridiagonal
 * solve (cp, dp to device memory, those of the top levels or all of them kept in shared
 * memory), then walks its column down (the BACKWARD sweep and the clip). Inputs are read from
 * device memory once a level, two levels ahead; q_out written once. The same arithmetic as the generated code, so the same bits.
 * Compiled by nvcc for fpo_cuda_bench, and as C (HAND_EMULATE, hand_emu.h) for the check
 * without a GPU. */
#include "chain_hand.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef HAND_EMULATE
#include "hand_emu.h"
#else
#include <cuda_runtime.h>
#define HAND_SHARED(name) extern __shared__ double name[]
#define HAND_UNROLL _Pragma("unroll 8")
#define HAND_LAUNCH(result, kernel, gx, gy, bx, by, shared, ...)                               \
    do {                                                                                       \
        kernel<<<dim3((gx), (gy)), dim3((bx), (by)), (shared)>>>(__VA_ARGS__);                 \
        (result) = (int)cudaGetLastError();                                                    \
    } while (0)
#endif

enum { HX = 32 };   /* a block's columns along I */

typedef struct Args {
    const double *q, *u, *v, *delp;
    double *q_out, *cp, *dp;   /* cp, dp: nz levels of nx x ny (where not kept in shared memory) */
    int nx, ny, nz;
    ptrdiff_t sj, sk, o;       /* a field's strides, and the offset of point (0, 0, 0) */
    double dtdx, kd, kv;
} Args;

/* A column's inputs at one level: q and its four neighbours, u (and at the east face of the
 * block or domain, u one east), v (and one north), delp. */
typedef struct In {
    double q, qw, qe, qs, qn, u, ue, v, vn, dl;
} In;

/* A thread's column. */
typedef struct Col {
    int t, ti, tj;             /* its thread, and place in the block */
    ptrdiff_t c;               /* point (i, j, 0) in the fields */
    size_t w;                  /* point (i, j) in a level of cp and dp */
    bool east, north;          /* the last column of its block's or the domain's row, row */
    bool west_edge, east_edge, south_edge, north_edge;   /* the domain's faces */
    double cp, dp;             /* the FORWARD sweep at the level below */
} Col;

__device__ __forceinline__ void load(In *x, const Args *a, const Col *s, int k) {
    const ptrdiff_t c = s->c + (ptrdiff_t)k * a->sk, sj = a->sj;
    x->q = a->q[c];
    x->qw = a->q[c - 1];
    x->qe = a->q[c + 1];
    x->qs = a->q[c - sj];
    x->qn = a->q[c + sj];
    x->u = a->u[c];
    x->ue = s->east ? a->u[c + 1] : 0.0;
    x->v = a->v[c];
    x->vn = s->north ? a->v[c + sj] : 0.0;
    x->dl = a->delp[c];
}

/* Level k of the column, its inputs in x (loaded again with level k + 2's); fxs and fys: this
 * level's buffers of the block's fluxes (fx at I faces, HX + 1 a row; fy at J faces, HX a row). */
__device__ __forceinline__ void level(const Args *a, Col *s, In *x, int k, bool on, int kb,
                                      double *fxs, double *fys, double *cps, double *dps,
                                      int nt) {
    double qd = 0.0, dl = 1.0;
    if (on) {
        /* courant, flux_x, flux_y, edges_x, edges_y at the column's faces */
        double cx = x->u * a->dtdx, cy = x->v * a->dtdx;
        double fx = cx > 0.0 ? cx * x->qw : cx * x->q;
        double fy = cy > 0.0 ? cy * x->qs : cy * x->q;
        if (s->west_edge)
            fx = 0.0;
        if (s->south_edge)
            fy = 0.5 * fy;
        fxs[s->ti + s->tj * (HX + 1)] = fx;
        fys[s->ti + s->tj * HX] = fy;
        if (s->east) {
            double cxe = x->ue * a->dtdx;
            double fxe = cxe > 0.0 ? cxe * x->q : cxe * x->qe;
            fxs[s->ti + 1 + s->tj * (HX + 1)] = s->east_edge ? 0.0 : fxe;
        }
        if (s->north) {
            double cyn = x->vn * a->dtdx;
            double fyn = cyn > 0.0 ? cyn * x->q : cyn * x->qn;
            fys[s->ti + (s->tj + 1) * HX] = s->north_edge ? 0.5 * fyn : fyn;
        }
        /* diffuse */
        qd = x->q + a->kd * (x->qw + x->qe + x->qs + x->qn - 4.0 * x->q);
        dl = x->dl;
        if (k + 2 < a->nz)
            load(x, a, s, k + 2);
    }
    __syncthreads();
    if (!on)
        return;
    /* update */
    double d = qd - (fxs[s->ti + 1 + s->tj * (HX + 1)] - fxs[s->ti + s->tj * (HX + 1)] +
                     fys[s->ti + (s->tj + 1) * HX] - fys[s->ti + s->tj * HX]) / dl;
    /* vsolve's FORWARD sweep */
    const double kv = a->kv;
    double cp, dp;
    if (k == 0) {
        cp = -kv / (1.0 + kv);
        dp = d / (1.0 + kv);
    } else if (k < a->nz - 1) {
        double m = 1.0 + 2.0 * kv + kv * s->cp;
        cp = -kv / m;
        dp = (d + kv * s->dp) / m;
    } else {
        double mt = 1.0 + kv + kv * s->cp;
        cp = 0.0;
        dp = (d + kv * s->dp) / mt;
    }
    s->cp = cp, s->dp = dp;
    if (k >= kb) {
        cps[(size_t)(k - kb) * (size_t)nt + (size_t)s->t] = cp;
        dps[(size_t)(k - kb) * (size_t)nt + (size_t)s->t] = dp;
    } else {
        size_t w = s->w + (size_t)k * (size_t)a->nx * (size_t)a->ny;
        a->cp[w] = cp;
        a->dp[w] = dp;
    }
}

/* The kernel's thread: its column's walk up and down, cp and dp of the levels from kb up in
 * shared memory, those below in device memory. */
__device__ __forceinline__ void walk(Args a, int kb, double *smem) {
    const int rows = (int)blockDim.y, nt = HX * rows;
    Col s;
    s.ti = (int)threadIdx.x, s.tj = (int)threadIdx.y, s.t = s.ti + HX * s.tj;
    const int i = (int)blockIdx.x * HX + s.ti, j = (int)blockIdx.y * rows + s.tj;
    const bool on = i < a.nx && j < a.ny;   /* a column of the domain */
    s.c = a.o + i + (ptrdiff_t)j * a.sj;
    s.w = (size_t)i + (size_t)j * (size_t)a.nx;
    s.east = s.ti == HX - 1 || i == a.nx - 1;
    s.north = s.tj == rows - 1 || j == a.ny - 1;
    s.west_edge = i == 0, s.east_edge = i + 1 == a.nx;
    s.south_edge = j == 0, s.north_edge = j + 1 == a.ny;
    s.cp = 0.0, s.dp = 0.0;
    /* two levels' buffers of the fluxes (a thread may start level k + 1 while another still
     * reads level k's: one barrier a level), then the kept cp and dp */
    double *fxs = smem, *fys = fxs + 2 * (HX + 1) * rows;
    double *cps = fys + 2 * HX * (rows + 1), *dps = cps + (size_t)(a.nz - kb) * (size_t)nt;
    const int fxn = (HX + 1) * rows, fyn = HX * (rows + 1);
    In x0, x1;
    if (on) {
        load(&x0, &a, &s, 0);
        load(&x1, &a, &s, 1);
    }
    for (int k = 0; k < a.nz; k += 2) {
        level(&a, &s, &x0, k, on, kb, fxs, fys, cps, dps, nt);
        if (k + 1 < a.nz)
            level(&a, &s, &x1, k + 1, on, kb, fxs + fxn, fys + fyn, cps, dps, nt);
    }
    if (!on)
        return;
    /* vsolve's BACKWARD sweep, and positive */
    const size_t lw = (size_t)a.nx * (size_t)a.ny;
    double xk = 0.0;
    HAND_UNROLL
    for (int k = a.nz - 1; k >= 0; k--) {
        double cp, dp;
        if (k >= kb) {
            cp = cps[(size_t)(k - kb) * (size_t)nt + (size_t)s.t];
            dp = dps[(size_t)(k - kb) * (size_t)nt + (size_t)s.t];
        } else {
            cp = a.cp[s.w + (size_t)k * lw];
            dp = a.dp[s.w + (size_t)k * lw];
        }
        xk = k == a.nz - 1 ? dp : dp - cp * xk;
        a.q_out[s.c + (ptrdiff_t)k * a.sk] = xk > 0.0 ? xk : 0.0;
    }
}

/* A kernel with cp and dp in device memory only, one with some or all of them in shared
 * memory (each its own name in a profile). */
__global__ void chain_hand_cpdp_memory(Args a) {
    HAND_SHARED(smem);
    walk(a, a.nz, smem);
}

__global__ void chain_hand_cpdp_shared(Args a, int kb) {
    HAND_SHARED(smem);
    walk(a, kb, smem);
}

size_t chain_hand_work_doubles(const chain_hand_grid *g) {
    return 2 * (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
}

size_t chain_hand_shared(const chain_hand_grid *g, int rows, int keep) {
    size_t n = 2 * (size_t)(HX + 1) * (size_t)rows + 2 * (size_t)HX * (size_t)(rows + 1);
    n += 2 * (size_t)(keep < g->nz ? keep : g->nz) * (size_t)HX * (size_t)rows;
    return n * sizeof(double);
}

int chain_hand_step(const chain_hand_grid *g, int rows, int keep, const double *q,
                    const double *u, const double *v, const double *delp, double *q_out,
                    double *work, double dtdx, double kd, double kv) {
    const ptrdiff_t sj = g->nx + 2 * g->h;
    size_t lw = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
    Args a = {q, u, v, delp, q_out, work, work ? work + lw : NULL, g->nx, g->ny, g->nz,
              sj, sj * (g->ny + 2 * g->h), g->h + g->h * sj, dtdx, kd, kv};
    size_t shared = chain_hand_shared(g, rows, keep);
    int r;
#ifndef HAND_EMULATE
    if (shared > 48 * 1024 &&
        (r = (int)cudaFuncSetAttribute(chain_hand_cpdp_shared,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared)))
        return r;   /* (only a kernel that keeps levels asks for more than 48 KB) */
#endif
    unsigned gx = (unsigned)((g->nx + HX - 1) / HX), gy = (unsigned)((g->ny + rows - 1) / rows);
    if (keep > 0)
        HAND_LAUNCH(r, chain_hand_cpdp_shared, gx, gy, HX, (unsigned)rows, shared, a,
                    keep < g->nz ? g->nz - keep : 0);
    else
        HAND_LAUNCH(r, chain_hand_cpdp_memory, gx, gy, HX, (unsigned)rows, shared, a);
    return r;
}
