/* pass_join.c: takes the row pipelines (pass_rows), gives joined groups; off unless asked for
 * (--enable-pass join): a fused group followed by a column group that reads what it writes,
 * where the fused group writes only its own temporaries (planes, scalars, and arrays the
 * column group alone reads, at I and J offset 0, all written before read in the same run) and
 * touches nothing the column group writes, runs with it rows outermost: each thread takes its
 * share of the column group's rows; per row step, every level of the pipeline, then the
 * column group's row lagc behind. Each thread recomputes the rows of the fused group its first
 * rows need (nlo, nhi: rows below and above its share); the temporaries between the two and
 * the planes whose rows live over several steps become rings of rows of every level (strips
 * with `ring` rows), so no array is left between them. */
#include "opt.h"

/* How the column group C touches `slot` (all its nests). */
typedef struct CTouch {
    bool any, read, write, ij;   /* ij: at an I or J offset somewhere */
} CTouch;

/* That, for C of block k. */
static CTouch ctouch(Sched *s, int k, FGroup *C, int slot) {
    CTouch t = {0};
    int e0, e1;
    fpo_group_users(s, k, C, slot, &e0, &e1);
    for (int e = e0; e < e1; e++) {
        Acc *a = fpo_unit_acc(&s->blocks[k].u[s->users[slot][e].unit], slot);
        for (int d = 0; d < 2; d++)
            t.ij |= a->lo[d] || a->hi[d];
        t.any = true;
        t.read |= a->read;
        t.write |= a->write;
    }
    return t;
}

/* The touch of `slot` by each I-J loop of fused group G (of block k) that touches it, in loop
 * order: loops[0..n) and their touches (the union of the loop's nests'). */
typedef struct LoopTouches {
    int *loop;
    FTouch *t;
    int n;
} LoopTouches;

static LoopTouches loop_touches(Sched *s, int k, FGroup *G, int slot) {
    LoopTouches lt = {NULL, NULL, 0};
    int e0, e1;
    fpo_group_users(s, k, G, slot, &e0, &e1);
    for (int e = e0; e < e1; e++) {
        Unit *u = &s->blocks[k].u[s->users[slot][e].unit];
        if (!lt.n || lt.loop[lt.n - 1] != u->loop) {
            int n = lt.n;
            VPUSH(lt.loop, n, u->loop);
            VPUSH(lt.t, lt.n, ((FTouch){0}));
        }
        fpo_touch_add(&lt.t[lt.n - 1], fpo_unit_acc(u, slot));
    }
    return lt;
}

/* Whether the column group C reads of temporary x only what one plain write of the fused group
 * G gives in the same run: one nest of G touches x, writing it with `x = e` at the current
 * point; every read in C is inside its I-J box and, for every nz from 1 to 64 (bounds are 0 or
 * nz plus small offsets: what holds at 64 holds above), inside its levels. */
static bool link_ok(Sched *s, Block *b, FGroup *G, FGroup *C, int x) {
    int k = (int)(b - s->blocks), e0, e1;
    Unit *w = NULL;
    fpo_group_users(s, k, G, x, &e0, &e1);
    for (int e = e0; e < e1; e++) {
        Acc *a = fpo_unit_acc(&b->u[s->users[x][e].unit], x);
        if (w || !a->plain_first || !a->kconst || a->ij_only)
            return false;
        for (int d = 0; d < 3; d++)
            if (a->lo[d] || a->hi[d])
                return false;
        w = &b->u[s->users[x][e].unit];
    }
    if (!w)
        return false;
    fpo_group_users(s, k, C, x, &e0, &e1);
    for (int e = e0; e < e1; e++) {
        Unit *u = &b->u[s->users[x][e].unit];
        Acc *a = fpo_unit_acc(u, x);
        if (!a->kconst || a->lo[2] < -FPO_RING_MAX || a->hi[2] > FPO_RING_MAX)
            return false;
        SBox r = fpo_unit_points(u);
        for (int d = 0; d < 2; d++)
            if (!fpo_dbound_inside(r.lo[d], r.hi[d], w->box.lo[d], w->box.hi[d]))
                return false;
        for (int64_t nz = 1; nz <= 64; nz++) {
            int64_t kb = fpo_dbound_at(r.lo[2], nz), ke = fpo_dbound_at(r.hi[2], nz);
            if (kb >= ke)
                continue;
            if (kb + a->lo[2] < fpo_dbound_at(w->box.lo[2], nz) || ke + a->hi[2] > fpo_dbound_at(w->box.hi[2], nz))
                return false;
        }
    }
    return true;
}

