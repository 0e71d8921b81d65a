/* fpo_halo.h: cubed-sphere decomposition, MPI halo exchange plans, corner fills and D-grid
 * shared-edge sync, for plain C callers and generated programs alike. */
#ifndef FPO_HALO_H
#define FPO_HALO_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "fpo_runtime.h"   /* fpo_domain, for fpo_halo_domain */

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fpo_halo_status {
    FPO_HALO_OK = 0,
    FPO_HALO_EINVAL,  /* a bad argument: null pointer, depth out of range, field too small */
    FPO_HALO_ELAYOUT, /* rank count is not 6*nx*ny, or the tile does not split evenly */
    FPO_HALO_ENOMEM,  /* an allocation failed */
    FPO_HALO_EMPI,    /* an MPI call failed */
    FPO_HALO_ECUDA,   /* a CUDA call failed, or device memory asked of a build without CUDA */
    FPO_HALO_ESTATE   /* start twice, finish without start */
} fpo_halo_status;

typedef struct fpo_halo_error {
    fpo_halo_status code;
    char msg[512];
} fpo_halo_error;

typedef enum fpo_halo_dtype { FPO_HALO_F32, FPO_HALO_F64 } fpo_halo_dtype;

/* Where a field's points sit in a cell: CENTER (i+1/2, j+1/2), XFACE (i, j+1/2: C-grid u,
 * D-grid v; one more point in I), YFACE (i+1/2, j: C-grid v, D-grid u; one more point in J),
 * CORNER (i, j: B-grid; one more point in both). */
typedef enum fpo_halo_pos {
    FPO_HALO_CENTER,
    FPO_HALO_XFACE,
    FPO_HALO_YFACE,
    FPO_HALO_CORNER
} fpo_halo_pos;

/* What an exchange item is: a scalar (at CENTER or CORNER: across a turned tile edge an
 * x-face becomes a y-face, so face values travel as C- or D-grid pairs), or a vector (u, v) whose
 * components are in the rank's local grid basis: AGRID both CENTER, BGRID both CORNER, CGRID
 * u XFACE v YFACE, DGRID u YFACE v XFACE. */
typedef enum fpo_halo_kind {
    FPO_HALO_SCALAR,
    FPO_HALO_AGRID,
    FPO_HALO_BGRID,
    FPO_HALO_CGRID,
    FPO_HALO_DGRID
} fpo_halo_kind;

/* Directions, for neighbours and error messages. */
typedef enum fpo_halo_dir {
    FPO_HALO_W, FPO_HALO_E, FPO_HALO_S, FPO_HALO_N,
    FPO_HALO_SW, FPO_HALO_SE, FPO_HALO_NW, FPO_HALO_NE
} fpo_halo_dir;

/* Tile edges a rank touches (fpo_halo_decomp.edges). */
enum { FPO_HALO_EDGE_W = 1, FPO_HALO_EDGE_E = 2, FPO_HALO_EDGE_S = 4, FPO_HALO_EDGE_N = 8 };

/* A field, as FPO's runtime describes one (runtime/fpo_runtime.h): `data` points at the element
 * of index (lo[0], lo[1], lo[2]); the field covers [lo[d], hi[d]) on axis d (I, J, K); strides
 * are in elements and stride[0] is 1. Local index 0 on I and J is the rank's first compute
 * point, so a halo of width h has lo = -h; a 2D field has lo[2] = 0, hi[2] = 1. Every level
 * lo[2] .. hi[2]-1 is exchanged. */
typedef struct fpo_halo_field {
    void *data;
    fpo_halo_dtype dtype;
    int64_t lo[3], hi[3];
    int64_t stride[3];
} fpo_halo_field;

/* A contiguous I-fastest array of (ihi-ilo) x (jhi-jlo) x nk; `data` is its first element. */
fpo_halo_field fpo_halo_field_make(void *data, fpo_halo_dtype dtype, int64_t ilo, int64_t ihi,
                                   int64_t jlo, int64_t jhi, int64_t nk);

/* The neighbour across one side or corner: its rank (-1 at a cube corner, which has none) and
 * the quarter turns `rot` from this rank's frame to its frame: rot 0 (u, v) = (u', v'),
 * rot 1 (u, v) = (v', -u'), rot 3 (u, v) = (-v', u'). */
typedef struct fpo_halo_nbr {
    int rank;
    int rot;
} fpo_halo_nbr;

/* The decomposition: 6 tiles of n x n cells, each split into layout_x x layout_y ranks;
 * rank = tile * (layout_x * layout_y) + jsub * layout_x + isub, rank 0 at the south-west of
 * tile 0. Tiles 0..5 are faces +x, +y, +z, -x, -y, -z (docs/halo.md). */
