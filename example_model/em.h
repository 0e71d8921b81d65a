/* em.h: the example model's plain-C foundations: cubed-sphere grid and metrics, Williamson
 * test case 1, deterministic error norms, NetCDF output. */
#ifndef EM_H
#define EM_H

#include <stddef.h>
#include <stdint.h>

#ifdef EM_WITH_MPI
#include <mpi.h>
#endif

/* Constants (Williamson et al. 1992; FMS uses other values). */
#define EM_RADIUS 6.37122e6  /* m */
#define EM_OMEGA 7.292e-5    /* 1/s */
#define EM_GRAV 9.80616      /* m/s^2 */
#define EM_PI 3.14159265358979323846

/* Library status: 0 success; otherwise err[] holds a message. */
typedef int em_status;
enum { EM_OK = 0, EM_EINVAL = 1, EM_ENOMEM = 2, EM_EIO = 3, EM_EMPI = 4 };
typedef struct em_error {
    char msg[256];
} em_error;

/* ---- geometry (geometry.c) -----------------------------------------------------------------
 * Equiangular gnomonic cube, no longitude shift, tiles 0..5 as in shared/brief/cubed-sphere.md.
 * Tile coordinates (x, y) in [0, N]^2: vertices at integers, cell centres at half-integers.
 * A point outside [0, N]^2 on one axis lies on the neighbouring tile (the brief's halo maps);
 * a point outside on both axes (the diagonal block at a cube corner, which has no owner) is
 * first rotated into an edge halo exactly as FV3's copy_corners does. */
typedef struct em_map {
    int tile;            /* owning tile */
    int a, b, c, d;      /* x' = a x + b y + ox, y' = c x + d y + oy: a rotation */
    double ox, oy;
} em_map;

/* The map taking the anchor point (x, y) of tile `tile` to the tile that owns it; in a corner
 * block the rotation is copy_corners' XDir (EM_XDIR) or YDir (EM_YDIR) one: XDir gives the
 * cells next to the x = 0 or x = N line their true x-neighbours, YDir likewise in y. */
enum { EM_XDIR = 0, EM_YDIR = 1 };
em_map em_locate(int n, int tile, double x, double y, int dir);
void em_map_apply(const em_map *m, double x, double y, double *xo, double *yo);
/* Unit vector of the point (x, y) of tile `tile` by the tile's own gnomonic formula; (x, y) is
 * expected in [0, N]^2. */
void em_tile_xyz(int n, int tile, double x, double y, double p[3]);
/* Unit vector of any point (x, y) of tile `tile` (halo included): em_locate (XDir), then
 * em_tile_xyz. */
void em_point_xyz(int n, int tile, double x, double y, double p[3]);
/* Unnormalised tangent vectors d p / d x and d p / d y of tile `tile` at the unit vector p. */
void em_tile_tangents(int tile, const double p[3], double ti[3], double tj[3]);
double em_arc(const double p[3], const double q[3]);  /* great-circle angle, radians */
void em_mid(const double p[3], const double q[3], double m[3]);  /* spherical midpoint */
void em_xyz_lonlat(const double p[3], double *lon, double *lat);  /* lon in [0, 2 pi) */
void em_lonlat_xyz(double lon, double lat, double p[3]);

/* ---- a rank's grid (grid.c, metrics.c) ----------------------------------------------------
 * A rank owns cells i0..i0+nx-1, j0..j0+ny-1 of one tile, with a halo of h cells. Every array
 * has the same padded shape (nx + 2h + 1) x (ny + 2h + 1), I innermost; EM_AT(g, i, j) is the
 * storage index of local point (i, j), i in [-h, nx + h]. Each array is valid on its own range:
 *   vertices (lon, lat, xyz)              i in [-h, nx+h],   j in [-h, ny+h]
 *   cells (clon, clat, cxyz, area, ...)   i in [-h, nx+h-1], j in [-h, ny+h-1]
 *   x-edges (dx, rdx: vertex i to i+1)    i in [-h, nx+h-1], j in [-h, ny+h]
 *   y-edges (dy, rdy: vertex j to j+1)    i in [-h, nx+h],   j in [-h, ny+h-1]
 *   x-faces (dxc: centre i-1 to i; sina_u, cosa_u, rsin_u)   i in [-h, nx+h], j as cells
 *   y-faces (dyc: centre j-1 to j; sina_v, cosa_v, rsin_v)   i as cells, j in [-h, ny+h]
 * Values in the diagonal blocks at cube corners are copies (see em_locate), not geometry: XDir
 * copies for cell and x-face arrays, YDir copies for the centres behind y-face arrays, so that
 * dxc next to the x = 0, N lines and dyc next to y = 0, N are exact centre-to-centre lengths.
 * Lengths in metres, areas in square metres. */
