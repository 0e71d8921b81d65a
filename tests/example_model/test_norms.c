/* test_norms.c: exact sums and the error norms: known sums, order independence, norms of
 * known fields, and the same bits for the whole sphere cut into 1x1, 2x2 and 3x3 layouts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "em.h"
#include "em_test.h"

static void test_xsum(void) {
    em_xsum s;
    em_xsum_init(&s);
    em_xsum_add(&s, 1e100), em_xsum_add(&s, 1.0), em_xsum_add(&s, -1e100);
    CHECK(em_xsum_value(&s) == 1.0, "1e100 + 1 - 1e100 = %g", em_xsum_value(&s));
    /* 1000 terms (k+1) 2^-20 among +-1e20 and subnormals that cancel: sum 500500 2^-20 */
    enum { M = 3000 };
    double x[M];
    for (int k = 0; k < 1000; k++) {
        x[3 * k] = (k + 1) * ldexp(1.0, -20);
        x[3 * k + 1] = (k % 2 ? 1e20 : -1e20) * (1 + k);
        x[3 * k + 2] = (k % 2 ? 1 : -1) * 4.9e-324 * (1 + k % 7);
    }
    for (int k = 0; k < 1000; k += 2) x[3 * k + 1] = -x[3 * k + 4], x[3 * k + 2] = -x[3 * k + 5];
    double fwd, rev, shuf;
    em_xsum_init(&s);
    for (int k = 0; k < M; k++) em_xsum_add(&s, x[k]);
    fwd = em_xsum_value(&s);
    em_xsum_init(&s);
    for (int k = M - 1; k >= 0; k--) em_xsum_add(&s, x[k]);
    rev = em_xsum_value(&s);
    em_xsum a, b;
    em_xsum_init(&a), em_xsum_init(&b);
    for (int k = 0; k < M; k++) em_xsum_add((k * 7919) % 3 ? &a : &b, x[(k * 7919) % M]);
    em_xsum_merge(&b, &a);
    shuf = em_xsum_value(&b);
    double exact = 500500 * ldexp(1.0, -20);
    printf("xsum: forward %.17g, reverse %.17g, shuffled and merged %.17g, exact %.17g\n", fwd, rev, shuf, exact);
    CHECK(fwd == exact && rev == exact && shuf == exact, "exact sum");
    /* negative sums */
    em_xsum_init(&s);
    em_xsum_add(&s, 0.5), em_xsum_add(&s, -3.25), em_xsum_add(&s, 1e-300);
    CHECK(em_xsum_value(&s) == -2.75, "0.5 - 3.25 + 1e-300 = %.17g", em_xsum_value(&s));
    em_xsum_init(&s);
    em_xsum_add(&s, -1e-300);
    CHECK(em_xsum_value(&s) == -1e-300, "-1e-300 = %g", em_xsum_value(&s));
    em_xsum_init(&s);
    em_xsum_add(&s, NAN);
    CHECK(isnan(em_xsum_value(&s)), "NaN lost");
    /* many terms: the carries are propagated */
    em_xsum_init(&s);
    for (long k = 0; k < 3000000; k++) em_xsum_add(&s, 0.75);
    CHECK(em_xsum_value(&s) == 2250000.0, "3e6 terms: %.17g", em_xsum_value(&s));
}

typedef struct sphere {
    int n, layout;
    em_grid g[54];
    double *h[54], *ht[54], *h0[54];
} sphere;

/* The bell on every rank of the layout (L x L per tile); h = f(bell) is made per cell. */
static void sphere_init(sphere *s, int n, int L, double scale, double shift) {
    em_error err;
    s->n = n, s->layout = L;
    for (int r = 0; r < 6 * L * L; r++) {
        int t = r / (L * L), ri = r % L, rj = (r / L) % L, w = n / L;
        CHECK(em_grid_init(&s->g[r], n, t, ri * w, rj * w, w, w, 1, &err) == 0, "%s", err.msg);
        size_t np = em_grid_points(&s->g[r]);
        s->h[r] = calloc(np, sizeof(double)), s->ht[r] = calloc(np, sizeof(double)), s->h0[r] = calloc(np, sizeof(double));
        em_tc1_h(&s->g[r], s->ht[r]);
        for (size_t k = 0; k < np; k++) {
            s->h0[r][k] = s->ht[r][k];
            s->h[r][k] = scale * s->ht[r][k] + shift * sin(3.0 * s->g[r].clon[k] + 7.0 * s->g[r].clat[k]);
        }
    }
}

