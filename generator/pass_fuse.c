/* pass_fuse.c: takes the schedule, gives fused groups: consecutive PARALLEL loop nests of one
 * block run with K outermost (level by level) when every field two of them share, and one of
 * them writes, is 3D and touched only at K offset 0 by both (so only same-level values flow). */
#include "opt.h"

static bool level_local(Acc *a) { return a->kconst && !a->ij_only && !a->lo[2] && !a->hi[2]; }

/* Can `v` run level by level after `w`? */
static bool fusable(Unit *w, Unit *v) {
    for (int i = 0; i < v->nacc; i++) {
        Acc *a = &v->acc[i];
        Acc *b = fpo_unit_acc(w, a->slot);
        if (b && (a->write || b->write) && !(level_local(a) && level_local(b)))
            return false;
    }
    return true;
}

void fpo_pass_fuse(Sched *s) {
    for (int k = 0; k < s->nblocks; k++) {
        Block *b = &s->blocks[k];
        FGroup *g = NULL;
        int ng = 0;
        for (int i = 0; i < b->nu; i++) {
            Unit *v = &b->u[i];
            FGroup *last = ng ? &g[ng - 1] : NULL;
            bool join = last && last->fused && v->par;
            for (int w = 0; join && w < last->count; w++)
                join = fusable(&b->u[last->first + w], v);
            if (join) {
                v->loop = last->count++;   /* its own I-J loop until pass_merge */
                continue;
            }
            FGroup n = {.first = i, .count = 1, .fused = v->par};
            VPUSH(g, ng, n);
        }
        b->g = g;
        b->ng = ng;
    }
}
