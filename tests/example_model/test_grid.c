/* test_grid.c: the cubed-sphere grid: total area, area ratio and spacing at N = 48, exact
 * areas against vertex-based spherical excess, symmetry across tiles, the corner angles, and
 * halo metrics equal to the neighbouring tiles' interior values (brief's halo maps). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "em.h"
#include "em_test.h"

/* Exact area of gnomonic cell (i, j) of an n-cell tile on the unit sphere (cubed-sphere.md):
 * w(X2,Y2) - w(X1,Y2) - w(X2,Y1) + w(X1,Y1), w(X, Y) = atan(XY / sqrt(1 + X^2 + Y^2)). */
static double gnomonic_area(int n, int i, int j) {
    double X1 = tan(-EM_PI / 4 + i * EM_PI / (2 * n)), X2 = tan(-EM_PI / 4 + (i + 1) * EM_PI / (2 * n));
    double Y1 = tan(-EM_PI / 4 + j * EM_PI / (2 * n)), Y2 = tan(-EM_PI / 4 + (j + 1) * EM_PI / (2 * n));
#define W(X, Y) atan((X) * (Y) / sqrt(1.0 + (X) * (X) + (Y) * (Y)))
    return W(X2, Y2) - W(X1, Y2) - W(X2, Y1) + W(X1, Y1);
#undef W
}

static void test_n48(void) {
    const int n = 48;
    double total = 0.0, amin = INFINITY, amax = 0.0, smin = INFINITY, smax = 0.0, maxrel = 0.0;
    em_grid g[6];
    em_error err;
    for (int t = 0; t < 6; t++) CHECK(em_grid_init(&g[t], n, t, 0, 0, n, n, 2, &err) == 0, "%s", err.msg);
    for (int t = 0; t < 6; t++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                em_grid *G = &g[t];
                size_t at = EM_AT(G, i, j);
                double a = G->area[at];
                total += a;
                amin = fmin(amin, a), amax = fmax(amax, a);
                double ex = gnomonic_area(n, i, j) * G->radius * G->radius;
                maxrel = fmax(maxrel, fabs(ex - a) / a);
                double s[4] = {G->dx[at], G->dx[EM_AT(G, i, j + 1)], G->dy[at], G->dy[EM_AT(G, i + 1, j)]};
                for (int k = 0; k < 4; k++) smin = fmin(smin, s[k]), smax = fmax(smax, s[k]);
                /* the same cell on every tile, and its mirror images */
                CHECK(fabs(a - g[0].area[at]) <= 1e-13 * a, "area differs across tiles at t=%d (%d,%d)", t, i, j);
                CHECK(fabs(a - G->area[EM_AT(G, j, i)]) <= 1e-13 * a &&
                          fabs(a - G->area[EM_AT(G, n - 1 - i, j)]) <= 1e-13 * a,
                      "area not symmetric at t=%d (%d,%d)", t, i, j);
                CHECK(fabs(G->dx[at] - g[0].dx[at]) <= 1e-12 * G->dx[at], "dx differs across tiles");
                CHECK(fabs(G->dx[at] - G->dy[EM_AT(G, j, i)]) <= 1e-12 * G->dx[at], "dx(i,j) != dy(j,i)");
                CHECK(fabs(G->dxa[at] - G->dya[EM_AT(G, j, i)]) <= 1e-12 * G->dxa[at], "dxa(i,j) != dya(j,i)");
                CHECK(G->dxa[at] > 0.5 * G->dx[at] && G->dxa[at] < 2 * G->dx[at], "dxa out of range");
            }
    double exact = 4.0 * EM_PI * EM_RADIUS * EM_RADIUS, rel = (total - exact) / exact;
    printf("N=48: total area relative error %.3e\n", rel);
    printf("N=48: max/min cell area %.4f (brief: 1.391)\n", amax / amin);
    printf("N=48: cell spacing %.2f .. %.2f km (brief: 147.5 .. 208.5)\n", smin / 1e3, smax / 1e3);
    printf("N=48: vertex spherical excess vs the exact gnomonic formula, max relative difference %.3e\n", maxrel);
    CHECK(fabs(rel) < 1e-13, "total area error %g", rel);
    CHECK(fabs(amax / amin - 1.391) < 0.0015, "area ratio %g", amax / amin);
    CHECK(fabs(smin / 1e3 - 147.5) < 0.1 && fabs(smax / 1e3 - 208.5) < 0.1, "spacing %g %g", smin, smax);
    CHECK(maxrel < 1e-11, "area vs exact formula %g", maxrel);
    /* grid angle: 120 degrees at the SW and NE cube corners, 60 at SE and NW, 90 at the centre */
    em_grid *G = &g[3];
    CHECK(fabs(G->cos_sg[9 * EM_AT(G, 0, 0) + 5] + 0.5) < 1e-12, "SW corner cos %g", G->cos_sg[9 * EM_AT(G, 0, 0) + 5]);
    CHECK(fabs(G->cos_sg[9 * EM_AT(G, n - 1, 0) + 6] - 0.5) < 1e-12, "SE corner cos");
    CHECK(fabs(G->cos_sg[9 * EM_AT(G, n - 1, n - 1) + 7] + 0.5) < 1e-12, "NE corner cos");
    CHECK(fabs(G->cos_sg[9 * EM_AT(G, 0, n - 1) + 8] - 0.5) < 1e-12, "NW corner cos");
    CHECK(fabs(G->cos_sg[9 * EM_AT(G, n / 2, n / 2) + 5]) < 1e-12, "centre vertex cos");
    /* centre value and the analytic formula -XY / sqrt((1+X^2)(1+Y^2)) at cell (3, 7)'s SW vertex */
    double X = tan(-EM_PI / 4 + 3 * EM_PI / (2 * n)), Y = tan(-EM_PI / 4 + 7 * EM_PI / (2 * n));
    double ca = -X * Y / sqrt((1 + X * X) * (1 + Y * Y));
    CHECK(fabs(G->cos_sg[9 * EM_AT(G, 3, 7) + 5] - ca) < 1e-12, "cos_sg %g vs %g", G->cos_sg[9 * EM_AT(G, 3, 7) + 5], ca);
    double *sw = malloc(em_grid_points(G) * sizeof *sw);
    em_sg_point(G, G->sin_sg, 6, sw);
    CHECK(fabs(sw[EM_AT(G, 3, 7)] - sqrt(1 - ca * ca)) < 1e-12, "em_sg_point: %g", sw[EM_AT(G, 3, 7)]);
    free(sw);
    for (int t = 0; t < 6; t++) em_grid_free(&g[t]);
}

