/* repeat.c: runs repeat.fpo many times: every run gives bit-identical results, and run
 * allocates nothing; bind points the program at other fields, checked as open checks.
 * Allocations made by the program's code and the runtime (both static) are counted through
 * the linker's --wrap; open must show some, so the count is known to work. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repeat.h"
#include "testgrid.h"

enum { NX = 13, NY = 7, NZ = 5, H = 3, RUNS = 50 };

static int counting, allocs;

void *__real_malloc(size_t n);
void *__real_calloc(size_t m, size_t n);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t a, size_t n);
int __real_posix_memalign(void **p, size_t a, size_t n);
void *__wrap_malloc(size_t n) { allocs += counting; return __real_malloc(n); }
void *__wrap_calloc(size_t m, size_t n) { allocs += counting; return __real_calloc(m, n); }
void *__wrap_realloc(void *p, size_t n) { allocs += counting; return __real_realloc(p, n); }
void *__wrap_aligned_alloc(size_t a, size_t n) {
    allocs += counting;
    return __real_aligned_alloc(a, n);
}
int __wrap_posix_memalign(void **p, size_t a, size_t n) {
    allocs += counting;
    return __real_posix_memalign(p, a, n);
}

int main(void) {
    tg_array q = tg_new3(FPO_F64, H, NX, NY, NZ), out = tg_new3(FPO_F64, H, NX, NY, NZ);
    tg_fill(&q, tg_wave);
    tg_fill(&out, tg_junk);
    tg_array junk = tg_clone(&out), first = tg_clone(&out);
    repeat_fields f = {.q = tg_field(&q), .out = tg_field(&out)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    repeat *p;
    counting = 1;
    tg_ok(repeat_open(&p, &dom, &f, &err), &err, "repeat_open");
    counting = 0;
    int open_allocs = allocs;
    allocs = 0;
    int bad = 0;
    for (int r = 0; r < RUNS; r++) {
        tg_copy(&out, &junk);
        counting = 1;
        tg_ok(repeat_run(p, 0.05, 4, &err), &err, "repeat_run");
        counting = 0;
        if (r == 0) {
            tg_copy(&first, &out);
            for (int k = 0; k < NZ; k++)
                for (int j = 0; j < NY; j++)
                    for (int i = 0; i < NX; i++)
                        if (TG_F64(&out, i, j, k) == TG_F64(&junk, i, j, k)) {
                            fprintf(stderr, "FAIL run 0 left (%d, %d, %d) unwritten\n", i, j, k);
                            return 1;
                        }
        } else if (tg_compare("out, against run 0", &out, &first, 0)) {
            fprintf(stderr, "FAIL run %d differs from run 0\n", r);
            bad++;
            break;
        }
    }

    /* bind: the opened program on other fields gives what a program opened on them gives. */
    tg_array q2 = tg_new3(FPO_F64, H, NX, NY, NZ), out2 = tg_clone(&junk), out3 = tg_clone(&junk);
    tg_fill(&q2, tg_junk);
    repeat_fields f2 = {.q = tg_field(&q2), .out = tg_field(&out2)};
    tg_ok(repeat_bind(p, &f2, &err), &err, "repeat_bind");
    tg_ok(repeat_run(p, 0.05, 4, &err), &err, "repeat_run after bind");
    repeat_fields f3 = {.q = tg_field(&q2), .out = tg_field(&out3)};
    repeat *p3;
    tg_ok(repeat_open(&p3, &dom, &f3, &err), &err, "repeat_open (second program)");
    tg_ok(repeat_run(p3, 0.05, 4, &err), &err, "repeat_run (second program)");
    repeat_close(p3);
    bad += tg_compare("out after bind, against a program opened on the same fields", &out2,
                      &out3, 0) != 0;
    bad += tg_compare("out of the first fields, untouched after bind", &out, &first, 0) != 0;

    /* bind checks as open does: q needs a halo of 2 (copy reads it on i: -2 .. nx + 2). */
    tg_array small = tg_new3(FPO_F64, 1, NX, NY, NZ);
    repeat_fields f4 = {.q = tg_field(&small), .out = tg_field(&out2)};
    fpo_status st = repeat_bind(p, &f4, &err);
    if (st != FPO_ESHAPE || !strstr(err.msg, "'q'")) {
        fprintf(stderr, "FAIL bind to q with a halo of 1: status %d (want %d), message '%s'\n",
                (int)st, (int)FPO_ESHAPE, err.msg);
        bad++;
    }
    repeat_close(p);
    printf("repeat: %d runs; open made %d allocations, the runs %d\n", RUNS, open_allocs,
           allocs);
    if (open_allocs == 0) {
        fprintf(stderr, "FAIL open made no allocation seen by --wrap: the count proves nothing\n");
        bad++;
    }
    if (allocs != 0) {
        fprintf(stderr, "FAIL run allocated %d times\n", allocs);
        bad++;
    }
    return bad ? 1 : 0;
}
