/* sched.c: takes the flattened IR, gives its unfused schedule: every stencil call cut into the
 * loop nests the unfused form runs (one per statement group of a PARALLEL interval, one per
 * FORWARD / BACKWARD interval), each with the points it computes and the field slots it
 * touches; every temporary a full array. The passes rework this schedule. */
#include "opt.h"

#include <stdint.h>

#include <stdlib.h>
#include <string.h>

int fpo_sched_slot(Sched *s, Var *v) {
    int x = v ? v->sched_slot - 1 : -1;   /* (numbered by fpo_sched_new) */
    return x >= 0 && x < s->nslots && s->slots[x] == v ? x : -1;
}

Acc *fpo_unit_acc(Unit *u, int slot) {
    int lo = 0, hi = u->nacc;   /* binary search of by_slot */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2, x = u->acc[u->by_slot[mid]].slot;
        if (x == slot)
            return &u->acc[u->by_slot[mid]];
        if (x < slot)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

NestRun fpo_run_new(Sched *s, FpoAccOk *ok) {
    return (NestRun){ok, fpo_new((size_t)s->nslots + 1), NULL, 0};
}

void fpo_run_clear(NestRun *r) {
    for (int i = 0; i < r->nslots; i++)
        r->seen[r->slots[i]] = 0;
    r->nslots = 0;
}

void fpo_run_add(NestRun *r, Unit *u) {
    for (int i = 0; i < u->nacc; i++) {
        Acc *a = &u->acc[i];
        unsigned char *m = &r->seen[a->slot];
        if (!*m)
            VPUSH(r->slots, r->nslots, a->slot);
        bool ok = r->ok(a);
        *m |= NR_TOUCHED | (ok ? 0 : NR_NOT_OK);
        if (a->write)
            *m |= NR_WRITTEN | (ok ? NR_WRITTEN_OK : NR_WRITTEN_NOT_OK);
    }
}

bool fpo_run_conflicts(NestRun *r, Unit *v) {
    for (int i = 0; i < v->nacc; i++) {
        Acc *a = &v->acc[i];
        unsigned m = r->seen[a->slot];
        bool ok = r->ok(a);
        if (a->write ? (m & NR_TOUCHED) && (!ok || (m & NR_NOT_OK))
                     : (m & NR_WRITTEN_NOT_OK) || ((m & NR_WRITTEN) && !ok))
            return true;
    }
    return false;
}

int fpo_group_of(Block *b, int unit) {
    int lo = 0, hi = b->ng - 1;   /* the last group starting at or before unit */
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (b->g[mid].first <= unit)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

int fpo_users_after(Sched *s, int slot, int block, int unit) {
    int lo = 0, hi = s->nusers[slot];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        UnitRef r = s->users[slot][mid];
        if (r.block < block || (r.block == block && r.unit <= unit))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int by_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int *fpo_nests_slots(Sched *s, Block *b, int first, int count, int *n) {
    return fpo_units_slots(s, &b->u[first], count, n);
}

int *fpo_units_slots(Sched *s, Unit *u, int count, int *n) {
    int *xs = NULL;
    *n = 0;
    for (int i = 0; i < count; i++)
        for (int a = 0; a < u[i].nacc; a++) {
            int x = u[i].acc[a].slot;
            if (!s->at1[x])
                VPUSH(xs, *n, x);
            s->at1[x] = 1;
        }
    for (int e = 0; e < *n; e++)
        s->at1[xs[e]] = 0;
    if (*n > 1)
        qsort(xs, (size_t)*n, sizeof *xs, by_int);
    return xs;
}

void fpo_group_users(Sched *s, int block, FGroup *G, int slot, int *e0, int *e1) {
    *e0 = *e1 = fpo_users_after(s, slot, block, G->first - 1);
    while (*e1 < s->nusers[slot] && s->users[slot][*e1].block == block &&
           s->users[slot][*e1].unit < G->first + G->count)
        ++*e1;
}

void fpo_memo_start(FpoMemo *m, const char *what) {
    m->key.len = 0;
    buf_add(&m->key, what);
}

void fpo_memo_nest(FpoMemo *m, Unit *u, const Acc *a) {
    bool down = !u->par && u->st->comps[u->comp].order == ORD_BACKWARD;
    buf_printf(&m->key, "%d%+lld %d%+lld %d ", u->box.lo[2].base, (long long)u->box.lo[2].off,
               u->box.hi[2].base, (long long)u->box.hi[2].off, down);
    if (!a)
        buf_add(&m->key, "-;");
    else
        buf_printf(&m->key, "%d%d%d%d%d %lld %lld %lld %lld;", a->write, a->wplain, a->woff,
                   a->early, a->late, (long long)a->ek[0], (long long)a->ek[1],
                   (long long)a->lk[0], (long long)a->lk[1]);
}

int fpo_memo_get(FpoMemo *m) {
    void *v = strmap_get(&m->map, m->key.s);
    return v ? (int)(intptr_t)v - 1 : -1;
}

int fpo_memo_put(FpoMemo *m, int answer) {
    strmap_put(&m->map, fpo_strdup(m->key.s), (void *)(intptr_t)(answer + 1));
    return answer;
}

/* Whether any check is compiled in (then run goes through the inlined schedule, groups apart). */
bool fpo_instrumented(const Instrument *n) {
    return n->nan || n->nnegative || n->trace || n->progress || n->timers || n->bounds;
}

bool fpo_dbound_eq(DBound a, DBound b) { return a.base == b.base && a.off == b.off; }

/* A unit being built: at[slot] is the index of its access to slot, plus 1 (0: none yet). */
typedef struct Scan {
    Sched *s;
    Unit *u;
    int *at;
} Scan;

/* The slot stencil variable v of unit u stands for in its call (-1: a scalar or local). */
int fpo_call_slot(Sched *s, Unit *u, Var *v) {
    int x = fpo_slot(u->st, v);
    if (x >= 0 && x < u->st->nparams)
        return v->ax == AX_SCALAR ? -1 : fpo_sched_slot(s, u->stage->argv[x]->var);
    return fpo_sched_slot(s, v);
}

static Acc *scan_acc(Scan *sc, int slot) {
    return sc->at[slot] ? &sc->u->acc[sc->at[slot] - 1] : NULL;
}

typedef struct SlotAt {
    int slot, i;
} SlotAt;

static int by_slot(const void *a, const void *b) {
    const SlotAt *x = a, *y = b;
    return (x->slot > y->slot) - (x->slot < y->slot);
}

/* The unit is built: clear `at` for the next, and index its accesses by slot. */
static void scan_done(Scan *sc) {
    Unit *u = sc->u;
    SlotAt *t = fpo_new(sizeof(SlotAt) * (size_t)(u->nacc + 1));
    for (int i = 0; i < u->nacc; i++) {
        sc->at[u->acc[i].slot] = 0;
        t[i] = (SlotAt){u->acc[i].slot, i};
    }
    if (u->nacc > 1)
        qsort(t, (size_t)u->nacc, sizeof *t, by_slot);
    u->by_slot = fpo_new(sizeof(int) * (size_t)(u->nacc + 1));
    for (int i = 0; i < u->nacc; i++)
        u->by_slot[i] = t[i].i;
}

static Acc *touch(Scan *sc, Node *a, bool write) {
    int slot = fpo_call_slot(sc->s, sc->u, a->var);
    if (slot < 0)
        return NULL;
    Unit *u = sc->u;
    Acc *x = scan_acc(sc, slot);
    if (!x) {
        Acc n = {.slot = slot, .kconst = true, .ij_only = a->var->ax != AX_IJK};
        for (int d = 0; d < 3; d++)
            n.lo[d] = n.hi[d] = a->off[d];
        VPUSH(u->acc, u->nacc, n);
        x = &u->acc[u->nacc - 1];
        sc->at[slot] = u->nacc;
    }
    if (a->kmode != KM_CONST)
        x->kconst = false;
    for (int d = 0; d < 3; d++) {
        int64_t o = d == 2 && a->kmode != KM_CONST ? 0 : a->off[d];
        if (o < x->lo[d])
            x->lo[d] = o;
        if (o > x->hi[d])
            x->hi[d] = o;
    }
    if (write)
        x->write = true;
    if (write && (a->kmode != KM_CONST || a->off[2]))
        x->woff = true;
    if (!write)
        x->read = true;
    return x;
}

static void scan(Scan *sc, Node *n) {
    for (; n; n = n->next) {
        if (n->kind == ND_ACCESS) {
            touch(sc, n, false);
            scan(sc, n->kexpr);
            continue;
        }
        if (n->kind == ND_ASSIGN) {
            scan(sc, n->rhs);
            scan(sc, n->lhs->kexpr);
            touch(sc, n->lhs, true);
            continue;
        }
        scan(sc, n->lhs);
        scan(sc, n->rhs);
        scan(sc, n->cond);
        scan(sc, n->then);
        scan(sc, n->els);
        scan(sc, n->body);
        scan(sc, n->args);
    }
}

/* Scan top-level statements [first, first + count); note which slots are first touched by a
 * plain `x = e` (unconditional, at offset 0, e not reading x). */
static void scan_stmts(Scan *sc, Node *body, int first, int count) {
    Node *n = body;
    for (int i = 0; i < first; i++)
        n = n->next;
    for (int i = 0; i < count; i++, n = n->next) {
        int before = sc->u->nacc;
        Node *next = n->next;
        n->next = NULL;
        scan(sc, n);
        /* The statement alone: its reads are early or late for each slot. */
        Unit one = *sc->u;
        one.acc = NULL;
        one.nacc = 0;
        Scan s1 = {sc->s, &one, sc->s->at1};
        if (n->kind == ND_ASSIGN) {   /* reads only: the value, the K index, x in `x += e` */
            scan(&s1, n->rhs);
            scan(&s1, n->lhs->kexpr);
            if (strcmp(n->op, "="))
                touch(&s1, n->lhs, false);
        } else {
            scan(&s1, n);
        }
        n->next = next;
        for (int k = 0; k < one.nacc; k++)
            s1.at[one.acc[k].slot] = 0;
        for (int k = 0; k < one.nacc; k++) {
            Acc *x = scan_acc(sc, one.acc[k].slot);
            if (!one.acc[k].read)
                continue;
            bool *seen = x->wplain ? &x->late : &x->early;
            int64_t *r = x->wplain ? x->lk : x->ek;
            if (!*seen || one.acc[k].lo[2] < r[0])
                r[0] = one.acc[k].lo[2];
            if (!*seen || one.acc[k].hi[2] > r[1])
                r[1] = one.acc[k].hi[2];
            *seen = true;
        }
        if (n->kind != ND_ASSIGN || strcmp(n->op, "=") || n->lhs->kmode != KM_CONST ||
            n->lhs->off[0] || n->lhs->off[1] || n->lhs->off[2])
            continue;
        int slot = fpo_call_slot(sc->s, sc->u, n->lhs->var);
        if (slot >= 0)
            scan_acc(sc, slot)->wplain = true;
        for (int k = before; k < sc->u->nacc; k++) {
            Acc *x = &sc->u->acc[k];
            if (x->slot == slot && !x->read)
                x->plain_first = true;
        }
    }
}

static DBound shift(DBound d, int64_t off) { return (DBound){d.base, d.off + off}; }

static void add_unit(Sched *s, Block *b, Node *stage, int stage_no, int comp, int iv, int grp) {
    Decl *st = stage->decl;
    Unit u = {stage, stage_no, st, fpo_extent(st), comp, iv, grp,
              st->comps[comp].order == ORD_PARALLEL, {{{0}}, {{0}}}, NULL, 0, NULL, 0};
    Interval *I = &st->comps[comp].ivs[iv];
    Extent x = {0, 0, 0, 0};
    if (grp >= 0)
        x = u.si->groups[comp][iv][grp].ext;
    Domain *d = &stage->dom;
    u.box.lo[0] = shift(d->lo[0], x.ilo);
    u.box.hi[0] = shift(d->hi[0], x.ihi);
    u.box.lo[1] = shift(d->lo[1], x.jlo);
    u.box.hi[1] = shift(d->hi[1], x.jhi);
    u.box.lo[2] = shift(I->lo.base == B_BOTTOM ? d->lo[2] : d->hi[2], I->lo.off);
    u.box.hi[2] = shift(I->hi.base == B_BOTTOM ? d->lo[2] : d->hi[2], I->hi.off);
    Scan sc = {s, &u, s->at};
    if (grp >= 0) {
        Group *g = &u.si->groups[comp][iv][grp];
        scan_stmts(&sc, I->body, g->first, g->count);
    } else {
        int n = 0;
        for (Node *x2 = I->body; x2; x2 = x2->next)
            n++;
        scan_stmts(&sc, I->body, 0, n);
    }
    scan_done(&sc);
    VPUSH(b->u, b->nu, u);
    FGroup g = {.first = b->nu - 1, .count = 1};
    VPUSH(b->g, b->ng, g);
}

/* Consecutive ND_STAGES nodes (one per call, as lowered) make one block. */
static void collect(Sched *s, Node *n) {
    Block *open = NULL;
    int stage_no = 0;
    for (; n; n = n->next) {
        if (n->kind == ND_FOR)
            collect(s, n->body);
        if (n->kind == ND_IF) {
            collect(s, n->then);
            collect(s, n->els);
        }
        if (n->kind != ND_STAGES) {
            open = NULL;
            continue;
        }
        if (!open) {
            Block b = {n, NULL, 0, NULL, 0};
            VPUSH(s->blocks, s->nblocks, b);
            open = &s->blocks[s->nblocks - 1];
            stage_no = 0;
        }
        for (Node *st = n->body; st; st = st->next, stage_no++) {
            if (st->kind != ND_STAGE)
                continue;
            Decl *d = st->decl;
            for (int c = 0; c < d->ncomps; c++)
                for (int v = 0; v < d->comps[c].nivs; v++) {
                    if (d->comps[c].order != ORD_PARALLEL) {
                        add_unit(s, open, st, stage_no, c, v, -1);
                        continue;
                    }
                    StencilInfo *si = fpo_extent(d);
                    for (int g = 0; g < si->ngroups[c][v]; g++)
                        add_unit(s, open, st, stage_no, c, v, g);
                }
        }
    }
}

Block *fpo_sched_block(Sched *s, Node *stages, int *gno) {
    *gno = 0;
    for (int k = 0; k < s->nblocks; k++) {
        if (s->blocks[k].stages == stages)
            return &s->blocks[k];
        *gno += s->blocks[k].ng;
    }
    return NULL;
}

static void outside(Sched *s, Var *v) {
    int x = fpo_sched_slot(s, v);
    if (x >= 0)
        s->outside[x] = true;
}

/* Mark the slots program statements n give to a halo statement or a host callback (stencil
 * calls aside), in one walk: a walk a slot was quadratic in programs of many temporaries. */
static void mark_outside(Sched *s, Node *n) {
    for (; n; n = n->next) {
        if (n->kind == ND_HALO)
            for (Node *a = n->args; a; a = a->next)
                outside(s, a->var);
        if (n->kind == ND_HOSTCALL)
            for (int i = 0; i < n->decl->nparams; i++)
                if (n->argv[i])
                    outside(s, n->argv[i]->var);
        if (n->kind != ND_STAGES) {
            mark_outside(s, n->body);
            mark_outside(s, n->then);
            mark_outside(s, n->els);
        }
    }
}

Sched *fpo_sched_new(Ir *ir, bool fused) {
    Sched *s = fpo_new(sizeof *s);
    s->ir = ir;
    s->fused = fused;
    for (int p = 0; p < PASS_COUNT; p++)
        s->on[p] = fused;
    for (int i = 0; i < ir->nparams; i++)
        if (ir->params[i]->ax != AX_SCALAR)
            VPUSH(s->slots, s->nslots, ir->params[i]);
    s->nfparams = s->nslots;
    for (int i = 0; i < ir->ntemps; i++)
        VPUSH(s->slots, s->nslots, ir->temps[i]);
    for (int k = 0; k < ir->nstencils; k++)
        for (int i = 0; i < ir->stencils[k]->ntemps; i++)
            VPUSH(s->slots, s->nslots, ir->stencils[k]->temps[i]);
    s->store = fpo_new(sizeof(StoreKind) * (size_t)(s->nslots + 1));
    s->covered = fpo_new(sizeof(bool) * (size_t)(s->nslots + 1));
    s->share = fpo_new(sizeof(int) * (size_t)(s->nslots + 1));
    s->strip_nz = fpo_new(sizeof(int) * (size_t)(s->nslots + 1));
    s->ring = fpo_new(sizeof(int) * (size_t)(s->nslots + 1));
    s->kring = fpo_new(sizeof(int) * (size_t)(s->nslots + 1));
    for (int i = 0; i < s->nslots; i++) {
        s->share[i] = i;
        s->slots[i]->sched_slot = i + 1;   /* (every schedule of one IR numbers them alike) */
    }
    s->at = fpo_new(sizeof(int) * (size_t)(s->nslots + 1));
    s->at1 = fpo_new(sizeof(int) * (size_t)(s->nslots + 1));
    s->outside = fpo_new(sizeof(bool) * (size_t)(s->nslots + 1));
    mark_outside(s, ir->body);
    collect(s, ir->body);
    s->users = fpo_new(sizeof(UnitRef *) * (size_t)(s->nslots + 1));
    s->nusers = fpo_new(sizeof(int) * (size_t)(s->nslots + 1));
    for (int k = 0; k < s->nblocks; k++)
        for (int i = 0; i < s->blocks[k].nu; i++)
            for (int a = 0; a < s->blocks[k].u[i].nacc; a++) {
                int x = s->blocks[k].u[i].acc[a].slot;
                VPUSH(s->users[x], s->nusers[x], ((UnitRef){k, i}));
            }
    return s;
}

/* The first nest of I-J loop l of fused group G (a loop's nests are consecutive), or the
 * group's end when no nest is in loop l. */
int fpo_loop_first(Block *b, FGroup *G, int l) {
    int lo = G->first, hi = G->first + G->count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (b->u[mid].loop < l)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < G->first + G->count && b->u[lo].loop == l ? lo : G->first + G->count;
}

void fpo_touch_add(FTouch *t, Acc *a) {
    if (!t->any || a->lo[1] < t->jlo)
        t->jlo = a->lo[1];
    if (!t->any || a->hi[1] > t->jhi)
        t->jhi = a->hi[1];
    t->any = true;
    t->write |= a->write;
}

/* How I-J loop l of fused group G touches `slot`: the union of its nests' accesses. */
FTouch fpo_loop_touch(Block *b, FGroup *G, int l, int slot) {
    FTouch t = {0};
    for (int i = fpo_loop_first(b, G, l); i < G->first + G->count && b->u[i].loop == l; i++) {
        Acc *a = fpo_unit_acc(&b->u[i], slot);
        if (a)
            fpo_touch_add(&t, a);
    }
    return t;
}

/* The rows slot x must keep in a ring in fused group G of block b run with lags `lag`: row r
 * is written at step r + lag[w] by each writer w and touched last at step r - jlo + lag[t] by
 * each loop t (and, when `lagc` >= 0, read at offset 0 at step r + lagc by a joined column
 * group); the slot of row r is written again (row r + R) at step r + R + lag[w], so R >
 * lag[t] - jlo - lag[w]. At least 1. One walk over x's nests in G: the largest lag[t] - jlo
 * against the smallest lag[w]. */
int64_t fpo_ring_need(Sched *s, Block *b, FGroup *G, const int *lag, int x, int lagc) {
    int k = (int)(b - s->blocks), end = G->first + G->count;
    bool wrote = false, touched = false;
    int64_t wmin = 0, tmax = 0;
    for (int e = fpo_users_after(s, x, k, G->first - 1); e < s->nusers[x]; e++) {
        UnitRef r = s->users[x][e];
        if (r.block != k || r.unit >= end)
            break;
        int l = b->u[r.unit].loop;   /* the loop's touch: the union of its nests' */
        FTouch t = {0};
        while (e < s->nusers[x] && s->users[x][e].block == k && s->users[x][e].unit < end &&
               b->u[s->users[x][e].unit].loop == l)
            fpo_touch_add(&t, fpo_unit_acc(&b->u[s->users[x][e++].unit], x));
        e--;
        if (t.write && (!wrote || lag[l] < wmin))
            wmin = lag[l];
        if (!touched || lag[l] - t.jlo > tmax)
            tmax = lag[l] - t.jlo;
        wrote |= t.write;
        touched = true;
    }
    int64_t need = 1;
    if (wrote && tmax - wmin + 1 > need)
        need = tmax - wmin + 1;
    if (wrote && lagc >= 0 && lagc - wmin + 1 > need)
        need = lagc - wmin + 1;
    return need;
}

/* The rows of a ring holding `need` rows: the next power of two (j masked). */
int fpo_ring_rows(int64_t need) {
    int rows = 1;
    while (rows < need)
        rows *= 2;
    return rows;
}

/* Whether `slot` is a stencil's own temporary: local to each call of the stencil, so each call
 * starts a new value (the slots after the program's parameters and temporaries). */
bool fpo_call_local(Sched *s, int slot) { return slot >= s->nfparams + s->ir->ntemps; }

/* The points statement group G of a sequential nest u computes: u's box widened by G's
 * extent. */
SBox fpo_group_box(Unit *u, Group *G) {
    SBox x = u->box;
    x.lo[0].off += G->ext.ilo;
    x.hi[0].off += G->ext.ihi;
    x.lo[1].off += G->ext.jlo;
    x.hi[1].off += G->ext.jhi;
    return x;
}

/* The I-J points nest u computes: its box, widened by a sequential interval's statement groups
 * (each group of a FORWARD / BACKWARD interval has its own extent). */
SBox fpo_unit_points(Unit *u) {
    SBox x = u->box;
    for (int g = 0; u->grp < 0 && g < u->si->ngroups[u->comp][u->iv]; g++) {
        SBox w = fpo_group_box(u, &u->si->groups[u->comp][u->iv][g]);
        for (int d = 0; d < 2; d++) {
            if (w.lo[d].off < x.lo[d].off)
                x.lo[d].off = w.lo[d].off;
            if (w.hi[d].off > x.hi[d].off)
                x.hi[d].off = w.hi[d].off;
        }
    }
    return x;
}

/* Whether [rlo, rhi) lies inside [wlo, whi): only when the bases agree (no symbolic order
 * between 0, nx, ny and nz). */
bool fpo_dbound_inside(DBound rlo, DBound rhi, DBound wlo, DBound whi) {
    return rlo.base == wlo.base && rhi.base == whi.base && rlo.off >= wlo.off &&
           rhi.off <= whi.off;
}

/* A bound's value at a given nz (0- or nz-based bounds of the K axis). */
/* A bound as C text: "0", "nx + 3", "nz - 1" (the names run's code and messages use). */
const char *fpo_dbound_text(DBound d) {
    static const char *base[] = {"0", "nx", "ny", "nz"};
    if (d.base == DB_ZERO)
        return fpo_fmt("%lld", (long long)d.off);
    if (!d.off)
        return base[d.base];
    return fpo_fmt("%s %c %lld", base[d.base], d.off > 0 ? '+' : '-',
                   (long long)(d.off > 0 ? d.off : -d.off));
}

int64_t fpo_dbound_at(DBound d, int64_t nz) { return (d.base == DB_NZ ? nz : 0) + d.off; }

/* Nest i of group G (an index in the group): the index of the first nest of the sweep whose K
 * loops it runs inside (pass_kcache), or -1. */
int fpo_nest_host(const FGroup *G, int i) {
    return G->host ? G->host[i] : -1;
}

static int node_ops(Node *n);

/* Operations at a point of the list of statements or arguments from n. */
static int list_ops(Node *n) {
    int c = 0;
    for (; n; n = n->next)
        c += node_ops(n);
    return c;
}

/* Operations at a point of node n (not what follows it): each operator, conditional and
 * builtin call one, a function call its body's. */
static int node_ops(Node *n) {
    int c = n->kind == ND_BINARY || n->kind == ND_UNARY || n->kind == ND_COND ||
            (n->kind == ND_CALL && n->builtin);
    if (n->kind == ND_CALL && !n->builtin && n->decl)
        c += list_ops(n->decl->body);
    return c + list_ops(n->lhs) + list_ops(n->rhs) + list_ops(n->cond) + list_ops(n->then) +
           list_ops(n->els) + list_ops(n->body) + list_ops(n->args);
}

/* Operations at a point of nest u's statements (its group's, or the whole interval's). */
static int unit_ops(Unit *u) {
    Interval *iv = &u->st->comps[u->comp].ivs[u->iv];
    if (u->grp < 0)
        return list_ops(iv->body);
    Group *g = &u->si->groups[u->comp][u->iv][u->grp];
    int c = 0, i = 0;
    for (Node *n = iv->body; n && i < g->first + g->count; n = n->next, i++)
        if (i >= g->first)
            c += node_ops(n);
    return c;
}

int fpo_group_intensity(Sched *s, Block *bl, FGroup *G) {
    int ops = 0, arrays = 0, n;
    for (int i = G->first; i < G->first + G->count; i++)
        ops += unit_ops(&bl->u[i]);
    int *xs = fpo_nests_slots(s, bl, G->first, G->count, &n);
    for (int e = 0; e < n; e++)
        arrays += s->store[xs[e]] == SK_ARRAY && s->slots[xs[e]]->ax == AX_IJK;
    return arrays ? ops / arrays : ops;
}
