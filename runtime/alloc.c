/* alloc.c: zeroed, 64-byte aligned blocks for the temporaries a program allocates at open. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fpo_runtime.h"

enum { FPO_ALIGN = 64 };

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
