/* expressions.c: 3 points, 2 levels; q = i + 0.5 + k with a halo of 1 in I, h = i + 100 j
 * with a halo of 1 in J, z = 1000 k, lev = 1 - k + i % 2 (so lev - 1 lands on level i % 2). */
#include <stdint.h>
#include <stdio.h>

#include "expressions_demo.h"

enum { NX = 3, NZ = 2, SX = NX + 2 };

int main(void) {
    double q[NZ][SX], h[3][NX], z[NZ], a[NZ][NX], b[NZ][NX];
    int32_t lev[NZ][NX], c[NZ][NX];
    float d[NZ][NX];
    for (int k = 0; k < NZ; k++) {
        z[k] = 1000.0 * k;
        for (int i = -1; i <= NX; i++) q[k][i + 1] = i + 0.5 + k;
        for (int i = 0; i < NX; i++) lev[k][i] = 1 - k + i % 2;
    }
    for (int j = -1; j <= 1; j++)
        for (int i = 0; i < NX; i++) h[j + 1][i] = i + 100.0 * j;
    expressions_demo_fields f = {.q = fpo_field_3d(q, FPO_F64, -1, NX + 1, 0, 1, 0, NZ),
                                 .h = fpo_field_2d(h, FPO_F64, 0, NX, -1, 2),
                                 .z = fpo_field_1d(z, FPO_F64, 0, NZ),
                                 .lev = fpo_field_3d(lev, FPO_I32, 0, NX, 0, 1, 0, NZ),
                                 .a = fpo_field_3d(a, FPO_F64, 0, NX, 0, 1, 0, NZ),
                                 .b = fpo_field_3d(b, FPO_F64, 0, NX, 0, 1, 0, NZ),
                                 .c = fpo_field_3d(c, FPO_I32, 0, NX, 0, 1, 0, NZ),
                                 .d = fpo_field_3d(d, FPO_F32, 0, NX, 0, 1, 0, NZ)};
    fpo_domain dom = fpo_domain_local(NX, 1, NZ);
    fpo_error err;
    expressions_demo *p;
    if (expressions_demo_open(&p, &dom, &f, &err) || expressions_demo_run(p, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    expressions_demo_close(p);
    for (int k = 0; k < NZ; k++)
        for (int i = 0; i < NX; i++) {
            double x = i + 0.5 + k;
            double wa = (x - 1) + (i + 100.0) + 1000.0 * k;
            double wb = (i + 0.5 + i % 2) * 10.0 + (i + 0.5);
            int32_t m = ((i + k - 5) % 3 + 3) % 3; /* floored */
            int32_t wc = i + k + m;
            float wd = (float)x * 0.5f + (x > 2.0 ? 1.0f : 2.0f);
            if (a[k][i] != wa || b[k][i] != wb || c[k][i] != wc || d[k][i] != wd) {
                fprintf(stderr, "(%d, %d): %g %g %d %g, want %g %g %d %g\n", i, k, a[k][i],
                        b[k][i], c[k][i], d[k][i], wa, wb, wc, wd);
                return 1;
            }
        }
    printf("expressions: offsets, variable and absolute K, casts, mod, ?:\n");
    return 0;
}
