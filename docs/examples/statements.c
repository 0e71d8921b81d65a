/* statements.c: one row of 4 points, 3 levels, q = i + 4 k (a halo of 1 in I), n = i + 1. */
#include <stdint.h>
#include <stdio.h>

#include "statements_demo.h"

enum { NX = 4, NZ = 3, SX = NX + 2 };

int main(void) {
    double q[NZ][SX], grad[NZ][NX], up[NZ][NX], steps[NZ][NX];
    int32_t n[NZ][NX], kind[NZ][NX];
    for (int k = 0; k < NZ; k++) {
        for (int i = -1; i <= NX; i++) q[k][i + 1] = i + 4.0 * k;
        for (int i = 0; i < NX; i++) n[k][i] = i + 1;
    }
    statements_demo_fields f = {
        .q = fpo_field_3d(q, FPO_F64, -1, NX + 1, 0, 1, 0, NZ),
        .n = fpo_field_3d(n, FPO_I32, 0, NX, 0, 1, 0, NZ),
        .grad = fpo_field_3d(grad, FPO_F64, 0, NX, 0, 1, 0, NZ),
        .up = fpo_field_3d(up, FPO_F64, 0, NX, 0, 1, 0, NZ),
        .kind = fpo_field_3d(kind, FPO_I32, 0, NX, 0, 1, 0, NZ),
        .steps = fpo_field_3d(steps, FPO_F64, 0, NX, 0, 1, 0, NZ)};
    fpo_domain dom = fpo_domain_local(NX, 1, NZ);
    fpo_error err;
    statements_demo *p;
    if (statements_demo_open(&p, &dom, &f, &err) || statements_demo_run(p, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    statements_demo_close(p);
    for (int k = 0; k < NZ; k++)
        for (int i = 0; i < NX; i++) {
            double x = i + 4.0 * k, u = 0;
            for (int l = 0; l < k; l++) u += i + 4.0 * l;
            int32_t kd = x > 10 ? 2 : x > 5 ? 1 : -1;
            if (grad[k][i] != 4.0 || kind[k][i] != kd || steps[k][i] != 0.5 * (i + 1) ||
                up[k][i] != u) {
                fprintf(stderr, "(%d, %d): grad %g kind %d steps %g up %g; want 4 %d %g %g\n",
                        i, k, grad[k][i], kind[k][i], steps[k][i], up[k][i], kd, 0.5 * (i + 1),
                        u);
                return 1;
            }
        }
    printf("statements: temporaries, if, while and K-offset writes\n");
    return 0;
}