typedef struct fpo_halo_decomp {
    MPI_Comm comm;           /* a duplicate of the caller's communicator, which every plan of
                                the decomposition sends on; or MPI_COMM_NULL */
    int rank, size;
    int n;                   /* cells per tile edge */
    int layout_x, layout_y;  /* ranks per tile along I and J */
    int tile, isub, jsub;
    int nx, ny;              /* compute cells of this rank */
    int i0, j0;              /* tile index of local cell (0, 0) */
    unsigned edges;          /* FPO_HALO_EDGE_* bits of the tile edges this rank touches */
    fpo_halo_nbr nbr[8];     /* by fpo_halo_dir: the rank owning the first cell across */
} fpo_halo_decomp;

/* Fill `d` for rank `rank` of `size` without MPI (comm = MPI_COMM_NULL). Errors when size is
 * not 6 * layout_x * layout_y or n does not divide evenly. */
fpo_halo_status fpo_halo_layout(fpo_halo_decomp *d, int size, int rank, int n, int layout_x,
                                int layout_y, fpo_halo_error *err);

/* Compute points of this rank at `pos`: nx x ny cells, one more on a staggered axis
 * (XFACE nx+1 x ny, YFACE nx x ny+1, CORNER nx+1 x ny+1). */
void fpo_halo_compute_size(const fpo_halo_decomp *d, fpo_halo_pos pos, int *ni, int *nj);

/* The same for the calling rank of `comm`, which is duplicated (collective). */
fpo_halo_status fpo_halo_decomp_create(fpo_halo_decomp *d, MPI_Comm comm, int n, int layout_x,
                                       int layout_y, fpo_halo_error *err);
void fpo_halo_decomp_free(fpo_halo_decomp *d);

/* The domain an FPO program opens on for this rank of the decomposition, with `nz` levels:
 * nx, ny, i0, j0 and tile as `d` has them, tile_nx = tile_ny = d->n. A program with halo
 * statements refuses any other (fpo_options.halo is then `d`). */
fpo_domain fpo_halo_domain(const fpo_halo_decomp *d, int nz);

/* A point located on the cube: its tile and tile index (gi, gj), the rank owning it and its
 * local index (li, lj) there, and the quarter turns `rot` between the asking rank's frame and
 * the tile's (see fpo_halo_nbr). Points on a boundary shared by two ranks belong to the one
 * for which they are the first (south / west) point. */
typedef struct fpo_halo_point {
    int tile, gi, gj;
    int rank, li, lj;
    int rot;
} fpo_halo_point;

/* Locate local point (i, j) of position `pos` of this rank (compute point or halo, any
 * distance). Returns 1 and fills `p`, or 0 when the point is in a cube-corner block (no
 * owner) or beyond the neighbouring tile. */
int fpo_halo_locate(const fpo_halo_decomp *d, fpo_halo_pos pos, int i, int j,
                    fpo_halo_point *p);

/* Owner of tile point (gi, gj) of position `pos`: rank and local index there. */
fpo_halo_status fpo_halo_owner(const fpo_halo_decomp *d, fpo_halo_pos pos, int tile, int gi,
                               int gj, int *rank, int *li, int *lj, fpo_halo_error *err);

/* One item of an exchange: a scalar at `pos`, or a vector of kind AGRID..DGRID (f[0] = u,
 * f[1] = v; both the same dtype and K range). */
typedef struct fpo_halo_item {
    fpo_halo_kind kind;
    fpo_halo_pos pos;        /* for FPO_HALO_SCALAR only */
    fpo_halo_field f[2];
} fpo_halo_item;

fpo_halo_item fpo_halo_scalar(fpo_halo_field q, fpo_halo_pos pos);
fpo_halo_item fpo_halo_vector(fpo_halo_field u, fpo_halo_field v, fpo_halo_kind kind);

/* Plan flags. DEVICE: the fields are CUDA device memory (packing runs on the device).
 * CUDA_AWARE: MPI reads device buffers directly; without it, buffers stage through host. */
enum { FPO_HALO_DEVICE = 1, FPO_HALO_CUDA_AWARE = 2 };

typedef struct fpo_halo_plan fpo_halo_plan;

/* Build, once, the exchange of `nitems` items to halo depth `depth` (1 .. the fields' halo):
 * one message per neighbour pair carries every item. Each rank builds its plan alone, without
 * messages, from the ranks within reach (its cost does not grow with the rank count); every
 * rank of d creates and destroys its plans in one order, which gives each plan the same
 * message tag everywhere. A rank whose plan fails leaves its peers' plans without a partner:
 * agree on success before exchanging (a generated program's open does). The plan keeps the
 * items' data pointers; fpo_halo_plan_rebind changes one. Messages travel on d->comm: destroy
 * the plans before fpo_halo_decomp_free. */
fpo_halo_status fpo_halo_plan_create(fpo_halo_plan **plan, const fpo_halo_decomp *d, int depth,
                                     int nitems, const fpo_halo_item *items, unsigned flags,
                                     fpo_halo_error *err);

/* Build the shared-edge sync of DGRID (or CGRID) items: the north-edge u and east-edge v of a
 * D-grid (east uc, north vc of a C-grid), duplicates of the neighbour's south / west values,
 * are overwritten by the neighbour's value, turned, as FV3 does after the acoustic loop. Run
 * it with start / finish / exchange. Built as fpo_halo_plan_create's plans are. */
