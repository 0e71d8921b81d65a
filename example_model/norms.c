/* norms.c: h, the exact solution and the initial field on a rank's cells to the area-weighted
 * l1, l2, linf errors and the mass drift of validation.md, through exact partial sums. */
#include <math.h>
#include <stdio.h>

#include "em.h"

void em_norm_acc_init(em_norm_acc *acc) {
    for (int k = 0; k < EM_NSUMS; k++) em_xsum_init(&acc->sum[k]);
    acc->max_err = 0.0;
    acc->max_ref = 0.0;
}

void em_norm_acc_add(em_norm_acc *acc, const em_grid *g, const double *h, const double *ht,
                     const double *h0) {
    for (int j = 0; j < g->ny; j++)
        for (int i = 0; i < g->nx; i++) {
            size_t at = EM_AT(g, i, j);
            double a = g->area[at], e = h[at] - ht[at], r = ht[at];
            em_xsum_add(&acc->sum[EM_S_AREA], a);
            em_xsum_add(&acc->sum[EM_S_ERR1], a * fabs(e));
            em_xsum_add(&acc->sum[EM_S_REF1], a * fabs(r));
            em_xsum_add(&acc->sum[EM_S_ERR2], a * e * e);
            em_xsum_add(&acc->sum[EM_S_REF2], a * r * r);
            em_xsum_add(&acc->sum[EM_S_H0], a * h0[at]);
            em_xsum_add(&acc->sum[EM_S_DMASS], a * h[at]);
            em_xsum_add(&acc->sum[EM_S_DMASS], -(a * h0[at]));
            /* NaN propagates into the maxima: fmax would drop it */
            if (!(fabs(e) <= acc->max_err)) acc->max_err = fabs(e);
            if (!(fabs(r) <= acc->max_ref)) acc->max_ref = fabs(r);
        }
}

void em_norm_acc_merge(em_norm_acc *acc, const em_norm_acc *other) {
    for (int k = 0; k < EM_NSUMS; k++) em_xsum_merge(&acc->sum[k], &other->sum[k]);
    if (!(other->max_err <= acc->max_err)) acc->max_err = other->max_err;
    if (!(other->max_ref <= acc->max_ref)) acc->max_ref = other->max_ref;
}

em_status em_norms_finish(const em_norm_acc *acc, em_norms *out, em_error *err) {
    double s[EM_NSUMS];
    for (int k = 0; k < EM_NSUMS; k++) s[k] = em_xsum_value(&acc->sum[k]);
    for (int k = 0; k < EM_NSUMS; k++)
        if (!isfinite(s[k]) || isnan(acc->max_err) || isnan(acc->max_ref)) {
            snprintf(err->msg, sizeof err->msg, "em_norms_finish: a field is not finite");
            return EM_EINVAL;
        }
    if (s[EM_S_REF1] == 0.0 || s[EM_S_REF2] == 0.0 || acc->max_ref == 0.0 || s[EM_S_H0] == 0.0) {
        snprintf(err->msg, sizeof err->msg,
                 "em_norms_finish: the exact solution or the initial mass is zero");
        return EM_EINVAL;
    }
    /* I(x) / I(y) = sum A x / sum A y: the total area cancels. */
    out->l1 = s[EM_S_ERR1] / s[EM_S_REF1];
    out->l2 = sqrt(s[EM_S_ERR2]) / sqrt(s[EM_S_REF2]);
    out->linf = acc->max_err / acc->max_ref;
    out->mass = s[EM_S_DMASS] / s[EM_S_H0];
    em_xsum h = acc->sum[EM_S_H0];  /* sum A h = sum A h0 + (sum A h - sum A h0), exactly */
    em_xsum_merge(&h, &acc->sum[EM_S_DMASS]);
    out->sum0 = s[EM_S_H0];
    out->sum = em_xsum_value(&h);
    return EM_OK;
}
