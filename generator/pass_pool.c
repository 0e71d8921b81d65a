/* pass_pool.c: takes the storage of temporaries, gives pool sharing: two covered arrays (or two
 * planes) whose lifetimes (the fused groups from first to last use, within one block) do not
 * overlap use the same bytes of the pool; `share[x]` is the slot whose space x reuses. */
#include "opt.h"

typedef struct Life {
    int block, g0, g1;   /* block, first and last group using the slot */
    bool blocks;         /* used in several blocks (a stencil's temporary): shares nothing */
} Life;

/* Each slot's life, from one walk over the nests' accesses. */
static Life *lives(Sched *s) {
    Life *l = fpo_new(sizeof(Life) * (size_t)(s->nslots + 1));
    for (int x = 0; x < s->nslots; x++)
        l[x] = (Life){-1, -1, -1, false};
    for (int k = 0; k < s->nblocks; k++)
        for (int g = 0; g < s->blocks[k].ng; g++)
            for (int i = 0; i < s->blocks[k].g[g].count; i++) {
                Unit *u = &s->blocks[k].u[s->blocks[k].g[g].first + i];
                /* a column group joined to the fused group before it runs with it */
                int at = g && s->blocks[k].g[g - 1].join ? g - 1 : g;
                for (int a = 0; a < u->nacc; a++) {
                    Life *x = &l[u->acc[a].slot];
                    if (x->block >= 0 && x->block != k)
                        x->blocks = true;
                    if (x->block < 0)
                        *x = (Life){k, at, at, false};
                    x->g1 = at > x->g1 ? at : x->g1;
                    x->g0 = at < x->g0 ? at : x->g0;
                }
            }
    return l;
}

static bool overlap(Life a, Life b) {
    return a.block == b.block && a.g0 <= b.g1 && b.g0 <= a.g1;
}

/* The owners a slot may look at: programs with more owners of one kind share less (the
 * search stays linear in the slots); generated code is the same below it. */
enum { POOL_OWNERS = 64 };

void fpo_pass_pool(Sched *s) {
    Life *l = lives(s);
    int **members = fpo_new(sizeof(int *) * (size_t)(s->nslots + 1));   /* per owner */
    int *nmembers = fpo_new(sizeof(int) * (size_t)(s->nslots + 1));
    int *owners = NULL, nowners = 0;
    for (int x = s->nfparams; x < s->nslots; x++) {
        if (s->share[x] == x) {
            VPUSH(owners, nowners, x);
            VPUSH(members[x], nmembers[x], x);
        }
        if (!s->covered[x] || s->store[x] == SK_SCALAR || l[x].block < 0 || l[x].blocks)
            continue;
        /* Join the first earlier owner of the same kind and dtype whose sharers all miss x. */
        int seen = 0;
        for (int k = 0; k < nowners && owners[k] < x && seen < POOL_OWNERS; k++) {
            int o = owners[k];
            if (s->share[o] != o || !s->covered[o] || s->store[o] != s->store[x] ||
                s->slots[o]->dt != s->slots[x]->dt || l[o].block < 0 ||
                s->strip_nz[o] != s->strip_nz[x] || l[o].blocks)
                continue;
            seen++;
            bool free = true;
            for (int m = 0; m < nmembers[o] && free; m++)
                if (overlap(l[members[o][m]], l[x]))
                    free = false;
            if (free) {
                s->share[x] = o;
                VPUSH(members[o], nmembers[o], x);
                break;
            }
        }
    }
}
