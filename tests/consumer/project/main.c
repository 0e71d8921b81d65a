/* main.c: runs the blur program built by fpo_add_program and checks it against C loops. */
#include <math.h>
#include <stdio.h>

#include "blur.h"

enum { NX = 7, NY = 5, NZ = 3, NI = NX + 2, NJ = NY + 2 };
#define AT(a, i, j, k) (a)[((k) * NJ + (j) + 1) * NI + (i) + 1]

int main(void) {
    static double q[NI * NJ * NZ], out[NI * NJ * NZ];
    for (int n = 0; n < NI * NJ * NZ; n++)
        q[n] = sin(0.37 * n) + 0.01 * n;
    blur_fields f = {.q = fpo_field_3d(q, FPO_F64, -1, NX + 1, -1, NY + 1, 0, NZ),
                     .out = fpo_field_3d(out, FPO_F64, -1, NX + 1, -1, NY + 1, 0, NZ)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    blur *p;
    if (blur_open(&p, &dom, &f, &err) || blur_run(p, &err)) {
        fprintf(stderr, "consumer: %s\n", err.msg);
        return 1;
    }
    blur_close(p);
    double maxdiff = 0.0;
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                double want = (1.0 - 0.25) * AT(q, i, j, k) +
                              0.25 * 0.25 * (AT(q, i - 1, j, k) + AT(q, i + 1, j, k) +
                                             AT(q, i, j - 1, k) + AT(q, i, j + 1, k));
                maxdiff = fmax(maxdiff, fabs(AT(out, i, j, k) - want));
            }
    printf("consumer: max |fpo - C| = %.3e\n", maxdiff);
    if (maxdiff > 1e-14) {
        printf("consumer: MISMATCH\n");
        return 1;
    }
    printf("consumer: OK\n");
    return 0;
}
