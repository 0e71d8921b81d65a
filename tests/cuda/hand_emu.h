/* hand_emu.h: the CUDA a hand-written kernel uses (chain_hand.cu), for a C compiler: a block's
 * threads are an OpenMP team (each its own registers, __syncthreads a barrier of the team,
 * shared memory one buffer of the team), the blocks of a launch one after another. Slow, and
 * exact: the check of a hand-written kernel's logic on a machine with no GPU. */
#ifndef HAND_EMU_H
#define HAND_EMU_H

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct hand_dim3 {
    unsigned x, y, z;
} hand_dim3;

static hand_dim3 blockIdx, blockDim, gridDim;   /* the team's */
static _Thread_local hand_dim3 threadIdx;       /* each thread's */
static double *hand_emu_smem;                   /* the block's dynamic shared memory */

#define __global__ static
#define __device__ static inline
#define __forceinline__
#define __restrict__ restrict
#define __syncthreads() _Pragma("omp barrier")
#define HAND_SHARED(name) double *name = hand_emu_smem
#define HAND_UNROLL

/* kernel<<<(gx, gy), (bx, by), shared>>>(...): 0, or 1 where the team or the memory is short. */
#define HAND_LAUNCH(result, kernel, gx, gy, bx, by, shared, ...)                               \
    do {                                                                                       \
        int short_ = 0;                                                                        \
        free(hand_emu_smem);                                                                   \
        hand_emu_smem = calloc((shared) / sizeof(double) + 1, sizeof(double));                 \
        gridDim = (hand_dim3){(gx), (gy), 1};                                                  \
        blockDim = (hand_dim3){(bx), (by), 1};                                                 \
        for (unsigned y_ = 0; hand_emu_smem && y_ < gridDim.y; y_++)                           \
            for (unsigned x_ = 0; x_ < gridDim.x; x_++) {                                      \
                blockIdx = (hand_dim3){x_, y_, 0};                                             \
                _Pragma("omp parallel num_threads(blockDim.x * blockDim.y)") {                 \
                    unsigned t_ = (unsigned)omp_get_thread_num();                              \
                    if ((unsigned)omp_get_num_threads() != blockDim.x * blockDim.y) {          \
                        _Pragma("omp atomic write") short_ = 1;                                \
                    } else {                                                                   \
                        threadIdx = (hand_dim3){t_ % blockDim.x, t_ / blockDim.x, 0};          \
                        kernel(__VA_ARGS__);                                                   \
                    }                                                                          \
                }                                                                              \
            }                                                                                  \
        (result) = short_ || !hand_emu_smem;                                                   \
    } while (0)

#endif
