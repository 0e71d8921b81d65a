/* fpo_runtime.h: what generated programs and their callers share: field and domain
 * descriptors, status codes and error messages, and the checks `open` makes. */
#ifndef FPO_RUNTIME_H
#define FPO_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fpo_dtype { FPO_F32, FPO_F64, FPO_I32, FPO_BOOL } fpo_dtype;

/* Axes a field has: FPO_IJK (3D), FPO_IJ (2D), FPO_K (1D). */
typedef enum fpo_axes { FPO_IJK, FPO_IJ, FPO_K } fpo_axes;

/* Which memory a field's data is in: the host's (the C back end's), or a CUDA device's
 * (cudaMalloc or cudaMallocManaged: the CUDA back end's). */
typedef enum fpo_space { FPO_HOST, FPO_DEVICE } fpo_space;

typedef enum fpo_status {
    FPO_OK = 0,
    FPO_EINVAL,   /* a bad argument (null pointer, negative size, ...) */
    FPO_ESHAPE,   /* a field does not cover the points the program touches */
    FPO_EDTYPE,   /* a field's dtype or axes differ from the program's parameter */
    FPO_ENOMEM,   /* an allocation failed */
    FPO_EMISMATCH, /* the run does not match what was built */
    FPO_ECHECK,    /* an instrumentation check failed (NaN, negative value) */
    FPO_EHALO      /* a halo statement failed (fpo_halo's message follows) */
} fpo_status;

typedef struct fpo_error {
    fpo_status code;
    char msg[512];
} fpo_error;

/* A field: `data` points at the element of index (lo[0], lo[1], lo[2]); the field covers
 * indices [lo[d], hi[d]) on each axis d (I, J, K). Strides are in elements; stride[0] is 1.
 * Axes a field lacks have lo = 0, hi = 1, stride = 0. Index 0 on I and J is the first point
 * of the rank's compute domain, so a halo of width h gives lo = -h. */
typedef struct fpo_field {
    void *data;
    fpo_dtype dtype;
    fpo_axes axes;
    int64_t lo[3], hi[3];
    int64_t stride[3];
    fpo_space space;   /* FPO_HOST (0, what fpo_field_make gives) or FPO_DEVICE */
} fpo_field;

/* The rank's domain: compute-domain sizes, and where it sits on its tile (for regions). */
typedef struct fpo_domain {
    int nx, ny, nz;         /* local compute-domain sizes */
    int i0, j0;             /* tile index of local point (0, 0) */
    int tile_nx, tile_ny;   /* cells per tile edge */
    int tile;               /* tile number 0..5 */
} fpo_domain;

/* Options of `<program>_open_with`; zero (or a NULL pointer) for none. */
typedef struct fpo_options {
    const struct fpo_halo_decomp *halo; /* this rank's decomposition (fpo_halo.h): needed by
                                         * programs with halo statements, unused otherwise */
    void *user;                          /* given to host callbacks as their first argument */
    const char *variant;                 /* force the variant of this class ("sw", "all", ...)
                                          * instead of the domain's: for tests */
    const char *backend;                 /* the back end to run: "c" or "cuda" (refused unless
                                          * built); NULL: FPO_BACKEND from the environment,
                                          * else "c" */
    void *cuda_stream;                   /* CUDA back end: the caller's stream (a cudaStream_t)
                                          * to queue the program's runs on; NULL: a stream of
                                          * the program's own (<program>_stream gives it) */
} fpo_options;

/* A domain that is a whole tile: i0 = j0 = 0, tile_nx = nx, tile_ny = ny, tile 0. */
fpo_domain fpo_domain_local(int nx, int ny, int nz);

/* Tile edges a domain touches (its edge class): FPO_EDGE_* bits, as fpo_halo's. */
enum { FPO_EDGE_W = 1, FPO_EDGE_E = 2, FPO_EDGE_S = 4, FPO_EDGE_N = 8 };
unsigned fpo_domain_edges(const fpo_domain *d);

/* Describe a contiguous I-fastest array covering [lo, hi) on each axis; `data` is its first
 * element. For FPO_IJ the K entries are ignored, for FPO_K the I and J entries. */
fpo_field fpo_field_make(void *data, fpo_dtype dtype, fpo_axes axes,
                         const int64_t lo[3], const int64_t hi[3]);

/* Shorthands for fpo_field_make. */
fpo_field fpo_field_3d(void *data, fpo_dtype dtype, int64_t ilo, int64_t ihi, int64_t jlo,
                       int64_t jhi, int64_t klo, int64_t khi);
fpo_field fpo_field_2d(void *data, fpo_dtype dtype, int64_t ilo, int64_t ihi, int64_t jlo,
                       int64_t jhi);
fpo_field fpo_field_1d(void *data, fpo_dtype dtype, int64_t klo, int64_t khi);

/* `f` with its data in a CUDA device's memory (space FPO_DEVICE). */
fpo_field fpo_field_on_device(fpo_field f);

/* Size in bytes of one element of `dtype`. */
size_t fpo_dtype_size(fpo_dtype dtype);
const char *fpo_dtype_name(fpo_dtype dtype);

