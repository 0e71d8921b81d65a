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

static CTouch ctouch(Block *b, FGroup *C, int slot) {
    CTouch t = {0};
    for (int i = C->first; i < C->first + C->count; i++) {
        Acc *a = fpo_unit_acc(&b->u[i], slot);
        if (!a)
            continue;
        for (int d = 0; d < 2; d++)
            t.ij |= a->lo[d] || a->hi[d];
        t.any = true;
        t.read |= a->read;
        t.write |= a->write;
    }
    return t;
}


/* Whether the column group C reads of temporary x only what one plain write of the fused group
 * G gives in the same run: one nest of G touches x, writing it with `x = e` at the current
 * point; every read in C is inside its I-J box and, for every nz from 1 to 64 (bounds are 0 or
 * nz plus small offsets: what holds at 64 holds above), inside its levels. */
static bool link_ok(Block *b, FGroup *G, FGroup *C, int x) {
    Unit *w = NULL;
    for (int i = G->first; i < G->first + G->count; i++) {
        Acc *a = fpo_unit_acc(&b->u[i], x);
        if (!a)
            continue;
        if (w || !a->plain_first || !a->kconst || a->ij_only)
            return false;
        for (int d = 0; d < 3; d++)
            if (a->lo[d] || a->hi[d])
                return false;
        w = &b->u[i];
    }
    if (!w)
        return false;
    for (int i = C->first; i < C->first + C->count; i++) {
        Unit *u = &b->u[i];
        Acc *a = fpo_unit_acc(u, x);
        if (!a)
            continue;
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
    for (int k = 0; k < s->nblocks; k++)
        for (int h = 0; h < s->blocks[k].ng; h++)
            if (&s->blocks[k] != b || (h != g && h != g + 1))
                for (int i = s->blocks[k].g[h].first;
                     i < s->blocks[k].g[h].first + s->blocks[k].g[h].count; i++)
                    if (fpo_unit_acc(&s->blocks[k].u[i], slot))
                        return true;
    return false;
}

static void join(Sched *s, Block *b, int g) {
    FGroup *G = &b->g[g], *C = &b->g[g + 1];
    if (!G->fused || !C->column)
        return;
    int nloops = b->u[G->first + G->count - 1].loop + 1;
    int *lag = G->lag ? G->lag : fpo_new(sizeof(int) * (size_t)nloops);
    bool *link = fpo_new(sizeof(bool) * (size_t)(s->nslots + 1));
    int lagc = -1;
    for (int x = 0; x < s->nslots; x++) {
        CTouch tc = ctouch(b, C, x);
        bool w = false, t = false;
        for (int l = 0; l < nloops; l++) {
            FTouch tl = fpo_loop_touch(b, G, l, x);
            w |= tl.write;
            t |= tl.any;
            if (tl.write && tc.read && lag[l] > lagc)
                lagc = lag[l];
        }
        if (tc.write && t)
            return;   /* the fused group touches what the column group writes */
        if (!w)
            continue;
        if (x < s->nfparams)
            return;   /* writes a field */
        if ((s->store[x] == SK_PLANE || s->store[x] == SK_SCALAR) && s->covered[x])
            continue;
        if (s->store[x] != SK_ARRAY || !tc.any || tc.write || tc.ij ||
            used_elsewhere(s, b, g, x) || !link_ok(b, G, C, x))
            return;   /* a temporary not all its own */
        link[x] = true;
    }
    if (lagc < 0)
        return;   /* the column group reads nothing of the fused group */
    /* Rows each loop computes for a thread's share [c0, c1) of the column group's rows:
     * [c0 + nlo, c1 + nhi), from the rows its later readers need (the column group: its own). */
    int *nlo = fpo_new(sizeof(int) * (size_t)nloops), *nhi = fpo_new(sizeof(int) * (size_t)nloops);
    bool *need = fpo_new(sizeof(bool) * (size_t)nloops);
    for (int l = nloops - 1; l >= 0; l--)
        for (int x = 0; x < s->nslots; x++) {
            if (!fpo_loop_touch(b, G, l, x).write)
                continue;
            if (ctouch(b, C, x).any) {
                nlo[l] = need[l] && nlo[l] < 0 ? nlo[l] : 0;
                nhi[l] = need[l] && nhi[l] > 0 ? nhi[l] : 0;
                need[l] = true;
            }
            for (int m = l + 1; m < nloops; m++) {
                FTouch tm = fpo_loop_touch(b, G, m, x);
                if (!tm.any || !need[m])
                    continue;
                int lo = (int)(nlo[m] + tm.jlo), hi = (int)(nhi[m] + tm.jhi);
                nlo[l] = need[l] && nlo[l] < lo ? nlo[l] : lo;
                nhi[l] = need[l] && nhi[l] > hi ? nhi[l] : hi;
                need[l] = true;
            }
        }
    /* Rings of every level (fpo_ring_need; a link is read by the column group at lag lagc). */
    int *rows = fpo_new(sizeof(int) * (size_t)(s->nslots + 1));
    for (int x = s->nfparams; x < s->nslots; x++) {
        if (s->store[x] != SK_PLANE && !link[x])
            continue;
        rows[x] = fpo_ring_rows(fpo_ring_need(s, b, G, lag, x, link[x] ? lagc : -1));
        if (rows[x] > FPO_RING_MAX)
            return;
        /* one row (written and read in one step and level) stays a plane, which a ring of
         * one row or more serves; more rows become a ring of every level, which no other
         * group may use (a stencil's temporary may be a plane of several) */
        if (!link[x] && (rows[x] > 1 ? used_elsewhere(s, b, g, x) : !s->ring[x]))
            return;
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
    for (int x = s->nfparams; x < s->nslots; x++)
        if (link[x] || rows[x] > 1) {
            s->store[x] = SK_STRIP;
            s->ring[x] = rows[x];
            s->strip_nz[x] = 1;
        }
}

void fpo_pass_join(Sched *s) {
    /* Instrumented builds keep groups apart, so each check sees whole arrays. */
    if (fpo_instrumented(&s->ins))
        return;
    for (int k = 0; k < s->nblocks; k++)
        for (int g = 0; g + 1 < s->blocks[k].ng; g++)
            if (!(g && s->blocks[k].g[g - 1].join))
                join(s, &s->blocks[k], g);
}
