/* pass_kcache.c: takes column groups (pass_column) and their strips (pass_shrink), gives
 * K-caches: a PARALLEL nest right after a FORWARD or BACKWARD sweep that reads what the sweep
 * (and the nests already inside it) write only at its own level runs inside the sweep's K
 * loops, level by level (FGroup.host); then a strip touched only by the sweep and the nests
 * inside it, every level read having been written fewer than R levels before in the order the
 * loops run, becomes a ring of the last R levels of its rows (Sched.kring: 2, 4 or 8), a few
 * KB that stay in L1, instead of its rows of every level. */
#include "opt.h"


enum { KRING_MAX = 8, NZ_CHECK = 64 };   /* bounds are 0 or nz plus small offsets: what
                                          * holds for every nz up to 64 holds above */

static bool backward(Unit *u) {
    return !u->par && u->st->comps[u->comp].order == ORD_BACKWARD;
}

static bool at_level(Acc *a) {
    return a->kconst && !a->lo[2] && !a->hi[2];
}

/* Whether, for every nz, each level of unit p's K range lies in exactly one of the K ranges
 * of units [a, b): p can run inside their loops, once per level. */
static bool covers_at_every_nz(Block *bl, int a, int b, Unit *p) {
    for (int64_t nz = 1; nz <= NZ_CHECK; nz++) {
        int64_t pb = fpo_dbound_at(p->box.lo[2], nz), pe = fpo_dbound_at(p->box.hi[2], nz);
        for (int64_t k = pb; k < pe; k++) {
            int n = 0;
            for (int i = a; i < b; i++)
                n += k >= fpo_dbound_at(bl->u[i].box.lo[2], nz) &&
                     k < fpo_dbound_at(bl->u[i].box.hi[2], nz);
            if (n != 1)
                return false;
        }
    }
    return true;
}

static bool covers(Block *bl, int a, int b, Unit *p, FpoMemo *memo) {
    fpo_memo_start(memo, "covers ");
    for (int i = a; i <= b; i++)
        fpo_memo_nest(memo, i < b ? &bl->u[i] : p, NULL);
    int known = fpo_memo_get(memo);
    if (known >= 0)
        return known;
    return fpo_memo_put(memo, covers_at_every_nz(bl, a, b, p));
}

/* What a sweep's nests [a, b) and the nests [b, p) already inside it do to each slot, as two
 * NestRuns: the sweep's "not ok" accesses write at a K offset, the inner nests' read (inner
 * nests never write at an offset: mergeable refuses them). */
static bool not_woff(Acc *a) { return !(a->write && a->woff); }
static bool not_read(Acc *a) { return !a->read; }

/* Whether unit p (PARALLEL) may run inside the sweep of units [a, b), after the nests [b, p)
 * already inside it: it reads what they write only at the current level, writes nothing they
 * touch, and each level of its K range falls in one of the sweep's loops. */
static bool mergeable(Block *bl, int a, int b, int p, const NestRun *sweep, const NestRun *in,
                      FpoMemo *memo) {
    Unit *P = &bl->u[p];
    if (!P->par)
        return false;
    for (int n = 0; n < P->nacc; n++) {
        Acc *A = &P->acc[n];
        unsigned sw = sweep->seen[A->slot], iw = in->seen[A->slot];
        if (A->write && (A->woff || (A->read && !at_level(A))))
            return false;
        if (A->write && ((sw & NR_TOUCHED) || (iw & NR_NOT_OK)))
            return false;   /* the nests before would see its values too early */
        if (((sw | iw) & NR_WRITTEN) && ((sw & NR_WRITTEN_NOT_OK) || !at_level(A)))
            return false;   /* it may read a level not yet computed */
    }
    return covers(bl, a, b, P, memo);
}

/* A nest at level k on a ring of R levels of a slot (ring[r]: the level held at r), x its
 * access to the slot (NULL: none): every level it reads (before and after its plain write, as
 * pass_shrink counts them) is the last one written to its place. False when one is not. */
static bool ring_step(Acc *x, int64_t k, int R, int64_t *ring) {
    if (!x)
        return true;
    if (x->write && (!x->wplain || x->woff))
        return false;
    for (int late = 0; late < 2; late++) {
        if (late && x->wplain)
            ring[k & (R - 1)] = k;
        bool on = late ? x->late : x->early;
        int64_t *rk = late ? x->lk : x->ek;
        for (int64_t dk = rk[0]; on && dk <= rk[1]; dk++)
            if (ring[(k + dk) & (R - 1)] != k + dk)
                return false;
    }
    return true;
}

/* The nests a ring is checked over: the sweep's [a, b) and, inside it, those of [b, c) that
 * touch the slot (n_in of them), each with its access to the slot and, at the nz being
 * checked, its K range. */
typedef struct Ring {
    Block *bl;
    int a, b, n_in;
    int *in;
    Acc **acc, **in_acc;
    int64_t *lo, *hi;
} Ring;

/* Whether, at this nz, the slot can be a ring of R levels: the sweep's units run their K
 * loops in order, the nests inside them at each level of their own ranges (the others leave
 * the ring as it is). */