/* Set `err` (may be NULL) to `code` and a printf-formatted message; returns `code`. */
fpo_status fpo_fail(fpo_error *err, fpo_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Check that `f` has `dtype` and `axes` and covers [need_lo, need_hi) on each of its axes.
 * `name` is the parameter's name, used in the message. */
fpo_status fpo_field_check(const fpo_field *f, const char *program, const char *name,
                           fpo_dtype dtype, fpo_axes axes, const int64_t need_lo[3],
                           const int64_t need_hi[3], fpo_error *err);

/* Check that fields f[0 .. n) (each already checked: fpo_field_check) share no memory where the
 * program writes one of them (writes[x] nonzero): its views are restrict, so a field it writes
 * needs points of its own; one array given for two fields it only reads is fine. Where the
 * byte ranges the descriptors span overlap, their rows of points are compared (fields whose
 * rows take turns in one array are apart). `names` are the parameters'. */
fpo_status fpo_fields_apart(const fpo_field *const *f, const char *const *names,
                            const unsigned char *writes, int n, const char *program,
                            fpo_error *err);

/* Check that every point of `f` lies within 2^31 - 1 elements of its level's origin (i = j =
 * 0), counting a row as its j stride or `row` elements, whichever is more: the CUDA back end's
 * kernels index a level, and a shared tile of rows of `row` elements, with 32-bit offsets.
 * `name` is the parameter's name, NULL for a temporary. */
fpo_status fpo_field_check_offsets32(const fpo_field *f, int64_t row, const char *program,
                                     const char *name, fpo_error *err);

/* Check a domain: sizes positive, position on the tile consistent. */
fpo_status fpo_domain_check(const fpo_domain *d, const char *program, fpo_error *err);

/* Allocate / free a page-aligned (4096-byte) block of `bytes` (for temporaries; from 2 MiB on
 * aligned to 2 MiB, where huge pages may back it: fpo_pool_advise), as it comes: the threads
 * that use it zero it (fpo_pool_touch). */
void *fpo_alloc_pages(size_t bytes);
void fpo_free(void *p);

/* Ask the system to back the whole huge pages (2 MiB) of the first `shared` bytes of a pool
 * (its arrays, which every thread uses) with huge pages, before their first touch: fewer TLB
 * misses where a group sweeps arrays of many MB. Per-thread parts keep small pages (each is
 * placed by its own thread's first touch). Advice only (Linux madvise, MADV_HUGEPAGE; nothing
 * elsewhere); FPO_HUGEPAGES=0 in the environment says no. */
void fpo_pool_advise(void *pool, size_t shared);

/* Thread t of a team of `team` zeroes its share of a program's pool of `bytes`: the shared part
 * (the first `mine` bytes, or all of them when mine_bytes is 0) split in pages, and the parts of
 * mine_bytes of the pool threads t, t + team, ... (out of nthreads). Called by every member of
 * the team, it zeroes the whole pool, each page by the thread that will use it (first touch). */
void fpo_pool_touch(void *pool, size_t bytes, size_t mine, size_t mine_bytes, int nthreads,
                    int t, int team);

/* The size of one of this machine's data caches in bytes, as CPU 0 sees it: `level` 2 the
 * level-2 cache (one core's), 0 the last level (the largest). From sysfs, else sysconf, else
 * 512 KiB (level 2) or 32 MiB. */
size_t fpo_cache_bytes(int level);

/* Whether an array of `bytes` that a fused group writes without reading it is written past
 * the caches (fpo-gen's pass stream): when it is at least a quarter of the last-level cache,
 * or, when a later group of the program reads it (`read_later`: a temporary handed from one
 * group to the next), at least the whole of it (smaller, that group finds much of it in the
 * cache). FPO_STREAM=1 (0) in the environment says always (never). */
int fpo_stream_worth(size_t bytes, int read_later);

/* How many steps ahead a row pipeline fetches the rows of its arrays into the level-2 cache
 * (fpo-gen's pass prefetch): FPO_PREFETCH_ROWS=n in the environment (0: no fetches, at most
 * 64), else 2. Open reads it once. */
int fpo_prefetch_rows(void);

/* The J rows per block of a column group whose strips take `row_bytes` per row (all levels):
 * as many as fill half of the level-2 cache `l2`, at least 1 and at most `most` (the rows its
 * strips were sized for); `forced` (> 0) instead, within the same bounds. Open reads `l2`
 * (fpo_cache_bytes(2)) and `forced` (fpo_column_rows_env: FPO_COLUMN_ROWS=n, else 0) once and
 * sets each column group's rows. */
int fpo_column_rows(size_t l2, int forced, size_t row_bytes, int most);
int fpo_column_rows_env(void);

/* What an opened program holds for its temporaries (<program>_memory). */
typedef struct fpo_memory {
    size_t pool_bytes;      /* the one block allocated at open for every temporary */
    size_t unfused_bytes;   /* what the unfused form needs: every temporary a full array */
    size_t array_bytes;     /* temporaries kept as arrays, before pool sharing */
    size_t plane_bytes;     /* temporaries shrunk to one level per thread, before sharing */
    size_t strip_bytes;     /* temporaries shrunk to one J row (all levels) per thread */
    int arrays, planes, scalars, strips;   /* temporaries by kind (scalars need no memory) */
    int threads;            /* threads a run uses (planes are per thread) */
    int streamed;           /* arrays (fields or temporaries) whose rows a group writes past
                             * the caches (fpo-gen's pass stream; open decides by their size,
                             * FPO_STREAM overrides: fpo_stream_worth) */
    int graphs;             /* CUDA back end: the graphs of runs it keeps to replay, over the
                             * bindings of its fields it keeps them for (0 on the C back end) */
} fpo_memory;

#ifdef __cplusplus
}
#endif

#endif
