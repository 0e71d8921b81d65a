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
    tg_array w[1], wr[1];
    tg_new_outputs(1, FPO_F64, H, nx, ny, nz, w, wr);
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
    }

    rows_fields f = {.q = tg_field(&q), .w = tg_field(&w[0])};
    fpo_domain dom = fpo_domain_local(nx, ny, nz);
    fpo_error err;
    rows *p;
    tg_ok(rows_open(&p, &dom, &f, &err), &err, "rows_open");
    tg_ok(rows_run(p, &err), &err, "rows_run");
    char what[2][80];
    snprintf(what[0], sizeof what[0], "%d x %d x %d: q (updated in place)", nx, ny, nz);
    snprintf(what[1], sizeof what[1], "%d x %d x %d: w", nx, ny, nz);
    int bad = tg_compare(what[0], &q, &qr, 0) + tg_compare(what[1], &w[0], &wr[0], 0);
    rows_close(p);
    tg_array *arrays[6] = {&q, &qr, &gy, &s, &w[0], &wr[0]};
    for (int a = 0; a < 6; a++) tg_free(arrays[a]);
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
