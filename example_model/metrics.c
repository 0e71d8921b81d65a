/* metrics.c: an em_grid's rectangle to FV3's metric terms: vertices, centres, edge lengths,
 * spherical-excess areas and the grid angle at FV3's 9 points of each cell, halo included, each computed
 * on the tile that owns the point (em_locate), never by extrapolating a tile's formula. */
#include <math.h>

#include "em.h"

/* One cell's geometry; points in FV3's order 1 W, 2 S, 3 E, 4 N, 5 centre, 6 SW, 7 SE, 8 NE,
 * 9 NW (index k - 1). */
typedef struct em_cellgeom {
    double p[9][3];
    double dxa, dya, area;
    double cos[9], sin[9];
} em_cellgeom;

/* Spherical excess of the triangle (p, q, r), unit sphere (Oosterom and Strackee), with the
 * triple product taken on the differences q - p, r - p so that small cells keep their digits. */
static double triangle_excess(const double p[3], const double q[3], const double r[3]) {
    double u[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
    double v[3] = {r[0] - p[0], r[1] - p[1], r[2] - p[2]};
    double c[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    double num = fabs(p[0] * c[0] + p[1] * c[1] + p[2] * c[2]);
    double den = 1.0 + (p[0] * q[0] + p[1] * q[1] + p[2] * q[2]) +
                 (q[0] * r[0] + q[1] * r[1] + q[2] * r[2]) + (r[0] * p[0] + r[1] * p[1] + r[2] * p[2]);
    return 2.0 * atan2(num, den);
}

/* The points (x_k, y_k) of tile `tile`, all placed by the map of the anchor (ax, ay). */
static em_map place(int n, int tile, double ax, double ay, int dir, int np, const double *x,
                    const double *y, double (*p)[3]) {
    em_map m = em_locate(n, tile, ax, ay, dir);
    for (int k = 0; k < np; k++) {
        double bx, by;
        em_map_apply(&m, x[k], y[k], &bx, &by);
        em_tile_xyz(n, m.tile, bx, by, p[k]);
    }
    return m;
}

static void cell_geom(int n, int tile, int gi, int gj, int dir, double radius, em_cellgeom *cg) {
    double x[4] = {gi, gi + 1, gi + 1, gi}, y[4] = {gj, gj, gj + 1, gj + 1};  /* SW SE NE NW */
    double v[4][3];
    em_map m = place(n, tile, gi + 0.5, gj + 0.5, dir, 4, x, y, v);
    double (*p)[3] = cg->p;
    for (int k = 0; k < 3; k++) p[4][k] = v[0][k] + v[1][k] + v[2][k] + v[3][k];
    em_mid(p[4], p[4], p[4]);  /* normalises */
    em_mid(v[0], v[3], p[0]);
    em_mid(v[0], v[1], p[1]);
    em_mid(v[1], v[2], p[2]);
    em_mid(v[3], v[2], p[3]);
    for (int c = 0; c < 4; c++)
        for (int k = 0; k < 3; k++) p[5 + c][k] = v[c][k];
    cg->dxa = radius * em_arc(p[0], p[2]);
    cg->dya = radius * em_arc(p[1], p[3]);
    cg->area = radius * radius * (triangle_excess(v[0], v[1], v[2]) + triangle_excess(v[0], v[2], v[3]));
    /* +i and +j of this tile, seen on the owning tile through the map's rotation. */
    for (int k = 0; k < 9; k++) {
        double ti[3], tj[3], di[3], dj[3];
        em_tile_tangents(m.tile, p[k], ti, tj);
        for (int c = 0; c < 3; c++) {
            di[c] = m.a * ti[c] + m.c * tj[c];
            dj[c] = m.b * ti[c] + m.d * tj[c];
        }
        double dot = di[0] * dj[0] + di[1] * dj[1] + di[2] * dj[2];
        double ni = sqrt(di[0] * di[0] + di[1] * di[1] + di[2] * di[2]);
        double nj = sqrt(dj[0] * dj[0] + dj[1] * dj[1] + dj[2] * dj[2]);
        cg->cos[k] = dot / (ni * nj);
        cg->sin[k] = fmin(1.0, sqrt(fmax(0.0, 1.0 - cg->cos[k] * cg->cos[k])));
    }
}

/* Length of the segment (x0, y0)-(x1, y1) of tile `tile`, placed by its midpoint. */
static double edge_length(int n, int tile, double x0, double y0, double x1, double y1,
                          double radius) {
    double x[2] = {x0, x1}, y[2] = {y0, y1}, p[2][3];
    place(n, tile, 0.5 * (x0 + x1), 0.5 * (y0 + y1), EM_XDIR, 2, x, y, p);
    return radius * em_arc(p[0], p[1]);
}

static double rsq(double s) { return 1.0 / fmax(1e-30, s * s); }

/* Where vertex (i, j) starts an edge along `dir`: the edge's length (dx or dy) and, on the face
 * it is, the centre-to-centre length across it (dyc or dxc) with the mean grid angle of the two
 * cells' facing points (cosa_v, sina_v or cosa_u, sina_u). */
static void edge_and_face(em_grid *g, int i, int j, int dir) {
    int n = g->n, t = g->tile, gx = g->i0 + i, gy = g->j0 + j, along_x = dir == EM_XDIR;
    double R = g->radius;
    size_t at = EM_AT(g, i, j);
    double len = edge_length(n, t, gx, gy, gx + along_x, gy + !along_x, R);
    em_cellgeom a, b;  /* the cells behind and ahead of the face, copied across corners in y for
                          y-faces and in x for x-faces */
    cell_geom(n, t, gx - !along_x, gy - along_x, along_x ? EM_YDIR : EM_XDIR, R, &a);
    cell_geom(n, t, gx, gy, along_x ? EM_YDIR : EM_XDIR, R, &b);
    int ka = along_x ? 3 : 2, kb = along_x ? 1 : 0;  /* N and S, or E and W points */
    double across = R * em_arc(a.p[4], b.p[4]);
    double cosa = 0.5 * (a.cos[ka] + b.cos[kb]), sina = 0.5 * (a.sin[ka] + b.sin[kb]);
    if (along_x) {
        g->dx[at] = len, g->rdx[at] = 1.0 / len;
        g->dyc[at] = across, g->rdyc[at] = 1.0 / across;
        g->cosa_v[at] = cosa, g->sina_v[at] = sina, g->rsin_v[at] = rsq(sina);
    } else {
        g->dy[at] = len, g->rdy[at] = 1.0 / len;
        g->dxc[at] = across, g->rdxc[at] = 1.0 / across;
        g->cosa_u[at] = cosa, g->sina_u[at] = sina, g->rsin_u[at] = rsq(sina);
    }
}

void em_metrics_fill(em_grid *g) {
    int n = g->n, t = g->tile, h = g->h;
    double R = g->radius;
    for (int j = -h; j <= g->ny + h; j++)
        for (int i = -h; i <= g->nx + h; i++) {
            size_t at = EM_AT(g, i, j);
            double *p = g->xyz + 3 * at;
            em_point_xyz(n, t, g->i0 + i, g->j0 + j, p);
            em_xyz_lonlat(p, &g->lon[at], &g->lat[at]);
        }
    for (int j = -h; j < g->ny + h; j++)
        for (int i = -h; i < g->nx + h; i++) {
            size_t at = EM_AT(g, i, j);
            em_cellgeom cg;
            cell_geom(n, t, g->i0 + i, g->j0 + j, EM_XDIR, R, &cg);
            for (int k = 0; k < 3; k++) g->cxyz[3 * at + k] = cg.p[4][k];
            em_xyz_lonlat(cg.p[4], &g->clon[at], &g->clat[at]);
            g->area[at] = cg.area, g->rarea[at] = 1.0 / cg.area;
            g->dxa[at] = cg.dxa, g->rdxa[at] = 1.0 / cg.dxa;
            g->dya[at] = cg.dya, g->rdya[at] = 1.0 / cg.dya;
            for (int k = 0; k < 9; k++) {
                g->cos_sg[9 * at + k] = cg.cos[k];
                g->sin_sg[9 * at + k] = cg.sin[k];
            }
            g->cosa_s[at] = cg.cos[4];
            g->rsin2[at] = rsq(cg.sin[4]);
        }
    for (int j = -h; j <= g->ny + h; j++)
        for (int i = -h; i <= g->nx + h; i++) {
            if (i < g->nx + h) edge_and_face(g, i, j, EM_XDIR);
            if (j < g->ny + h) edge_and_face(g, i, j, EM_YDIR);
        }
}

void em_sg_point(const em_grid *g, const double *sg, int k, double *out) {
    size_t np = em_grid_points(g);
    for (size_t at = 0; at < np; at++) out[at] = sg[9 * at + (size_t)(k - 1)];
}
