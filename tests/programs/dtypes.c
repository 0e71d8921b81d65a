/* dtypes.c: runs dtypes.fpo (f64, f32, i32, bool; 3D, IJ, K; scalars of each type) and
 * compares every output with a C loop nest. */
#include <stdio.h>

#include "dtypes.h"
#include "testgrid.h"

enum { NX = 13, NY = 7, NZ = 5, H = 3 };

static double pat_b(int i, int j, int k) { return 0.25 * i - 0.5 * j + 0.125 * k; }
static double pat_n(int i, int j, int k) { return i - 2 * j + 3 * k; }
static double pat_m(int i, int j, int k) { return (i + j + k) % 3 == 0; }
static double pat_z(int i, int j, int k) { (void)i, (void)j; return 1000.0 * k + 0.5; }

static void reference(const tg_array *a, const tg_array *b, const tg_array *n,
                      const tg_array *m, const tg_array *s, const tg_array *z, tg_array *oa,
                      tg_array *ob, tg_array *on, tg_array *om, tg_array *os, tg_array *ot,
                      double xa, float xb, int32_t xn, bool xm) {
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                TG_F64(oa, i, j, k) = TG_F64(a, i, j, k) * xa + TG_F64(s, i, j, 0) +
                                      TG_F64(z, 0, 0, k) + (double)TG_I32(n, i, j, k) +
                                      (double)TG_F32(b, i, j, k);
                TG_F32(ob, i, j, k) = TG_F32(b, i, j, k) * xb + 1.5f;
                int32_t nn = TG_I32(n, i, j, k);
                TG_I32(on, i, j, k) = nn * xn - 7 / 2 + (nn + 100) % 7 + nn / 3 * 10 + nn % 4 * 100;
                TG_BOOL(om, i, j, k) = (TG_BOOL(m, i, j, k) && xm) || TG_I32(n, i, j, k) > 2;
            }
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++)
            TG_F64(os, i, j, 0) = TG_F64(s, i + 1, j, 0) - TG_F64(s, i, j - 1, 0) +
                                  TG_F64(z, 0, 0, 1) + TG_F64(a, i, j, 2);
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++)
            TG_I32(ot, i, j, 0) = TG_I32(n, i, j, NZ - 1) + (int32_t)TG_F64(z, 0, 0, NZ - 2) + xn;
}

int main(void) {
    tg_array a = tg_new3(FPO_F64, H, NX, NY, NZ), b = tg_new3(FPO_F32, H, NX, NY, NZ),
             n = tg_new3(FPO_I32, H, NX, NY, NZ), m = tg_new3(FPO_BOOL, H, NX, NY, NZ),
             s = tg_new2(FPO_F64, H, NX, NY), z = tg_new1(FPO_F64, NZ);
    tg_fill(&a, tg_wave);
    tg_fill(&b, pat_b);
    tg_fill(&n, pat_n);
    tg_fill(&m, pat_m);
    tg_fill(&s, tg_wave);
    tg_fill(&z, pat_z);
    tg_array oa = tg_new3(FPO_F64, H, NX, NY, NZ), ob = tg_new3(FPO_F32, H, NX, NY, NZ),
             on = tg_new3(FPO_I32, H, NX, NY, NZ), om = tg_new3(FPO_BOOL, H, NX, NY, NZ),
             os = tg_new2(FPO_F64, H, NX, NY), ot = tg_new2(FPO_I32, H, NX, NY);
    tg_fill(&oa, tg_junk);
    tg_fill(&ob, tg_junk);
    tg_fill(&on, tg_junk);
    tg_fill(&os, tg_junk);
    tg_fill(&ot, tg_junk);
    tg_array ra = tg_clone(&oa), rb = tg_clone(&ob), rn = tg_clone(&on), rm = tg_clone(&om),
             rs = tg_clone(&os), rt = tg_clone(&ot);

    dtypes_fields f = {.a = tg_field(&a), .b = tg_field(&b), .n = tg_field(&n),
                       .m = tg_field(&m), .s = tg_field(&s), .z = tg_field(&z),
                       .oa = tg_field(&oa), .ob = tg_field(&ob), .on = tg_field(&on),
                       .om = tg_field(&om), .os = tg_field(&os), .ot = tg_field(&ot)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    dtypes *p;
    tg_ok(dtypes_open(&p, &dom, &f, &err), &err, "dtypes_open");

    int bad = 0;
    /* Two scalar sets: the bool scalar both ways. */
    for (int pass = 0; pass < 2; pass++) {
        double xa = pass ? -1.25 : 0.75;
        float xb = pass ? 3.0f : -0.5f;
        int32_t xn = pass ? -3 : 4;
        bool xm = pass == 0;
        reference(&a, &b, &n, &m, &s, &z, &ra, &rb, &rn, &rm, &rs, &rt, xa, xb, xn, xm);
        tg_ok(dtypes_run(p, xa, xb, xn, xm, &err), &err, "dtypes_run");
        bad += tg_compare("oa (f64)", &oa, &ra, 0);
        bad += tg_compare("ob (f32)", &ob, &rb, 0);
        bad += tg_compare("on (i32)", &on, &rn, 0);
        bad += tg_compare("om (bool)", &om, &rm, 0);
        bad += tg_compare("os (f64, IJ, written at the bottom)", &os, &rs, 0);
        bad += tg_compare("ot (i32, IJ, written at the top)", &ot, &rt, 0);
    }
    dtypes_close(p);
    if (bad) return 1;
    printf("dtypes: ok\n");
    return 0;
}
