/* geom.c: takes a tile point in doubled tile coordinates, gives the tile point holding its
 * value, from the 3D positions of gnomonic points and the tangent bases of the two tiles. */
#include <math.h>

#include "geom.h"

#define PI 3.14159265358979323846

/* Face centre C and the +i and +j directions of each tile, as 3D unit vectors. */
static const double face[6][3][3] = {
    {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},   {{0, 1, 0}, {-1, 0, 0}, {0, 0, 1}},
    {{0, 0, 1}, {-1, 0, 0}, {0, -1, 0}}, {{-1, 0, 0}, {0, 0, -1}, {0, -1, 0}},
    {{0, -1, 0}, {0, 0, -1}, {1, 0, 0}}, {{0, 0, -1}, {0, 1, 0}, {1, 0, 0}}};

static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The point of tile t at continuous tile coordinates (x, y), on the unit sphere. */
static void point(int n, int t, double x, double y, double p[3])
{
    double a = tan(-PI / 4 + x * PI / (2 * n)), b = tan(-PI / 4 + y * PI / (2 * n));
    double r = 0;
    for (int d = 0; d < 3; d++) {
        p[d] = face[t][0][d] + a * face[t][1][d] + b * face[t][2][d];
        r += p[d] * p[d];
    }
    for (int d = 0; d < 3; d++)
        p[d] /= sqrt(r);
}

/* Continuous coordinates on tile t of direction p (gnomonic projection onto t's plane). */
static void coords(int n, int t, const double p[3], double *x, double *y)
{
    double c = dot(p, face[t][0]);
    *x = (atan(dot(p, face[t][1]) / c) + PI / 4) * 2 * n / PI;
    *y = (atan(dot(p, face[t][2]) / c) + PI / 4) * 2 * n / PI;
}

/* Unit tangent at p along tile t's axis a (1 = i, 2 = j). */
static void tangent(int t, int a, const double p[3], double e[3])
{
    double s = dot(p, face[t][a]), r = 0;
    for (int d = 0; d < 3; d++) {
        e[d] = face[t][a][d] - s * p[d];
        r += e[d] * e[d];
    }
    for (int d = 0; d < 3; d++)
        e[d] /= sqrt(r);
}

int geo_source(int n, int t, int x, int y, int side, int ncomp, int c, int *bt, int *bx, int *by,
               int *bc, int *sign)
{
    int m = 2 * n, xin = x >= 0 && x <= m, yin = y >= 0 && y <= m;
    double dir[3], p[3], f[3], mid[3], px, py, fx, fy, ex, ey;
    int b = -1, across_x;
    if (side < 0) {
        if (xin && yin) {
            *bt = t, *bx = x, *by = y, *bc = c, *sign = 1;
            return 1;
        }
        if (!xin && !yin)
            return 0;
        side = !xin ? (x < 0 ? 0 : 1) : (y < 0 ? 2 : 3);
    }
    /* the neighbour's face centre is the outward axis of this side */
    for (int d = 0; d < 3; d++)
        dir[d] = (side & 1 ? 1 : -1) * face[t][side < 2 ? 1 : 2][d];
    for (int k = 0; k < 6; k++)
        if (dot(face[k][0], dir) > 0.5)
            b = k;
    /* across the edge: the coordinate of the point itself on b (planes through the edge's
     * axis are coordinate lines of both tiles); along it: that of its foot on the edge */
    point(n, t, x / 2.0, y / 2.0, p);
    if (side < 2)
        point(n, t, side == 0 ? 0 : n, y / 2.0, f), point(n, t, side == 0 ? 0 : n, n / 2.0, mid);
    else
        point(n, t, x / 2.0, side == 2 ? 0 : n, f), point(n, t, n / 2.0, side == 2 ? 0 : n, mid);
    coords(n, b, p, &px, &py);
    coords(n, b, f, &fx, &fy);
    across_x = fabs(dot(face[b][1], face[t][0])) > 0.5;
    ex = 2 * (across_x ? px : fx);
    ey = 2 * (across_x ? fy : py);
    *bt = b;
    *bx = (int)lround(ex);
    *by = (int)lround(ey);
    if (fabs(ex - *bx) > 1e-6 || fabs(ey - *by) > 1e-6)
        return -1;
    /* the component: which of b's axes carries this tile's axis c at the edge's midpoint */
    *bc = 0;
    *sign = 1;
    if (ncomp == 2) {
        double ea[3], eb0[3], eb1[3], d0, d1;
        tangent(t, c + 1, mid, ea);
        tangent(b, 1, mid, eb0);
        tangent(b, 2, mid, eb1);
        d0 = dot(ea, eb0);
        d1 = dot(ea, eb1);
        *bc = fabs(d0) > fabs(d1) ? 0 : 1;
        *sign = (*bc ? d1 : d0) > 0 ? 1 : -1;
        if (fabs(fabs(*bc ? d1 : d0) - 1) > 1e-9)
            return -1;
    }
    return 1;
}