typedef struct em_grid {
    int n, tile, i0, j0, nx, ny, h;
    int sx, sy;          /* padded extents: nx + 2h + 1, ny + 2h + 1 */
    double radius;
    double *lon, *lat, *xyz;          /* vertices; xyz holds 3 values per point */
    double *clon, *clat, *cxyz;       /* cell centres: normalised sum of the 4 vertices (FV3) */
    double *area, *rarea;             /* spherical excess of the cell's 4 vertices */
    double *dx, *dy, *rdx, *rdy;      /* great-circle lengths of the cell edges */
    double *dxa, *dya, *rdxa, *rdya;  /* between the midpoints of opposite edges */
    double *dxc, *dyc, *rdxc, *rdyc;  /* centre to centre */
    /* FV3's 9 points of a cell: 1 W, 2 S, 3 E, 4 N edge midpoints, 5 centre, 6 SW, 7 SE, 8 NE,
     * 9 NW corners; stored as [9 * index + (k - 1)]: cosine and sine of the angle between the
     * +i and +j grid directions there (cos = -1/2 at the SW corner of tile cell (0, 0)). */
    double *cos_sg, *sin_sg;
    double *cosa_s, *rsin2;           /* cells: cos_sg 5, 1 / sin_sg 5 ^ 2 */
    double *cosa_u, *sina_u, *rsin_u; /* x-faces: mean of the two cells' sides, 1 / sina^2 */
    double *cosa_v, *sina_v, *rsin_v; /* y-faces */
} em_grid;

#define EM_AT(g, i, j) ((size_t)((i) + (g)->h) + (size_t)((j) + (g)->h) * (size_t)(g)->sx)

/* Build the metrics of one rank's rectangle; 0 <= h <= n. */
em_status em_grid_init(em_grid *g, int n, int tile, int i0, int j0, int nx, int ny, int h,
                       em_error *err);
void em_grid_free(em_grid *g);
size_t em_grid_points(const em_grid *g);  /* sx * sy */
/* Fill every metric of g from the geometry (called by em_grid_init; metrics.c). */
void em_metrics_fill(em_grid *g);
/* Point k (1..9) of g->cos_sg or g->sin_sg as an array of g's shape, e.g. to hand FPO a
 * contiguous field (FPO fields have unit I stride). */
void em_sg_point(const em_grid *g, const double *sg, int k, double *out);

/* ---- Williamson test case 1 (williamson.c) --------------------------------------------------
 * Winds u = u0 (cos th cos al + sin th cos la sin al), v = -u0 sin la sin al, u0 = 2 pi a / 12 d;
 * stream function psi = -a u0 (sin th cos al - cos la cos th sin al). */
#define EM_U0 (2.0 * EM_PI * EM_RADIUS / (12.0 * 86400.0))
double em_tc1_bell(double lon, double lat);               /* h0 = 1000 m, R = a/3, (3pi/2, 0) */
/* The model's alpha of level k: the test's five, 0, 0.05, pi/2 - 0.05, pi/2, pi/4, in turn. */
double em_tc1_alpha(int k);
double em_tc1_psi(double lon, double lat, double alpha);  /* m^2/s */
void em_tc1_wind(double lon, double lat, double alpha, double *u, double *v);  /* east, north */
void em_tc1_wind_xyz(const double p[3], double alpha, double w[3]);  /* the same as a 3D vector */
/* Cosine bell at the cell centres of every cell of g (halo included), array of g's shape. */
void em_tc1_h(const em_grid *g, double *h);
/* The exact solution at time t (s): the bell carried by the solid-body rotation, at the cell
 * centres (halo included); em_tc1_h itself after whole revolutions (12 days each). */
