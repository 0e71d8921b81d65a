/* programs.c: runs the program `prog_features` of programs.fpo (domains, staggered and halo
 * points, for / if on scalars, program scalars and temporaries, a flattened program call)
 * for three sets of scalars, and replays each call as a C loop nest over its domain. */
#include <stdbool.h>
#include <stdio.h>

#include "prog_features.h"
#include "testgrid.h"

enum { NX = 13, NY = 7, NZ = 5, H = 3, NOUT = 7 };

/* A call's domain: [i0, i1) x [j0, j1) x [k0, k1). */
typedef struct box { int i0, i1, j0, j1, k0, k1; } box;
static const box whole = {0, NX, 0, NY, 0, NZ};

#define FOR_BOX(b)                                                                            \
    for (int k = (b).k0; k < (b).k1; k++)                                                     \
        for (int j = (b).j0; j < (b).j1; j++)                                                 \
            for (int i = (b).i0; i < (b).i1; i++)
#define A(a, di, dj) TG_F64(a, i + (di), j + (dj), k)

static void copy(const tg_array *src, tg_array *dst, box b) {
    FOR_BOX(b) A(dst, 0, 0) = A(src, 0, 0);
}
static void axpy(const tg_array *x, tg_array *y, double a, box b) {
    FOR_BOX(b) A(y, 0, 0) = A(y, 0, 0) + a * A(x, 0, 0);
}
static void smooth(const tg_array *q, tg_array *out, double w, box b) {
    FOR_BOX(b)
    A(out, 0, 0) = A(q, 0, 0) + w * (A(q, -1, 0) + A(q, 1, 0) + A(q, 0, -1) + A(q, 0, 1) -
                                     4.0 * A(q, 0, 0));
}
static void xflux(const tg_array *q, tg_array *f, box b) {
    FOR_BOX(b) A(f, 0, 0) = 0.5 * (A(q, -1, 0) + A(q, 0, 0));
}
static void ymean(const tg_array *q, tg_array *g, box b) {
    FOR_BOX(b) A(g, 0, 0) = A(q, 0, -1) - A(q, 0, 0);
}
/* FORWARD from the first level of the box: a running sum. */
static void kcol(const tg_array *q, tg_array *kk, box b) {
    FOR_BOX(b) A(kk, 0, 0) = (k == b.k0 ? 0.0 : TG_F64(kk, i, j, k - 1)) + A(q, 0, 0);
}
static void pair(const tg_array *q, tg_array *out, box b) {
    FOR_BOX(b) A(out, 0, 0) = A(q, -1, 0) * 10.0 + A(q, 1, 0) + A(q, 0, 1) * 0.5;
}

/* The program, call by call. */
static void features_ref(const tg_array *q, tg_array *fx, tg_array *gy, tg_array *out,
                         tg_array *hal, tg_array *acc, tg_array *kk, tg_array *kb,
                         tg_array *work, tg_array *t, double dt, int32_t n, bool flag) {
    double half = 0.5 * dt, c = 1.0;
    copy(q, work, (box){-2, NX + 2, -2, NY + 2, 0, NZ});
    for (int32_t s = 0; s < n; s++) {
        smooth(work, out, half, (box){-1, NX + 1, -1, NY + 1, 0, NZ});
        copy(out, work, (box){-1, NX + 1, -1, NY + 1, 0, NZ});
        axpy(q, acc, (double)s * half, whole);
        c = c * 0.5 + (double)s;
    }
    axpy(q, acc, c, whole);
    xflux(work, fx, (box){0, NX + 1, 0, NY, 0, NZ});
    ymean(work, gy, (box){0, NX, 0, NY + 1, 0, NZ});
    pair(q, hal, (box){-1, NX + 1, 1, NY - 1, 0, NZ});
    kcol(q, kk, (box){0, NX, 0, NY, 1, NZ});
    kcol(q, kb, (box){2, NX - 3, 1, 3, 0, NZ - 2});
    if (flag) axpy(q, acc, 100.0, whole);
    else if (dt > 1.0) axpy(q, acc, -1.0, whole);
    copy(work, t, whole); /* inner(work, acc, half) */
    axpy(t, acc, half * 2.0, whole);
}

int main(void) {
    tg_array q = tg_new3(FPO_F64, H, NX, NY, NZ);
    tg_fill(&q, tg_wave);
    tg_array fx = tg_new(FPO_F64, FPO_IJK, -H, NX + 1 + H, -H, NY + H, 0, NZ);
    tg_array gy = tg_new(FPO_F64, FPO_IJK, -H, NX + H, -H, NY + 1 + H, 0, NZ);
    tg_array out = tg_new3(FPO_F64, H, NX, NY, NZ), hal = tg_new3(FPO_F64, H, NX, NY, NZ),
             acc = tg_new3(FPO_F64, H, NX, NY, NZ), kk = tg_new3(FPO_F64, H, NX, NY, NZ),
             kb = tg_new3(FPO_F64, H, NX, NY, NZ);
    tg_array *outs[NOUT] = {&fx, &gy, &out, &hal, &acc, &kk, &kb};
    tg_array ref[NOUT];
    for (int m = 0; m < NOUT; m++) {
        tg_fill(outs[m], tg_junk);
        ref[m] = tg_clone(outs[m]);
    }
    tg_array work = tg_new3(FPO_F64, H, NX, NY, NZ), t = tg_new3(FPO_F64, H, NX, NY, NZ);

    prog_features_fields f = {.q = tg_field(&q), .fx = tg_field(&fx), .gy = tg_field(&gy),
                         .out = tg_field(&out), .hal = tg_field(&hal), .acc = tg_field(&acc),
                         .kk = tg_field(&kk), .kb = tg_field(&kb)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    prog_features *p;
    tg_ok(prog_features_open(&p, &dom, &f, &err), &err, "prog_features_open");
    static const struct { double dt; int32_t n; bool flag; } runs[3] = {
        {0.1, 3, true}, {1.5, 2, false}, {2.0, 0, false}};
    static const char *names[NOUT] = {
        "fx (domain i: 0 .. nx + 1)",   "gy (domain j: 0 .. ny + 1)",
        "out (halo points, for loop)",  "hal (i: -1 .. nx + 1, j: 1 .. ny - 1)",
        "acc (for, if, inner program)", "kk (k: 1 .. nz, FORWARD from bottom)",
        "kb (i, j and k: 0 .. nz - 2)"};
    int bad = 0;
    for (int r = 0; r < 3; r++) {
        features_ref(&q, &ref[0], &ref[1], &ref[2], &ref[3], &ref[4], &ref[5], &ref[6], &work,
                     &t, runs[r].dt, runs[r].n, runs[r].flag);
        tg_ok(prog_features_run(p, runs[r].dt, runs[r].n, runs[r].flag, &err), &err,
              "prog_features_run");
        for (int m = 0; m < NOUT; m++) {
            char what[160];
            snprintf(what, sizeof what, "run %d (dt=%g n=%d flag=%d): %s", r, runs[r].dt,
                     runs[r].n, runs[r].flag, names[m]);
            bad += tg_compare(what, outs[m], &ref[m], 0);
        }
    }
    prog_features_close(p);
    if (bad) return 1;
    printf("programs: ok\n");
    return 0;
}
