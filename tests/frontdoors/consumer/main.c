/* main.c: program doors (doors.fpo) from C, as the Fortran and Python consumers call it: one
 * run against the same loops. Prints 'c doors: OK'. */
#include <stdio.h>

#include "doors.h"

enum { NX = 7, NY = 5, NZ = 3, SX = NX + 2, SY = NY + 2 };

int main(void) {
    static double q[NZ][SY][SX], out[NZ][SY][SX], area[SY][SX], wk[NZ];
    static int32_t n[NZ][SY][SX], m[NZ][SY][SX];
    for (int k = 0; k < NZ; k++) {
        wk[k] = 0.5 + k;
        for (int j = 0; j < SY; j++)
            for (int i = 0; i < SX; i++)
                q[k][j][i] = (i * 7 + j * 3 + k) % 11 * 0.125, n[k][j][i] = i - j + k,
                area[j][i] = 1.0 + 0.25 * j;
    }
    doors_fields f = {.q = fpo_field_3d(q, FPO_F64, -1, NX + 1, -1, NY + 1, 0, NZ),
                      .area = fpo_field_2d(area, FPO_F64, -1, NX + 1, -1, NY + 1),
                      .wk = fpo_field_1d(wk, FPO_F64, 0, NZ),
                      .n = fpo_field_3d(n, FPO_I32, -1, NX + 1, -1, NY + 1, 0, NZ),
                      .out = fpo_field_3d(out, FPO_F64, -1, NX + 1, -1, NY + 1, 0, NZ),
                      .m = fpo_field_3d(m, FPO_I32, -1, NX + 1, -1, NY + 1, 0, NZ)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    doors *p;
    if (doors_open(&p, &dom, &f, &err) || doors_run(p, 0.25, 3, &err)) {
        fprintf(stderr, "c doors: %s\n", err.msg);
        return 1;
    }
    doors_close(p);
    int bad = 0;
    for (int k = 0; k < NZ; k++)
        for (int j = 1; j <= NY; j++)
            for (int i = 1; i <= NX; i++) {
                double want = q[k][j][i] + 0.25 * area[j][i] * wk[k] *
                              (q[k][j][i - 1] + q[k][j][i + 1] + q[k][j - 1][i] +
                               q[k][j + 1][i] - 4.0 * q[k][j][i]);
                bad += out[k][j][i] != want || m[k][j][i] != n[k][j][i] * 3;
            }
    printf(bad ? "c doors: %d points differ\n" : "c doors: OK\n", bad);
    return bad != 0;
}