void em_tc1_h_exact(const em_grid *g, double alpha, double t, double *h);
/* Stream function at the vertices (halo included). */
void em_tc1_psi_corners(const em_grid *g, double alpha, double *psi);
/* C-grid winds from psi differences (FV3 signs): uc on x-faces = -(psi(i,j+1) - psi(i,j)) / dy,
 * vc on y-faces = (psi(i+1,j) - psi(i,j)) / dx: the normal velocities through the cell edges,
 * positive towards +i and +j. Filled wherever psi is, i.e. halo included. */
void em_tc1_cgrid(const em_grid *g, const double *psi, double *uc, double *vc);
/* D-grid winds from psi at the cell centres (FV3 signs): u on y-faces (x-edges) =
 * -(psi_c(i,j) - psi_c(i,j-1)) / dyc, v on x-faces (y-edges) = (psi_c(i,j) - psi_c(i-1,j)) / dxc;
 * filled on the interior of the halo (one point less than the arrays' ranges on each side). */
void em_tc1_dgrid(const em_grid *g, double alpha, double *u, double *v);

/* ---- exact sums and error norms (xsum.c, norms.c) ------------------------------------------
 * em_xsum adds doubles exactly into an integer accumulator, so a sum does not depend on the
 * order of its terms: every layout of ranks gives bit-identical results. */
#define EM_XSUM_LIMBS 72
typedef struct em_xsum {
    int64_t limb[EM_XSUM_LIMBS];  /* value = sum limb[k] 2^(32 k - 1152) */
    int64_t count;                /* additions since the last carry */
    int bad;                      /* a NaN or an infinity was added */
} em_xsum;
void em_xsum_init(em_xsum *s);
void em_xsum_add(em_xsum *s, double x);
void em_xsum_merge(em_xsum *s, const em_xsum *t);
void em_xsum_norm(em_xsum *s);       /* propagate carries (the value is unchanged) */
double em_xsum_value(const em_xsum *s);

/* Partial sums over one rank's compute domain, to be merged over ranks. */
enum { EM_S_AREA, EM_S_ERR1, EM_S_REF1, EM_S_ERR2, EM_S_REF2, EM_S_H0, EM_S_DMASS, EM_NSUMS };
typedef struct em_norm_acc {
    em_xsum sum[EM_NSUMS];  /* of A, A|h-hT|, A|hT|, A(h-hT)^2, A hT^2, A h0, A h - A h0 */
    double max_err, max_ref;
} em_norm_acc;
typedef struct em_norms {
    double l1, l2, linf;  /* validation.md's normalised norms */
    double mass;          /* (I(h) - I(h0)) / I(h0) */
    double sum0, sum;     /* sum A h0 and sum A h (m^3), from the exact sums */
} em_norms;
void em_norm_acc_init(em_norm_acc *acc);
/* Add the compute-domain cells of g: h, the exact solution ht, the initial field h0, all of
 * g's array shape. */
void em_norm_acc_add(em_norm_acc *acc, const em_grid *g, const double *h, const double *ht,
                     const double *h0);
void em_norm_acc_merge(em_norm_acc *acc, const em_norm_acc *other);
em_status em_norms_finish(const em_norm_acc *acc, em_norms *out, em_error *err);
#ifdef EM_WITH_MPI
/* Merge the accumulators of every rank of comm; every rank gets the result (norms_mpi.c). */
em_status em_norm_acc_allreduce(em_norm_acc *acc, MPI_Comm comm, em_error *err);
#endif

/* ---- global arrays and NetCDF output (gather.c, ncout.c) -----------------------------------
 * A global cell array is [tile][j][i], 6 N N values. EM_NC_PARALLEL: the NetCDF library
 * writes in parallel (NetCDF-4 over parallel HDF5). */
/* Copy g's compute-domain cells of the field f (g's shape) into the global array out. */
void em_to_global(const em_grid *g, const double *f, double *out);
#ifdef EM_WITH_MPI
/* Gather the compute domains of every rank's f into out (6 N N values) on rank root. */
em_status em_gather(const em_grid *g, const double *f, double *out, int root, MPI_Comm comm,
                    em_error *err);
#endif

/* The file's variables, their ids in em_ncfile.var. */
enum { EM_NC_TIME, EM_NC_LEV, EM_NC_ALPHA, EM_NC_LON, EM_NC_LAT, EM_NC_AREA, EM_NC_LONB,
       EM_NC_LATB, EM_NC_H, EM_NC_NVARS };
