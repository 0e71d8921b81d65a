/* chain_hand.h: the chain step (chain.fpo) written by hand in CUDA as one kernel, for
 * fpo_cuda_bench's comparison (what one kernel of the whole step reaches on a device) and its
 * bit-for-bit check against the C back end without a GPU (chain_hand_check.c). */
#ifndef CHAIN_HAND_H
#define CHAIN_HAND_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Arrays cover i in [-h, nx + h), j in [-h, ny + h), k in [0, nz), I fastest (h >= 1, nz >= 2);
 * the domain is one whole tile (regions at i = 0, i = nx, j = 0, j = ny). */
typedef struct chain_hand_grid {
    int nx, ny, nz, h;
} chain_hand_grid;

/* A block's columns: 32 along I, `rows` along J (1 to 32). The FORWARD sweep's cp and dp of
 * the top `keep` levels (0 to nz) stay in the block's shared memory (chain_hand_shared bytes
 * a block: the device must give that), the others' go to device memory (`work`:
 * chain_hand_work_doubles of them). */
size_t chain_hand_work_doubles(const chain_hand_grid *g);
size_t chain_hand_shared(const chain_hand_grid *g, int rows, int keep);

/* One step, q_out from q, u, v, delp (device memory), queued on the default stream; 0, or the
 * launch's CUDA error code. */
int chain_hand_step(const chain_hand_grid *g, int rows, int keep, const double *q,
                    const double *u, const double *v, const double *delp, double *q_out,
                    double *work, double dtdx, double kd, double kv);

#ifdef __cplusplus
}
#endif

#endif
