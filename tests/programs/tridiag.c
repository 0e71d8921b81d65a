/* tridiag.c: runs tridiag.fpo and compares with the Thomas algorithm in C (same operations,
 * so exactly), then checks the residual |A x - d| of every column. */
#include <math.h>
#include <stdio.h>

#include "testgrid.h"
#include "tridiag.h"

enum { NX = 13, NY = 7, NZ = 9, H = 3 };

static double pat_a(int i, int j, int k) { return -1.0 + 0.1 * sin(i + k) + 0.01 * j; }
static double pat_b(int i, int j, int k) { return 4.0 + cos(i * j + k); }
static double pat_c(int i, int j, int k) { return -1.0 + 0.2 * cos(i - k) - 0.02 * j; }

int main(void) {
    tg_array a = tg_new3(FPO_F64, H, NX, NY, NZ), b = tg_new3(FPO_F64, H, NX, NY, NZ),
             c = tg_new3(FPO_F64, H, NX, NY, NZ), d = tg_new3(FPO_F64, H, NX, NY, NZ),
             x = tg_new3(FPO_F64, H, NX, NY, NZ);
    tg_fill(&a, pat_a);
    tg_fill(&b, pat_b);
    tg_fill(&c, pat_c);
    tg_fill(&d, tg_wave);
    tg_fill(&x, tg_junk);
    tg_array ref = tg_clone(&x);
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            double cp[NZ], dp[NZ];
            cp[0] = TG_F64(&c, i, j, 0) / TG_F64(&b, i, j, 0);
            dp[0] = TG_F64(&d, i, j, 0) / TG_F64(&b, i, j, 0);
            for (int k = 1; k < NZ; k++) {
                double m = TG_F64(&b, i, j, k) - TG_F64(&a, i, j, k) * cp[k - 1];
                cp[k] = TG_F64(&c, i, j, k) / m;
                dp[k] = (TG_F64(&d, i, j, k) - TG_F64(&a, i, j, k) * dp[k - 1]) / m;
            }
            TG_F64(&ref, i, j, NZ - 1) = dp[NZ - 1];
            for (int k = NZ - 2; k >= 0; k--)
                TG_F64(&ref, i, j, k) = dp[k] - cp[k] * TG_F64(&ref, i, j, k + 1);
        }

    tridiag_fields f = {.a = tg_field(&a), .b = tg_field(&b), .c = tg_field(&c),
                        .d = tg_field(&d), .x = tg_field(&x)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    tridiag *p;
    tg_ok(tridiag_open(&p, &dom, &f, &err), &err, "tridiag_open");
    tg_ok(tridiag_run(p, &err), &err, "tridiag_run");
    int bad = tg_compare("x", &x, &ref, 0);
    double worst = 0;
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++)
            for (int k = 0; k < NZ; k++) {
                double r = TG_F64(&b, i, j, k) * TG_F64(&x, i, j, k) - TG_F64(&d, i, j, k);
                if (k > 0) r += TG_F64(&a, i, j, k) * TG_F64(&x, i, j, k - 1);
                if (k < NZ - 1) r += TG_F64(&c, i, j, k) * TG_F64(&x, i, j, k + 1);
                worst = fmax(worst, fabs(r));
            }
    tridiag_close(p);
    printf("tridiag: max residual %.3g\n", worst);
    if (bad || !(worst < 1e-9)) return 1;
    printf("tridiag: ok\n");
    return 0;
}
