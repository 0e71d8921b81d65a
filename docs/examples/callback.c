/* callback.c: defines the host callback `report` that callback.fpo declares; the program calls
 * it after each step with the field and the step, and `user` is fpo_options.user. */
#include <stdio.h>

#include "decay_steps.h"

enum { NX = 4, NY = 3, NZ = 2 };

typedef struct Log {
    int calls;
    double first[8];   /* q at the first point after each step */
} Log;

fpo_status report(void *user, const fpo_field *q, int32_t step, fpo_error *err) {
    Log *log = user;
    if (step != log->calls)
        return fpo_fail(err, FPO_EINVAL, "report: step %d out of order", step);
    log->first[log->calls++] = *(const double *)q->data;
    return FPO_OK;
}

int main(void) {
    static double q[NZ][NY][NX];
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) q[k][j][i] = 16.0;
    decay_steps_fields f = {.q = fpo_field_3d(&q[0][0][0], FPO_F64, 0, NX, 0, NY, 0, NZ)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    Log log = {0};
    fpo_options opt = {.user = &log};
    fpo_error err;
    decay_steps *p;
    if (decay_steps_open_with(&p, &dom, &f, &opt, &err) || decay_steps_run(p, 0.5, 3, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    decay_steps_close(p);
    if (log.calls != 3 || log.first[0] != 8.0 || log.first[1] != 4.0 || log.first[2] != 2.0) {
        fprintf(stderr, "callback: %d calls, %g %g %g\n", log.calls, log.first[0], log.first[1],
                log.first[2]);
        return 1;
    }
    printf("callback: report called after each of 3 steps (q = 8, 4, 2)\n");
    return 0;
}
