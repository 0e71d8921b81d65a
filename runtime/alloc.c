/* alloc.c: zeroed, page-aligned blocks for the temporaries a program allocates at open (each
 * thread's part of the pool starts on a page of its own: program_impl.h.in's FPO_MINE). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fpo_runtime.h"

enum { FPO_ALIGN = 4096 };

/* aligned_alloc wants a size that is a multiple of the alignment; a zero request still gets
 * a block, so NULL always means failure. */
void *fpo_alloc(size_t bytes) {
    if (bytes > SIZE_MAX - (FPO_ALIGN - 1))
        return NULL;
    size_t size = bytes ? (bytes + FPO_ALIGN - 1) / FPO_ALIGN * FPO_ALIGN : FPO_ALIGN;
    void *p = aligned_alloc(FPO_ALIGN, size);
    if (p)
        memset(p, 0, size);
    return p;
}

void fpo_free(void *p) { free(p); }
