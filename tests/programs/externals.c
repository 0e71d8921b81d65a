/* externals.c: runs externals.fpo as built with the externals SCALE_V, LEV_V, USE_ADD_V
 * (given by CMake, matching the DEFINES of the build) and compares with a C loop nest. */
#include <stdio.h>

#include "externals.h"
#include "testgrid.h"

enum { NX = 13, NY = 7, NZ = 5, H = 3 };

int main(void) {
    tg_array q = tg_new3(FPO_F64, H, NX, NY, NZ);
    tg_fill(&q, tg_wave);
    tg_array out[2], ref[2];
    tg_new_outputs(2, FPO_F64, H, NX, NY, NZ, out, ref);
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                double side = USE_ADD_V ? 1.0 : 2.0;
                for (int s = 0; s < LEV_V + 1; s++) side += (double)s * SCALE_V;
                TG_F64(&ref[1], i, j, k) = side;
                if (k < LEV_V) {
                    TG_F64(&ref[0], i, j, k) = -1.0;
                    continue;
                }
                TG_F64(&ref[0], i, j, k) = SCALE_V * TG_F64(&q, i, j, k) + SCALE_V * 0.5;
                if (USE_ADD_V) TG_F64(&ref[0], i, j, k) += LEV_V * 1000.0;
            }

    externals_fields f = {.q = tg_field(&q), .out = tg_field(&out[0]),
                          .side = tg_field(&out[1])};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    externals *p;
    tg_ok(externals_open(&p, &dom, &f, &err), &err, "externals_open");
    tg_ok(externals_run(p, &err), &err, "externals_run");
    int bad = tg_compare("out (externals in a stencil)", &out[0], &ref[0], 0) +
              tg_compare("side (externals in a program's if and for)", &out[1], &ref[1], 0);
    externals_close(p);
    if (bad) return 1;
    printf("externals (SCALE=%g LEV=%d USE_ADD=%d): ok\n", SCALE_V, LEV_V, USE_ADD_V);
    return 0;
}