static void sphere_free(sphere *s) {
    for (int r = 0; r < 6 * s->layout * s->layout; r++) {
        free(s->h[r]), free(s->ht[r]), free(s->h0[r]);
        em_grid_free(&s->g[r]);
    }
}

/* Norms with the ranks' partial sums merged in the order given by `stride`. */
static em_norms sphere_norms(sphere *s, int stride, em_status *st) {
    int nr = 6 * s->layout * s->layout;
    em_norm_acc total;
    em_norm_acc_init(&total);
    for (int k = 0; k < nr; k++) {
        int r = (k * stride) % nr;
        em_norm_acc acc;
        em_norm_acc_init(&acc);
        em_norm_acc_add(&acc, &s->g[r], s->h[r], s->ht[r], s->h0[r]);
        em_norm_acc_merge(&total, &acc);
    }
    em_norms out = {0};
    em_error err;
    *st = em_norms_finish(&total, &out, &err);
    return out;
}

static void test_known_fields(void) {
    sphere s;
    em_status st;
    sphere_init(&s, 12, 1, 1.0, 0.0);
    em_norms z = sphere_norms(&s, 1, &st);
    CHECK(st == 0 && z.l1 == 0 && z.l2 == 0 && z.linf == 0 && z.mass == 0, "h = hT: %g %g %g %g", z.l1, z.l2, z.linf, z.mass);
    sphere_free(&s);
    sphere_init(&s, 12, 1, 2.0, 0.0);
    em_norms d = sphere_norms(&s, 1, &st);
    CHECK(st == 0 && d.l1 == 1 && d.l2 == 1 && d.linf == 1 && d.mass == 1, "h = 2 hT: %g %g %g %g", d.l1, d.l2, d.linf, d.mass);
    /* h = hT + 10: against plain sums */
    for (int r = 0; r < 6; r++)
        for (size_t k = 0; k < em_grid_points(&s.g[r]); k++) s.h[r][k] = s.ht[r][k] + 10.0;
    em_norms c = sphere_norms(&s, 1, &st);
    double A = 0, M1 = 0, M2 = 0, mx = 0;
    for (int r = 0; r < 6; r++)
        for (int j = 0; j < 12; j++)
            for (int i = 0; i < 12; i++) {
                size_t at = EM_AT(&s.g[r], i, j);
                A += s.g[r].area[at], M1 += s.g[r].area[at] * s.ht[r][at];
                M2 += s.g[r].area[at] * s.ht[r][at] * s.ht[r][at], mx = fmax(mx, s.ht[r][at]);
            }
    printf("h = hT + 10, N=12: l1 %.6e l2 %.6e linf %.6e mass %.6e\n", c.l1, c.l2, c.linf, c.mass);
    CHECK(st == 0 && fabs(c.l1 - 10 * A / M1) < 1e-12 * c.l1, "l1 %g vs %g", c.l1, 10 * A / M1);
    CHECK(fabs(c.l2 - 10 * sqrt(A) / sqrt(M2)) < 1e-12 * c.l2, "l2");
    CHECK(fabs(c.linf - 10 / mx) < 1e-15 * c.linf, "linf");
    CHECK(fabs(c.mass - 10 * A / M1) < 1e-12 * c.mass, "mass drift");
    /* failures are reported, not hidden */
    s.h[2][EM_AT(&s.g[2], 3, 3)] = NAN;
    sphere_norms(&s, 1, &st);
    CHECK(st == EM_EINVAL, "NaN accepted");
    for (int r = 0; r < 6; r++) memset(s.ht[r], 0, em_grid_points(&s.g[r]) * sizeof(double));
    sphere_norms(&s, 1, &st);
    CHECK(st == EM_EINVAL, "zero exact solution accepted");
    sphere_free(&s);
}

static void test_layouts(void) {
    em_norms ref = {0};
    for (int L = 1; L <= 3; L++)
        for (int stride = 1; stride <= 5; stride += 4) {
            sphere s;
            em_status st;
            sphere_init(&s, 12, L, 1.0, 3.0);
            em_norms x = sphere_norms(&s, stride, &st);
            CHECK(st == 0, "status");
            if (L == 1 && stride == 1) {
                ref = x;
                printf("noisy h, N=12: l1 %.17g l2 %.17g linf %.17g mass %.17g\n", x.l1, x.l2, x.linf, x.mass);
            }
            CHECK(memcmp(&x, &ref, sizeof x) == 0, "layout %dx%d, merge stride %d: different bits", L, L, stride);
            sphere_free(&s);
        }
}

int main(void) {
    test_xsum();
    test_known_fields();
    test_layouts();
    if (em_failures) fprintf(stderr, "%d checks failed\n", em_failures);
    return em_failures != 0;
}
