/* pass_pool.c: takes the storage of temporaries, gives pool sharing: two covered arrays (or two
 * planes) whose lifetimes (the fused groups from first to last use, within one block) do not
 * overlap use the same bytes of the pool; `share[x]` is the slot whose space x reuses. */
#include "opt.h"

typedef struct Life {
    int block, g0, g1;   /* block, first and last group using the slot */
    bool blocks;         /* used in several blocks (a stencil's temporary): shares nothing */
} Life;

static Life life(Sched *s, int slot) {
    Life l = {-1, -1, -1, false};
    for (int k = 0; k < s->nblocks; k++)
        for (int g = 0; g < s->blocks[k].ng; g++)
            for (int i = 0; i < s->blocks[k].g[g].count; i++)
                if (fpo_unit_acc(&s->blocks[k].u[s->blocks[k].g[g].first + i], slot)) {
                    /* a column group joined to the fused group before it runs with it */
                    int at = g && s->blocks[k].g[g - 1].join ? g - 1 : g;
                    if (l.block >= 0 && l.block != k)
                        l.blocks = true;
                    if (l.block < 0)
                        l = (Life){k, at, at, false};
                    l.g1 = at > l.g1 ? at : l.g1;
                    l.g0 = at < l.g0 ? at : l.g0;
                }
    return l;
}

static bool overlap(Life a, Life b) {
    return a.block == b.block && a.g0 <= b.g1 && b.g0 <= a.g1;
}

void fpo_pass_pool(Sched *s) {
    Life *l = fpo_new(sizeof(Life) * (size_t)(s->nslots + 1));
    for (int x = s->nfparams; x < s->nslots; x++)
        l[x] = life(s, x);
    for (int x = s->nfparams; x < s->nslots; x++) {
        if (!s->covered[x] || s->store[x] == SK_SCALAR || l[x].block < 0 || l[x].blocks)
            continue;
        /* Join the first earlier owner of the same kind and dtype whose sharers all miss x. */
        for (int o = s->nfparams; o < x; o++) {
            if (s->share[o] != o || !s->covered[o] || s->store[o] != s->store[x] ||
                s->slots[o]->dt != s->slots[x]->dt || l[o].block < 0 ||
                s->strip_nz[o] != s->strip_nz[x] || l[o].blocks)
                continue;
            bool free = true;
            for (int y = s->nfparams; y < x && free; y++)
                if (s->share[y] == o && overlap(l[y], l[x]))
                    free = false;
            if (free) {
                s->share[x] = o;
                break;
            }
        }
    }
}
