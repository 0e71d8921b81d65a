/* sw.h: the shallow-water model's plain-C parts: its metric terms on an em_grid, the test
 * cases' initial states (Williamson 2, 5, 6, Galewsky), the invariants, and the reference step
 * (FV3's c_sw + d_sw in shallow-water mode) on the six whole tiles of an em_sphere. */
#ifndef EM_SW_H
#define EM_SW_H

#include "em.h"

/* Metric terms of the scheme beyond em_grid's, arrays of the grid's shape (swgrid.c):
 *   cells      tx, ty: unit +i and +j directions (3D, from the midpoints of opposite edges)
 *   x-faces    ex: unit direction of the geodesic from centre (i-1, j) to (i, j) (3D);
 *              cu, su: its cosine and sine to the face's edge (+j); rsu = 1 / su^2
 *   y-faces    ey, cv, sv, rsv likewise (centre (i, j-1) to (i, j), edge along +i)
 *   faces      wc, wp, wm: the C-grid wind at a face is the mean of its two cells' winds times
 *              wc plus the same means of the next faces along the edge (+1, -1) times wp, wm:
 *              on a tile edge, where the two centres' midpoint lies off the face's midpoint along
 *              the edge (the grid folds), this moves the value back; elsewhere 1, 0, 0
 *   vertices   cb, rsb: cosine and 1 / sine^2 of the angle between +i and +j (0 and 1 on the
 *              tile's boundary); rarea_c: 1 / the area of the dual cell (the triangle of three
 *              centres at a cube corner)
 * C-grid winds are covariant along the centre-to-centre geodesic (FV3's uc, vc); across a tile
 * edge that geodesic is the edge's normal, so no edge needs a formula of its own. */
typedef struct em_sw_metric {
    double *tx[3], *ty[3];
    double *ex[3], *cu, *su, *rsu;
    double *ey[3], *cv, *sv, *rsv;
    double *wcu, *wpu, *wmu, *wcv, *wpv, *wmv;
    double *cb, *rsb, *rarea_c;
    double da_min_c;  /* the smallest dual cell area of the rank's own vertices */
} em_sw_metric;
em_status em_sw_metric_init(const em_grid *g, em_sw_metric *m, em_error *err);
void em_sw_metric_free(em_sw_metric *m);

/* Test cases: 2 (steady geostrophic flow, angle alpha), 5 (flow over a mountain), 6
 * (Rossby-Haurwitz wave 4), 'g' (Galewsky jet, perturbed), 'j' (the jet unperturbed). */
typedef struct em_sw_case {
    int id;
    double alpha;
} em_sw_case;
/* The initial state on every point of g that has its geometry, halo included: depth h
 * (cells), D-grid winds u (y-faces, along +i), v (x-faces, along +j), surface height hs
 * (cells) and hsb (vertices), Coriolis f at cells fc and vertices fb. */
em_status em_sw_init(const em_grid *g, em_sw_case tc, double *h, double *u, double *v,
                     double *hs, double *hsb, double *fc, double *fb, em_error *err);
/* The case's h0-like depth scale (m) and its gravity-wave speed sqrt(g h_max) + u_max (m/s),
 * for the time step. */
double em_sw_wave_speed(em_sw_case tc);

/* Scheme parameters: PPM orders of h and vorticity fluxes and of the winds at vertices
 * (EM_PPM_*), divergence damping (FV3's): del-2 with coefficient dddmp and background d2_bg,
 * da_min_c * max(d2_bg, min(0.2, dddmp |D dt|)); with nord 1, 2 or 3 also del-4, del-6 or
 * del-8, coefficient em_sw_dd8 (nord 0 to EM_SW_NORD_MAX). */
enum { EM_SW_NORD_MAX = 3 };
typedef struct em_sw_param {
    double dt, dddmp, d2_bg, d4_bg;
    int hord, nord;
} em_sw_param;

/* The reference: the six tiles of s (halo EM_TP_HALO) and the step's fields. */
typedef struct em_sw_ref {
    const em_sphere *s;
    em_sw_metric m[6];
    double *h[6], *u[6], *v[6], *hs[6], *hsb[6], *fc[6], *fb[6];
    double *w[6][48];   /* work arrays of each tile (swref.c names them) */
    em_tp_winds tw;
    em_tp_work wk[6];
    double da_min_c;
} em_sw_ref;
em_status em_sw_ref_init(em_sw_ref *r, const em_sphere *s, em_sw_case tc, em_error *err);
void em_sw_ref_free(em_sw_ref *r);
/* One step of p->dt; p->nord is 0 to EM_SW_NORD_MAX (the callers check it). */
void em_sw_ref_step(em_sw_ref *r, const em_sw_param *p);
/* FV3's coefficient of the higher-order divergence damping, (da_min_c d4_bg)^(nord + 1), as a
 * product in that order (the reference and the FPO model pass the same bits). */
double em_sw_dd8(double da_min_c, double d4_bg, int nord);

/* swdiag.c: invariants of a rank's (or tile's) own cells into exact sums: mass sum A h, total energy
 * sum A (h |V|^2 / 2 + g h (h / 2 + hs)), potential enstrophy sum A (zeta + f)^2 / (2 h)
 * (zeta from the D-grid circulation of each cell). */
enum { EM_SW_MASS, EM_SW_ENERGY, EM_SW_ENSTROPHY, EM_SW_NINV };
void em_sw_invariants_add(em_xsum acc[EM_SW_NINV], const em_grid *g, const em_sw_metric *m,
                          const double *h, const double *u, const double *v, const double *hs,
                          const double *fc);
/* A fingerprint of the state on g's own points: the sum modulo 2^64 of a hash of each value's
 * bits and its place (field, tile, global index) over the cells (h), the y-faces (u) and the
 * x-faces (v) that g owns (a tile's last row or column of faces by the ranks on that edge), so
 * the sum over any layout's ranks is the same. */
uint64_t em_sw_fingerprint(const em_grid *g, const double *h, const double *u, const double *v);

/* The eastward and northward wind (from the cell's 3D wind) and the relative vorticity (the
 * D-grid circulation over the area) of g's own cells, arrays of g's shape. */
void em_sw_cell_fields(const em_grid *g, const em_sw_metric *m, const double *u, const double *v,
                       double *ue, double *vn, double *zeta);

/* swnc.c: a CF-style NetCDF file of the whole sphere (global arrays [tile][y][x], 6 N N):
 * lon, lat (degrees), area once; per record h, u, v (eastward, northward), vorticity, and the
 * invariants mass, energy, enstrophy. */
enum { EM_SW_NC_TIME, EM_SW_NC_LON, EM_SW_NC_LAT, EM_SW_NC_AREA, EM_SW_NC_H, EM_SW_NC_U,
       EM_SW_NC_V, EM_SW_NC_VORT, EM_SW_NC_MASS, EM_SW_NC_ENERGY, EM_SW_NC_ENSTROPHY,
       EM_SW_NC_NVARS };
typedef struct em_sw_nc {
    int ncid, n, var[EM_SW_NC_NVARS];
    size_t nt;
} em_sw_nc;
em_status em_sw_nc_create(em_sw_nc *f, const char *path, int n, const double *lon,
                          const double *lat, const double *area, const char *title,
                          em_error *err);
/* Append a record: h, u, v, vorticity as global arrays, and the invariants. */
em_status em_sw_nc_write(em_sw_nc *f, double time_s, const double *const field[4],
                         const double inv[EM_SW_NINV], em_error *err);
em_status em_sw_nc_close(em_sw_nc *f, em_error *err);

#endif
