/* casts.c: runs casts.fpo and compares every cast and implicit widening with C's
 * conversions (float to int truncates toward zero; anything non-zero is true). */
#include <math.h>
#include <stdio.h>

#include "casts.h"
#include "testgrid.h"

enum { NX = 13, NY = 7, NZ = 5, H = 3 };

/* name, dtype, reference: x (f64 with fractions, both signs, zeros), f (f32), n, m. */
#define CASTS(X)                                                                              \
    X(c_i_x, FPO_I32, (int32_t)x)                                                             \
    X(c_f_x, FPO_F32, (float)x)                                                               \
    X(c_b_x, FPO_BOOL, x != 0)                                                                \
    X(c_i_f, FPO_I32, (int32_t)(f * 3.0f))                                                    \
    X(c_b_n, FPO_BOOL, n != 0)                                                                \
    X(c_i_m, FPO_I32, (int32_t)m + 10)                                                        \
    X(c_d_m, FPO_F64, (double)m * 0.5)                                                        \
    X(c_f_n, FPO_F32, (float)n * 0.5f)                                                        \
    X(w_d_n, FPO_F64, (double)n / 4.0 + (double)n)                                            \
    X(w_d_f, FPO_F64, (double)f + x)                                                          \
    X(w_f_n, FPO_F32, f + (float)n)

#define AS_ENUM(name, dt, e) C_##name,
enum { CASTS(AS_ENUM) NC };

static double pat_x(int i, int j, int k) {
    return (i % 4 == 0) ? 0.0 : 0.7 * sin(i) * (j + 1) + 0.3 * k;
}
static double pat_f(int i, int j, int k) { return (float)(1.1 * cos(i - j) + 0.2 * k); }
static double pat_n(int i, int j, int k) { return i - j - k + 1; }
static double pat_m(int i, int j, int k) { return (i * j + k) % 2; }

int main(void) {
    tg_array xa = tg_new3(FPO_F64, H, NX, NY, NZ), fa = tg_new3(FPO_F32, H, NX, NY, NZ),
             na = tg_new3(FPO_I32, H, NX, NY, NZ), ma = tg_new3(FPO_BOOL, H, NX, NY, NZ);
    tg_fill(&xa, pat_x);
    tg_fill(&fa, pat_f);
    tg_fill(&na, pat_n);
    tg_fill(&ma, pat_m);
    static const char *names[NC] = {
#define AS_NAME(name, dt, e) #name " (" #e ")",
        CASTS(AS_NAME)};
    tg_array out[NC], ref[NC];
#define AS_NEW(name, dt, e) out[C_##name] = tg_new3(dt, H, NX, NY, NZ);
    CASTS(AS_NEW)
    for (int c = 0; c < NC; c++) {
        tg_fill(&out[c], tg_junk);
        ref[c] = tg_clone(&out[c]);
    }
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
#define AS_REF(name, dt, e)                                                                   \
    {                                                                                         \
        double x = TG_F64(&xa, i, j, k);                                                      \
        float f = TG_F32(&fa, i, j, k);                                                       \
        int32_t n = TG_I32(&na, i, j, k);                                                     \
        bool m = TG_BOOL(&ma, i, j, k);                                                       \
        (void)x, (void)f, (void)n, (void)m;                                                   \
        tg_set(&ref[C_##name], i, j, k, (e));                                                 \
    }
                CASTS(AS_REF)
            }

    casts_fields fl = {.x = tg_field(&xa), .f = tg_field(&fa), .n = tg_field(&na),
                       .m = tg_field(&ma),
#define AS_FIELD(name, dt, e) .name = tg_field(&out[C_##name]),
                       CASTS(AS_FIELD)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    casts *prog;
    tg_ok(casts_open(&prog, &dom, &fl, &err), &err, "casts_open");
    tg_ok(casts_run(prog, &err), &err, "casts_run");
    int bad = 0;
    for (int c = 0; c < NC; c++) bad += tg_compare(names[c], &out[c], &ref[c], 0) != 0;
    casts_close(prog);
    if (bad) return 1;
    printf("casts: %d conversions ok\n", NC);
    return 0;
}
