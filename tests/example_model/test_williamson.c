/* test_williamson.c: test case 1 on the grid: the winds from the stream function are
 * discretely non-divergent, match the analytic winds at second order, the cosine bell has the
 * right peak and mass, and the exact solution at time t is the bell carried by the flow. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "em.h"
#include "em_test.h"

static const double alphas[5] = {0.0, 0.05, EM_PI / 2 - 0.05, EM_PI / 2, EM_PI / 4};

static void cross(const double *a, const double *b, double *c) {
    c[0] = a[1] * b[2] - a[2] * b[1], c[1] = a[2] * b[0] - a[0] * b[2], c[2] = a[0] * b[1] - a[1] * b[0];
}

static void unit(double *v) {
    double r = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    v[0] /= r, v[1] /= r, v[2] /= r;
}

static int in_corner_block(const em_grid *g, double x, double y) {
    x += g->i0, y += g->j0;
    return (x < 0 || x > g->n) && (y < 0 || y > g->n);
}

/* Returns the largest |uc - V.n| and |vc - V.n| over the faces of tile t (halo included, corner
 * blocks excluded), and reports the divergence and D-grid errors. */
static double winds(int n, int t, double alpha, double *div_rel, double *derr) {
    const int h = 2;
    em_grid g;
    em_error err;
    CHECK(em_grid_init(&g, n, t, 0, 0, n, n, h, &err) == 0, "%s", err.msg);
    size_t np = em_grid_points(&g);
    double *psi = calloc(np, sizeof *psi), *uc = calloc(np, sizeof *uc), *vc = calloc(np, sizeof *vc);
    double *u = calloc(np, sizeof *u), *v = calloc(np, sizeof *v);
    em_tc1_psi_corners(&g, alpha, psi);
    em_tc1_cgrid(&g, psi, uc, vc);
    em_tc1_dgrid(&g, alpha, u, v);
    double maxerr = 0.0;
    *div_rel = 0.0, *derr = 0.0;
    for (int j = -h; j < n + h; j++)
        for (int i = -h; i < n + h; i++) {
            /* net outflow of cell (i, j) against the sum of the |fluxes| */
            double fe = uc[EM_AT(&g, i + 1, j)] * g.dy[EM_AT(&g, i + 1, j)], fw = uc[EM_AT(&g, i, j)] * g.dy[EM_AT(&g, i, j)];
            double fn = vc[EM_AT(&g, i, j + 1)] * g.dx[EM_AT(&g, i, j + 1)], fs = vc[EM_AT(&g, i, j)] * g.dx[EM_AT(&g, i, j)];
            double s = fabs(fe) + fabs(fw) + fabs(fn) + fabs(fs);
            if (s > 0) *div_rel = fmax(*div_rel, fabs(fe - fw + fn - fs) / s);
        }
    for (int j = -h; j <= n + h; j++)
        for (int i = -h; i <= n + h; i++) {
            for (int dir = 0; dir < 2; dir++) {
                /* uc on the y-edge (i,j)-(i,j+1), vc on the x-edge (i,j)-(i+1,j) */
                int i2 = i + (dir == 1), j2 = j + (dir == 0);
                if (i2 > n + h || j2 > n + h || in_corner_block(&g, 0.5 * (i + i2), 0.5 * (j + j2))) continue;
                const double *p1 = g.xyz + 3 * EM_AT(&g, i, j), *p2 = g.xyz + 3 * EM_AT(&g, i2, j2);
                double m[3], nrm[3], w[3];
                em_mid(p1, p2, m);
                if (dir == 0) cross(p2, p1, nrm); else cross(p1, p2, nrm);
                unit(nrm);
                em_tc1_wind_xyz(m, alpha, w);
                double exact = w[0] * nrm[0] + w[1] * nrm[1] + w[2] * nrm[2];
                double got = dir == 0 ? uc[EM_AT(&g, i, j)] : vc[EM_AT(&g, i, j)];
                maxerr = fmax(maxerr, fabs(got - exact));
            }
        }
    /* D-grid u on x-edges, compute domain: V . (t x r) with t from centre (i,j-1) to (i,j) */
    for (int j = 0; j <= n; j++)
        for (int i = 0; i < n; i++) {
            const double *c0 = g.cxyz + 3 * EM_AT(&g, i, j - 1), *c1 = g.cxyz + 3 * EM_AT(&g, i, j);
            double m[3], d[3] = {c1[0] - c0[0], c1[1] - c0[1], c1[2] - c0[2]}, nrm[3], w[3];
            em_mid(g.xyz + 3 * EM_AT(&g, i, j), g.xyz + 3 * EM_AT(&g, i + 1, j), m);
            cross(d, m, nrm);
            unit(nrm);
            em_tc1_wind_xyz(m, alpha, w);
            *derr = fmax(*derr, fabs(u[EM_AT(&g, i, j)] - (w[0] * nrm[0] + w[1] * nrm[1] + w[2] * nrm[2])));
        }
    free(psi), free(uc), free(vc), free(u), free(v);
    em_grid_free(&g);
    return maxerr;
}

