/* fed.c: runs fed.fpo (loop nests with horizontal offsets, then a walk reading what they
 * computed at its own point: on the CUDA back end the nests run level by level inside the
 * walk's kernel) on domains of several sizes and compares with C loops run stencil after
 * stencil. */
#include <stdio.h>

#include "fed.h"
#include "testgrid.h"

enum { H = 2 };

static double max0(double x) { return x > 0.0 ? x : 0.0; }

static int check(int nx, int ny, int nz) {
    tg_array q = tg_new3(FPO_F64, H, nx, ny, nz);
    tg_fill(&q, tg_wave);
    tg_array o[5], r[5];   /* g, s, e, u, w */
    tg_new_outputs(5, FPO_F64, H, nx, ny, nz, o, r);
    tg_array l = tg_new3(FPO_F64, H, nx, ny, nz), a = tg_new3(FPO_F64, H, nx, ny, nz),
             b = tg_new3(FPO_F64, H, nx, ny, nz);
#define Q(i, j, k) TG_F64(&q, i, j, k)
#define L(i, j, k) TG_F64(&l, i, j, k)
#define A(i, j, k) TG_F64(&a, i, j, k)
#define B(i, j, k) TG_F64(&b, i, j, k)
#define G(i, j, k) TG_F64(&r[0], i, j, k)
#define S(i, j, k) TG_F64(&r[1], i, j, k)
#define U(i, j, k) TG_F64(&r[3], i, j, k)
#define W(i, j, k) TG_F64(&r[4], i, j, k)
    for (int k = 0; k < nz; k++)
        for (int j = 0; j <= ny; j++)
            for (int i = 0; i <= nx; i++) {
                L(i, j, k) = Q(i - 1, j, k) + Q(i + 1, j, k) + Q(i, j - 1, k) + Q(i, j + 1, k) -
                             4.0 * Q(i, j, k);
                A(i, j, k) = 0.25 * (Q(i - 1, j, k) + Q(i + 1, j, k) + Q(i, j - 1, k) +
                                     Q(i, j + 1, k));
            }
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            for (int k = 0; k < nz; k++) {
                G(i, j, k) = L(i + 1, j, k) - L(i, j + 1, k);
                B(i, j, k) = 2.0 * A(i, j, k) - A(i + 1, j, k);
            }
            for (int k = nz - 1; k >= 0; k--)
                S(i, j, k) = k >= nz - 2 ? G(i, j, k)
                                         : G(i, j, k) + 0.5 * S(i, j, k + 1) -
                                               0.25 * S(i, j, k + 2);
            for (int k = 0; k < nz; k++) {
                U(i, j, k) = k == 0 ? B(i, j, k) : B(i, j, k) - 0.5 * U(i, j, k - 1);
                TG_F64(&r[2], i, j, k) = max0(U(i, j, k));
            }
            for (int k = nz - 1; k >= 0; k--)
                W(i, j, k) = k >= nz - 2 ? S(i, j, k)
                                         : S(i, j, k) + 0.5 * W(i, j, k + 1) -
                                               0.25 * W(i, j, k + 2);
        }
    fed_fields f = {.q = tg_field(&q), .g = tg_field(&o[0]), .s = tg_field(&o[1]),
                    .e = tg_field(&o[2]), .u = tg_field(&o[3]), .w = tg_field(&o[4])};
    fpo_domain dom = fpo_domain_local(nx, ny, nz);
    fpo_error err;
    fed *p;
    tg_ok(fed_open(&p, &dom, &f, &err), &err, "fed_open");
    tg_ok(fed_run(p, &err), &err, "fed_run");
    fed_close(p);
    static const char *names[] = {"g (the segment's, written back)", "s (down)",
                                  "e (clip, inside up)", "u (up)", "w (down, on its own)"};
    char what[96];
    int bad = 0;
    for (int m = 0; m < 5; m++) {
        snprintf(what, sizeof what, "%d x %d x %d: %s", nx, ny, nz, names[m]);
        bad += tg_compare(what, &o[m], &r[m], 0);
    }
    return bad;
}

int main(void) {
    /* several tiles of 64 x 4 columns, partial ones on both axes; few and many levels */
    int bad = check(70, 9, 5) + check(13, 7, 3) + check(1, 1, 4) + check(64, 4, 2);
    if (bad)
        return 1;
    printf("fed: all checks passed\n");
    return 0;
}
