/* program.c: runs `step` (program.fpo) on one row, q = i * i with a halo of 2. smooth makes
 * work = q + 2 half on i in [-1, nx + 1); fx = work(i) - work(i - 1) on the nx + 1
 * interfaces; then q = work * (1 + dt). tmp is not used by the program. */
#include <stdio.h>

#include "step.h"

enum { NX = 5 };

int main(void) {
    double q[NX + 4], fx[NX + 1], tmp[NX];
    for (int i = -2; i < NX + 2; i++) q[i + 2] = i * i;
    step_fields f = {.q = fpo_field_3d(q, FPO_F64, -2, NX + 2, 0, 1, 0, 1),
                     .fx = fpo_field_3d(fx, FPO_F64, 0, NX + 1, 0, 1, 0, 1),
                     .tmp = fpo_field_3d(tmp, FPO_F64, 0, NX, 0, 1, 0, 1)};
    fpo_domain dom = fpo_domain_local(NX, 1, 1);
    fpo_error err;
    step *p;
    const double dt = 0.5;
    if (step_open(&p, &dom, &f, &err) || step_run(p, dt, 2, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    step_close(p);
    for (int i = 0; i <= NX; i++) {
        double want_fx = (double)(i * i) - (i - 1) * (i - 1); /* work(i) - work(i - 1) */
        double want_q = (i * i + 0.25 * 2.0) * (1.0 + dt);
        if (fx[i] != want_fx || (i < NX && q[i + 2] != want_q)) {
            fprintf(stderr, "i = %d: fx %g q %g, want %g %g\n", i, fx[i], q[i + 2], want_fx,
                    want_q);
            return 1;
        }
    }
    printf("program: for, domain(i: 0 .. nx + 1), if, program call, import\n");
    return 0;
}