/* The brief's cell-centred halo formulas: halo cell (a, k) of tile t equals cell (b, c) of
 * tile s; checked on the area and the centre position of full-tile grids with halo H. */
static void test_cell_halo_formulas(void) {
    const int n = 12, H = 3;
    em_grid g[6];
    em_error err;
    for (int t = 0; t < 6; t++) CHECK(em_grid_init(&g[t], n, t, 0, 0, n, n, H, &err) == 0, "%s", err.msg);
    int checked = 0;
    for (int t = 0; t < 6; t++)
        for (int k = 0; k < H; k++)
            for (int a = 0; a < n; a++) {
                int ai[4], aj[4], bs[4], bi[4], bj[4];  /* E, W, N, S halo cells */
                if (t % 2 == 0) {
                    ai[0] = n + k, aj[0] = a, bs[0] = (t + 1) % 6, bi[0] = k, bj[0] = a;
                    ai[1] = -1 - k, aj[1] = a, bs[1] = (t + 4) % 6, bi[1] = n - 1 - a, bj[1] = n - 1 - k;
                    ai[2] = a, aj[2] = n + k, bs[2] = (t + 2) % 6, bi[2] = k, bj[2] = n - 1 - a;
                    ai[3] = a, aj[3] = -1 - k, bs[3] = (t + 5) % 6, bi[3] = a, bj[3] = n - 1 - k;
                } else {
                    ai[0] = n + k, aj[0] = a, bs[0] = (t + 2) % 6, bi[0] = n - 1 - a, bj[0] = k;
                    ai[1] = -1 - k, aj[1] = a, bs[1] = (t + 5) % 6, bi[1] = n - 1 - k, bj[1] = a;
                    ai[2] = a, aj[2] = n + k, bs[2] = (t + 1) % 6, bi[2] = a, bj[2] = k;
                    ai[3] = a, aj[3] = -1 - k, bs[3] = (t + 4) % 6, bi[3] = n - 1 - k, bj[3] = n - 1 - a;
                }
                for (int s = 0; s < 4; s++) {
                    size_t x = EM_AT(&g[t], ai[s], aj[s]), y = EM_AT(&g[bs[s]], bi[s], bj[s]);
                    double d = 0;
                    for (int c = 0; c < 3; c++) d = fmax(d, fabs(g[t].cxyz[3 * x + c] - g[bs[s]].cxyz[3 * y + c]));
                    CHECK(d < 1e-14, "tile %d side %d halo cell (%d,%d) centre off by %g", t, s, ai[s], aj[s], d);
                    CHECK(fabs(g[t].area[x] - g[bs[s]].area[y]) <= 1e-13 * g[t].area[x],
                          "tile %d side %d halo area", t, s);
                    checked++;
                }
            }
    printf("cell halo formulas: %d halo cells match their neighbours\n", checked);
    /* At a cube corner the x-face next to the x = 0 line in the south halo and the y-face next
     * to the y = 0 line in the west halo join the same two cells: (0, -1-k) and (-1-k, 0). */
    for (int t = 0; t < 6; t++)
        for (int k = 0; k < H; k++) {
            em_grid *G = &g[t];
            double a = G->dxc[EM_AT(G, 0, -1 - k)], b = G->dyc[EM_AT(G, -1 - k, 0)];
            double p = G->radius * em_arc(G->cxyz + 3 * EM_AT(G, 0, -1 - k), G->cxyz + 3 * EM_AT(G, -1 - k, 0));
            CHECK(a > 0 && fabs(a - p) <= 1e-12 * p && fabs(b - p) <= 1e-12 * p,
                  "tile %d SW corner faces k=%d: dxc %g dyc %g, centres %g apart", t, k, a, b, p);
            a = G->dxc[EM_AT(G, n, n + k)], b = G->dyc[EM_AT(G, n + k, n)];
            p = G->radius * em_arc(G->cxyz + 3 * EM_AT(G, n - 1, n + k), G->cxyz + 3 * EM_AT(G, n + k, n - 1));
            CHECK(a > 0 && fabs(a - p) <= 1e-12 * p && fabs(b - p) <= 1e-12 * p,
                  "tile %d NE corner faces k=%d: dxc %g dyc %g, centres %g apart", t, k, a, b, p);
        }
    for (int t = 0; t < 6; t++) em_grid_free(&g[t]);
}

