/* pass_prefetch.c: takes the final groups (after stream), gives per row pipeline heavy on
 * arithmetic the arrays whose rows it fetches ahead into the level-2 cache (FGroup.fetch):
 * every 3D array the pipeline touches at constant K offsets, except those it streams, with
 * the J and K offsets (from a step's row and level) of the row it touches first. Each step
 * then fetches the rows it will first touch a few steps later (emit_fused.c; how many, open
 * decides: fpo_prefetch_rows), so they come from memory while the rows before them are
 * computed, where the loop first reading each would otherwise wait for them (the hardware's
 * prefetchers keep a pipeline that computes little per line it reads fed, not one that
 * computes much: FPO_HEAVY). */
#include "opt.h"

/* The row of x that pipeline G touches first at a step, as J and K offsets from the step's
 * row and level: the highest row of the highest level any loop touches (loop l runs row
 * r - lag[l] at step r). False when G does not touch x or touches it at a variable level. */
static bool first_row(Sched *s, int b, FGroup *G, int x, int *dj, int *dk) {
    bool any = false;
    int e0, e1;
    fpo_group_users(s, b, G, x, &e0, &e1);   /* the group's nests touching x */
    for (int e = e0; e < e1; e++) {
        Unit *u = &s->blocks[b].u[s->users[x][e].unit];
        Acc *a = fpo_unit_acc(u, x);
        if (!a->kconst)
            return false;
        int j = (int)a->hi[1] - G->lag[u->loop], k = (int)a->hi[2];
        if (!any || j > *dj)
            *dj = j;
        if (!any || k > *dk)
            *dk = k;
        any = true;
    }
    return any;
}

void fpo_pass_prefetch(Sched *s) {
    for (int k = 0; k < s->nblocks; k++) {
        Block *bl = &s->blocks[k];
        for (int g = 0; g < bl->ng; g++) {
            FGroup *G = &bl->g[g];
            /* row pipelines with K outermost (a joined group runs K inside its rows) */
            if (!G->fused || !G->lag || G->join || fpo_group_intensity(s, bl, G) < FPO_HEAVY)
                continue;
            int nx, *xs = fpo_nests_slots(s, bl, G->first, G->count, &nx);
            for (int e = 0; e < nx; e++) {   /* (the slots it touches, in order) */
                int x = xs[e], dj, dk;
                if (s->store[x] != SK_ARRAY || s->slots[x]->ax != AX_IJK ||
                    (G->stream && G->stream[x]) || !first_row(s, k, G, x, &dj, &dk))
                    continue;
                if (!G->fetch)
                    G->fetch = fpo_new(sizeof(Fetch) * (size_t)s->nslots);
                G->fetch[x] = (Fetch){true, dj, dk};
            }
        }
    }
}
