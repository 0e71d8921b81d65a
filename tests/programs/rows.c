/* rows.c: runs rows.fpo (a fused group run as a row pipeline, q updated in place) on domains
 * of several sizes and compares with C loop nests run stage after stage. */
#include <stdio.h>

#include "rows.h"
#include "testgrid.h"

enum { H = 3 };

static int check(int nx, int ny, int nz) {
    tg_array q = tg_new3(FPO_F64, H, nx, ny, nz), qr = tg_new3(FPO_F64, H, nx, ny, nz);
    tg_fill(&q, tg_wave);
    tg_fill(&qr, tg_wave);
    tg_array gy = tg_new3(FPO_F64, H, nx, ny, nz), s = tg_new3(FPO_F64, H, nx, ny, nz);
    tg_array w[3], wr[3];
    tg_new_outputs(3, FPO_F64, H, nx, ny, nz, w, wr);
    tg_array t = tg_new3(FPO_F64, H, nx, ny, nz);
#define Q(i, j, k) TG_F64(&qr, i, j, k)
#define GY(i, j, k) TG_F64(&gy, i, j, k)
#define S(i, j, k) TG_F64(&s, i, j, k)
#define W(i, j, k) TG_F64(&wr[0], i, j, k)
    /* s is read on rows -1 .. ny (mix at j + 1 from j = -1, apply at j - 1), gy on rows
     * -2 .. ny + 1 and columns 0 .. nx (smooth at i + 1). */
    for (int k = 0; k < nz; k++) {
        for (int j = -2; j < ny + 2; j++)
            for (int i = 0; i < nx + 1; i++) GY(i, j, k) = Q(i, j + 1, k) - Q(i, j - 1, k);
        for (int j = -1; j < ny + 1; j++)
            for (int i = 0; i < nx; i++)
                S(i, j, k) = GY(i, j - 1, k) + 2.0 * GY(i, j, k) + GY(i, j + 1, k) + GY(i + 1, j, k);
        for (int j = -1; j < ny; j++)
            for (int i = 0; i < nx; i++) W(i, j, k) = S(i, j + 1, k) * Q(i, j - 1, k);
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                Q(i, j, k) = Q(i, j, k) + 0.125 * (W(i, j - 1, k) + S(i, j - 1, k));
        /* diff2 on rows -1 .. ny (d) and 0 .. ny - 1 (e): t one row wider each side */
        for (int c = 1; c <= 2; c++) {
            int j0 = c == 1 ? -1 : 0, j1 = c == 1 ? ny + 1 : ny;
            for (int j = j0 - 1; j < j1 + 1; j++)
                for (int i = 0; i < nx; i++)
                    TG_F64(&t, i, j, k) = Q(i + 1, j, k) - Q(i - 1, j, k);
            for (int j = j0; j < j1; j++)
                for (int i = 0; i < nx; i++)
                    TG_F64(&wr[c], i, j, k) = TG_F64(&t, i, j - 1, k) + 2.0 * TG_F64(&t, i, j, k) +
                                              TG_F64(&t, i, j + 1, k);
        }
    }

    rows_fields f = {.q = tg_field(&q), .w = tg_field(&w[0]), .d = tg_field(&w[1]),
                     .e = tg_field(&w[2])};
    fpo_domain dom = fpo_domain_local(nx, ny, nz);
    fpo_error err;
    rows *p;
    tg_ok(rows_open(&p, &dom, &f, &err), &err, "rows_open");
    tg_ok(rows_run(p, &err), &err, "rows_run");
    char what[4][80];
    snprintf(what[0], sizeof what[0], "%d x %d x %d: q (updated in place)", nx, ny, nz);
    snprintf(what[1], sizeof what[1], "%d x %d x %d: w", nx, ny, nz);
    snprintf(what[2], sizeof what[2], "%d x %d x %d: d (diff2, first call)", nx, ny, nz);
    snprintf(what[3], sizeof what[3], "%d x %d x %d: e (diff2, second call)", nx, ny, nz);
    int bad = tg_compare(what[0], &q, &qr, 0);
    for (int c = 0; c < 3; c++)
        bad += tg_compare(what[c + 1], &w[c], &wr[c], 0);
    rows_close(p);
    tg_array *arrays[10] = {&q, &qr, &gy, &s, &t, &w[0], &wr[0], &w[1], &wr[1], &w[2]};
    for (int a = 0; a < 10; a++) tg_free(arrays[a]);
    tg_free(&wr[2]);
    return bad;
}

int main(void) {
    static const int sizes[][3] = {{13, 7, 5}, {1, 1, 1}, {2, 5, 3}, {61, 37, 19}};
    int bad = 0;
    for (int s = 0; s < 4; s++) bad += check(sizes[s][0], sizes[s][1], sizes[s][2]);
    if (bad) return 1;
    printf("rows: ok on 4 domain sizes\n");
    return 0;
}
