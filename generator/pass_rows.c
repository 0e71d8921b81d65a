/* pass_rows.c: takes fused groups, their I-J loops and the planes (pass_shrink), gives each
 * group of several loops a row pipeline: per level, one loop over rows in which I-J loop l
 * runs the row lag[l] behind the first, the lags set by the J offsets at which a later loop
 * touches what an earlier one writes (or writes what it reads); and each plane of such a group
 * a ring of the rows in flight (a power of two, j masked), so a level's temporaries stay in
 * the first-level cache instead of streaming whole planes between loops. */
#include "opt.h"


/* Per slot, while one group is planned: what its loops so far do to it. */
typedef struct Rows {
    int *rows;              /* `rows[x]`: the rows plane x needs as a ring in the groups so
                             * far; -1: the whole plane (a group without a pipeline uses it,
                             * or too many rows are in flight) */
    FTouch *t;              /* the loop being planned: its touch of each slot */
    bool *seen;             /* touched by an earlier loop of the group */
    bool *written;          /* ... and written by one */
    int64_t *w;             /* the latest step an earlier loop writes a row at: max lag */
    int64_t *r;             /* max over earlier loops of lag - jlo (the last step a row is
                             * touched, counting from its write) */
    int64_t *wmin;          /* the least lag of a loop writing it */
    int *slots, nslots;     /* the slots the group touches */
    int *here, nhere;       /* ... the loop being planned touches */
} Rows;

/* The touches of loop units [i, j) of a group, per slot, into R->t and R->here. */
static void loop_touches(Rows *R, Unit *u, int n) {
    R->nhere = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < u[i].nacc; k++) {
            Acc *a = &u[i].acc[k];
            FTouch *t = &R->t[a->slot];
            if (!t->any) {
                VPUSH(R->here, R->nhere, a->slot);
                *t = (FTouch){true, false, a->lo[1], a->hi[1]};
            }
            t->jlo = a->lo[1] < t->jlo ? a->lo[1] : t->jlo;
            t->jhi = a->hi[1] > t->jhi ? a->hi[1] : t->jhi;
            t->write |= a->write;
        }
}

static void pipeline(Sched *s, Block *b, FGroup *G, Rows *R) {
    int nloops = b->u[G->first + G->count - 1].loop + 1;
    if (!G->fused)
        return;
    if (nloops < 2) {   /* planes of a group without a pipeline stay whole */
        for (int i = G->first; i < G->first + G->count; i++)
            for (int k = 0; k < b->u[i].nacc; k++)
                if (s->store[b->u[i].acc[k].slot] == SK_PLANE)
                    R->rows[b->u[i].acc[k].slot] = -1;
        return;
    }
    int *lag = fpo_new(sizeof(int) * (size_t)nloops);
    /* Row r of loop l runs at step r + lag[l]. Loop b after loop a: where a writes what b
     * reads at J offset up to hi, b's row r needs a's row r + hi done (lag[b] >= lag[a] + hi);
     * where b writes what a reads at offsets down to lo, a's last read of a row comes first
     * (lag[b] >= lag[a] - lo). The earlier loops are summed up per slot (R->w, R->r): a
     * loop's lag is the largest their bounds ask. Loops are consecutive units (pass_merge). */
    R->nslots = 0;
    for (int i = G->first, l = 0; l < nloops; l++) {
        int j = i;
        while (j < G->first + G->count && b->u[j].loop == l)
            j++;
        loop_touches(R, &b->u[i], j - i);
        for (int h = 0; h < R->nhere; h++) {
            int x = R->here[h];
            FTouch tb = R->t[x];
            if (R->written[x] && lag[l] < R->w[x] + tb.jhi)
                lag[l] = (int)(R->w[x] + tb.jhi);
            if (tb.write && R->seen[x] && lag[l] < R->r[x])
                lag[l] = (int)R->r[x];
        }
        for (int h = 0; h < R->nhere; h++) {
            int x = R->here[h];
            FTouch tb = R->t[x];
            if (!R->seen[x]) {
                VPUSH(R->slots, R->nslots, x);
                R->seen[x] = true;
                R->r[x] = lag[l] - tb.jlo;
            } else if (lag[l] - tb.jlo > R->r[x])
                R->r[x] = lag[l] - tb.jlo;
            if (tb.write) {
                if (!R->written[x] || lag[l] > R->w[x])
                    R->w[x] = lag[l];
                if (!R->written[x] || lag[l] < R->wmin[x])
                    R->wmin[x] = lag[l];
                R->written[x] = true;
            }
            R->t[x] = (FTouch){0};
        }
        i = j;
    }
    G->lag = lag;
    for (int k = 0; k < R->nslots; k++) {
        int x = R->slots[k];
        if (x >= s->nfparams && s->store[x] == SK_PLANE && R->rows[x] >= 0) {
            /* its ring (as fpo_ring_need): written at step r + lag[w], touched last at step
             * r - jlo + lag[t]; a stencil's temporary may be a plane of several groups */
            int64_t need = R->written[x] && R->r[x] - R->wmin[x] + 1 > 1 ? R->r[x] - R->wmin[x] + 1
                                                                          : 1;
            int r = fpo_ring_rows(need);
            R->rows[x] = r > FPO_RING_MAX ? -1 : r > R->rows[x] ? r : R->rows[x];
        }
        R->seen[x] = R->written[x] = false;
    }
}

void fpo_pass_rows(Sched *s) {
    size_t n = (size_t)s->nslots + 1;
    Rows R = {fpo_new(sizeof(int) * n), fpo_new(sizeof(FTouch) * n), fpo_new(n), fpo_new(n),
              fpo_new(sizeof(int64_t) * n), fpo_new(sizeof(int64_t) * n),
              fpo_new(sizeof(int64_t) * n), NULL, 0, NULL, 0};
    for (int k = 0; k < s->nblocks; k++)
        for (int g = 0; g < s->blocks[k].ng; g++)
            pipeline(s, &s->blocks[k], &s->blocks[k].g[g], &R);
    for (int x = s->nfparams; x < s->nslots; x++)
        s->ring[x] = R.rows[x] > 0 ? R.rows[x] : 0;
}
