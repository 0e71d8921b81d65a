/* demo.c: runs the demo_step program (demo.fpo) for a few steps on a periodic grid and checks
 * it against the same step written as plain C loops; prints the result, exits 1 on mismatch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo_step.h"

enum { NX = 32, NY = 24, NZ = 10, H = 2, NI = NX + 2 * H, NJ = NY + 2 * H, NSTEPS = 20 };
static const double NU = 0.05, U = 1.0, CFL = 0.4, KV = 0.3;

/* Element (i, j, k) of an array covering i in [-H, NX + H), j in [-H, NY + H), k in [0, NZ). */
#define AT(a, i, j, k) (a)[((size_t)(k) * NJ + (size_t)((j) + H)) * NI + (size_t)((i) + H)]

static void fill_halo(double *q) {
    for (int k = 0; k < NZ; k++)
        for (int j = -H; j < NY + H; j++)
            for (int i = -H; i < NX + H; i++)
                if (i < 0 || i >= NX || j < 0 || j >= NY)
                    AT(q, i, j, k) = AT(q, (i + NX) % NX, (j + NY) % NY, k);
}

/* The step of demo.fpo, loop by loop, in the same order of operations. */
static void reference_step(double *q, double *qd, double *fx, double *qn) {
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++) {
            for (int i = -1; i < NX + 1; i++)
                AT(qd, i, j, k) = AT(q, i, j, k) + NU * (AT(q, i - 1, j, k) + AT(q, i + 1, j, k) +
                                                         AT(q, i, j - 1, k) + AT(q, i, j + 1, k) -
                                                         4.0 * AT(q, i, j, k));
            for (int i = 0; i < NX + 1; i++)
                AT(fx, i, j, k) = U * (U > 0.0 ? AT(qd, i - 1, j, k) : AT(qd, i, j, k));
            for (int i = 0; i < NX; i++)
                AT(qn, i, j, k) = AT(qd, i, j, k) - CFL * (AT(fx, i + 1, j, k) - AT(fx, i, j, k));
        }
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            double cp[NZ], dp[NZ];
            cp[0] = -KV / (1.0 + KV);
            dp[0] = AT(qn, i, j, 0) / (1.0 + KV);
            for (int k = 1; k < NZ - 1; k++) {
                double m = 1.0 + 2.0 * KV + KV * cp[k - 1];
                cp[k] = -KV / m;
                dp[k] = (AT(qn, i, j, k) + KV * dp[k - 1]) / m;
            }
            double mt = 1.0 + KV + KV * cp[NZ - 2];
            cp[NZ - 1] = 0.0;
            dp[NZ - 1] = (AT(qn, i, j, NZ - 1) + KV * dp[NZ - 2]) / mt;
            AT(q, i, j, NZ - 1) = dp[NZ - 1];
            for (int k = NZ - 2; k >= 0; k--)
                AT(q, i, j, k) = dp[k] - cp[k] * AT(q, i, j, k + 1);
        }
}

static double mass(const double *q) {
    double s = 0.0;
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++)
                s += AT(q, i, j, k);
    return s;
}

int main(void) {
    const double pi = 3.14159265358979323846;
    size_t n = (size_t)NI * NJ * NZ;
    double *q = calloc(n, sizeof *q), *ref = calloc(n, sizeof *ref);
    double *qd = calloc(n, sizeof *qd), *fx = calloc(n, sizeof *fx), *qn = calloc(n, sizeof *qn);
    if (!q || !ref || !qd || !fx || !qn) {
        fprintf(stderr, "demo: out of memory\n");
        return 1;
    }
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++)
                AT(q, i, j, k) = 1.0 + sin(2.0 * pi * i / NX) * cos(2.0 * pi * j / NY) *
                                           (k + 1.0) / NZ + (i == 5 && j == 7 ? 2.0 : 0.0);
    memcpy(ref, q, n * sizeof *q);
    double mass0 = mass(q);

    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    demo_step *p;

    /* A halo of 1 is too thin for this program: open must refuse it and say why. */
    demo_step_fields thin = {.q = fpo_field_3d(q, FPO_F64, -1, NX + 1, -1, NY + 1, 0, NZ)};
    if (demo_step_open(&p, &dom, &thin, &err) == FPO_OK) {
        fprintf(stderr, "demo: open accepted a halo of 1\n");
        return 1;
    }
    printf("demo: a halo of 1 is refused: %s\n", err.msg);

    demo_step_fields f = {.q = fpo_field_3d(q, FPO_F64, -H, NX + H, -H, NY + H, 0, NZ)};
    if (demo_step_open(&p, &dom, &f, &err) != FPO_OK) {
        fprintf(stderr, "demo: %s\n", err.msg);
        return 1;
    }
    for (int s = 0; s < NSTEPS; s++) {
        fill_halo(q);
        if (demo_step_run(p, U, CFL, KV, &err) != FPO_OK) {
            fprintf(stderr, "demo: %s\n", err.msg);
            return 1;
        }
        fill_halo(ref);
        reference_step(ref, qd, fx, qn);
    }
    demo_step_close(p);

    double maxdiff = 0.0, qmin = INFINITY, qmax = -INFINITY;
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                double a = AT(q, i, j, k);
                maxdiff = fmax(maxdiff, fabs(a - AT(ref, i, j, k)));
                qmin = fmin(qmin, a);
                qmax = fmax(qmax, a);
            }
    double drift = fabs(mass(q) - mass0) / mass0;
    printf("demo: %d steps of demo_step on %d x %d x %d (halo %d)\n", NSTEPS, NX, NY, NZ, H);
    printf("demo: q in [%.6f, %.6f], relative mass drift %.2e\n", qmin, qmax, drift);
    printf("demo: max |fpo - plain C| = %.3e\n", maxdiff);
    int ok = maxdiff <= 1e-12 && drift <= 1e-12 && isfinite(qmin) && qmax > qmin;
    printf("demo: %s\n", ok ? "OK" : "MISMATCH");
    free(q), free(ref), free(qd), free(fx), free(qn);
    return ok ? 0 : 1;
}
