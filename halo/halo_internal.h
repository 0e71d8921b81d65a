/* halo_internal.h: what the files of halo/ share: doubled tile coordinates, edge crossings,
 * the plan's point sources, peers, segments and tags, and the packing back ends. */
#ifndef FPO_HALO_INTERNAL_H
#define FPO_HALO_INTERNAL_H

#include "fpo_halo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Doubled tile coordinates: X = 2x, so cell centres are odd and faces even; a tile spans
 * [0, 2n] on each axis. A position is half-integer on I (hx = 1) for CENTER and YFACE. */
static inline int hx_half_x(fpo_halo_pos pos) { return pos == FPO_HALO_CENTER || pos == FPO_HALO_YFACE; }
static inline int hx_half_y(fpo_halo_pos pos) { return pos == FPO_HALO_CENTER || pos == FPO_HALO_XFACE; }

/* What corners.c and its device form in pack_cuda.cu both compute. */
#ifdef __CUDACC__
#define HX_HD __host__ __device__
#else
#define HX_HD
#endif

/* Corner fills (corners.c): tile corners in the order SW, SE, NW, NE. The quarter turn taking
 * a corner-block point to its source: +1 counter-clockwise, -1 clockwise; the source lies in
 * the W / E halo for dir X, the S / N halo for dir Y. */
static inline HX_HD int hx_corner_turn(int corner, fpo_halo_fill dir)
{
    int sw_ne = corner == 0 || corner == 3;
    return (sw_ne == (dir == FPO_HALO_FILL_X)) ? -1 : 1;
}

/* Whether point (i, j) of a field at a position of halves (hx, hy) lies in the halo block of
 * `corner` of an nx x ny rank, and if so its source (*si, *sj) under turn t. */
static inline HX_HD int hx_corner_src(int corner, int t, int nx, int ny, int hx, int hy, int i,
                                      int j, int *si, int *sj)
{
    int cx = corner & 1 ? 2 * nx : 0, cy = corner & 2 ? 2 * ny : 0;
    int a = 2 * i + hx - cx, b = 2 * j + hy - cy; /* doubled, from the corner */
    int sa = t > 0 ? -b : b, sb = t > 0 ? a : -a;
    if (!((corner & 1 ? a > 0 : a < 0) && (corner & 2 ? b > 0 : b < 0)))
        return 0;
    *si = (sa + cx - ((sa + cx) & 1)) / 2; /* floor: the source's own parity */
    *sj = (sb + cy - ((sb + cy) & 1)) / 2;
    return 1;
}

