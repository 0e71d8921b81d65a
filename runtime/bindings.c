/* bindings.c: which of a CUDA program's sets of graphs a binding of its fields selects
 * (fpo_cuda_binding, fpo_cuda.h): the set captured on the same fields, else an empty one, else
 * the one used longest ago. Part of fpo_runtime_cuda (cuda.cu keeps the graphs). */
#include "fpo_cuda.h"

#include <stdlib.h>
#include <string.h>

int fpo_cuda_binding(fpo_cuda_slot *slots, int nslots, const void *fields, size_t n,
                     unsigned long long now, int *evicted) {
    int pick = 0;
    *evicted = 0;
    for (int s = 0; s < nslots; s++)
        if (slots[s].fields && slots[s].n == n && !memcmp(slots[s].fields, fields, n)) {
            slots[s].used = now;
            return s;
        }
    for (int s = 0; s < nslots; s++) {
        if (!slots[s].fields) {   /* empty: the first */
            pick = s;
            break;
        }
        if (slots[s].used < slots[pick].used)
            pick = s;
    }
    fpo_cuda_slot *t = &slots[pick];
    *evicted = t->fields != NULL;
    if (t->n != n || !t->fields) {
        free(t->fields);
        t->fields = malloc(n ? n : 1);   /* (NULL, out of memory: the slot stays empty) */
        t->n = t->fields ? n : 0;
    }
    if (t->fields)
        memcpy(t->fields, fields, n);
    t->used = now;
    return pick;
}

void fpo_cuda_bindings_free(fpo_cuda_slot *slots, int nslots) {
    for (int s = 0; s < nslots; s++) {
        free(slots[s].fields);
        slots[s].fields = NULL;
        slots[s].n = 0;
    }
}
