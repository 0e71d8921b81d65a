/* korder.c: runs korder.fpo (K orders, several intervals, K-offset writes, sweeps with the
 * nests after them) and compares with C loop nests that walk K the same way. */
#include <stdio.h>

#include "korder.h"
#include "testgrid.h"

enum { NX = 13, NY = 7, NZ = 5, H = 3 };

#define Q(i, j, k) TG_F64(q, i, j, k)

/* caches: s, t, u per column (NZ levels) */
static void reference_caches(const tg_array *q, tg_array *e, tg_array *f, tg_array *g,
                             tg_array *h) {
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            double s[NZ], t[NZ], u[NZ];
            for (int k = 0; k < 2; k++)
                s[k] = Q(i, j, k), t[k] = 2.0 * Q(i, j, k);
            for (int k = 2; k < NZ; k++) {
                s[k] = s[k - 1] + Q(i, j, k);
                t[k] = t[k - 2] - 0.5 * Q(i, j, k);
            }
            for (int k = 0; k < NZ; k++)
                TG_F64(g, i, j, k) = s[k] * t[k];
            for (int k = 0; k < NZ - 1; k++)
                TG_F64(e, i, j, k) = TG_F64(g, i, j, k + 1) - TG_F64(g, i, j, k);
            u[NZ - 1] = Q(i, j, NZ - 1);
            for (int k = NZ - 2; k >= 1; k--)
                u[k] = 0.5 * u[k + 1] + Q(i, j, k);
            for (int k = 1; k < NZ; k++)
                TG_F64(h, i, j, k) = u[k] - Q(i, j, k);
            for (int k = 0; k < NZ; k++)
                TG_F64(f, i, j, k) = Q(i, j, k) + 1.0;
        }
}

static void reference(const tg_array *q, tg_array *up, tg_array *down, tg_array *par,
                      tg_array *w, tg_array *v) {
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            TG_F64(up, i, j, 0) = Q(i, j, 0);
            for (int k = 1; k < NZ; k++)
                TG_F64(up, i, j, k) = TG_F64(up, i, j, k - 1) * 0.5 + Q(i, j, k);
            TG_F64(down, i, j, NZ - 1) = Q(i, j, NZ - 1);
            TG_F64(down, i, j, NZ - 2) = TG_F64(down, i, j, NZ - 1) + 2.0 * Q(i, j, NZ - 2);
            for (int k = NZ - 3; k >= 0; k--)
                TG_F64(down, i, j, k) = TG_F64(down, i, j, k + 1) - Q(i, j, k);
            TG_F64(par, i, j, 0) = Q(i, j, 0); /* level 1 is in no interval */
            for (int k = 2; k < NZ - 1; k++)
                TG_F64(par, i, j, k) = Q(i, j, k - 1) + Q(i, j, k + 1);
            TG_F64(par, i, j, NZ - 1) = -Q(i, j, NZ - 1);
            TG_F64(w, i, j, 0) = Q(i, j, 0);
            for (int k = 0; k < NZ - 1; k++)
                TG_F64(w, i, j, k + 1) = TG_F64(w, i, j, k) + Q(i, j, k + 1);
            TG_F64(v, i, j, NZ - 1) = Q(i, j, NZ - 1);
            for (int k = NZ - 1; k >= 1; k--)
                TG_F64(v, i, j, k - 1) = TG_F64(v, i, j, k) * 0.5 + Q(i, j, k - 1);
        }
}

int main(void) {
    tg_array q = tg_new3(FPO_F64, H, NX, NY, NZ);
    tg_fill(&q, tg_wave);
    tg_array out[9];
    tg_array ref[9];
    tg_new_outputs(9, FPO_F64, H, NX, NY, NZ, out, ref);
    reference(&q, &ref[0], &ref[1], &ref[2], &ref[3], &ref[4]);
    reference_caches(&q, &ref[5], &ref[6], &ref[7], &ref[8]);

    korder_fields f = {.q = tg_field(&q), .up = tg_field(&out[0]), .down = tg_field(&out[1]),
                       .par = tg_field(&out[2]), .w = tg_field(&out[3]),
                       .v = tg_field(&out[4]), .e = tg_field(&out[5]), .f = tg_field(&out[6]),
                       .g = tg_field(&out[7]), .h = tg_field(&out[8])};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    korder *p;
    tg_ok(korder_open(&p, &dom, &f, &err), &err, "korder_open");
    tg_ok(korder_run(p, &err), &err, "korder_run");
    static const char *names[9] = {"up (FORWARD)", "down (BACKWARD, 3 intervals)",
                                   "par (PARALLEL, gap at level 1)", "w (FORWARD, w[0,0,1]=)",
                                   "v (BACKWARD, v[0,0,-1]=)",
                                   "e (g a level ahead, after a sweep)",
                                   "f (after a BACKWARD sweep, one level more)",
                                   "g (inside a FORWARD sweep: s, t rings of 2 levels)",
                                   "h (inside a BACKWARD sweep: u a ring of 2 levels)"};
    int bad = 0;
    for (int n = 0; n < 9; n++) bad += tg_compare(names[n], &out[n], &ref[n], 0);
    korder_close(p);
    if (bad) return 1;
    printf("korder: ok\n");
    return 0;
}
