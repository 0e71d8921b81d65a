/* fpo_cuda_kernels.h: what the generated .cu sources need besides the program's own header:
 * kernel qualifiers and the launch of a kernel over a box of points. Compiled by nvcc, it is
 * CUDA; compiled as C with FPO_CUDA_EMULATE defined (the emulated build, runtime/cuda_emu.c),
 * a launch runs the kernel once per thread of every block, in order, on the host (a segment
 * kernel's threads each phase in turn, FPO_PHASE_): the same kernel code, checked without a
 * GPU. */
#ifndef FPO_CUDA_KERNELS_H
#define FPO_CUDA_KERNELS_H

#include "fpo_cuda.h"

#include <limits.h>

#ifdef FPO_CUDA_EMULATE
#include <stdio.h>
#include <stdlib.h>
typedef struct fpo_dim3_ {
    unsigned x, y, z;
} fpo_dim3_;
/* The built-in indices and the phases' state, one of each for the process (cuda_emu.c defines
 * them), as on a device: a launch sets them, and a kernel another file compiled reads them
 * (generated variants launch the kernels an earlier variant's file holds). */
extern fpo_dim3_ fpo_emu_thread_idx_, fpo_emu_block_idx_, fpo_emu_block_dim_, fpo_emu_grid_dim_;
#define threadIdx fpo_emu_thread_idx_
#define blockIdx fpo_emu_block_idx_
#define blockDim fpo_emu_block_dim_
#define gridDim fpo_emu_grid_dim_
#define __global__ __attribute__((unused))
#define __shared__ static
/* A segment kernel's phases run one after another with a barrier between each two, also
 * between a level's last phase and the next level's first (CUDA_LEVELS): a phase that begins
 * with no barrier since this block's phase before stops the emulation (fpo_emu_phase_start_),
 * so a barrier the generator left out fails the tests, not only a nest put in the wrong
 * phase. */
extern int fpo_emu_phased_;   /* a phase of the block ran */
extern int fpo_emu_synced_;   /* a barrier since */
#define __syncthreads() ((void)(fpo_emu_synced_ = 1))
#define FPO_TILE_THREADS 256
#define FPO_TILE_THREADS_(n) (n)
#define FPO_TILE_BLOCK_(n) 1   /* a segment kernel runs its threads itself, FPO_PHASE_ */
#define FPO_LAUNCH_BOUNDS(n, blocks)
#define FPO_UNROLL(n)
#define FPO_OPAQUE_GLOBAL(p) ((void)(p))
#define FPO_READ_ONLY_(type, name, p) type *restrict const name = (p)
/* Blocks run one after another, in order, or in reverse order where FPO_CUDA_EMU_REVERSE=1:
 * a kernel whose blocks depend on each other (one reads what another writes in the same
 * launch) gives different results in the two orders, so the tests run both. */
static inline __attribute__((unused)) unsigned fpo_emu_block_(unsigned b, unsigned n) {
    static int reverse = -1;
    if (reverse < 0) {
        const char *e = getenv("FPO_CUDA_EMU_REVERSE");
        reverse = e && *e == '1';
    }
    return reverse ? n - 1 - b : b;
}
/* A segment kernel's phase (the nests between two barriers) for each of its n threads in
 * turn, in the blocks' order: a nest that reads what another thread wrote in the same phase
 * reads it before it is written in one of the two orders (a barrier missing). threadIdx.x
 * is 0 again after the last. */
static inline __attribute__((unused)) int fpo_emu_phase_(unsigned *t, unsigned n) {
    if (*t >= n) {
        threadIdx.x = 0;
        return 0;
    }
    threadIdx.x = fpo_emu_block_((*t)++, n);
    return 1;
}
static inline __attribute__((unused)) unsigned fpo_emu_phase_start_(void) {
    if (fpo_emu_phased_ && !fpo_emu_synced_) {
        fprintf(stderr, "fpo cuda emulation: a segment kernel's phase began with no barrier "
                        "(__syncthreads) since the phase before\n");
        abort();
    }
    fpo_emu_phased_ = 1, fpo_emu_synced_ = 0;
    return 0;
}
#define FPO_PHASE_(n)                                                                         \
    for (unsigned fpo_th_ = fpo_emu_phase_start_(); fpo_emu_phase_(&fpo_th_, (unsigned)(n));)