fpo_halo_status fpo_halo_plan_create_edges(fpo_halo_plan **plan, const fpo_halo_decomp *d,
                                           int nitems, const fpo_halo_item *items,
                                           unsigned flags, fpo_halo_error *err);

fpo_halo_status fpo_halo_plan_rebind(fpo_halo_plan *plan, int item, int comp, void *data,
                                     fpo_halo_error *err);

/* Post receives, pack, send. Between start and finish the caller may compute on its
 * interior but must not write the points being sent nor read the halo. */
fpo_halo_status fpo_halo_start(fpo_halo_plan *plan, fpo_halo_error *err);
/* Wait and unpack into the halos. */
fpo_halo_status fpo_halo_finish(fpo_halo_plan *plan, fpo_halo_error *err);
/* start + finish. */
fpo_halo_status fpo_halo_exchange(fpo_halo_plan *plan, fpo_halo_error *err);

/* The CUDA stream (a cudaStream_t) a DEVICE plan packs and unpacks on; NULL: a stream of its
 * own. A program gives its own stream: packing then follows the kernels queued before it, and
 * kernels queued after an unpack follow it (start still waits for the packing, to send). A
 * host plan ignores it. */
fpo_halo_status fpo_halo_plan_stream(fpo_halo_plan *plan, void *stream, fpo_halo_error *err);

/* 1 when MPI reads and writes device memory itself (Open MPI's MPIX_Query_cuda_support): DEVICE
 * plans may then add CUDA_AWARE; FPO_HALO_CUDA_AWARE=0 or 1 in the environment overrides. */
int fpo_halo_cuda_aware(void);

/* Bytes this rank sends per exchange, and the number of peers it sends to. */
size_t fpo_halo_plan_bytes(const fpo_halo_plan *plan, int *npeers);
/* The plan's peers: fills up to `max` ranks and message sizes (any pointer may be NULL);
 * returns how many peers there are. */
int fpo_halo_plan_peers(const fpo_halo_plan *plan, int max, int *rank, size_t *send_bytes,
                        size_t *recv_bytes);
/* Frees the plan (local). After a failed start or finish the plan can only be destroyed. A
 * plan destroyed between start and finish takes its receives back (cancelled, or complete)
 * and leaves its sends to MPI with their buffers, and its message tag is not used again on
 * the decomposition's communicator (messages under it may still arrive): do it on every rank
 * alike, as a run stopped at the same statement everywhere does. */
void fpo_halo_plan_destroy(fpo_halo_plan *plan);

/* Corner fills for ranks touching a cube corner (no-ops elsewhere), after an exchange. The
 * halo block at a cube corner has no owner; it is filled from the adjacent edge halo rotated
 * a quarter turn about the corner. dir X takes the W / E halo (before a sweep in x), Y the
 * S / N halo (before a sweep in y). Host memory (the _on forms below: device memory). */
typedef enum fpo_halo_fill { FPO_HALO_FILL_X, FPO_HALO_FILL_Y } fpo_halo_fill;

/* FV3's copy_corners for a scalar at `pos`, to `depth`. */
fpo_halo_status fpo_halo_copy_corners(const fpo_halo_decomp *d, const fpo_halo_field *q,
                                      fpo_halo_pos pos, int depth, fpo_halo_fill dir,
                                      fpo_halo_error *err);

/* FV3's fill_corners for a vector of `kind` (AGRID..DGRID): the components are swapped and
 * their signs set by the quarter turn; u is taken from the halo `udir` names, v from `vdir`
 * (FV3's fill_corners: D-grid udir X, vdir Y; C-grid udir Y, vdir X). */
fpo_halo_status fpo_halo_fill_corners(const fpo_halo_decomp *d, const fpo_halo_field *u,
                                      const fpo_halo_field *v, fpo_halo_kind kind, int depth,
                                      fpo_halo_fill udir, fpo_halo_fill vdir,
                                      fpo_halo_error *err);

/* The same fills on fields in CUDA device memory, queued on `stream` (a cudaStream_t) and
 * returning at once; a NULL stream: host memory, as above. FPO_HALO_ECUDA from a halo library
 * built without CUDA. */
fpo_halo_status fpo_halo_copy_corners_on(const fpo_halo_decomp *d, const fpo_halo_field *q,
                                         fpo_halo_pos pos, int depth, fpo_halo_fill dir,
                                         void *stream, fpo_halo_error *err);
fpo_halo_status fpo_halo_fill_corners_on(const fpo_halo_decomp *d, const fpo_halo_field *u,
                                         const fpo_halo_field *v, fpo_halo_kind kind, int depth,
                                         fpo_halo_fill udir, fpo_halo_fill vdir, void *stream,
                                         fpo_halo_error *err);

/* 1 when this build packs on CUDA devices. */
int fpo_halo_has_cuda(void);

const char *fpo_halo_dir_name(fpo_halo_dir dir);

#ifdef __cplusplus
}
#endif

#endif
