/* main.c: runs imports/main.fpo (stencils, a function and externals from imported files) and
 * compares with a C loop nest. */
#include <stdio.h>

#include "imported.h"
#include "testgrid.h"

enum { NX = 13, NY = 7, NZ = 5, H = 3 };

int main(void) {
    tg_array q = tg_new3(FPO_F64, H, NX, NY, NZ);
    tg_fill(&q, tg_wave);
    tg_array out[3], ref[3];
    tg_new_outputs(3, FPO_F64, H, NX, NY, NZ, out, ref);
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                double s = 2.0 * TG_F64(&q, i, j, k) * 3.0 + 0.25;
                double d = TG_F64(&q, i + 1, j, k) - 2.0 * TG_F64(&q, i, j - 1, k);
                TG_F64(&ref[0], i, j, k) = s;
                TG_F64(&ref[1], i, j, k) = d;
                TG_F64(&ref[2], i, j, k) = 2.0 * s - d * 3.0;
            }
    imported_fields f = {.q = tg_field(&q), .s = tg_field(&out[0]), .d = tg_field(&out[1]),
                         .out = tg_field(&out[2])};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    imported *p;
    tg_ok(imported_open(&p, &dom, &f, &err), &err, "imported_open");
    tg_ok(imported_run(p, &err), &err, "imported_run");
    int bad = tg_compare("s (scale)", &out[0], &ref[0], 0) +
              tg_compare("d (diff)", &out[1], &ref[1], 0) +
              tg_compare("out (finish)", &out[2], &ref[2], 0);
    imported_close(p);
    if (bad) return 1;
    printf("imports: ok\n");
    return 0;
}