/* A register each of a block's n threads keeps from one phase to the next (a walk's, in a
 * kernel whose block walks the levels together: emit_cuda.c's fed kernels): here the block's
 * array of them, the generated source naming a thread's element `name` (#define). */
#define FPO_THREAD_REG_(type, name, n) type name##_t_[n] = {0}
/* Between two phases that need no barrier: the second writes the other of each shared tile's
 * two (a fed kernel's level after the one before), which no thread of the first reads. */
#define FPO_TILES_SWAP_() ((void)(fpo_emu_synced_ = 1))
#define FPO_LAUNCH_(kern, gx, gy, gz, bx, by, stream, args)                                   \
    do {                                                                                      \
        (void)(stream);                                                                       \
        gridDim = (fpo_dim3_){(gx), (gy), (gz)};                                              \
        blockDim = (fpo_dim3_){(bx), (by), 1};                                                \
        threadIdx.z = 0;                                                                      \
        for (unsigned z_ = 0; z_ < gridDim.z; z_++)                                           \
            for (unsigned y_ = 0; y_ < gridDim.y; y_++)                                       \
                for (unsigned x_ = 0; x_ < gridDim.x; x_++) {                                 \
                    blockIdx.z = fpo_emu_block_(z_, gridDim.z);                               \
                    blockIdx.y = fpo_emu_block_(y_, gridDim.y);                               \
                    blockIdx.x = fpo_emu_block_(x_, gridDim.x);                               \
                    fpo_emu_phased_ = 0;                                                      \
                    for (threadIdx.y = 0; threadIdx.y < blockDim.y; threadIdx.y++)            \
                        for (threadIdx.x = 0; threadIdx.x < blockDim.x; threadIdx.x++)        \
                            kern args;                                                        \
                }                                                                             \
    } while (0)
/* A segment kernel's dynamic shared memory (static storage here) and its launch. */
#define FPO_DYNAMIC_SHARED_(name, bytes) static unsigned char name[bytes] __attribute__((aligned(16)))
#define FPO_LAUNCH_SHARED_(c, kern, gx, gy, gz, bx, by, bytes, stream, args)                 \
    FPO_LAUNCH_(kern, gx, gy, gz, bx, by, stream, args)
#else
#include <cuda_runtime.h>
/* C99's restrict, as CUDA C++ spells it (the kernels share emit_c.c's field setup). */
#define restrict __restrict__
#define FPO_TILE_THREADS 256   /* a segment kernel's threads: they share each phase's points */
#define FPO_TILE_THREADS_(n) (n)   /* ... where fpo-gen --cuda-threads n chose another count */
#define FPO_TILE_BLOCK_(n) (n)     /* ... and the block a launch gives it */
/* A segment kernel's phase: its threads run it together (a barrier between two phases). */
#define FPO_PHASE_(n)
/* A register a thread keeps from one phase to the next. */
#define FPO_THREAD_REG_(type, name, n) type name = 0
/* Between two phases that need no barrier (a fed kernel's levels: two of each shared tile). */
#define FPO_TILES_SWAP_() ((void)0)
/* A kernel's most threads a block, and the blocks a multiprocessor should hold at once (the
 * compiler keeps its registers within them). */
#define FPO_LAUNCH_BOUNDS(n, blocks) __launch_bounds__(n, blocks)
/* The loop that follows, unrolled n times. */
#define FPO_UNROLL(n) FPO_PRAGMA_(unroll n)
#define FPO_PRAGMA_(x) _Pragma(#x)
/* Pointer p into global memory, as something the compiler cannot see the making of: an
 * access p[o] is then one wide multiply-add of o into p (and a global load or store), where
 * the compiler would otherwise add the 64-bit terms p was made of to each access's 32-bit
 * offset apart. */
#define FPO_OPAQUE_GLOBAL(p)                                                                  \
    do {                                                                                      \
        asm("" : "+l"(p));                                                                    \
        __builtin_assume(__isGlobal(p));                                                      \
    } while (0)
/* A segment kernel's view of an array none of its nests writes (fpo-gen --cuda-ldg): each
 * access a load through the read-only data cache (ld.global.nc). The pointer made opaque
 * (FPO_OPAQUE_GLOBAL) leaves nvcc unable to use `restrict`: every load of a thread's next
 * point waited for its store of the one before; these loads it may issue before them. */
