/* korder.c: runs korder.fpo (K orders, several intervals, K-offset writes) and compares with
 * C loop nests that walk K the same way. */
#include <stdio.h>

#include "korder.h"
#include "testgrid.h"

enum { NX = 13, NY = 7, NZ = 5, H = 3 };

#define Q(i, j, k) TG_F64(q, i, j, k)

static void reference(const tg_array *q, tg_array *up, tg_array *down, tg_array *par,
                      tg_array *w, tg_array *v) {
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            TG_F64(up, i, j, 0) = Q(i, j, 0);
            for (int k = 1; k < NZ; k++)
                TG_F64(up, i, j, k) = TG_F64(up, i, j, k - 1) * 0.5 + Q(i, j, k);
            TG_F64(down, i, j, NZ - 1) = Q(i, j, NZ - 1);
            TG_F64(down, i, j, NZ - 2) = TG_F64(down, i, j, NZ - 1) + 2.0 * Q(i, j, NZ - 2);
            for (int k = NZ - 3; k >= 0; k--)
                TG_F64(down, i, j, k) = TG_F64(down, i, j, k + 1) - Q(i, j, k);
            TG_F64(par, i, j, 0) = Q(i, j, 0); /* level 1 is in no interval */
            for (int k = 2; k < NZ - 1; k++)
                TG_F64(par, i, j, k) = Q(i, j, k - 1) + Q(i, j, k + 1);
            TG_F64(par, i, j, NZ - 1) = -Q(i, j, NZ - 1);
            TG_F64(w, i, j, 0) = Q(i, j, 0);
            for (int k = 0; k < NZ - 1; k++)
                TG_F64(w, i, j, k + 1) = TG_F64(w, i, j, k) + Q(i, j, k + 1);
            TG_F64(v, i, j, NZ - 1) = Q(i, j, NZ - 1);
            for (int k = NZ - 1; k >= 1; k--)
                TG_F64(v, i, j, k - 1) = TG_F64(v, i, j, k) * 0.5 + Q(i, j, k - 1);
        }
}

int main(void) {
    tg_array q = tg_new3(FPO_F64, H, NX, NY, NZ);
    tg_fill(&q, tg_wave);
    tg_array out[5];
    tg_array ref[5];
    tg_new_outputs(5, FPO_F64, H, NX, NY, NZ, out, ref);
    reference(&q, &ref[0], &ref[1], &ref[2], &ref[3], &ref[4]);

    korder_fields f = {.q = tg_field(&q), .up = tg_field(&out[0]), .down = tg_field(&out[1]),
                       .par = tg_field(&out[2]), .w = tg_field(&out[3]),
                       .v = tg_field(&out[4])};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    korder *p;
    tg_ok(korder_open(&p, &dom, &f, &err), &err, "korder_open");
    tg_ok(korder_run(p, &err), &err, "korder_run");
    static const char *names[5] = {"up (FORWARD)", "down (BACKWARD, 3 intervals)",
                                   "par (PARALLEL, gap at level 1)", "w (FORWARD, w[0,0,1]=)",
                                   "v (BACKWARD, v[0,0,-1]=)"};
    int bad = 0;
    for (int n = 0; n < 5; n++) bad += tg_compare(names[n], &out[n], &ref[n], 0);
    korder_close(p);
    if (bad) return 1;
    printf("korder: ok\n");
    return 0;
}
