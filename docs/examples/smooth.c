/* smooth.c: calls smooth.fpo through its generated header (design.md 4): with q = i * i the
 * 5-point Laplacian is 2 everywhere, so out = q + 2 w. */
#include <stdio.h>

#include "smooth_once.h"

enum { NX = 5, NY = 4, NZ = 3, H = 1, SX = NX + 2 * H, SY = NY + 2 * H };

int main(void) {
    static double q[NZ][SY][SX], out[NZ][SY][SX];
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < SY; j++)
            for (int i = 0; i < SX; i++) q[k][j][i] = (i - H) * (i - H) + 10.0 * k;
    smooth_once_fields f = {
        .q = fpo_field_3d(&q[0][0][0], FPO_F64, -H, NX + H, -H, NY + H, 0, NZ),
        .out = fpo_field_3d(&out[0][0][0], FPO_F64, -H, NX + H, -H, NY + H, 0, NZ)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    smooth_once *p;
    if (smooth_once_open(&p, &dom, &f, &err) || smooth_once_run(p, 0.25, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    smooth_once_close(p);
    for (int k = 0; k < NZ; k++)
        for (int j = H; j < NY + H; j++)
            for (int i = H; i < NX + H; i++)
                if (out[k][j][i] != q[k][j][i] + 0.5) {
                    fprintf(stderr, "out(%d,%d,%d) = %g, want %g\n", i - H, j - H, k,
                            out[k][j][i], q[k][j][i] + 0.5);
                    return 1;
                }
    printf("smooth: out = q + 2 w at every point\n");
    return 0;
}