template <typename T> struct fpo_ro_ {
    const T *p;
    __device__ __forceinline__ T operator[](int64_t o) const { return __ldg(p + o); }
};
#define FPO_READ_ONLY_(type, name, p) const fpo_ro_<type> name = {(p)}
#define FPO_LAUNCH_(kern, gx, gy, gz, bx, by, stream, args)                                   \
    kern<<<dim3((gx), (gy), (gz)), dim3((bx), (by), 1), 0, (cudaStream_t)(stream)>>> args
/* A segment kernel's shared tiles past the 48 KB a block has without asking: `bytes` of
 * dynamic shared memory, asked for at each launch; the kernel's limit is raised once on each
 * device (fpo_cuda_shared_limit: a launch site's mask of the devices done; open checked that
 * the device has them, fpo_cuda_open). */
#define FPO_DYNAMIC_SHARED_(name, bytes) extern __shared__ __align__(16) unsigned char name[]
#define FPO_LAUNCH_SHARED_(c, kern, gx, gy, gz, bx, by, bytes, stream, args)                 \
    do {                                                                                      \
        static unsigned long long fpo_raised_;                                                \
        fpo_cuda_shared_limit((c), (const void *)(kern), (bytes), &fpo_raised_);              \
        kern<<<dim3((gx), (gy), (gz)), dim3((bx), (by), 1), (bytes), (cudaStream_t)(stream)>>> \
            args;                                                                             \
    } while (0)
#endif

/* After each launch: nothing, or (--instrument cuda-check, defined by the generated source)
 * a wait that returns the failure of the launch from run, naming the stencil. */
#ifndef FPO_AFTER_LAUNCH_
#define FPO_AFTER_LAUNCH_(c, what) ((void)0)
#endif

/* Launch a segment kernel (emit_cuda.c): a block of FPO_TILE_THREADS threads a tile, ntx x nty
 * tiles on nk levels; FPO_LAUNCH_TILES_N, a block of n threads; FPO_LAUNCH_TILES_SHARED, and
 * `bytes` of dynamic shared memory. */
#define FPO_LAUNCH_TILES(c, what, kern, ntx, nty, nk, args)                                   \
    FPO_LAUNCH_TILES_N(c, what, kern, ntx, nty, nk, FPO_TILE_THREADS, args)
#define FPO_LAUNCH_TILES_N(c, what, kern, ntx, nty, nk, n, args)                              \
    do {                                                                                      \
        if ((ntx) > 0 && (nty) > 0 && (nk) > 0) {                                             \
            FPO_LAUNCH_(kern, (unsigned)(ntx), (unsigned)(nty), (unsigned)(nk),               \
                        FPO_TILE_BLOCK_(n), 1, fpo_cuda_launch_stream(c), args);              \
            fpo_cuda_launched((c), (what));                                                   \
            FPO_AFTER_LAUNCH_((c), (what));                                                   \
        }                                                                                     \
    } while (0)

#define FPO_LAUNCH_TILES_SHARED(c, what, kern, ntx, nty, nk, n, bytes, args)                \
    do {                                                                                      \
        if ((ntx) > 0 && (nty) > 0 && (nk) > 0) {                                             \
            FPO_LAUNCH_SHARED_((c), kern, (unsigned)(ntx), (unsigned)(nty), (unsigned)(nk),   \
                               FPO_TILE_BLOCK_(n), 1, (bytes), fpo_cuda_launch_stream(c),     \
                               args);                                                         \
            fpo_cuda_launched((c), (what));                                                   \
            FPO_AFTER_LAUNCH_((c), (what));                                                   \
        }                                                                                     \
    } while (0)

/* A kernel whose block walks the levels one after another (emit_cuda.c's fed kernels) asks
 * L2 for its inputs a few levels ahead, so that its loads there find them on the chip: each
 * thread t the 128-byte line of one point of field f's points [i0, i1) x [j0, j1) (cut to the
 * field's extent; es bytes an element), the rows' lines shared out among the threads. The
 * point's offset i + j * (row stride) in a level, or INT_MIN where thread t has none; then
 * FPO_PREFETCH_L2_ at the point of the level wanted (a walk's, --cuda-prefetch, its own point).
 * Emulated, no thread has a point, and an ask reads its byte: an address outside the arrays
 * fails the sanitizers. */
