/* chain_run.c: runs tests/bench/chain.fpo (three steps, q and q_out swapped with bind) and
 * appends q_out to $TG_DUMP for bitwise.cmake; with --memory, checks the memory report. */
#include "chain_step.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CHAIN_NZ
#define CHAIN_NZ 7   /* 1 and 2 too: below and at the smallest nz the solver's strips take */
#endif
#ifndef CHAIN_NY
#define CHAIN_NY 11   /* 37 too: the column group then runs blocks of 4 rows, the last of 1 */
#endif
enum { NX = 13, NY = CHAIN_NY, NZ = CHAIN_NZ, H = 2 };
#define N ((size_t)(NX + 2 * H) * (NY + 2 * H) * NZ)
#define LINES(bytes) (((size_t)(bytes) + 63) / 64 * 64)   /* a temporary's place: whole lines */
#define PAGES(bytes) (((size_t)(bytes) + 4095) / 4096 * 4096)   /* a thread's part: whole pages */

static double *grid(double (*f)(int, int, int)) {
    double *a = malloc(N * sizeof *a);
    for (int k = 0; k < NZ; k++)
        for (int j = -H; j < NY + H; j++)
            for (int i = -H; i < NX + H; i++)
                a[(size_t)k * (NX + 2 * H) * (NY + 2 * H) + (size_t)(j + H) * (NX + 2 * H) +
                  (size_t)(i + H)] = f(i, j, k);
    return a;
}
static double f_q(int i, int j, int k) { return 1.0 + sin(0.3 * i) * cos(0.2 * j) + 0.01 * k; }
static double f_u(int i, int j, int k) { return 0.5 * sin(0.1 * (i + 2 * j + k)); }
static double f_v(int i, int j, int k) { return 0.4 * cos(0.15 * (2 * i - j) + k); }
static double f_dp(int i, int j, int k) { return 2.0 + 0.1 * ((i * 7 + j * 3 + k) % 5); }
static double f_zero(int i, int j, int k) { return (void)i, (void)j, (void)k, -7.0; }

static fpo_field fld(double *a) { return fpo_field_3d(a, FPO_F64, -H, NX + H, -H, NY + H, 0, NZ); }

static int fail(const char *what, fpo_error *err) {
    fprintf(stderr, "FAIL %s: %s\n", what, err ? err->msg : "");
    return 1;
}

static int run(int argc, char **argv, double *q, double *u, double *v, double *dp, double *out);

int main(int argc, char **argv) {
    double *a[5] = {grid(f_q), grid(f_u), grid(f_v), grid(f_dp), grid(f_zero)};
    int rc = run(argc, argv, a[0], a[1], a[2], a[3], a[4]);
    for (int x = 0; x < 5; x++)
        free(a[x]);
    return rc;
}

/* Open, run three steps (q and out trade places through bind), check and dump. */
static int run(int argc, char **argv, double *q, double *u, double *v, double *dp, double *out) {
    chain_step_fields f = {.q = fld(q), .u = fld(u), .v = fld(v), .delp = fld(dp),
                           .q_out = fld(out)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    chain_step *p;
    if (chain_step_open(&p, &dom, &f, &err))
        return fail("open", &err);
    if (argc > 1 && !strcmp(argv[1], "--memory")) {
        fpo_memory m;
        if (chain_step_memory(p, &m))
            return fail("memory", NULL);
        printf("pool %zu bytes (arrays %zu, planes %zu, strips %zu), unfused %zu bytes; %d arrays, "
               "%d planes, %d strips, %d scalars, %d threads, %d streamed\n", m.pool_bytes,
               m.array_bytes, m.plane_bytes, m.strip_bytes, m.unfused_bytes, m.arrays, m.planes,
               m.strips, m.scalars, m.threads, m.streamed);
        /* argv[2]: how many arrays are written past the caches (FPO_STREAM=1: every one pass
         * stream chose; at these sizes none otherwise) */
        if (argc > 2 && m.streamed != atoi(argv[2]))
            return fail("streamed arrays", NULL);
#ifdef CHAIN_UNFUSED
        int ok = m.arrays == 9 && !m.planes && !m.strips && !m.scalars &&
                 m.pool_bytes >= m.unfused_bytes &&
                 m.unfused_bytes >= 9 * (size_t)NX * NY * NZ * 8;
#elif defined CHAIN_JOIN
        /* joined: no array, no plane; fx (nx + 1 wide), fy (2 rows each) and qn (1 row) rings
         * of every level; the solver's cp, dp strips (a row of every level); qv a ring of 2
         * levels of a row (pass_kcache); cx, cy and qd scalars */
        int ok = m.arrays == 0 && m.planes == 0 && m.strips == 6 && m.scalars == 3 &&
                 m.array_bytes == 0 && m.pool_bytes % 4096 == 0 &&
                 m.pool_bytes <= m.threads * PAGES((m.plane_bytes + m.strip_bytes) / m.threads) &&
                 m.strip_bytes == (size_t)m.threads *
                                      (LINES(2 * (NX + 1) * NZ * 8) + LINES(2 * NX * NZ * 8) +
                                       3 * LINES(NX * NZ * 8) + LINES(2 * NX * 8));
#else
        /* qn an array; fx, fy planes; the solver's cp, dp strips (4 rows of every level: a
         * column group's block); qv a ring of 2 levels of those rows (pass_kcache); cx, cy
         * (the Courant numbers and both fluxes share a loop though their points differ:
         * pass_merge) and qd scalars. The pool: the arrays, then each thread's part, in whole
         * pages. */
        int ok = m.arrays == 1 && m.planes == 2 && m.strips == 3 && m.scalars == 3 &&
                 m.pool_bytes < m.unfused_bytes / 3 && m.array_bytes >= (size_t)NX * NY * NZ * 8 &&
                 m.pool_bytes % 4096 == 0 &&
                 m.pool_bytes <= PAGES(m.array_bytes) +
                                     m.threads * PAGES((m.plane_bytes + m.strip_bytes) / m.threads) &&
                 m.strip_bytes == (size_t)m.threads * (2 * LINES(4 * NX * NZ * 8) + LINES(4 * 2 * NX * 8));
#endif
        chain_step_close(p);
        return ok ? 0 : fail("memory report", NULL);
    }
    for (int s = 0; s < 3; s++) {
        if (chain_step_run(p, 0.3, 0.05, 0.2, &err))
            return fail("run", &err);
        /* the output is the next step's input */
        double *t = q;
        q = out;
        out = t;
        f.q = fld(q);
        f.q_out = fld(out);
        if (chain_step_bind(p, &f, &err))
            return fail("bind", &err);
    }
    chain_step_close(p);
    double sum = 0;
    for (size_t x = 0; x < N; x++)
        sum += q[x];
    printf("checksum %.17g\n", sum);
    if (!isfinite(sum))
        return fail("checksum not finite", NULL);
    const char *dump = getenv("TG_DUMP");
    if (!dump)
        return 0;
    FILE *df = fopen(dump, "wb");
    if (!df || fwrite(q, sizeof *q, N, df) != N || fclose(df))
        return fail("writing TG_DUMP", NULL);
    return 0;
}
