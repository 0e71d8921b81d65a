/* slice_main.c: runs the generated program `step` (slice.fpo) on a field with a halo and
 * compares it with a plain C loop nest; also checks open's shape validation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "step.h"

enum { NX = 7, NY = 5, NZ = 3, H = 1 };
#define AT(a, i, j, k) (a)[((k) * (NY + 2 * H) + (j) + H) * (NX + 2 * H) + (i) + H]

int main(void) {
    size_t n = (size_t)(NX + 2 * H) * (NY + 2 * H) * NZ;
    double *q = calloc(n, sizeof *q), *out = calloc(n, sizeof *out), *ref = calloc(n, sizeof *ref);
    for (int k = 0; k < NZ; k++)
        for (int j = -H; j < NY + H; j++)
            for (int i = -H; i < NX + H; i++)
                AT(q, i, j, k) = sin(0.3 * i + 0.7 * j) + 0.1 * k * k;
    double w = 0.125;
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++)
                AT(ref, i, j, k) = AT(q, i, j, k) + w * (AT(q, i - 1, j, k) + AT(q, i + 1, j, k) +
                                                         AT(q, i, j - 1, k) + AT(q, i, j + 1, k) -
                                                         4.0 * AT(q, i, j, k));
    step_fields f = {.q = fpo_field_3d(q, FPO_F64, -H, NX + H, -H, NY + H, 0, NZ),
                     .out = fpo_field_3d(out, FPO_F64, -H, NX + H, -H, NY + H, 0, NZ)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    step *p;
    if (step_open(&p, &dom, &f, &err)) {
        fprintf(stderr, "open: %s\n", err.msg);
        return 1;
    }
    if (step_run(p, w, &err)) {
        fprintf(stderr, "run: %s\n", err.msg);
        return 1;
    }
    step_close(p);
    int bad = 0;
    for (int k = 0; k < NZ; k++)
        for (int j = -H; j < NY + H; j++)
            for (int i = -H; i < NX + H; i++) {
                bool in = i >= 0 && i < NX && j >= 0 && j < NY;
                double want = in ? AT(ref, i, j, k) : 0.0;
                if (AT(out, i, j, k) != want && bad++ < 5)
                    fprintf(stderr, "out(%d,%d,%d) = %.17g, want %.17g\n", i, j, k,
                            AT(out, i, j, k), want);
            }
    /* Without a halo, q does not cover the points smooth reads: open refuses. */
    step_fields small = f;
    small.q = fpo_field_3d(q, FPO_F64, 0, NX, 0, NY, 0, NZ);
    if (step_open(&p, &dom, &small, &err) != FPO_ESHAPE || p) {
        fprintf(stderr, "open accepted a field without a halo\n");
        bad++;
    } else {
        printf("open refused as expected: %s\n", err.msg);
    }
    free(q);
    free(out);
    free(ref);
    if (bad) {
        fprintf(stderr, "%d wrong values\n", bad);
        return 1;
    }
    printf("slice: %d points match the C reference\n", NX * NY * NZ);
    return 0;
}
