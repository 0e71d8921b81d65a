/* pass_shrink.c: takes covered temporaries (pass_extent) and fused groups, gives their storage:
 * a temporary used only within one fused group at K offset 0 becomes a plane per thread (one
 * level at a time), and one used only at the current point of one I-J loop becomes a scalar. */
#include "opt.h"

static StoreKind shrink(Sched *s, int slot) {
    if (!s->covered[slot])
        return SK_ARRAY;
    int group = -1, loop = -1;
    bool scalar = true;
    for (int k = 0; k < s->nblocks; k++) {
        Block *b = &s->blocks[k];
        for (int g = 0; g < b->ng; g++)
            for (int i = b->g[g].first; i < b->g[g].first + b->g[g].count; i++) {
                Acc *a = fpo_unit_acc(&b->u[i], slot);
                if (!a)
                    continue;
                if (!b->g[g].fused || a->lo[2] || a->hi[2] || !a->kconst)
                    return SK_ARRAY;
                if (group >= 0 && group != g)
                    return SK_ARRAY;
                if (loop >= 0 && loop != b->u[i].loop)
                    scalar = false;
                for (int d = 0; d < 2; d++)
                    if (a->lo[d] || a->hi[d])
                        scalar = false;
                group = g;
                loop = b->u[i].loop;
            }
    }
    return scalar ? SK_SCALAR : SK_PLANE;
}

void fpo_pass_shrink(Sched *s) {
    for (int x = s->nfparams; x < s->nslots; x++)
        s->store[x] = shrink(s, x);
}