static void test_winds(void) {
    for (int a = 0; a < 5; a++) {
        double e24 = 0, e48 = 0, d24 = 0, d48 = 0, div = 0;
        for (int t = 0; t < 6; t++) {
            double dv, de;
            e24 = fmax(e24, winds(24, t, alphas[a], &dv, &de));
            div = fmax(div, dv), d24 = fmax(d24, de);
            e48 = fmax(e48, winds(48, t, alphas[a], &dv, &de));
            div = fmax(div, dv), d48 = fmax(d48, de);
        }
        printf("alpha=%.4f: max |div| / sum|flux| %.2e; C-grid max error / u0: N=24 %.3e, N=48 %.3e "
               "(ratio %.2f); D-grid u: %.3e, %.3e (ratio %.2f)\n",
               alphas[a], div, e24 / EM_U0, e48 / EM_U0, e24 / e48, d24 / EM_U0, d48 / EM_U0, d24 / d48);
        CHECK(div < 1e-13, "divergence %g", div);
        CHECK(e48 / EM_U0 < 2e-3 && e24 / e48 > 3.5, "C-grid winds not second order: %g %g", e24, e48);
        CHECK(d48 / EM_U0 < 5e-4 && d24 / d48 > 3.0, "D-grid winds not second order: %g %g", d24, d48);
    }
    /* the two forms of the analytic wind and stream function agree */
    for (int k = 0; k < 50; k++) {
        double lon = 0.37 * k, lat = -1.5 + 0.06 * k, p[3], w[3], u, v, alpha = alphas[k % 5];
        em_lonlat_xyz(lon, lat, p);
        em_tc1_wind_xyz(p, alpha, w);
        em_tc1_wind(lon, lat, alpha, &u, &v);
        double east = -sin(lon) * w[0] + cos(lon) * w[1];
        double north = -sin(lat) * cos(lon) * w[0] - sin(lat) * sin(lon) * w[1] + cos(lat) * w[2];
        CHECK(fabs(east - u) < 1e-12 * EM_U0 && fabs(north - v) < 1e-12 * EM_U0, "wind forms differ at %d", k);
    }
}

static void test_bell(void) {
    const int n = 48;
    double hmax = 0, mass = 0, far = 0;
    for (int t = 0; t < 6; t++) {
        em_grid g;
        em_error err;
        CHECK(em_grid_init(&g, n, t, 0, 0, n, n, 1, &err) == 0, "%s", err.msg);
        double *h = calloc(em_grid_points(&g), sizeof *h);
        em_tc1_h(&g, h);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                size_t at = EM_AT(&g, i, j);
                hmax = fmax(hmax, h[at]);
                mass += h[at] * g.area[at];
                CHECK(h[at] >= 0 && h[at] <= 1000, "bell out of range");
                if (t != 4) far = fmax(far, h[at]);  /* the bell sits in the middle of tile 4 */
            }
        free(h);
        em_grid_free(&g);
    }
    /* exact mass: 2 pi a^2 int_0^(1/3) 500 (1 + cos(3 pi s)) sin s ds (Simpson) */
    double exact = 0, b = 1.0 / 3.0;
    int m = 20000;
    for (int k = 0; k <= m; k++) {
        double s = b * k / m, f = 500 * (1 + cos(EM_PI * s / b)) * sin(s);
        exact += f * (k == 0 || k == m ? 1 : k % 2 ? 4 : 2);
    }
    exact *= b / m / 3 * 2 * EM_PI * EM_RADIUS * EM_RADIUS;
    printf("bell N=48: max %.2f m, mass of centre values vs exact: relative %.2e\n", hmax, (mass - exact) / exact);
    CHECK(hmax > 950 && hmax <= 1000, "bell max %g", hmax);
    CHECK(fabs(mass - exact) < 2e-3 * exact, "bell mass %g vs %g", mass, exact);
    CHECK(far == 0, "bell reaches beyond tile 4: %g", far);
    CHECK(em_tc1_bell(1.5 * EM_PI, 0) == 1000.0, "bell peak");
}

/* The exact solution at time t: whole revolutions give the initial bell bit for bit; with
 * alpha = 0 the bell moves east by 2 pi per 12 days. */
static void test_exact(void) {
    const int n = 24;
    double worst = 0;
    for (int t = 0; t < 6; t++) {
        em_grid g;
        em_error err;
        CHECK(em_grid_init(&g, n, t, 0, 0, n, n, 1, &err) == 0, "%s", err.msg);
        size_t np = em_grid_points(&g);
        double *h = calloc(np, sizeof *h), *h0 = calloc(np, sizeof *h0);
        em_tc1_h(&g, h0);
        em_tc1_h_exact(&g, 0.3, 24.0 * 86400.0, h);
        CHECK(memcmp(h, h0, np * sizeof *h) == 0, "two revolutions do not give the initial bell");
        for (int d = 1; d < 12; d += 4) {
            em_tc1_h_exact(&g, 0.0, d * 86400.0, h);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) {
                    size_t at = EM_AT(&g, i, j);
                    double lon = g.clon[at] - 2.0 * EM_PI * d / 12.0;
                    double want = em_tc1_bell(lon < 0 ? lon + 2.0 * EM_PI : lon, g.clat[at]);
                    worst = fmax(worst, fabs(h[at] - want));
                }
        }
        free(h), free(h0);
        em_grid_free(&g);
    }
    printf("exact solution, alpha 0, days 1, 5, 9: max |h - bell(lon - u0 t / a)| = %.2e m\n", worst);
    CHECK(worst < 1e-6, "exact solution off by %g m", worst);
}

int main(void) {
    test_winds();
    test_bell();
    test_exact();
    if (em_failures) fprintf(stderr, "%d checks failed\n", em_failures);
    return em_failures != 0;
}
