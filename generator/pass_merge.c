/* pass_merge.c: takes fused groups, gives their I-J loops: consecutive nests of a group that
 * compute the same box share one loop when every field both touch, and one writes, is touched
 * only at the current point (offset 0 on every axis), so each point sees what it would unfused. */
#include "opt.h"

static bool same_box(SBox *a, SBox *b) {
    for (int d = 0; d < 3; d++)
        if (!fpo_dbound_eq(a->lo[d], b->lo[d]) || !fpo_dbound_eq(a->hi[d], b->hi[d]))
            return false;
    return true;
}

static bool pointwise(Acc *a) {
    for (int d = 0; d < 3; d++)
        if (a->lo[d] || a->hi[d])
            return false;
    return a->kconst;
}

static bool mergeable(Unit *w, Unit *v) {
    if (!same_box(&w->box, &v->box))
        return false;
    for (int i = 0; i < v->nacc; i++) {
        Acc *a = &v->acc[i];
        Acc *b = fpo_unit_acc(w, a->slot);
        if (b && (a->write || b->write) && !(pointwise(a) && pointwise(b)))
            return false;
    }
    return true;
}

void fpo_pass_merge(Sched *s) {
    for (int k = 0; k < s->nblocks; k++) {
        Block *b = &s->blocks[k];
        for (int g = 0; g < b->ng; g++) {
            FGroup *G = &b->g[g];
            int loop = 0, start = G->first;
            b->u[G->first].loop = 0;
            for (int i = G->first + 1; i < G->first + G->count; i++) {
                bool join = G->fused;
                for (int w = start; join && w < i; w++)
                    join = mergeable(&b->u[w], &b->u[i]);
                if (!join) {
                    loop++;
                    start = i;
                }
                b->u[i].loop = loop;
            }
        }
    }
}
