/* names.c: runs names.fpo's program (whose names sit next to the generated C's own: p, err,
 * user, i, k, memcpy, fabs, expf, a field out_ ...) and checks one point of its result; then
 * its program twins (fields and temporaries whose .fpo names meet in the inlined C). */
#include <stdio.h>

#include "names.h"
#include "twins.h"

enum { NX = 3, NY = 2, NZ = 2 };

static int calls;

fpo_status check(void *user, const fpo_field *out, double err, int32_t p, fpo_error *e) {
    (void)user;
    (void)err;
    (void)p;
    (void)e;
    (void)out;
    calls++;
    return FPO_OK;
}

int main(void) {
    static double q[NZ][NY][NX], out[NZ][NY][NX];
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) q[k][j][i] = 1.0;
    names_fields f = {.q = fpo_field_3d(&q[0][0][0], FPO_F64, 0, NX, 0, NY, 0, NZ),
                      .out_ = fpo_field_3d(&out[0][0][0], FPO_F64, 0, NX, 0, NY, 0, NZ)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    names *p;
    if (names_open(&p, &dom, &f, &err) || names_run(p, 2.0, 1.0, 7, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    names_close(p);
    /* i = user + err = 3; k = q + i = 4; j = k + k_ = 5; expf = 2.5; fabs = 4.5;
     * fmod2(4.5, 1) = 4.5 * 1 + 1 = 5.5; out_ = 5.5 + 3 - 3 - 1 + 1 = 5.5 */
    if (out[1][1][2] != 5.5 || q[1][1][2] != 1.0 || calls != 1) {
        fprintf(stderr, "names: out_ %g (want 5.5), q %g (want 1), %d calls\n", out[1][1][2],
                q[1][1][2], calls);
        return 1;
    }
    /* twin_a: fx = 2, gx = 3, fx_0 = 5; twin_b: gx = 6, fx = 12, out_ = 18 */
    static double fx0[NZ][NY][NX];
    twins_fields t = {.q = f.q, .fx_0 = fpo_field_3d(&fx0[0][0][0], FPO_F64, 0, NX, 0, NY, 0, NZ),
                      .out_ = f.out_};
    twins *tp;
    if (twins_open(&tp, &dom, &t, &err) || twins_run(tp, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    twins_close(tp);
    if (fx0[1][1][2] != 5.0 || out[1][1][2] != 18.0) {
        fprintf(stderr, "names: twins: fx_0 %g (want 5), out_ %g (want 18)\n", fx0[1][1][2],
                out[1][1][2]);
        return 1;
    }
    printf("names: generated C compiles and computes 5.5; twins 5 and 18\n");
    return 0;
}
