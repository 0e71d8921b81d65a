/* functions.c: runs functions.fpo (inlined functions, field parameters at offsets, nested
 * calls) and compares with the same arithmetic written out in C. */
#include <math.h>
#include <stdio.h>

#include "functions.h"
#include "testgrid.h"

enum { NX = 13, NY = 7, NZ = 5, H = 3 };

static double pat_u(int i, int j, int k) { return cos(0.7 * i + j) - 0.1 * k; }
static double pat_n(int i, int j, int k) { return (i + j + k) % 5; }

static double sq(double x) { return x * x; }
static double upwind(double c, double ql, double qr) { return c > 0.0 ? ql : qr; }
static int32_t triangle(int32_t n) { return n * (n + 1) / 2; }

int main(void) {
    tg_array q = tg_new3(FPO_F64, H, NX, NY, NZ), u = tg_new3(FPO_F64, H, NX, NY, NZ),
             n = tg_new3(FPO_I32, H, NX, NY, NZ), t = tg_new3(FPO_F64, H, NX, NY, NZ);
    tg_fill(&q, tg_wave);
    tg_fill(&u, pat_u);
    tg_fill(&n, pat_n);
    tg_array out[4], ref[4];
    tg_new_outputs(3, FPO_F64, H, NX, NY, NZ, out, ref);
    tg_new_outputs(1, FPO_I32, H, NX, NY, NZ, out + 3, ref + 3);
    const double w = 0.375;
#define Q(i, j, k) TG_F64(&q, i, j, k)
#define U(i, j, k) TG_F64(&u, i, j, k)
#define T(i, j, k) TG_F64(&t, i, j, k)
    for (int k = 0; k < NZ; k++) {
        for (int j = 0; j < NY; j++)
            for (int i = -1; i < NX + 1; i++) T(i, j, k) = Q(i, j, k) * 2.0 + U(i, j, k);
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                double qdx = Q(i + 1, j, k) - Q(i - 1, j, k), qdy = Q(i, j + 1, k) - Q(i, j - 1, k);
                TG_F64(&ref[0], i, j, k) = upwind(U(i, j, k), Q(i - 1, j, k), Q(i, j, k));
                TG_F64(&ref[1], i, j, k) = w * (sq(qdx) + sq(qdy)) + sq(qdx) -
                                           (U(i, j + 1, k) - U(i, j - 1, k));
                TG_F64(&ref[2], i, j, k) =
                    U(i, j, k) * upwind(U(i, j, k), T(i - 1, j, k), T(i, j, k)) +
                    (T(i + 1, j, k) - T(i - 1, j, k)) * w;
                TG_I32(&ref[3], i, j, k) = triangle(TG_I32(&n, i, j, k)) + triangle(2);
            }
    }

    functions_fields f = {.q = tg_field(&q), .u = tg_field(&u), .n = tg_field(&n),
                          .o1 = tg_field(&out[0]), .o2 = tg_field(&out[1]),
                          .o3 = tg_field(&out[2]), .o4 = tg_field(&out[3])};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    functions *p;
    tg_ok(functions_open(&p, &dom, &f, &err), &err, "functions_open");
    tg_ok(functions_run(p, w, &err), &err, "functions_run");
    static const char *names[4] = {"o1 (upwind)", "o2 (nested dx/dy/sq)",
                                   "o3 (temporary as field argument)", "o4 (while in function)"};
    int bad = 0;
    for (int m = 0; m < 4; m++) bad += tg_compare(names[m], &out[m], &ref[m], 0);
    functions_close(p);
    if (bad) return 1;
    printf("functions: ok\n");
    return 0;
}