/* Whether `slot` is touched anywhere but groups g and g + 1 of block b (other blocks too). */
static bool used_elsewhere(Sched *s, Block *b, int g, int slot) {
    int k = (int)(b - s->blocks);
    FGroup *G = &b->g[g], *C = &b->g[g + 1];
    for (int e = 0; e < s->nusers[slot]; e++) {
        UnitRef r = s->users[slot][e];
        bool in_g = r.unit >= G->first && r.unit < G->first + G->count;
        bool in_c = r.unit >= C->first && r.unit < C->first + C->count;
        if (r.block != k || !(in_g || in_c))
            return true;
    }
    return false;
}

/* Per slot, for the join being tried: a link (a temporary the column group reads of the fused
 * group) and its ring's rows; both zero again after each try. */
typedef struct Join {
    bool *link;
    int *rows;
} Join;

static bool try_join(Sched *s, Block *b, int g, Join *J, const int *xs, int nx) {
    FGroup *G = &b->g[g], *C = &b->g[g + 1];
    int k = (int)(b - s->blocks);
    int nloops = b->u[G->first + G->count - 1].loop + 1;
    int *lag = G->lag ? G->lag : fpo_new(sizeof(int) * (size_t)nloops);
    bool *link = J->link;
    int lagc = -1;
    for (int e = 0; e < nx; e++) {   /* the slots either group touches; no other can link */
        int x = xs[e];
        CTouch tc = ctouch(s, k, C, x);
        LoopTouches lt = loop_touches(s, k, G, x);
        bool w = false, t = lt.n > 0;
        for (int m = 0; m < lt.n; m++) {
            w |= lt.t[m].write;
            if (lt.t[m].write && tc.read && lag[lt.loop[m]] > lagc)
                lagc = lag[lt.loop[m]];
        }
        if (tc.write && t)
            return false;   /* the fused group touches what the column group writes */
        if (!w)
            continue;
        if (x < s->nfparams)
            return false;   /* writes a field */
        if ((s->store[x] == SK_PLANE || s->store[x] == SK_SCALAR) && s->covered[x])
            continue;
        if (s->store[x] != SK_ARRAY || !tc.any || tc.write || tc.ij ||
            used_elsewhere(s, b, g, x) || !link_ok(s, b, G, C, x))
            return false;   /* a temporary not all its own */
        link[x] = true;
    }
    if (lagc < 0)
        return false;   /* the column group reads nothing of the fused group */
    /* Rows each loop computes for a thread's share [c0, c1) of the column group's rows:
     * [c0 + nlo, c1 + nhi), from the rows its later readers need (the column group: its own).
     * Loops from the last: a loop's rows follow from those of the later loops reading what it
     * writes, so each slot it writes is looked at with the touches of the loops after it. */
    int *nlo = fpo_new(sizeof(int) * (size_t)nloops), *nhi = fpo_new(sizeof(int) * (size_t)nloops);
    bool *need = fpo_new(sizeof(bool) * (size_t)nloops);
    LoopTouches *lts = fpo_new(sizeof(LoopTouches) * (size_t)(nx + 1));
    int **written = fpo_new(sizeof(int *) * (size_t)nloops), *nwritten = fpo_new(sizeof(int) * (size_t)nloops);
    for (int e = 0; e < nx; e++) {
        lts[e] = loop_touches(s, k, G, xs[e]);
        for (int m = 0; m < lts[e].n; m++)
            if (lts[e].t[m].write)
                VPUSH(written[lts[e].loop[m]], nwritten[lts[e].loop[m]], e);
    }
    for (int l = nloops - 1; l >= 0; l--)
        for (int i = 0; i < nwritten[l]; i++) {
            int e = written[l][i];
            if (ctouch(s, k, C, xs[e]).any) {
                nlo[l] = need[l] && nlo[l] < 0 ? nlo[l] : 0;
                nhi[l] = need[l] && nhi[l] > 0 ? nhi[l] : 0;
                need[l] = true;
            }
            for (int m = 0; m < lts[e].n; m++) {
                FTouch tm = lts[e].t[m];
                int lm = lts[e].loop[m];
                if (lm <= l || !need[lm])
                    continue;
                int lo = (int)(nlo[lm] + tm.jlo), hi = (int)(nhi[lm] + tm.jhi);
                nlo[l] = need[l] && nlo[l] < lo ? nlo[l] : lo;
                nhi[l] = need[l] && nhi[l] > hi ? nhi[l] : hi;
                need[l] = true;
            }
        }
    /* Rings of every level (fpo_ring_need; a link is read by the column group at lag lagc). */
    int *rows = J->rows;
    for (int e = 0; e < nx; e++) {
        int x = xs[e];
        if (x < s->nfparams || (s->store[x] != SK_PLANE && !link[x]))
            continue;
        rows[x] = fpo_ring_rows(fpo_ring_need(s, b, G, lag, x, link[x] ? lagc : -1));
        if (rows[x] > FPO_RING_MAX)
            return false;
        /* one row (written and read in one step and level) stays a plane, which a ring of
         * one row or more serves; more rows become a ring of every level, which no other
         * group may use (a stencil's temporary may be a plane of several) */
        if (!link[x] && (rows[x] > 1 ? used_elsewhere(s, b, g, x) : !s->ring[x]))
            return false;
    }
    /* Every check passed: join. */
    for (int l = 0; l < nloops; l++)
        if (!need[l])
            nlo[l] = 0, nhi[l] = -1;   /* no row */
    G->lag = lag;
    G->join = true;
    G->lagc = lagc;
    G->nlo = nlo;
    G->nhi = nhi;
    for (int e = 0; e < nx; e++) {
        int x = xs[e];
        if (x >= s->nfparams && (link[x] || rows[x] > 1)) {
            s->store[x] = SK_STRIP;
            s->ring[x] = rows[x];
            s->strip_nz[x] = 1;
        }
    }
    return true;
}

