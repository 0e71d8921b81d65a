/* pass_rows.c: takes fused groups, their I-J loops and the planes (pass_shrink), gives each
 * group of several loops a row pipeline: per level, one loop over rows in which I-J loop l
 * runs the row lag[l] behind the first, the lags set by the J offsets at which a later loop
 * touches what an earlier one writes (or writes what it reads); and each plane of such a group
 * a ring of the rows in flight (a power of two, j masked), so a level's temporaries stay in
 * the first-level cache instead of streaming whole planes between loops. */
#include "opt.h"


/* `rows[x]`: the rows plane x needs as a ring in the groups so far; -1: the whole plane (a
 * group without a pipeline uses it, or too many rows are in flight). */
static void pipeline(Sched *s, Block *b, FGroup *G, int *rows) {
    int nloops = b->u[G->first + G->count - 1].loop + 1;
    if (!G->fused)
        return;
    if (nloops < 2) {   /* planes of a group without a pipeline stay whole */
        for (int x = s->nfparams; x < s->nslots; x++)
            if (s->store[x] == SK_PLANE && fpo_loop_touch(b, G, 0, x).any)
                rows[x] = -1;
        return;
    }
    int *lag = fpo_new(sizeof(int) * (size_t)nloops);
    /* Row r of loop l runs at step r + lag[l]. Loop b after loop a: where a writes what b
     * reads at J offset up to hi, b's row r needs a's row r + hi done (lag[b] >= lag[a] + hi);
     * where b writes what a reads at offsets down to lo, a's last read of a row comes first
     * (lag[b] >= lag[a] - lo). */
    for (int l = 1; l < nloops; l++)
        for (int a = 0; a < l; a++)
            for (int x = 0; x < s->nslots; x++) {
                FTouch ta = fpo_loop_touch(b, G, a, x), tb = fpo_loop_touch(b, G, l, x);
                if (!ta.any || !tb.any)
                    continue;
                if (ta.write && lag[l] < lag[a] + tb.jhi)
                    lag[l] = (int)(lag[a] + tb.jhi);
                if (tb.write && lag[l] < lag[a] - ta.jlo)
                    lag[l] = (int)(lag[a] - ta.jlo);
            }
    G->lag = lag;
    for (int x = s->nfparams; x < s->nslots; x++) {
        if (s->store[x] != SK_PLANE)
            continue;
        bool here = false;
        for (int l = 0; l < nloops; l++)
            here |= fpo_loop_touch(b, G, l, x).any;
        if (!here || rows[x] < 0)
            continue;
        /* its ring (fpo_ring_need); a stencil's temporary may be a plane of several groups */
        int r = fpo_ring_rows(fpo_ring_need(b, G, lag, x, -1));
        rows[x] = r > FPO_RING_MAX ? -1 : r > rows[x] ? r : rows[x];
    }
}

void fpo_pass_rows(Sched *s) {
    int *rows = fpo_new(sizeof(int) * (size_t)(s->nslots + 1));
    for (int k = 0; k < s->nblocks; k++)
        for (int g = 0; g < s->blocks[k].ng; g++)
            pipeline(s, &s->blocks[k], &s->blocks[k].g[g], rows);
    for (int x = s->nfparams; x < s->nslots; x++)
        s->ring[x] = rows[x] > 0 ? rows[x] : 0;
}
