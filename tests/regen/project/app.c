/* app.c: runs regen_main on one point holding 1 and prints the result (1 + lib.fpo's offset). */
#include <stdio.h>

#include "regen_main.h"
#include "regen_other.h"

int main(void) {
    double q = 1.0, out = 0.0, twice = 0.0;
    fpo_domain dom = fpo_domain_local(1, 1, 1);
    fpo_error err;
    regen_main_fields mf = {.q = fpo_field_3d(&q, FPO_F64, 0, 1, 0, 1, 0, 1),
                            .out = fpo_field_3d(&out, FPO_F64, 0, 1, 0, 1, 0, 1)};
    regen_other_fields of = {.q = mf.q, .out = fpo_field_3d(&twice, FPO_F64, 0, 1, 0, 1, 0, 1)};
    regen_main *m;
    regen_other *o;
    if (regen_main_open(&m, &dom, &mf, &err) || regen_main_run(m, &err) ||
        regen_other_open(&o, &dom, &of, &err) || regen_other_run(o, &err)) {
        fprintf(stderr, "regen_app: %s\n", err.msg);
        return 1;
    }
    regen_main_close(m);
    regen_other_close(o);
    if (twice != 2.0) {
        fprintf(stderr, "regen_app: regen_other gave %g, not 2\n", twice);
        return 1;
    }
    printf("regen_app: %g\n", out);
    return 0;
}
