/* gather.c: ranks' compute domains to global cell arrays [tile][j][i]: a local copy, the MPI
 * gather to one rank, and the serial whole-sphere grid used for output. */
#include <stdio.h>
#include <stdlib.h>

#include "em.h"

void em_to_global(const em_grid *g, const double *f, double *out) {
    size_t n = (size_t)g->n;
    for (int j = 0; j < g->ny; j++)
        for (int i = 0; i < g->nx; i++)
            out[((size_t)g->tile * n + (size_t)(g->j0 + j)) * n + (size_t)(g->i0 + i)] =
                f[EM_AT(g, i, j)];
}

em_status em_global_grid(int n, double *lon, double *lat, double *area, double *lon_b,
                         double *lat_b, em_error *err) {
    size_t nb = (size_t)n + 1;
    for (int t = 0; t < 6; t++) {
        em_grid g;
        em_status st = em_grid_init(&g, n, t, 0, 0, n, n, 0, err);
        if (st) return st;
        em_to_global(&g, g.clon, lon);
        em_to_global(&g, g.clat, lat);
        em_to_global(&g, g.area, area);
        for (int j = 0; j <= n; j++)
            for (int i = 0; i <= n; i++) {
                size_t o = ((size_t)t * nb + (size_t)j) * nb + (size_t)i;
                lon_b[o] = g.lon[EM_AT(&g, i, j)];
                lat_b[o] = g.lat[EM_AT(&g, i, j)];
            }
        em_grid_free(&g);
    }
    return EM_OK;
}
