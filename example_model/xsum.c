/* xsum.c: doubles to an exact fixed-point integer sum, so that the result of a sum does not
 * depend on the order of its terms (deterministic reductions over any layout of ranks). */
#include <math.h>
#include <string.h>

#include "em.h"

#define EM_XSUM_OFFSET 1152      /* bit 0 of limb 0 weighs 2^-1152: below every double */
#define EM_XSUM_CARRY_EVERY (1 << 28)
#define EM_TWO32 4294967296LL

void em_xsum_init(em_xsum *s) { memset(s, 0, sizeof *s); }

void em_xsum_norm(em_xsum *s) {
    for (int k = 0; k < EM_XSUM_LIMBS - 1; k++) {
        int64_t c = s->limb[k] / EM_TWO32, r = s->limb[k] - c * EM_TWO32;
        if (r < 0) r += EM_TWO32, c -= 1;
        s->limb[k] = r;
        s->limb[k + 1] += c;
    }
    s->count = 0;
}

void em_xsum_add(em_xsum *s, double x) {
    if (!isfinite(x)) {
        s->bad = 1;
        return;
    }
    if (x == 0.0) return;
    int e;
    double f = frexp(x, &e);                    /* x = f 2^e, 1/2 <= |f| < 1 */
    int64_t m = (int64_t)ldexp(f, 53);          /* exact: |m| < 2^53 */
    int p = e - 53 + EM_XSUM_OFFSET, k = p / 32, sh = p % 32;
    uint64_t mag = (uint64_t)(m < 0 ? -m : m);
    uint64_t lo = (mag & 0xffffffffu) << sh, hi = (mag >> 32) << sh;  /* < 2^63, < 2^53 */
    int64_t d0 = (int64_t)(lo & 0xffffffffu), d1 = (int64_t)((lo >> 32) + (hi & 0xffffffffu)),
            d2 = (int64_t)(hi >> 32);
    if (m < 0) d0 = -d0, d1 = -d1, d2 = -d2;
    s->limb[k] += d0;
    s->limb[k + 1] += d1;
    s->limb[k + 2] += d2;
    if (++s->count >= EM_XSUM_CARRY_EVERY) em_xsum_norm(s);
}

void em_xsum_merge(em_xsum *s, const em_xsum *t) {
    em_xsum u = *t;
    em_xsum_norm(&u);
    em_xsum_norm(s);
    for (int k = 0; k < EM_XSUM_LIMBS; k++) s->limb[k] += u.limb[k];
    s->bad |= u.bad;
    em_xsum_norm(s);
}

double em_xsum_value(const em_xsum *s) {
    if (s->bad) return NAN;
    em_xsum u = *s;
    em_xsum_norm(&u);
    /* A negative sum leaves a negative top limb over lower limbs in [0, 2^32): convert its
     * magnitude. */
    int neg = u.limb[EM_XSUM_LIMBS - 1] < 0;
    if (neg) {
        for (int k = 0; k < EM_XSUM_LIMBS; k++) u.limb[k] = -u.limb[k];
        em_xsum_norm(&u);
    }
    /* The limbs are now unique for the value; adding them from the lowest gives one rounding
     * per limb, always the same. */
    double v = 0.0;
    for (int k = 0; k < EM_XSUM_LIMBS; k++)
        if (u.limb[k] != 0) v += ldexp((double)u.limb[k], 32 * k - EM_XSUM_OFFSET);
    return neg ? -v : v;
}
