/* swdiag.c: a shallow-water state to its invariants (mass, total energy, potential enstrophy,
 * as exact sums) and to a fingerprint that does not depend on the layout of ranks. */
#include <math.h>
#include <string.h>

#include "sw.h"

#define AT(di, dj) (at + (ptrdiff_t)(di) + (ptrdiff_t)(dj) * sx)

void em_sw_invariants_add(em_xsum acc[EM_SW_NINV], const em_grid *g, const em_sw_metric *m,
                          const double *h, const double *u, const double *v, const double *hs,
                          const double *fc) {
    (void)m;
    ptrdiff_t sx = g->sx;
    for (int j = 0; j < g->ny; j++)
        for (int i = 0; i < g->nx; i++) {
            size_t at = EM_AT(g, i, j);
            double a = g->area[at];
            double uca = 0.5 * (u[at] + u[AT(0, 1)]), vca = 0.5 * (v[at] + v[AT(1, 0)]);
            double ua = (uca - vca * g->cosa_s[at]) * g->rsin2[at];
            double va = (vca - uca * g->cosa_s[at]) * g->rsin2[at];
            double ke = 0.5 * (ua * uca + va * vca);
            double zeta = g->rarea[at] * (u[at] * g->dx[at] - u[AT(0, 1)] * g->dx[AT(0, 1)] -
                                          v[at] * g->dy[at] + v[AT(1, 0)] * g->dy[AT(1, 0)]);
            double q = zeta + fc[at];
            em_xsum_add(&acc[EM_SW_MASS], a * h[at]);
            em_xsum_add(&acc[EM_SW_ENERGY], a * (h[at] * ke + EM_GRAV * h[at] * (0.5 * h[at] + hs[at])));
            em_xsum_add(&acc[EM_SW_ENSTROPHY], a * q * q / (2.0 * h[at]));
        }
}

void em_sw_cell_fields(const em_grid *g, const em_sw_metric *m, const double *u, const double *v,
                       double *ue, double *vn, double *zeta) {
    ptrdiff_t sx = g->sx;
    for (int j = 0; j < g->ny; j++)
        for (int i = 0; i < g->nx; i++) {
            size_t at = EM_AT(g, i, j);
            double uca = 0.5 * (u[at] + u[AT(0, 1)]), vca = 0.5 * (v[at] + v[AT(1, 0)]);
            double ua = (uca - vca * g->cosa_s[at]) * g->rsin2[at];
            double va = (vca - uca * g->cosa_s[at]) * g->rsin2[at];
            double w[3], lon = g->clon[at], lat = g->clat[at];
            for (int c = 0; c < 3; c++) w[c] = ua * m->tx[c][at] + va * m->ty[c][at];
            ue[at] = -sin(lon) * w[0] + cos(lon) * w[1];
            vn[at] = -sin(lat) * cos(lon) * w[0] - sin(lat) * sin(lon) * w[1] + cos(lat) * w[2];
            zeta[at] = g->rarea[at] * (u[at] * g->dx[at] - u[AT(0, 1)] * g->dx[AT(0, 1)] -
                                       v[at] * g->dy[at] + v[AT(1, 0)] * g->dy[AT(1, 0)]);
        }
}

/* splitmix64's finaliser: a well-mixed 64-bit hash. */
static uint64_t mix(uint64_t x) {
    x ^= x >> 30, x *= 0xbf58476d1ce4e5b9u;
    x ^= x >> 27, x *= 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

static uint64_t term(int field, int tile, int n, int gi, int gj, double val) {
    uint64_t bits;
    memcpy(&bits, &val, sizeof bits);
    uint64_t place = (((uint64_t)field * 6 + (uint64_t)tile) * (uint64_t)(n + 1) + (uint64_t)gj) *
                         (uint64_t)(n + 1) + (uint64_t)gi;
    return mix(mix(place) ^ bits);
}

uint64_t em_sw_fingerprint(const em_grid *g, const double *h, const double *u, const double *v) {
    uint64_t s = 0;
    int n = g->n;
    for (int j = 0; j <= g->ny; j++)
        for (int i = 0; i <= g->nx; i++) {
            size_t at = EM_AT(g, i, j);
            int gi = g->i0 + i, gj = g->j0 + j;
            if (i < g->nx && j < g->ny) s += term(0, g->tile, n, gi, gj, h[at]);
            if (i < g->nx && (j < g->ny || gj == n)) s += term(1, g->tile, n, gi, gj, u[at]);
            if (j < g->ny && (i < g->nx || gi == n)) s += term(2, g->tile, n, gi, gj, v[at]);
        }
    return s;
}
