/* builtins.c: runs builtins.fpo and compares every builtin with libm (mod floored, as in
 * Python; gamma is tgamma; round is C's round, half away from zero). f64, i32 and bool
 * results must match exactly, f32 ones too (f32 code calls the float libm: sinf, ...). */
#include <math.h>
#include <stdio.h>

#include "builtins.h"
#include "testgrid.h"

enum { NX = 13, NY = 7, NZ = 5, H = 3 };

static double pymod(double a, double b) {
    double r = fmod(a, b);
    if (r != 0 && (r < 0) != (b < 0)) r += b;
    return r;
}
static int32_t pymodi(int32_t a, int32_t b) {
    int32_t r = a % b;
    if (r != 0 && (r < 0) != (b < 0)) r += b;
    return r;
}
static double sign(double a) { return a > 0 ? 1.0 : a < 0 ? -1.0 : 0.0; }

/* name, dtype, reference, tolerance. Inputs: x (multiples of 1/8, never 0), y, u in
 * (-0.9, 0.9), p >= 1.1, r (multiples of 1/4, halves included), v (x with NaN, +inf, -inf),
 * n (i32, both signs), f and fp (f32, fp > 0). */
#define BUILTINS(X)                                                                           \
    X(abs, FPO_F64, fabs(x), 0)                                                              \
    X(min, FPO_F64, fmin(x, y), 0)                                                           \
    X(max, FPO_F64, fmax(x, y), 0)                                                           \
    X(mod_pos, FPO_F64, pymod(x, 2.0), 0)                                                    \
    X(mod_neg, FPO_F64, pymod(x, -4.0), 0)                                                   \
    X(mod_frac, FPO_F64, pymod(y, 0.7), 0)                                                   \
    X(sqrt, FPO_F64, sqrt(p), 0)                                                             \
    X(cbrt, FPO_F64, cbrt(x), 0)                                                             \
    X(exp, FPO_F64, exp(u), 0)                                                               \
    X(log, FPO_F64, log(p), 0)                                                               \
    X(log10, FPO_F64, log10(p), 0)                                                           \
    X(pow, FPO_F64, pow(p, u), 0)                                                            \
    X(sin, FPO_F64, sin(x), 0)                                                               \
    X(cos, FPO_F64, cos(x), 0)                                                               \
    X(tan, FPO_F64, tan(u), 0)                                                               \
    X(asin, FPO_F64, asin(u), 0)                                                             \
    X(acos, FPO_F64, acos(u), 0)                                                             \
    X(atan, FPO_F64, atan(x), 0)                                                             \
    X(atan2, FPO_F64, atan2(x, y), 0)                                                        \
    X(sinh, FPO_F64, sinh(u), 0)                                                             \
    X(cosh, FPO_F64, cosh(u), 0)                                                             \
    X(tanh, FPO_F64, tanh(x), 0)                                                             \
    X(asinh, FPO_F64, asinh(x), 0)                                                           \
    X(acosh, FPO_F64, acosh(p), 0)                                                           \
    X(atanh, FPO_F64, atanh(u), 0)                                                           \
    X(floor, FPO_F64, floor(r), 0)                                                           \
    X(ceil, FPO_F64, ceil(r), 0)                                                             \
    X(trunc, FPO_F64, trunc(r), 0)                                                           \
    X(round, FPO_F64, round(r), 0)                                                           \
    X(erf, FPO_F64, erf(x), 0)                                                               \
    X(erfc, FPO_F64, erfc(x), 0)                                                             \
    X(gamma, FPO_F64, tgamma(p), 0)                                                          \
    X(sign, FPO_F64, sign(x), 0)                                                             \
    X(isnan, FPO_BOOL, isnan(v), 0)                                                          \
    X(isfinite, FPO_BOOL, isfinite(v), 0)                                                    \
    X(isinf, FPO_BOOL, isinf(v), 0)                                                          \
    X(iabs, FPO_I32, n < 0 ? -n : n, 0)                                                      \
    X(imin, FPO_I32, n < 2 ? n : 2, 0)                                                       \
    X(imax, FPO_I32, n > -1 ? n : -1, 0)                                                     \
    X(imod_pos, FPO_I32, pymodi(n, 3), 0)                                                    \
    X(imod_neg, FPO_I32, pymodi(n, -3), 0)                                                   \
    X(fsqrt, FPO_F32, sqrtf(fp), 0)                                                          \
    X(fsin, FPO_F32, sinf(f), 0)                                                              \
    X(fexp, FPO_F32, expf(f), 0)                                                              \
    X(fabs, FPO_F32, fabsf(f), 0)                                                            \
    X(fmin, FPO_F32, fminf(f, 0.5f), 0)                                                      \
    X(ffloor, FPO_F32, floorf(f), 0)                                                         \
    X(fpow, FPO_F32, powf(fp, 2.0f), 0)