/* Every edge of a rank's halo outside the cube-corner blocks is an edge of some tile, with the
 * same length: 2x2 layout, N = 12, halo 3. Also: every metric is finite everywhere. */
typedef struct edge { double m[3], len; } edge;

static void test_rank_halo_edges(void) {
    const int n = 12, H = 3, L = 2, s = n / L;
    size_t ne = 0;
    edge *all = malloc(6 * 2 * (size_t)n * (n + 1) * sizeof *all);
    em_error err;
    for (int t = 0; t < 6; t++) {
        em_grid g;
        CHECK(em_grid_init(&g, n, t, 0, 0, n, n, 0, &err) == 0, "%s", err.msg);
        for (int j = 0; j <= n; j++)
            for (int i = 0; i <= n; i++) {
                if (i < n) {
                    em_mid(g.xyz + 3 * EM_AT(&g, i, j), g.xyz + 3 * EM_AT(&g, i + 1, j), all[ne].m);
                    all[ne++].len = g.dx[EM_AT(&g, i, j)];
                }
                if (j < n) {
                    em_mid(g.xyz + 3 * EM_AT(&g, i, j), g.xyz + 3 * EM_AT(&g, i, j + 1), all[ne].m);
                    all[ne++].len = g.dy[EM_AT(&g, i, j)];
                }
            }
        em_grid_free(&g);
    }
    int checked = 0, nonfinite = 0;
    for (int t = 0; t < 6; t++)
        for (int rj = 0; rj < L; rj++)
            for (int ri = 0; ri < L; ri++) {
                em_grid g;
                CHECK(em_grid_init(&g, n, t, ri * s, rj * s, s, s, H, &err) == 0, "%s", err.msg);
                for (size_t k = 0; k < em_grid_points(&g); k++) {
                    double *v[] = {&g.area[k], &g.dx[k], &g.dy[k], &g.dxa[k], &g.dya[k], &g.dxc[k],
                                   &g.dyc[k], &g.rdxc[k], &g.rdyc[k], &g.rsin_u[k], &g.rsin_v[k], &g.rsin2[k]};
                    for (size_t q = 0; q < sizeof v / sizeof *v; q++)
                        if (!isfinite(*v[q]) && nonfinite++ < 5)
                            fprintf(stderr, "rank (%d,%d,%d): array %zu point %zu (of %d x %d) is %g\n", t, ri,
                                    rj, q, k, g.sx, g.sy, *v[q]);
                }
                for (int j = -H; j <= s + H; j++)
                    for (int i = -H; i <= s + H; i++)
                        for (int dir = 0; dir < 2; dir++) {
                            int i2 = i + (dir == 0), j2 = j + (dir == 1);
                            if (i2 > s + H || j2 > s + H) continue;
                            double mx = g.i0 + 0.5 * (i + i2), my = g.j0 + 0.5 * (j + j2);
                            if ((mx < 0 || mx > n) && (my < 0 || my > n)) continue;  /* corner block */
                            double m[3], len = dir == 0 ? g.dx[EM_AT(&g, i, j)] : g.dy[EM_AT(&g, i, j)];
                            em_mid(g.xyz + 3 * EM_AT(&g, i, j), g.xyz + 3 * EM_AT(&g, i2, j2), m);
                            size_t best = 0;
                            double bd = INFINITY;
                            for (size_t e = 0; e < ne; e++) {
                                double d = fabs(all[e].m[0] - m[0]) + fabs(all[e].m[1] - m[1]) + fabs(all[e].m[2] - m[2]);
                                if (d < bd) bd = d, best = e;
                            }
                            CHECK(bd < 1e-13, "rank (%d,%d,%d) edge (%d,%d,%d) has no match (%g)", t, ri, rj, i, j, dir, bd);
                            CHECK(fabs(all[best].len - len) <= 1e-12 * len, "edge length %g vs %g", len, all[best].len);
                            checked++;
                        }
                em_grid_free(&g);
            }
    printf("rank halos (2x2, N=12, h=3): %d edges match tile edges; %d non-finite metrics\n", checked, nonfinite);
    CHECK(nonfinite == 0, "%d non-finite metric values", nonfinite);
    free(all);
}

