/* offsets.c: runs offsets.fpo (constant I/J/K offsets, variable K offsets, .at(K=...)) and
 * compares with C loop nests. */
#include <stdio.h>

#include "offsets.h"
#include "testgrid.h"

enum { NX = 13, NY = 7, NZ = 5, H = 3 };

/* ko: k + ko lands on (i + j) % NZ; idx: a level that depends on the point. */
static double pat_ko(int i, int j, int k) { return ((i + 3 * NZ) + (j + 3 * NZ)) % NZ - k; }
static double pat_idx(int i, int j, int k) { return (3 * (i + 3) + (j + 3) + k) % NZ; }
static double pat_z(int i, int j, int k) { (void)i, (void)j; return 1000.0 * k * k; }

int main(void) {
    tg_array q = tg_new3(FPO_F64, H, NX, NY, NZ), z = tg_new1(FPO_F64, NZ),
             ko = tg_new3(FPO_I32, H, NX, NY, NZ), idx = tg_new3(FPO_I32, H, NX, NY, NZ);
    tg_fill(&q, tg_wave);
    tg_fill(&z, pat_z);
    tg_fill(&ko, pat_ko);
    tg_fill(&idx, pat_idx);
    tg_array out[4], ref[4];
    tg_new_outputs(4, FPO_F64, H, NX, NY, NZ, out, ref);
#define Q(i, j, k) TG_F64(&q, i, j, k)
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                if (k < NZ - 1)
                    TG_F64(&ref[0], i, j, k) = Q(i - 3, j, k) + 2.0 * Q(i, j + 2, k) +
                                               3.0 * Q(i + 1, j - 1, k) +
                                               5.0 * Q(i, j, k + 1) + Q(i + 3, j - 3, k + 1);
                else
                    TG_F64(&ref[0], i, j, k) = Q(i, j, k - 1) - Q(i + 2, j + 3, k);
                int o = TG_I32(&ko, i, j, k), x = TG_I32(&idx, i, j, k);
                TG_F64(&ref[1], i, j, k) = Q(i, j, k + o);
                TG_F64(&ref[2], i, j, k) = Q(i, j, x) + 0.5 * TG_F64(&z, 0, 0, x);
                TG_F64(&ref[3], i, j, k) = Q(i, j, k + o) - Q(i, j, x);
            }

    offsets_fields f = {.q = tg_field(&q), .z = tg_field(&z), .ko = tg_field(&ko),
                        .idx = tg_field(&idx), .out = tg_field(&out[0]),
                        .o1 = tg_field(&out[1]), .o2 = tg_field(&out[2]),
                        .o3 = tg_field(&out[3])};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    offsets *p;
    tg_ok(offsets_open(&p, &dom, &f, &err), &err, "offsets_open");
    tg_ok(offsets_run(p, &err), &err, "offsets_run");
    static const char *names[4] = {"out (constant offsets)", "o1 (q[0,0,ko])",
                                   "o2 (.at(K=idx), 3D and 1D)", "o3 (offset expressions)"};
    int bad = 0;
    for (int n = 0; n < 4; n++) bad += tg_compare(names[n], &out[n], &ref[n], 0);
    offsets_close(p);
    if (bad) return 1;
    printf("offsets: ok\n");
    return 0;
}