static bool ring_holds(Ring *g, int64_t nz, int R) {
    int64_t ring[KRING_MAX];
    for (int r = 0; r < R; r++)
        ring[r] = INT64_MIN;
    for (int m = 0; m < g->n_in; m++) {
        Unit *u = &g->bl->u[g->in[m]];
        g->lo[m] = fpo_dbound_at(u->box.lo[2], nz);
        g->hi[m] = fpo_dbound_at(u->box.hi[2], nz);
    }
    for (int i = g->a; i < g->b; i++) {
        Unit *s = &g->bl->u[i];
        Acc *x = g->acc[i - g->a];
        int64_t kb = fpo_dbound_at(s->box.lo[2], nz), ke = fpo_dbound_at(s->box.hi[2], nz);
        for (int64_t n = 0; n < ke - kb; n++) {
            int64_t k = backward(s) ? ke - 1 - n : kb + n;
            if (!ring_step(x, k, R, ring))
                return false;
            for (int m = 0; m < g->n_in; m++)
                if (k >= g->lo[m] && k < g->hi[m] && !ring_step(g->in_acc[m], k, R, ring))
                    return false;
        }
    }
    return true;
}

/* The ring size of `slot` touched only within the sweep [a, b) and the nests [b, c) inside
 * it, or 0. */
static int ring_levels(Sched *s, Block *bl, int a, int b, int c, int slot, FpoMemo *memo) {
    if (s->store[slot] != SK_STRIP || s->ring[slot])
        return 0;
    Ring g = {bl, a, b, 0, NULL, NULL, NULL, NULL, NULL};
    for (int e = 0; e < s->nusers[slot]; e++) {   /* the nests touching it */
        int i = s->users[slot][e].unit;
        if (&s->blocks[s->users[slot][e].block] != bl || i < a || i >= c)
            return 0;
        if (i >= b)
            VPUSH(g.in, g.n_in, i);
    }
    g.acc = fpo_new(sizeof(Acc *) * (size_t)(b - a));
    for (int i = a; i < b; i++)
        g.acc[i - a] = fpo_unit_acc(&bl->u[i], slot);
    g.in_acc = fpo_new(sizeof(Acc *) * (size_t)g.n_in + 1);
    g.lo = fpo_new(sizeof(int64_t) * (size_t)g.n_in + 1);
    g.hi = fpo_new(sizeof(int64_t) * (size_t)g.n_in + 1);
    for (int m = 0; m < g.n_in; m++)
        g.in_acc[m] = fpo_unit_acc(&bl->u[g.in[m]], slot);
    fpo_memo_start(memo, "ring ");
    for (int i = a; i < b; i++)
        fpo_memo_nest(memo, &bl->u[i], g.acc[i - a]);
    buf_add(&memo->key, "in ");
    for (int m = 0; m < g.n_in; m++)
        fpo_memo_nest(memo, &bl->u[g.in[m]], g.in_acc[m]);
    int known = fpo_memo_get(memo);
    if (known >= 0)
        return known;
    for (int R = 2; R <= KRING_MAX; R *= 2) {
        bool ok = true;
        for (int64_t nz = 1; nz <= NZ_CHECK && ok; nz++)
            ok = ring_holds(&g, nz, R);
        if (ok)
            return fpo_memo_put(memo, R);
    }
    return fpo_memo_put(memo, 0);
}

void fpo_pass_kcache(Sched *s) {
    FpoMemo memo = {0};
    NestRun sweep = fpo_run_new(s, not_woff), in = fpo_run_new(s, not_read);
    for (int k = 0; k < s->nblocks; k++) {
        Block *bl = &s->blocks[k];
        for (int g = 0; g < bl->ng; g++) {
            FGroup *G = &bl->g[g];
            if (!G->column)
                continue;
            int end = G->first + G->count;
            for (int a = G->first; a < end;) {
                if (bl->u[a].par) {
                    a++;
                    continue;
                }
                /* A sweep: the nests of one direction in a row, then the nests inside it. */
                int b = a + 1, c;
                while (b < end && !bl->u[b].par && backward(&bl->u[b]) == backward(&bl->u[a]))
                    b++;
                fpo_run_clear(&sweep);
                fpo_run_clear(&in);
                for (int i = a; i < b; i++)
                    fpo_run_add(&sweep, &bl->u[i]);
                for (c = b; c < end && mergeable(bl, a, b, c, &sweep, &in, &memo); c++) {
                    fpo_run_add(&in, &bl->u[c]);
                    if (!G->host) {
                        G->host = fpo_new(sizeof(int) * (size_t)G->count);
                        for (int i = 0; i < G->count; i++)
                            G->host[i] = -1;
                    }
                    G->host[c - G->first] = a - G->first;
                }
                /* (a strip none of them touches has users elsewhere: no ring) */
                int nx, *xs = fpo_nests_slots(s, bl, a, c - a, &nx);
                for (int e = 0; e < nx; e++)
                    if (xs[e] >= s->nfparams && !s->kring[xs[e]])
                        s->kring[xs[e]] = ring_levels(s, bl, a, b, c, xs[e], &memo);
                a = c;
            }
        }
    }
    for (int x = s->nfparams; x < s->nslots; x++)
        if (s->kring[x])
            s->strip_nz[x] = 1;   /* a ring at every nz: no array below some nz */
}
