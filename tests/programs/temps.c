/* temps.c: runs temps.fpo (temporaries read at horizontal offsets) and compares with C loop
 * nests that compute each temporary on the extended region it is read on. */
#include <stdio.h>

#include "temps.h"
#include "testgrid.h"

enum { NX = 13, NY = 7, NZ = 5, H = 3 };

int main(void) {
    tg_array q = tg_new3(FPO_F64, H, NX, NY, NZ);
    tg_fill(&q, tg_wave);
    tg_array lap = tg_new3(FPO_F64, H, NX, NY, NZ), t1 = tg_new3(FPO_F64, H, NX, NY, NZ),
             t2 = tg_new3(FPO_F64, H, NX, NY, NZ);
    tg_array out[2], ref[2];
    tg_new_outputs(2, FPO_F64, H, NX, NY, NZ, out, ref);
#define Q(i, j, k) TG_F64(&q, i, j, k)
#define L(i, j, k) TG_F64(&lap, i, j, k)
    for (int k = 0; k < NZ; k++) {
        for (int j = -1; j < NY + 1; j++)
            for (int i = -1; i < NX + 1; i++)
                L(i, j, k) = Q(i - 1, j, k) + Q(i + 1, j, k) + Q(i, j - 1, k) +
                             Q(i, j + 1, k) - 4.0 * Q(i, j, k);
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++)
                TG_F64(&ref[0], i, j, k) = L(i - 1, j, k) + L(i + 1, j, k) + L(i, j - 1, k) +
                                           L(i, j + 1, k) - 4.0 * L(i, j, k);
        /* out reads t2 on i in [0, NX + 1), j in [-1, NY); t2 reads t1 at (0, +1), (-1, 0). */
        for (int j = -1; j < NY + 1; j++)
            for (int i = -1; i < NX + 1; i++) TG_F64(&t1, i, j, k) = Q(i + 1, j, k) - Q(i, j, k);
        for (int j = -1; j < NY; j++)
            for (int i = 0; i < NX + 1; i++)
                TG_F64(&t2, i, j, k) = TG_F64(&t1, i, j + 1, k) * 2.0 + TG_F64(&t1, i - 1, j, k);
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++)
                TG_F64(&ref[1], i, j, k) =
                    TG_F64(&t2, i, j - 1, k) + TG_F64(&t2, i + 1, j, k) + TG_F64(&t1, i, j, k);
    }

    temps_fields f = {.q = tg_field(&q), .lap_out = tg_field(&out[0]),
                      .chain_out = tg_field(&out[1])};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    temps *p;
    tg_ok(temps_open(&p, &dom, &f, &err), &err, "temps_open");
    tg_ok(temps_run(p, &err), &err, "temps_run");
    int bad = tg_compare("lap_out (lap of lap)", &out[0], &ref[0], 0) +
              tg_compare("chain_out (t1 -> t2 -> out)", &out[1], &ref[1], 0);
    temps_close(p);
    if (bad) return 1;
    printf("temps: ok\n");
    return 0;
}
