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
    tg_array out[8], ref[8];
    tg_new_outputs(5, FPO_F64, H, NX, NY, NZ, out, ref);
    tg_new_outputs(2, FPO_F64, H, NX, NY, NZ, out + 6, ref + 6);   /* o4, o5 */
    /* out[4]: zi, on the nz + 1 interface levels. out[5]: dz. */
    out[5] = out[4];
    ref[5] = ref[4];
    out[4] = tg_new(FPO_F64, FPO_IJK, -H, NX + H, -H, NY + H, 0, NZ + 1);
    tg_fill(&out[4], tg_junk);
    ref[4] = tg_clone(&out[4]);
    tg_array zk = tg_new1(FPO_F64, NZ + 1), surf = tg_new2(FPO_F64, H, NX, NY);
    tg_fill(&zk, pat_z);
    tg_fill(&surf, tg_wave);
    for (int k = 0; k < NZ + 1; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++)
                TG_F64(&ref[4], i, j, k) = TG_F64(&zk, 0, 0, k) * 2.0 + TG_F64(&surf, i, j, 0);
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++)
                TG_F64(&ref[5], i, j, k) = TG_F64(&ref[4], i, j, k + 1) - TG_F64(&ref[4], i, j, k);
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
                if (k < NZ - 1) {
                    TG_F64(&ref[6], i, j, k) = Q(i, j, k + 1) - 2.0 * Q(i, j, k + o);
                    TG_F64(&ref[7], i, j, k) = TG_F64(&ref[6], i, j, k) + Q(i, j, x) * Q(i, j, k + 1);
                }
            }

    offsets_fields f = {.q = tg_field(&q), .z = tg_field(&z), .ko = tg_field(&ko),
                        .idx = tg_field(&idx), .out = tg_field(&out[0]),
                        .o1 = tg_field(&out[1]), .o2 = tg_field(&out[2]),
                        .o3 = tg_field(&out[3]), .zk = tg_field(&zk),
                        .surf = tg_field(&surf), .zi = tg_field(&out[4]),
                        .dz = tg_field(&out[5]), .o4 = tg_field(&out[6]),
                        .o5 = tg_field(&out[7])};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    offsets *p;
    tg_ok(offsets_open(&p, &dom, &f, &err), &err, "offsets_open");
    tg_ok(offsets_run(p, &err), &err, "offsets_run");
    static const char *names[8] = {"out (constant offsets)",     "o1 (q[0,0,ko])",
                                   "o2 (.at(K=idx), 3D and 1D)", "o3 (offset expressions)",
                                   "zi (k: 0 .. nz + 1)",        "dz (zi[0,0,1] - zi)",
                                   "o4 (K offsets, fused)",      "o5 (.at(K=idx), fused)"};
    int bad = 0;
    for (int n = 0; n < 8; n++) bad += tg_compare(names[n], &out[n], &ref[n], 0);
    offsets_close(p);
    if (bad) return 1;
    printf("offsets: ok\n");
    return 0;
}
