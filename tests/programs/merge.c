/* merge.c: runs merge.fpo (nests of one loop on different rows or columns, pass_merge) on domains of
 * several sizes and compares with C loop nests run stage after stage; the outputs start as
 * junk, so a nest run on rows it does not own shows in their halos. */
#include <stdio.h>

#include "merge.h"
#include "testgrid.h"

enum { H = 2 };

static int check(int nx, int ny, int nz) {
    tg_array a = tg_new3(FPO_F64, H, nx, ny, nz), t = tg_new3(FPO_F64, H, nx, ny, nz);
    tg_fill(&a, tg_wave);
    tg_array o[5], r[5];
    tg_new_outputs(5, FPO_F64, H, nx, ny, nz, o, r);
#define A(i, j, k) TG_F64(&a, i, j, k)
#define T(i, j, k) TG_F64(&t, i, j, k)
    for (int k = 0; k < nz; k++) {
        for (int j = -1; j < ny + 1; j++)
            for (int i = 0; i < nx; i++) {
                T(i, j, k) = 2.0 * A(i, j, k) + A(i + 1, j, k);
                TG_F64(&r[0], i, j, k) = T(i, j, k);
            }
        for (int j = 0; j < ny + 1; j++)
            for (int i = 0; i < nx; i++)
                TG_F64(&r[1], i, j, k) = T(i, j, k) * A(i, j, k) - 1.0;
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                TG_F64(&r[2], i, j, k) = TG_F64(&r[1], i, j, k) + TG_F64(&r[1], i, j + 1, k);
        for (int j = 0; j < ny; j++)
            for (int i = -1; i < nx + 1; i++)
                TG_F64(&r[3], i, j, k) = 3.0 * A(i, j, k) - A(i, j + 1, k);
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                TG_F64(&r[4], i, j, k) = TG_F64(&r[3], i, j, k) + 0.5 * A(i, j, k);
    }
    merge_fields f = {.a = tg_field(&a), .tout = tg_field(&o[0]), .b = tg_field(&o[1]),
                      .c = tg_field(&o[2]), .sout = tg_field(&o[3]), .d = tg_field(&o[4])};
    fpo_domain dom = fpo_domain_local(nx, ny, nz);
    fpo_error err;
    merge *p;
    tg_ok(merge_open(&p, &dom, &f, &err), &err, "merge_open");
    tg_ok(merge_run(p, &err), &err, "merge_run");
    merge_close(p);
    const char *names[5] = {"tout (rows -1 .. ny)", "b (rows 0 .. ny)", "c",
                            "sout (columns -1 .. nx)", "d (columns 0 .. nx - 1)"};
    int bad = 0;
    for (int m = 0; m < 5; m++) {
        char what[80];
        snprintf(what, sizeof what, "%d x %d x %d: %s", nx, ny, nz, names[m]);
        bad += tg_compare(what, &o[m], &r[m], 0);
    }
    return bad;
}

int main(void) {
    int bad = check(13, 7, 3) + check(1, 1, 2) + check(8, 40, 2);
    if (bad)
        return 1;
    printf("merge: all checks passed\n");
    return 0;
}
