/* walks.c: runs walks.fpo (a stencil walking each column up, down and up again; a stencil
 * whose FORWARD computation reads at the neighbouring columns what its BACKWARD computation
 * overwrites) on domains of several sizes and compares with C loops run computation after
 * computation. On the CUDA back end sweeps is one kernel; across run as one kernel would read
 * at column i - 1 the t that column's thread already overwrote. */
#include <math.h>
#include <stdio.h>

#include "testgrid.h"
#include "walks.h"

enum { H = 1 };

static int check(int nx, int ny, int nz) {
    tg_array q = tg_new3(FPO_F64, H, nx, ny, nz), t = tg_new3(FPO_F64, H, nx, ny, nz);
    tg_fill(&q, tg_wave);
    tg_fill(&t, tg_junk);
    tg_array o[5], r[5];   /* a, b, c, e, r */
    tg_new_outputs(5, FPO_F64, H, nx, ny, nz, o, r);
    tg_array rt = tg_clone(&t);
#define Q(i, j, k) TG_F64(&q, i, j, k)
#define A(i, j, k) TG_F64(&r[0], i, j, k)
#define B(i, j, k) TG_F64(&r[1], i, j, k)
#define R(i, j, k) TG_F64(&r[4], i, j, k)
#define T(i, j, k) TG_F64(&rt, i, j, k)
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            for (int k = 0; k < nz; k++)
                A(i, j, k) = k ? 0.5 * A(i, j, k - 1) + Q(i, j, k) : Q(i, j, k);
            for (int k = nz - 1; k >= 0; k--)
                B(i, j, k) = k < nz - 1 ? A(i, j, k) - 0.75 * B(i, j, k + 1) : A(i, j, k);
            for (int k = 0; k < nz; k++) {
                TG_F64(&r[2], i, j, k) = A(i, j, k) - 2.0 * B(i, j, k);
                TG_F64(&r[3], i, j, k) = fmax(TG_F64(&r[2], i, j, k), 0.0);
            }
        }
    for (int j = 0; j < ny; j++)   /* across: every column's r from the old t first */
        for (int i = 0; i < nx; i++)
            for (int k = 0; k < nz; k++)
                R(i, j, k) = T(i - 1, j, k) - T(i + 1, j, k) + (k ? 0.5 * R(i, j, k - 1) : 0.0);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            for (int k = nz - 1; k >= 0; k--)
                T(i, j, k) = Q(i, j, k) + R(i, j, k) - (k < nz - 1 ? 0.25 * T(i, j, k + 1) : 0.0);
    walks_fields f = {.q = tg_field(&q), .a = tg_field(&o[0]), .b = tg_field(&o[1]),
                      .c = tg_field(&o[2]), .e = tg_field(&o[3]), .t = tg_field(&t),
                      .r = tg_field(&o[4])};
    fpo_domain dom = fpo_domain_local(nx, ny, nz);
    fpo_error err;
    walks *p;
    tg_ok(walks_open(&p, &dom, &f, &err), &err, "walks_open");
    tg_ok(walks_run(p, &err), &err, "walks_run");
    walks_close(p);
    static const char *names[] = {"a (up)", "b (down)", "c (up again)", "e (clip)", "r"};
    char what[80];
    int bad = 0;
    for (int m = 0; m < 5; m++) {
        snprintf(what, sizeof what, "%d x %d x %d: %s", nx, ny, nz, names[m]);
        bad += tg_compare(what, &o[m], &r[m], 0);
    }
    snprintf(what, sizeof what, "%d x %d x %d: t (across)", nx, ny, nz);
    bad += tg_compare(what, &t, &rt, 0);
    return bad;
}

int main(void) {
    int bad = check(70, 20, 4) + check(13, 7, 3) + check(1, 1, 2) + check(40, 9, 1);
    if (bad)
        return 1;
    printf("walks: all checks passed\n");
    return 0;
}
