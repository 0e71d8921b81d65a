/* grid.c: a rank's rectangle of a tile: checks the request, allocates the metric arrays,
 * has metrics.c fill them, frees them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em.h"

/* Every array of em_grid, in one list so that allocation and release cannot disagree. */
#define EM_GRID_ARRAYS(X)                                                                      \
    X(lon, 1) X(lat, 1) X(xyz, 3) X(clon, 1) X(clat, 1) X(cxyz, 3) X(area, 1) X(rarea, 1)     \
    X(dx, 1) X(dy, 1) X(rdx, 1) X(rdy, 1) X(dxa, 1) X(dya, 1) X(rdxa, 1) X(rdya, 1)           \
    X(dxc, 1) X(dyc, 1) X(rdxc, 1) X(rdyc, 1) X(cos_sg, 9) X(sin_sg, 9) X(cosa_s, 1)          \
    X(rsin2, 1) X(cosa_u, 1) X(sina_u, 1) X(rsin_u, 1) X(cosa_v, 1) X(sina_v, 1) X(rsin_v, 1)

size_t em_grid_points(const em_grid *g) { return (size_t)g->sx * (size_t)g->sy; }

void em_grid_free(em_grid *g) {
#define EM_FREE(name, k) free(g->name), g->name = NULL;
    EM_GRID_ARRAYS(EM_FREE)
#undef EM_FREE
}

em_status em_grid_init(em_grid *g, int n, int tile, int i0, int j0, int nx, int ny, int h,
                       em_error *err) {
    memset(g, 0, sizeof *g);
    if (n < 1 || tile < 0 || tile > 5 || nx < 1 || ny < 1 || i0 < 0 || j0 < 0 ||
        i0 + nx > n || j0 + ny > n || h < 0 || h > n - 1) {
        snprintf(err->msg, sizeof err->msg,
                 "em_grid_init: bad rectangle n=%d tile=%d i0=%d j0=%d nx=%d ny=%d h=%d "
                 "(need 0 <= tile <= 5, the rectangle inside the tile, 0 <= h < n)",
                 n, tile, i0, j0, nx, ny, h);
        return EM_EINVAL;
    }
    *g = (em_grid){.n = n, .tile = tile, .i0 = i0, .j0 = j0, .nx = nx, .ny = ny, .h = h,
                   .sx = nx + 2 * h + 1, .sy = ny + 2 * h + 1, .radius = EM_RADIUS};
    size_t np = em_grid_points(g);
    int ok = 1;
#define EM_ALLOC(name, k) ok = ok && (g->name = calloc(np * (k), sizeof(double))) != NULL;
    EM_GRID_ARRAYS(EM_ALLOC)
#undef EM_ALLOC
    if (!ok) {
        em_grid_free(g);
        snprintf(err->msg, sizeof err->msg, "em_grid_init: out of memory (%zu points)", np);
        return EM_ENOMEM;
    }
    em_metrics_fill(g);
    return EM_OK;
}