#ifdef FPO_CUDA_EMULATE
#define fpo_prefetch_point_(f, es, i0, i1, j0, j1, t) ((void)(f), INT_MIN)
#define FPO_PREFETCH_L2_(p) ((void)*(const volatile char *)(p))
#else
static __device__ __forceinline__ int fpo_prefetch_point_(const fpo_field *f, int es, int64_t i0,
                                                          int64_t i1, int64_t j0, int64_t j1,
                                                          int t) {
    i0 = i0 > f->lo[0] ? i0 : f->lo[0], i1 = i1 < f->hi[0] ? i1 : f->hi[0];
    j0 = j0 > f->lo[1] ? j0 : f->lo[1], j1 = j1 < f->hi[1] ? j1 : f->hi[1];
    const int n = (int)(i1 - i0), per = (n * es + 127) / 128 + 1;   /* lines a row, at most */
    if (n <= 0 || j1 <= j0 || t >= per * (int)(j1 - j0))
        return INT_MIN;
    const int at = (t % per) * 128 / es;
    return (int)(i0 + (at < n ? at : n - 1) + (j0 + t / per) * f->stride[1]);
}
#define FPO_PREFETCH_L2_(p) asm volatile("prefetch.global.L2 [%0];" ::"l"(p))
#endif

/* A segment's tiles on one axis (emit_cuda.c) start at *lo and cover [*lo, *hi): for a nest
 * whose box there is [a, b) and that computes mlo points below each tile and mhi above, widen
 * them to hold [a + mlo, b - mhi) (its points past that are its margins in the tiles at the
 * ends; where that is empty, the bounds still move so that one tile reaches both ends). */
static inline __attribute__((unused)) void fpo_cover_(int64_t *lo, int64_t *hi, int64_t a,
                                                       int64_t b, int64_t mlo, int64_t mhi) {
    if (a >= b)
        return;
    if (a + mlo < *lo)
        *lo = a + mlo;
    if (b - mhi > *hi)
        *hi = b - mhi;
}

/* The tiles of n points that cover [lo, hi) from lo: none where no nest has a point there, at
 * least one where one has. */
static inline __attribute__((unused)) int64_t fpo_tiles_(int64_t lo, int64_t hi, int n) {
    if (lo == INT64_MAX)
        return 0;
    return hi > lo ? (hi - lo + n - 1) / n : 1;
}

/* The columns past n that the last of the tiles of n points covering [lo, hi) from lo takes
 * (a segment kernel's fpo_sx): the points left for a last tile of their own where they are at
 * most `slack` and another tile is before them, else 0; fpo_tiles_slack_: the tiles then. */
static inline __attribute__((unused)) int fpo_slack_(int64_t lo, int64_t hi, int n, int slack) {
    int64_t t = fpo_tiles_(lo, hi, n);
    int64_t rest = t > 1 ? hi - lo - (t - 1) * n : 0;
    return rest > 0 && rest <= slack ? (int)rest : 0;
}

static inline __attribute__((unused)) int64_t fpo_tiles_slack_(int64_t lo, int64_t hi, int n,
                                                               int slack) {
    return fpo_tiles_(lo, hi, n) - (fpo_slack_(lo, hi, n, slack) > 0);
}

/* Launch `kern` with a thread per point of an ni x nj box (blocks of bx x by threads) on nk
 * levels (one level per block layer), or nothing when the box is empty. */
#define FPO_LAUNCH(c, what, kern, ni, nj, nk, bx, by, args)                                   \
    do {                                                                                      \
        if ((ni) > 0 && (nj) > 0 && (nk) > 0) {                                               \
            FPO_LAUNCH_(kern, (unsigned)(((ni) + (bx) - 1) / (bx)),                            \
                        (unsigned)(((nj) + (by) - 1) / (by)), (unsigned)(nk), (bx), (by),     \
                        fpo_cuda_launch_stream(c), args);                                     \
            fpo_cuda_launched((c), (what));                                                   \
            FPO_AFTER_LAUNCH_((c), (what));                                                   \
        }                                                                                     \
    } while (0)

#endif
