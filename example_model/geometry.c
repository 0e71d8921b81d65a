/* geometry.c: tile coordinates to points of the sphere: the gnomonic map, the halo maps
 * between tiles and the corner rotation, great-circle arcs. */
#include <math.h>

#include "em.h"

/* Face centre C and the +i, +j directions of each tile (cubed-sphere.md). */
static const double tile_c[6][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1},
                                    {-1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
static const double tile_ei[6][3] = {{0, 1, 0}, {-1, 0, 0}, {-1, 0, 0},
                                     {0, 0, -1}, {0, 0, -1}, {0, 1, 0}};
static const double tile_ej[6][3] = {{0, 0, 1}, {0, 0, 1}, {0, -1, 0},
                                     {0, -1, 0}, {1, 0, 0}, {1, 0, 0}};

static em_map compose(const em_map *second, const em_map *first) {
    em_map m;
    m.tile = second->tile;
    m.a = second->a * first->a + second->b * first->c;
    m.b = second->a * first->b + second->b * first->d;
    m.c = second->c * first->a + second->d * first->c;
    m.d = second->c * first->b + second->d * first->d;
    m.ox = second->a * first->ox + second->b * first->oy + second->ox;
    m.oy = second->c * first->ox + second->d * first->oy + second->oy;
    return m;
}

static em_map make(int tile, int a, int b, int c, int d, double ox, double oy) {
    em_map m = {tile, a, b, c, d, ox, oy};
    return m;
}

void em_map_apply(const em_map *m, double x, double y, double *xo, double *yo) {
    *xo = m->a * x + m->b * y + m->ox;
    *yo = m->c * x + m->d * y + m->oy;
}

/* The neighbour across the side the point lies beyond (exactly one axis outside). */
static em_map neighbour(int n, int t, double x, double y) {
    double N = n;
    if (t % 2 == 0) {
        if (x > N) return make((t + 1) % 6, 1, 0, 0, 1, -N, 0);
        if (y < 0) return make((t + 5) % 6, 1, 0, 0, 1, 0, N);
        if (y > N) return make((t + 2) % 6, 0, 1, -1, 0, -N, N);
        return make((t + 4) % 6, 0, -1, 1, 0, N, N);  /* W */
    }
    if (x < 0) return make((t + 5) % 6, 1, 0, 0, 1, N, 0);
    if (y > N) return make((t + 1) % 6, 1, 0, 0, 1, 0, -N);
    if (x > N) return make((t + 2) % 6, 0, -1, 1, 0, N, -N);
    return make((t + 4) % 6, 0, 1, -1, 0, N, N);  /* S */
}

em_map em_locate(int n, int tile, double x, double y, int dir) {
    double N = n;
    em_map m = make(tile, 1, 0, 0, 1, 0, 0);
    int outx = x < 0 || x > N, outy = y < 0 || y > N;
    if (outx && outy) {
        /* copy_corners: local (u, w) = outward distances from the corner vertex V; XDir
         * (u, w) -> (w, -u) lands in the halo beyond the x side, YDir (u, w) -> (-w, u) in
         * the one beyond the y side. */
        double vx = x < 0 ? 0 : N, vy = y < 0 ? 0 : N;
        int s = (x < 0 ? -1 : 1) * (y < 0 ? -1 : 1);
        if (dir == EM_XDIR)
            m = make(tile, 0, s, -s, 0, vx - s * vy, vy + s * vx);
        else
            m = make(tile, 0, -s, s, 0, vx + s * vy, vy - s * vx);
        em_map_apply(&m, x, y, &x, &y);
    }
    if (outx || outy) {
        em_map nb = neighbour(n, tile, x, y);
        m = compose(&nb, &m);
    }
    return m;
}

static void normalize(double p[3]) {
    double r = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    p[0] /= r, p[1] /= r, p[2] /= r;
}

void em_tile_xyz(int n, int tile, double x, double y, double p[3]) {
    /* Measured from the tile centre so that mirrored points give mirrored values exactly. */
    double h = 0.5 * n, X = tan((x - h) * (0.5 * EM_PI / n)), Y = tan((y - h) * (0.5 * EM_PI / n));
    for (int k = 0; k < 3; k++) p[k] = tile_c[tile][k] + X * tile_ei[tile][k] + Y * tile_ej[tile][k];
    normalize(p);
}

void em_point_xyz(int n, int tile, double x, double y, double p[3]) {
    em_map m = em_locate(n, tile, x, y, EM_XDIR);
    double xo, yo;
    em_map_apply(&m, x, y, &xo, &yo);
    em_tile_xyz(n, m.tile, xo, yo, p);
}

void em_tile_tangents(int tile, const double p[3], double ti[3], double tj[3]) {
    const double *ei = tile_ei[tile], *ej = tile_ej[tile];
    double pi = p[0] * ei[0] + p[1] * ei[1] + p[2] * ei[2];
    double pj = p[0] * ej[0] + p[1] * ej[1] + p[2] * ej[2];
    for (int k = 0; k < 3; k++) {
        ti[k] = ei[k] - pi * p[k];
        tj[k] = ej[k] - pj * p[k];
    }
}

double em_arc(const double p[3], const double q[3]) {
    double cx = p[1] * q[2] - p[2] * q[1], cy = p[2] * q[0] - p[0] * q[2],
           cz = p[0] * q[1] - p[1] * q[0];
    return atan2(sqrt(cx * cx + cy * cy + cz * cz), p[0] * q[0] + p[1] * q[1] + p[2] * q[2]);
}

void em_mid(const double p[3], const double q[3], double m[3]) {
    for (int k = 0; k < 3; k++) m[k] = p[k] + q[k];
    normalize(m);
}

void em_xyz_lonlat(const double p[3], double *lon, double *lat) {
    double l = atan2(p[1], p[0]);
    if (l < 0) l += 2.0 * EM_PI;
    if (l >= 2.0 * EM_PI) l = 0.0;
    *lon = l;
    *lat = atan2(p[2], sqrt(p[0] * p[0] + p[1] * p[1]));
}

void em_lonlat_xyz(double lon, double lat, double p[3]) {
    p[0] = cos(lat) * cos(lon);
    p[1] = cos(lat) * sin(lon);
    p[2] = sin(lat);
}