fpo_halo_status hx_fail(fpo_halo_error *err, fpo_halo_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* decomp.c */
/* Map doubled point (*x, *y) of `tile` across tile side `side` (W, E, S or N) onto the
 * neighbouring tile; returns that tile and sets *rot (see fpo_halo_nbr). */
int hx_cross(int n, int tile, fpo_halo_dir side, int *x, int *y, int *rot);
/* Owner of doubled tile point (x, y), 0 <= x, y <= 2n: rank and local index. */
void hx_owner(const fpo_halo_decomp *d, int tile, int x, int y, int *rank, int *li, int *lj);
/* Source of a value under turn `rot`: component c of the receiver is sign * component
 * *sc of the sender. Scalars (ncomp 1) never swap. */
void hx_turn(int rot, int ncomp, int c, int *sc, int *sign);
/* The positions of an item's components; returns the number of components (1 or 2). */
int hx_item_pos(const fpo_halo_item *it, fpo_halo_pos pos[2]);

/* plan.c */
/* A point a rank receives: its local index, the sender and the sender's local index and
 * component, and the sign. */
typedef struct hx_pt {
    int i, j;
    int rank, si, sj, scomp, sign;
} hx_pt;

typedef struct hx_pts {
    hx_pt *p;
    int n, cap;
} hx_pts;

/* Appends to `out` the points rank `r` receives for component `c` (at `pos`) of an item with
 * `ncomp` components. */
typedef fpo_halo_status hx_points_fn(const fpo_halo_decomp *r, fpo_halo_pos pos, int ncomp, int c,
                                     int depth, hx_pts *out, fpo_halo_error *err);
fpo_halo_status hx_pts_push(hx_pts *out, hx_pt p, fpo_halo_error *err);

/* Point sources: the halo points of an exchange to `depth`, walked strip by strip
 * (hx_halo_points) or over the whole box, compute points skipped (hx_halo_points_box, the
 * reference); edges.c's shared-edge duplicates (hx_edge_points, depth 0). Points in j then i
 * order; both halo walks give the same list. */
hx_points_fn hx_halo_points, hx_halo_points_box, hx_edge_points;

/* Fills plan p's peers, entries and message layout for decomposition d without MPI: from the
 * ranks within reach of d (every = 0) or from every rank (every = 1: the exhaustive
 * construction, O(ranks) time, kept as the reference). */
fpo_halo_status hx_plan_fill(fpo_halo_plan *p, const fpo_halo_decomp *d, int depth,
                             hx_points_fn *points, int every, fpo_halo_error *err);

/* Checks the items and builds a plan without MPI (no communicator, no requests): for any rank
 * of a layout made by fpo_halo_layout. Tests and benchmarks compare and time plans with it. */
fpo_halo_status hx_plan_local(fpo_halo_plan **plan, const fpo_halo_decomp *d, int depth,
                              int need, int nitems, const fpo_halo_item *items, unsigned flags,
                              hx_points_fn *points, int every, const char *what,
                              fpo_halo_error *err);

/* hx_plan_local, then the MPI side (hx_plan_comm). Each field must cover
 * [-need, n + stagger + need) on I and J. Local: no collective. */
fpo_halo_status hx_plan_build(fpo_halo_plan **plan, const fpo_halo_decomp *d, int depth,
                              int need, int nitems, const fpo_halo_item *items, unsigned flags,
                              hx_points_fn *points, const char *what, fpo_halo_error *err);

/* One entry of a message: element offset of local point (i, j) of level 0 from the field's
 * base, the component, and the sign applied when packing. */
typedef struct hx_entry {
    int32_t off;
    int8_t comp, sign;
} hx_entry;

/* The points of one (item, receiver component) in one message, times the item's levels. */
typedef struct hx_seg {
    int item, rcomp, n, cap;
    int uniform;   /* 1: every entry has the component and sign of e[0] (the usual case) */
    hx_entry *e;
    size_t byte; /* offset in the peer's message */
} hx_seg;

typedef struct hx_side {
    hx_seg *seg;
    int nseg, cap;
    size_t bytes;
    size_t at; /* offset of this message in the plan's buffer */
} hx_side;

typedef struct hx_peer {
    int rank;
    fpo_halo_dir dir; /* where its first point lies, for messages */
    hx_side send, recv;
} hx_peer;

/* An item as packed: component base pointers at local (0, 0) of the first level. */
typedef struct hx_slot {
    char *base[2];
    int64_t sk[2];
    int64_t nk;
    size_t esize;
    fpo_halo_dtype dtype;
} hx_slot;

/* The message tags of the live plans on one decomposition's communicator, shared by the
 * communicator (an attribute) and its plans. */
typedef struct hx_tags {
    int refs;
    int n;                /* tags 0 .. n-1 tracked */
    unsigned char *used;
} hx_tags;

struct fpo_halo_plan {
    MPI_Comm comm;  /* the decomposition's communicator (not owned), or MPI_COMM_NULL */
    hx_tags *tags;  /* where `tag` is held */
    int tag;
    int rank;
    int nitems;
    fpo_halo_item *items;
    hx_slot *slot;
    int npeers;
    hx_peer *peer;
    char *sbuf, *rbuf; /* host buffers */
    size_t sbytes, rbytes;
    MPI_Request *req; /* receives, then sends */
    int nreq;
    unsigned flags;
    int active;
    int abandoned; /* destroyed between start and finish: its sends may still be reading */
    void *dev; /* pack_cuda.cu state */
};

fpo_halo_status hx_slot_bind(hx_slot *s, const fpo_halo_item *it);

/* exchange.c */
/* Takes the lowest tag free among the live plans on d's communicator (plans created in one
 * order on every rank thus agree without messages), allocates the buffers and the persistent
 * requests. */
fpo_halo_status hx_plan_comm(fpo_halo_plan *p, const fpo_halo_decomp *d, fpo_halo_error *err);
/* Frees the plan's tag (no-op for a plan without one). */
void hx_tag_release(fpo_halo_plan *p);

/* pack_cuda.cu (or the stubs in exchange.c when CUDA is absent) */
fpo_halo_status hx_cuda_setup(fpo_halo_plan *p, fpo_halo_error *err);
fpo_halo_status hx_cuda_pack(fpo_halo_plan *p, fpo_halo_error *err);
fpo_halo_status hx_cuda_unpack(fpo_halo_plan *p, fpo_halo_error *err);
/* Buffers MPI should use for sends and receives (device ones when CUDA-aware). */
void hx_cuda_buffers(fpo_halo_plan *p, void **sbuf, void **rbuf);
/* Frees the device state; keeps the device send buffer of an abandoned plan (MPI may still
 * read it). */
void hx_cuda_free(fpo_halo_plan *p);
/* Takes back a started exchange's requests before its plan is freed (exchange.c). */
void hx_abandon(fpo_halo_plan *p);
/* corners.c's fill of one corner block of `dst` at `pos` (turn t, sign) from `src`, on device
 * memory, queued on `stream`. */
fpo_halo_status hx_cuda_corner(const fpo_halo_decomp *d, const fpo_halo_field *dst,
                               const fpo_halo_field *src, int corner, int t, double sign,
                               fpo_halo_pos pos, int depth, void *stream, fpo_halo_error *err);

#ifdef __cplusplus
}
#endif

#endif