#define AS_ENUM(name, dt, e, tol) B_##name,
enum { BUILTINS(AS_ENUM) NB };

static double pat_x(int i, int j, int k) { return 0.75 * (i - 6) + 0.5 * j - 0.25 * k + 0.125; }
/* y: also 3 * 0.7 rounded, and values like 7.155..., where Python's floored modulus by 0.7
 * (fmod, then + b if the signs differ) is exact and a - b * floor(a / b) is not: 7.15511017256415
 * % 0.7 == 0.1551101725641506 in Python, a - b * floor(a / b) == 0.15511017256415016. */
static double pat_y(int i, int j, int k) {
    int c = (i + j) % 4;
    return c == 0 ? 0.7 * 3 : c == 1 ? 7.15511017256415 + k : cos(i + j) + 0.3 * k - 0.4;
}
static double pat_u(int i, int j, int k) { return 0.9 * sin(1.3 * i + 0.7 * j + k); }
static double pat_p(int i, int j, int k) { return 1.1 + fabs(sin(i * j + k)) * 4.0; }
static double pat_r(int i, int j, int k) { return 0.5 * (i - 6) + 0.25 * j * (k % 2); }
static double pat_v(int i, int j, int k) {
    int c = ((i + j + k) % 5 + 5) % 5;
    return c == 0 ? NAN : c == 1 ? INFINITY : c == 2 ? -INFINITY : pat_x(i, j, k);
}
static double pat_n(int i, int j, int k) { return i - 2 * j + k - 3; }
static double pat_f(int i, int j, int k) { return (float)(2.0 * sin(i + 0.5 * j) - 0.1 * k); }
static double pat_fp(int i, int j, int k) { return (float)(0.5 + 0.25 * i + 0.125 * j + k); }

int main(void) {
    tg_array in[9];
    tg_pattern pats[9] = {pat_x, pat_y, pat_u, pat_p, pat_r, pat_v, pat_n, pat_f, pat_fp};
    for (int m = 0; m < 9; m++) {
        in[m] = tg_new3(m == 6 ? FPO_I32 : m >= 7 ? FPO_F32 : FPO_F64, H, NX, NY, NZ);
        tg_fill(&in[m], pats[m]);
    }
    static const char *names[NB] = {
#define AS_NAME(name, dt, e, tol) #name " = " #e,
        BUILTINS(AS_NAME)};
    static const double tols[NB] = {
#define AS_TOL(name, dt, e, tol) tol,
        BUILTINS(AS_TOL)};
    tg_array out[NB], ref[NB];
#define AS_NEW(name, dt, e, tol) out[B_##name] = tg_new3(dt, H, NX, NY, NZ);
    BUILTINS(AS_NEW)
    for (int b = 0; b < NB; b++) {
        tg_fill(&out[b], tg_junk);
        ref[b] = tg_clone(&out[b]);
    }
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                double x = TG_F64(&in[0], i, j, k), y = TG_F64(&in[1], i, j, k),
                       u = TG_F64(&in[2], i, j, k), p = TG_F64(&in[3], i, j, k),
                       r = TG_F64(&in[4], i, j, k), v = TG_F64(&in[5], i, j, k);
                int32_t n = TG_I32(&in[6], i, j, k);
                float f = TG_F32(&in[7], i, j, k), fp = TG_F32(&in[8], i, j, k);
#define AS_REF(name, dt, e, tol) tg_set(&ref[B_##name], i, j, k, (e));
                BUILTINS(AS_REF)
            }

    builtins_fields fl = {
        .x = tg_field(&in[0]), .y = tg_field(&in[1]), .u = tg_field(&in[2]),
        .p = tg_field(&in[3]), .r = tg_field(&in[4]), .v = tg_field(&in[5]),
        .n = tg_field(&in[6]), .f = tg_field(&in[7]), .fp = tg_field(&in[8]),
#define AS_FIELD(name, dt, e, tol) .o_##name = tg_field(&out[B_##name]),
        BUILTINS(AS_FIELD)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    builtins *prog;
    tg_ok(builtins_open(&prog, &dom, &fl, &err), &err, "builtins_open");
    tg_ok(builtins_run(prog, &err), &err, "builtins_run");
    int bad = 0;
    for (int b = 0; b < NB; b++) bad += tg_compare(names[b], &out[b], &ref[b], tols[b]) != 0;
    builtins_close(prog);
    if (bad) {
        fprintf(stderr, "builtins: %d of %d builtins differ\n", bad, NB);
        return 1;
    }
    printf("builtins: %d builtins ok\n", NB);
    return 0;
}
