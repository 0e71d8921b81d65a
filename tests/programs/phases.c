/* phases.c: runs phases.fpo (a read, then a write of the same field, in one fused group; a
 * value kept where a condition fails) on domains of several sizes and compares with C loop
 * nests run stage after stage. At 70 x 20 a segment kernel's tile is 64 x 16 points: renew's
 * points (66 a row) and scale's (64 a row) fall to different threads, so a barrier missing
 * between them changes a; bump not starting from t's array changes e where q <= 15. */
#include <stdio.h>

#include "phases.h"
#include "testgrid.h"

enum { H = 2 };

static int check(int nx, int ny, int nz) {
    tg_array q = tg_new3(FPO_F64, H, nx, ny, nz), b = tg_new3(FPO_F64, H, nx, ny, nz);
    tg_fill(&q, tg_wave);
    tg_fill(&b, tg_junk);
    tg_array o[3], r[3];
    tg_new_outputs(3, FPO_F64, H, nx, ny, nz, o, r);
    tg_array rb = tg_clone(&b);
#define Q(i, j, k) TG_F64(&q, i, j, k)
#define B(i, j, k) TG_F64(&rb, i, j, k)
    for (int k = 0; k < nz; k++) {
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                TG_F64(&r[0], i, j, k) = 2.0 * B(i, j, k);
        for (int j = 0; j < ny + 1; j++)
            for (int i = -1; i < nx + 1; i++)
                B(i, j, k) = Q(i, j, k) * Q(i, j, k) + 1.0;
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                TG_F64(&r[1], i, j, k) = B(i - 1, j, k) + 3.0 * B(i + 1, j, k) - B(i, j + 1, k);
        for (int j = 0; j < ny && k < nz - 1; j++)   /* seed, bump, follow: t at the point */
            for (int i = 0; i < nx; i++) {
                double t = Q(i, j, k) + 1.0;
                if (Q(i, j, k) > 15.0)
                    t = 2.0 * Q(i, j, k);
                TG_F64(&r[2], i, j, k) = t - 1.0;
            }
    }
    phases_fields f = {.q = tg_field(&q), .b = tg_field(&b), .a = tg_field(&o[0]),
                       .c = tg_field(&o[1]), .e = tg_field(&o[2])};
    fpo_domain dom = fpo_domain_local(nx, ny, nz);
    fpo_error err;
    phases *p;
    tg_ok(phases_open(&p, &dom, &f, &err), &err, "phases_open");
    tg_ok(phases_run(p, &err), &err, "phases_run");
    phases_close(p);
    char what[80];
    int bad = 0;
    snprintf(what, sizeof what, "%d x %d x %d: a (b before renew)", nx, ny, nz);
    bad += tg_compare(what, &o[0], &r[0], 0);
    snprintf(what, sizeof what, "%d x %d x %d: b (renewed)", nx, ny, nz);
    bad += tg_compare(what, &b, &rb, 0);
    snprintf(what, sizeof what, "%d x %d x %d: c", nx, ny, nz);
    bad += tg_compare(what, &o[1], &r[1], 0);
    snprintf(what, sizeof what, "%d x %d x %d: e (t kept where q <= 15)", nx, ny, nz);
    bad += tg_compare(what, &o[2], &r[2], 0);
    return bad;
}

int main(void) {
    int bad = check(70, 20, 2) + check(13, 7, 3) + check(1, 1, 2);
    if (bad)
        return 1;
    printf("phases: all checks passed\n");
    return 0;
}
