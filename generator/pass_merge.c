/* pass_merge.c: takes fused groups, gives their I-J loops: consecutive nests of a group that
 * compute the same K range share one loop when every field both touch, and one writes, is
 * touched only at the current point (offset 0 on every axis), so each point sees what it
 * would unfused. Their I and J ranges may differ where their bounds count from the same base
 * (both from 0, or both from nx or ny) and the later nest reads, or writes again, what the
 * loop writes at the point: the loop then runs the union of the points, every nest unguarded
 * on the points all of them compute and guarded by its own range elsewhere (emit_fused.c).
 * Such a merge is taken only for a value handed over at the point (which may then be a
 * scalar, pass_shrink) or overwritten there (the chain's edges_x and edges_y, whose regions
 * set the fluxes at the tile's edges, join the fluxes' loop: no loop, and on the GPU no
 * barrier, of their own), so that it does not take the place of a better one: the chain's
 * diffuse, whose rows differ from the y fluxes', stays with the update that reads it. */
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

/* The loop being built: its first nest, whether every nest has the first one's I and J
 * bounds, and what its nests do to each slot. */
typedef struct Loop {
    Unit *first;
    bool uniform;
    NestRun run;
} Loop;

static bool same_ij(Unit *w, Unit *v) {
    for (int d = 0; d < 2; d++)
        if (!fpo_dbound_eq(w->box.lo[d], v->box.lo[d]) || !fpo_dbound_eq(w->box.hi[d], v->box.hi[d]))
            return false;
    return true;
}

static void loop_start(Loop *L, Unit *u) {
    fpo_run_clear(&L->run);
    L->first = u;
    L->uniform = true;
}

static void loop_add(Loop *L, Unit *u) {
    L->uniform &= same_ij(L->first, u);
    fpo_run_add(&L->run, u);
}

/* Whether v may share the loop with every nest in it: the same bases (an equivalence, so the
 * first nest stands for all), and no slot one writes that the other touches off its point. */
static bool mergeable(Loop *L, Unit *v) {
    return same_bases(&L->first->box, &v->box) && !fpo_run_conflicts(&L->run, v);
}

/* Whether v reads, or writes again, at its point what a nest of the loop writes there. */
static bool hands_over(Loop *L, Unit *v) {
    for (int i = 0; i < v->nacc; i++)
        if ((L->run.seen[v->acc[i].slot] & NR_WRITTEN_OK) && pointwise(&v->acc[i]))
            return true;
    return false;
}

void fpo_pass_merge(Sched *s) {
    Loop L = {NULL, true, fpo_run_new(s, pointwise)};
    for (int k = 0; k < s->nblocks; k++) {
        Block *b = &s->blocks[k];
        for (int g = 0; g < b->ng; g++) {
            FGroup *G = &b->g[g];
            int loop = 0;
            b->u[G->first].loop = 0;
            loop_start(&L, &b->u[G->first]);
            loop_add(&L, &b->u[G->first]);
            for (int i = G->first + 1; i < G->first + G->count; i++) {
                Unit *v = &b->u[i];
                bool join = G->fused && mergeable(&L, v) &&
                            ((L.uniform && same_ij(L.first, v)) || hands_over(&L, v));
                if (!join) {
                    loop++;
                    loop_start(&L, v);
                }
                loop_add(&L, v);
                v->loop = loop;
            }
        }
    }
}
