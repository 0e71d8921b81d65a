/* pass_merge.c: takes fused groups, gives their I-J loops: consecutive nests of a group that
 * compute the same K range share one loop when every field both touch, and one writes, is
 * touched only at the current point (offset 0 on every axis), so each point sees what it
 * would unfused. Their I and J ranges may differ where their bounds count from the same base
 * (both from 0, or both from nx or ny) and the later nest reads what the loop writes: the loop
 * then runs the union of the points, every nest unguarded on the points all of them compute
 * and guarded by its own range elsewhere (emit_fused.c). Such a merge is taken only for a
 * value handed over at the point (which may then be a scalar, pass_shrink), so that it does
 * not take the place of a better one: the chain's diffuse, whose rows differ from the y
 * fluxes', stays with the update that reads it. */
#include "opt.h"

/* The same K range, and I and J bounds of the same bases (so their union and intersection
 * are bounds too). */
static bool same_bases(SBox *a, SBox *b) {
    if (!fpo_dbound_eq(a->lo[2], b->lo[2]) || !fpo_dbound_eq(a->hi[2], b->hi[2]))
        return false;
    for (int d = 0; d < 2; d++)
        if (a->lo[d].base != b->lo[d].base || a->hi[d].base != b->hi[d].base)
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
    if (!same_bases(&w->box, &v->box))
        return false;
    for (int i = 0; i < v->nacc; i++) {
        Acc *a = &v->acc[i];
        Acc *b = fpo_unit_acc(w, a->slot);
        if (b && (a->write || b->write) && !(pointwise(a) && pointwise(b)))
            return false;
    }
    return true;
}

/* Whether v reads, at its point, what w writes there. */
static bool hands_over(Unit *w, Unit *v) {
    for (int i = 0; i < v->nacc; i++) {
        Acc *b = fpo_unit_acc(w, v->acc[i].slot);
        if (b && b->write && !v->acc[i].write && pointwise(b) && pointwise(&v->acc[i]))
            return true;
    }
    return false;
}

static bool same_ij(Unit *w, Unit *v) {
    for (int d = 0; d < 2; d++)
        if (!fpo_dbound_eq(w->box.lo[d], v->box.lo[d]) || !fpo_dbound_eq(w->box.hi[d], v->box.hi[d]))
            return false;
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
                bool join = G->fused, same = true, takes = false;
                for (int w = start; join && w < i; w++) {
                    join = mergeable(&b->u[w], &b->u[i]);
                    same &= same_ij(&b->u[w], &b->u[i]);
                    takes |= hands_over(&b->u[w], &b->u[i]);
                }
                join &= same || takes;
                if (!join) {
                    loop++;
                    start = i;
                }
                b->u[i].loop = loop;
            }
        }
    }
}