typedef struct em_ncfile {
    int ncid, n, nz, var[EM_NC_NVARS];
    int parallel;   /* written by every rank of comm (em_nc_create_par) */
    size_t nt;      /* records written */
#ifdef EM_WITH_MPI
    MPI_Comm comm;
#endif
} em_ncfile;
/* Create path (64-bit offset format) with dims time (unlimited), lev (nz), tile, y, x, yb, xb
 * and the variables lev (0 .. nz-1), alpha(lev) (test case 1's angle of each level, radians),
 * lon, lat, area (cells), lon_b, lat_b (vertices), h(time, lev, tile, y, x), time; global
 * arrays as above (vertex arrays are 6 (N+1) (N+1)); the angles lon, lat are written in
 * degrees. */
em_status em_nc_create(em_ncfile *f, const char *path, int n, int nz, const double *alpha,
                       const double *lon, const double *lat, const double *area,
                       const double *lon_b, const double *lat_b, const char *title,
                       em_error *err);
/* Append one record: h of every level, nz global arrays one after the other. */
em_status em_nc_write_h(em_ncfile *f, double time_s, const double *h, em_error *err);
#if defined EM_WITH_MPI && defined EM_NC_PARALLEL
/* The same file in NetCDF-4 (HDF5) format, written in parallel by every rank of comm: each
 * passes its grid g (one rectangle of the sphere; the rectangles tile it) and writes its cells
 * of lon, lat, area and its vertices of lon_b, lat_b (those of the tile's last row and column
 * by the ranks that own them); h is chunked a level of a tile at a time (collective). */
em_status em_nc_create_par(em_ncfile *f, const char *path, MPI_Comm comm, const em_grid *g,
                           int nz, const double *alpha, const char *title, em_error *err);
/* Append one record: this rank's cells of h on every level, nz arrays of g's shape np values
 * apart (collective). */
em_status em_nc_write_part(em_ncfile *f, double time_s, const em_grid *g, const double *h,
                           size_t np, em_error *err);
#endif
em_status em_nc_close(em_ncfile *f, em_error *err);
/* For other writers of CF files (swnc.c): a NetCDF call's status `rc` as an em_status (EM_EIO
 * and err naming `what` and the library's message when it failed), and a double variable with
 * units, long_name and (when not NULL) standard_name. */
em_status em_nc_status(int rc, const char *what, em_error *err);
em_status em_nc_def_var(int ncid, const char *name, int ndims, const int *dims,
                        const char *units, const char *long_name, const char *standard_name,
                        int *var, em_error *err);
int em_nc_text_att(int ncid, int var, const char *name, const char *value);

/* Global fields of the whole sphere computed serially (tile by tile, h = 0) for output:
 * cell lon, lat, area (6 N N) and vertex lon, lat (6 (N+1)(N+1)), radians. */
em_status em_global_grid(int n, double *lon, double *lat, double *area, double *lon_b,
                         double *lat_b, em_error *err);


/* ---- reference transport: FV3's fv_tp_2d in plain C (sphere.c, ppm.c, fvtp.c) -------------
 * All six tiles on one process, for testing and as the hand-written baseline of the optimizer
 * benchmark. Tiles are whole (i0 = j0 = 0, nx = ny = N) with a halo of EM_TP_HALO cells. */
#define EM_TP_HALO 3

/* One halo copy: dst[dst_at] = sign * src_tile's array[src_at]; for face pairs, `x` says
 * whether an end is an x-face (first array of the pair) or a y-face. */
typedef struct em_copy {
    int dst_tile, src_tile, dst_x, src_x, sign;
    size_t dst_at, src_at;
} em_copy;

typedef struct em_sphere {
    int n, h;
    em_grid g[6];
    em_copy *cells, *faces;  /* halo copies of cell scalars and of face vector pairs */
    size_t ncells, nfaces;
    em_copy *dfaces;         /* the same faces for D-grid pairs (the other component's sign) */
    size_t ndfaces;
    em_copy *verts;          /* halo copies of vertex scalars */
    size_t nverts;
} em_sphere;

