/* pass_prefetch.c: takes the final groups (after stream), gives per row pipeline heavy on
 * arithmetic the arrays whose rows it fetches ahead into the level-2 cache (FGroup.fetch):
 * every 3D array the pipeline touches at constant K offsets, except those it streams, with
 * the J and K offsets (from a step's row and level) of the row it touches first. Each step
 * then fetches the rows it will first touch a few steps later (emit_fused.c; how many, open
 * decides: fpo_prefetch_rows), so they come from memory while the rows before them are
 * computed, where the loop first reading each would otherwise wait for them (the hardware's
 * prefetchers keep a pipeline that computes little per line it reads fed, not one that
 * computes much: FETCH_OPS). */
#include "opt.h"

#include <limits.h>

/* Operations a point a pipeline computes per array it reads from memory, at least, for the
 * fetches to pay: the chain of tests/bench computes 6 (4 arrays) and ran 4-8 % slower with
 * them, the example model's transport step 160 (6 arrays) and ran 5-12 % faster. */
enum { FETCH_OPS = 32 };

/* The row of x that pipeline G touches first at a step, as J and K offsets from the step's
 * row and level: the highest row of the highest level any loop touches (loop l runs row
 * r - lag[l] at step r). False when G does not touch x or touches it at a variable level. */
static bool first_row(Block *bl, FGroup *G, int x, int *dj, int *dk) {
    bool any = false;
    for (int i = G->first; i < G->first + G->count; i++) {
        Acc *a = fpo_unit_acc(&bl->u[i], x);
        if (!a)
            continue;
        if (!a->kconst)
            return false;
        int j = (int)a->hi[1] - G->lag[bl->u[i].loop], k = (int)a->hi[2];
        if (!any || j > *dj)
            *dj = j;
        if (!any || k > *dk)
            *dk = k;
        any = true;
    }
    return any;
}

/* Operations at a point of statements n and what follows them: each operator, conditional and
 * builtin call one, a function call its body's. */
static int ops(Node *n) {
    int c = 0;
    for (; n; n = n->next) {
        c += n->kind == ND_BINARY || n->kind == ND_UNARY || n->kind == ND_COND ||
             (n->kind == ND_CALL && n->builtin);
        if (n->kind == ND_CALL && !n->builtin && n->decl)
            c += ops(n->decl->body);
        c += ops(n->lhs) + ops(n->rhs) + ops(n->cond) + ops(n->then) + ops(n->els) +
             ops(n->body) + ops(n->args);
    }
    return c;
}

/* Operations at a point of nest u's statements. */
static int unit_ops(Unit *u) {
    Interval *iv = &u->st->comps[u->comp].ivs[u->iv];
    int first = 0, count = 1 << 30;
    if (u->grp >= 0) {
        Group *g = &u->si->groups[u->comp][u->iv][u->grp];
        first = g->first, count = g->count;
    }
    int c = 0, i = 0;
    for (Node *n = iv->body; n && i < first + count; n = n->next, i++)
        if (i >= first) {
            Node *after = n->next;
            n->next = NULL;
            c += ops(n);
            n->next = after;
        }
    return c;
}

void fpo_pass_prefetch(Sched *s) {
    for (int k = 0; k < s->nblocks; k++) {
        Block *bl = &s->blocks[k];
        for (int g = 0; g < bl->ng; g++) {
            FGroup *G = &bl->g[g];
            /* row pipelines with K outermost (a joined group runs K inside its rows) */
            if (!G->fused || !G->lag || G->join || (g && bl->g[g - 1].join))
                continue;
            for (int x = 0; x < s->nslots; x++) {
                int dj, dk;
                if (s->store[x] != SK_ARRAY || s->slots[x]->ax != AX_IJK ||
                    (G->stream && G->stream[x]) || !first_row(bl, G, x, &dj, &dk))
                    continue;
                if (!G->fetch) {
                    G->fetch = fpo_new(sizeof(int) * 2 * (size_t)s->nslots);
                    for (int y = 0; y < s->nslots; y++)
                        G->fetch[2 * y] = INT_MIN;
                }
                G->fetch[2 * x] = dj;
                G->fetch[2 * x + 1] = dk;
            }
            /* a pipeline light on arithmetic is kept fed by the hardware's prefetchers */
            int o = 0, nf = 0;
            for (int i = G->first; i < G->first + G->count; i++)
                o += unit_ops(&bl->u[i]);
            for (int x = 0; G->fetch && x < s->nslots; x++)
                nf += G->fetch[2 * x] != INT_MIN;
            if (o < FETCH_OPS * nf)
                G->fetch = NULL;
        }
    }
}
