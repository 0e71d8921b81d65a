/* geom.h: the tests' own cubed-sphere geometry (3D gnomonic points and tangent bases), which
 * predicts halo values without the library's tables. */
#ifndef HALO_TEST_GEOM_H
#define HALO_TEST_GEOM_H

/* Where the value of doubled point (x, y) of tile t (component c of ncomp) comes from: the
 * tile and doubled point holding it, its component and the sign. `side` forces a crossing
 * (0 W, 1 E, 2 S, 3 N) for points on the tile's own edge, or is -1. Returns 1, 0 for a point
 * in a cube-corner block, -1 when the geometry does not land on a grid point. */
int geo_source(int n, int t, int x, int y, int side, int ncomp, int c, int *bt, int *bx, int *by,
               int *bc, int *sign);

#endif