em_status em_sphere_init(em_sphere *s, int n, int h, em_error *err);
void em_sphere_free(em_sphere *s);
/* Fill the edge halos of a cell field (not the diagonal corner blocks) from the neighbours. */
void em_sphere_fill_cells(const em_sphere *s, double *const q[6]);
/* Fill the edge halos of a vertex field (not the diagonal corner blocks) from the tiles that
 * own those points, as fpo_halo's SCALAR items at FPO_HALO_CORNER do; the tile's own vertices,
 * its boundary included, stay. */
void em_sphere_fill_vertices(const em_sphere *s, double *const q[6]);
/* Fill a face vector pair (u on x-faces, v on y-faces, positive towards +i, +j): the E and N
 * boundary faces are overwritten with the neighbours' W and S ones (so both tiles hold the same
 * bits), then the halo faces outside the corner blocks are copied, with the rotation's sign. */
void em_sphere_fill_faces(const em_sphere *s, double *const u[6], double *const v[6]);
/* The same for a D-grid pair: u on the y-faces (along +i), v on the x-faces (along +j). */
void em_sphere_fill_dgrid(const em_sphere *s, double *const u[6], double *const v[6]);

/* PPM orders (FV3's hord): 2 unlimited ("perfectly linear"), 6 with FV3's 2-delta-x smoothness
 * switch, 8 monotone (Lin 2004). */
enum { EM_PPM_LINEAR = 2, EM_PPM_SMOOTH = 6, EM_PPM_MONO = 8 };
/* Upwind PPM fluxes (interface values) at faces 0..n of a line of cells -3..n+2: cell k of q
 * and dxa is at q[k * stride], face f of c (Courant numbers) and flux at c[f * stride]; the
 * line spans a whole tile, so both ends get FV3's one-sided edge treatment. */
void em_ppm_line(const double *q, const double *dxa, const double *c, double *flux, int n,
                 ptrdiff_t stride, int ord);
/* The interface value at a tile edge between cells e-1 and e of such a line (widths dxa): the
 * mean of the two sides' dxa-weighted linear extrapolations, each along its own grid line. */
double em_ppm_edge_value(const double *q, const double *dxa, ptrdiff_t stride, int e);

/* Courant numbers and volume fluxes of FV3's tracer transport, from C-grid winds uc, vc:
 * ut = uc / sin_sg of the upwind cell's face point, crx = dt ut / dxa(upwind), xfx = dt uc dy
 * (= crx dxa dy sin_sg), ra_x = area + xfx(i) - xfx(i+1); likewise in y. */
typedef struct em_tp_winds {
    double *crx[6], *cry[6], *xfx[6], *yfx[6], *ra_x[6], *ra_y[6];
} em_tp_winds;
em_status em_tp_winds_init(const em_sphere *s, const double *const uc[6],
                           const double *const vc[6], double dt, em_tp_winds *w,
                           em_error *err);
/* Test case 1's winds (em_tc1_cgrid) turned into em_tp_winds. */
em_status em_tp_winds_tc1(const em_sphere *s, double alpha, double dt, em_tp_winds *w,
                          em_error *err);
void em_tp_winds_free(em_tp_winds *w);

typedef struct em_tp_work {
    double *q_i, *q_j, *fx, *fy, *fx2, *fy2, *fyy;
} em_tp_work;
em_status em_tp_work_init(const em_grid *g, em_tp_work *wk, em_error *err);
void em_tp_work_free(em_tp_work *wk);
/* FV3's copy_corners on a whole tile: dir EM_XDIR before x-sweeps, EM_YDIR before y-sweeps. */
void em_copy_corners(const em_grid *g, double *q, int dir);
/* fv_tp_2d on one whole tile with filled edge halos: fluxes fx (x-faces), fy (y-faces) of
 * q times the volume fluxes, in wk->fx, wk->fy; hord as FV3 (inner sweeps use 8 if hord is 10). */
void em_fv_tp_2d(const em_grid *g, double *q, const em_tp_winds *w, int tile, int hord,
                 em_tp_work *wk);
/* One step of transport of q on the sphere: halo fill, fv_tp_2d per tile,
 * q += (fx(i) - fx(i+1) + fy(j) - fy(j+1)) / area. */
void em_tp_step(const em_sphere *s, double *const q[6], const em_tp_winds *w, int hord,
                em_tp_work wk[6]);


#endif
