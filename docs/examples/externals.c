/* externals.c: externals.fpo built with HORD=5: out = max(0.5 q + 5, 0) on levels
 * [0, nz - 5); the levels above are left alone. */
#include <math.h>
#include <stdio.h>

#include "externals.h"

enum { NX = 3, NY = 2, NZ = 7 };

int main(void) {
    double q[NZ][NY][NX], out[NZ][NY][NX];
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                q[k][j][i] = -20.0 + 3.0 * i + j + 5.0 * k;
                out[k][j][i] = -1;
            }
    externals_fields f = {.q = fpo_field_3d(q, FPO_F64, 0, NX, 0, NY, 0, NZ),
                          .out = fpo_field_3d(out, FPO_F64, 0, NX, 0, NY, 0, NZ)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    externals *p;
    if (externals_open(&p, &dom, &f, &err) || externals_run(p, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    externals_close(p);
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                double want = k < NZ - 5 ? fmax(0.5 * q[k][j][i] + 5, 0.0) : -1;
                if (out[k][j][i] != want) {
                    fprintf(stderr, "out(%d,%d,%d) = %g, want %g\n", i, j, k, out[k][j][i], want);
                    return 1;
                }
            }
    printf("externals: HORD=5 from CMake, CNST and USE_LIMITER from the source\n");
    return 0;
}
