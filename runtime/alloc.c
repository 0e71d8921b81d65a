/* alloc.c: page-aligned blocks for the temporaries a program allocates at open (each thread's
 * part of the pool starts on a page of its own: program_impl.h.in's FPO_MINE), the advice to
 * back the pool's arrays with huge pages, and their first touch by the threads that use them. */
#define _DEFAULT_SOURCE   /* madvise's MADV_HUGEPAGE */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "fpo_runtime.h"

enum { FPO_ALIGN = 4096 };
#define FPO_HUGE ((size_t)2 << 20)   /* a huge page of x86-64 and most ARM Linux systems */

/* aligned_alloc wants a size that is a multiple of the alignment; a zero request still gets
 * a block, so NULL always means failure. Blocks of a huge page or more start on one. */
void *fpo_alloc_pages(size_t bytes) {
    size_t align = bytes >= FPO_HUGE ? FPO_HUGE : FPO_ALIGN;
    if (bytes > SIZE_MAX - (align - 1))
        return NULL;
    size_t size = bytes ? (bytes + align - 1) / align * align : align;
    return aligned_alloc(align, size);
}

void fpo_pool_advise(void *pool, size_t shared) {
#ifdef MADV_HUGEPAGE
    const char *e = getenv("FPO_HUGEPAGES");
    uintptr_t a = (uintptr_t)pool, from = (a + FPO_HUGE - 1) / FPO_HUGE * FPO_HUGE,
              to = (a + shared) / FPO_HUGE * FPO_HUGE;
    if (pool && to > from && !(e && e[0] == '0' && !e[1]))
        (void)madvise((void *)from, to - from, MADV_HUGEPAGE);   /* advice: failure is harmless */
#else
    (void)pool, (void)shared;
#endif
}

/* Zero what thread t of a team of `team` uses of a pool of `bytes`: each thread's part (mine_bytes
 * from `mine` on, one per pool thread; none when mine_bytes is 0) goes to the team member of its
 * number modulo the team, the shared part before `mine` in pages split evenly. */
void fpo_pool_touch(void *pool, size_t bytes, size_t mine, size_t mine_bytes, int nthreads,
                    int t, int team) {
    if (!pool || team < 1 || t < 0 || t >= team)
        return;
    size_t shared = mine_bytes ? mine : bytes;
    size_t pages = (shared + FPO_ALIGN - 1) / FPO_ALIGN;
    size_t from = pages * (size_t)t / (size_t)team * FPO_ALIGN,
           to = pages * (size_t)(t + 1) / (size_t)team * FPO_ALIGN;
    if (to > shared)
        to = shared;
    if (from < to)
        memset((char *)pool + from, 0, to - from);
    for (int q = t; mine_bytes && q < nthreads; q += team)
        memset((char *)pool + mine + (size_t)q * mine_bytes, 0, mine_bytes);
}

void fpo_free(void *p) { free(p); }
