/* functions.c: q = i * i with a halo of 1 in I, c = +1 or -1 by point: out is the upwind
 * value plus the centred difference 4 i. */
#include <stdio.h>

#include "functions_demo.h"

enum { NX = 6, SX = NX + 2 };

int main(void) {
    double q[SX], c[NX], out[NX];
    for (int i = -1; i <= NX; i++) q[i + 1] = i * i;
    for (int i = 0; i < NX; i++) c[i] = i % 3 ? 1.0 : -1.0;
    functions_demo_fields f = {.q = fpo_field_3d(q, FPO_F64, -1, NX + 1, 0, 1, 0, 1),
                               .c = fpo_field_3d(c, FPO_F64, 0, NX, 0, 1, 0, 1),
                               .out = fpo_field_3d(out, FPO_F64, 0, NX, 0, 1, 0, 1)};
    fpo_domain dom = fpo_domain_local(NX, 1, 1);
    fpo_error err;
    functions_demo *p;
    if (functions_demo_open(&p, &dom, &f, &err) || functions_demo_run(p, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    functions_demo_close(p);
    for (int i = 0; i < NX; i++) {
        double want = (c[i] > 0 ? (i - 1) * (i - 1) : i * i) + 4.0 * i;
        if (out[i] != want) {
            fprintf(stderr, "out(%d) = %g, want %g\n", i, out[i], want);
            return 1;
        }
    }
    printf("functions: upwind and dx inlined\n");
    return 0;
}