static void join(Sched *s, Block *b, int g, Join *J) {
    FGroup *G = &b->g[g], *C = &b->g[g + 1];
    if (!G->fused || !C->column)
        return;
    int nx, *xs = fpo_nests_slots(s, b, G->first, G->count, &nx);
    int ny, *ys = fpo_nests_slots(s, b, C->first, C->count, &ny);
    int *all = fpo_new(sizeof(int) * (size_t)(nx + ny + 1)), n = 0;
    for (int i = 0, j = 0; i < nx || j < ny;)   /* the union, in slot order */
        all[n++] = j >= ny || (i < nx && xs[i] < ys[j]) ? xs[i++]
                   : i >= nx || ys[j] < xs[i]          ? ys[j++]
                                                       : (j++, xs[i++]);
    try_join(s, b, g, J, all, n);
    for (int e = 0; e < n; e++) {
        J->link[all[e]] = false;
        J->rows[all[e]] = 0;
    }
}

void fpo_pass_join(Sched *s) {
    /* Instrumented builds keep groups apart, so each check sees whole arrays. */
    if (fpo_instrumented(&s->ins))
        return;
    Join J = {fpo_new((size_t)s->nslots + 1), fpo_new(sizeof(int) * ((size_t)s->nslots + 1))};
    for (int k = 0; k < s->nblocks; k++)
        for (int g = 0; g + 1 < s->blocks[k].ng; g++)
            if (!(g && s->blocks[k].g[g - 1].join))
                join(s, &s->blocks[k], g, &J);
}