/* Points on a tile's edge are the same seen from either tile (the halo maps and the tile
 * table agree). */
static void test_edge_points(void) {
    const int n = 10;
    double worst = 0.0;
    for (int t = 0; t < 6; t++)
        for (int k = 0; k <= 2 * n; k++) {
            double s = 0.5 * k, pts[4][2] = {{n, s}, {0, s}, {s, n}, {s, 0}};
            for (int e = 0; e < 4; e++) {
                double p[3], q[3], eps = 1e-9;
                em_tile_xyz(n, t, pts[e][0], pts[e][1], p);
                /* nudge the point out of the tile so that em_point_xyz uses the neighbour */
                double x = pts[e][0] + (e == 0 ? eps : e == 1 ? -eps : 0);
                double y = pts[e][1] + (e == 2 ? eps : e == 3 ? -eps : 0);
                em_point_xyz(n, t, x, y, q);
                for (int c = 0; c < 3; c++) worst = fmax(worst, fabs(p[c] - q[c]));
            }
        }
    printf("tile-edge points seen from both tiles differ by at most %.2e (nudge 1e-9)\n", worst);
    CHECK(worst < 1e-8, "edge points differ by %g", worst);
}

static void test_bad_input(void) {
    em_grid g;
    em_error err;
    CHECK(em_grid_init(&g, 8, 6, 0, 0, 8, 8, 1, &err) == EM_EINVAL, "tile 6 accepted");
    CHECK(em_grid_init(&g, 8, 0, 4, 0, 8, 8, 1, &err) == EM_EINVAL, "rectangle outside accepted");
    CHECK(em_grid_init(&g, 8, 0, 0, 0, 8, 8, 8, &err) == EM_EINVAL, "halo of n accepted");
    CHECK(strstr(err.msg, "em_grid_init") != NULL, "message %s", err.msg);
}

int main(void) {
    test_n48();
    test_cell_halo_formulas();
    test_rank_halo_edges();
    test_edge_points();
    test_bad_input();
    if (em_failures) fprintf(stderr, "%d checks failed\n", em_failures);
    return em_failures != 0;
}
