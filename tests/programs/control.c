/* control.c: runs control.fpo (if / else if / else, while, ?:) for two sets of scalars and
 * compares with a C loop nest. */
#include <stdbool.h>
#include <math.h>
#include <stdio.h>

#include "control.h"
#include "testgrid.h"

enum { NX = 13, NY = 7, NZ = 5, H = 3 };

/* Values around 0 and +-lim, and above 20. */
static double pat_q(int i, int j, int k) { return 3.0 * sin(i + 2 * j) + 5.0 * j * (k % 2); }
static double pat_n(int i, int j, int k) { return (i + 2 * j + k + 9) % 6; }

static void reference(const tg_array *q, const tg_array *n, tg_array *o1, tg_array *o2,
                      tg_array *o3, double lim, bool flag) {
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                double x = TG_F64(q, i, j, k), r1;
                int32_t m = TG_I32(n, i, j, k);
                if (x > lim) r1 = 1.0;
                else if (x < -lim) r1 = -1.0;
                else r1 = x;
                if (flag) r1 += 100.0;
                else r1 -= 100.0;
                if ((!flag && m == 2) || (m != 2 && x >= 3.0)) r1 *= 2.0;
                TG_F64(o1, i, j, k) = r1;

                int32_t c = m;
                double s = 0.0;
                while (c > 0) {
                    s += (double)c * 0.5;
                    if (c == 3) s -= lim;
                    c -= 1;
                }
                if (x <= 10.0)
                    while (s < 4.0) s += 1.0;
                double w = m >= 3 ? 0.25 : -0.25;
                TG_F64(o2, i, j, k) = s + w;

                double r3 = x > 0.0 ? x : -2.0 * x;
                r3 = x > 20.0 ? 1.0 : x < 5.0 ? -1.0 : r3;
                r3 = flag ? r3 + 1000.0 : r3;
                double a = 0.0, b = x;
                if (x > lim || x < -2.0 * lim) {
                    a = 0.5 * x;
                    b = a - 1.0;
                    if (!(a < 0.25) && b > -0.5)
                        a = -a;
                    else
                        b = b + a;
                } else {
                    a = 3.0;
                }
                double r = 0.0;
                if (m != 0)
                    r = (double)(12 / m);
                TG_F64(o3, i, j, k) = r3 + a + 0.125 * b + r;
            }
}

int main(void) {
    tg_array q = tg_new3(FPO_F64, H, NX, NY, NZ), n = tg_new3(FPO_I32, H, NX, NY, NZ);
    tg_fill(&q, pat_q);
    tg_fill(&n, pat_n);
    tg_array out[3], ref[3];
    tg_new_outputs(3, FPO_F64, H, NX, NY, NZ, out, ref);
    control_fields f = {.q = tg_field(&q), .n = tg_field(&n), .o1 = tg_field(&out[0]),
                        .o2 = tg_field(&out[1]), .o3 = tg_field(&out[2])};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    control *p;
    tg_ok(control_open(&p, &dom, &f, &err), &err, "control_open");
    int bad = 0;
    for (int pass = 0; pass < 2; pass++) {
        double lim = pass ? 0.3 : 1.5;
        bool flag = pass == 0;
        reference(&q, &n, &ref[0], &ref[1], &ref[2], lim, flag);
        tg_ok(control_run(p, lim, flag, &err), &err, "control_run");
        bad += tg_compare("o1 (if / else if / else)", &out[0], &ref[0], 0);
        bad += tg_compare("o2 (while; var written in if / else)", &out[1], &ref[1], 0);
        bad += tg_compare("o3 (?:; ifs setting scalars)", &out[2], &ref[2], 0);
    }
    control_close(p);
    if (bad) return 1;
    printf("control: ok\n");
    return 0;
}
