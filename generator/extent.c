/* extent.c: takes an IR stencil, gives the extent each statement group computes on and the
 * boxes of points each field and temporary is touched at, relative to the call's domain.
 * As in GT4Py, a statement that writes what a later statement reads at a horizontal offset
 * computes on a domain extended by that offset; other statements keep the call's domain. */
#include "fpo.h"

#include <string.h>

/* A variable's slot in stencil s: params, then temps, then locals, by the index lower.c (or
 * the IR reader) numbers each list with; -1 for a variable that is not s's. */
int fpo_slot(Decl *s, Var *v) {
    if (!v || v->id < 0)
        return -1;
    if (v->kind == VK_PARAM && v->id < s->nparams && s->params[v->id] == v)
        return v->id;
    if (v->kind == VK_TEMP && v->id < s->ntemps && s->temps[v->id] == v)
        return s->nparams + v->id;
    if (v->kind == VK_LOCAL && v->id < s->nlocals && s->locals[v->id] == v)
        return s->nparams + s->ntemps + v->id;
    return -1;
}

/* One field or temporary a unit touches: at which offsets, whether it writes it, whether at
 * variable K (then the whole column). */
typedef struct Touch {
    int x;
    bool written, full_k;
    int64_t lo[3], hi[3];
} Touch;

/* What one unit (statements that share per-point locals) reads and writes: its touches, in
 * the order first seen. */
typedef struct Unit {
    int comp, iv, first, count;
    Touch *t;
    int nt;
    Extent ext;
} Unit;

typedef struct Scan {
    Decl *s;
    int *at;        /* per slot: its touch in the unit being scanned, plus 1 (0: none yet) */
    Unit *u;
} Scan;

static void see(Scan *sc, Node *a, bool write) {
    int x = fpo_slot(sc->s, a->var);
    if (x < 0 || x >= sc->s->nparams + sc->s->ntemps || a->var->ax == AX_SCALAR)
        return;
    Unit *u = sc->u;
    bool first = !sc->at[x];
    if (first) {
        VPUSH(u->t, u->nt, ((Touch){x, false, false, {0, 0, 0}, {0, 0, 0}}));
        sc->at[x] = u->nt;
    }
    Touch *t = &u->t[sc->at[x] - 1];
    if (write)
        t->written = true;
    if (a->kmode != KM_CONST)
        t->full_k = true;
    for (int d = 0; d < 3; d++) {
        int64_t o = d == 2 && a->kmode != KM_CONST ? 0 : a->off[d];
        if (first || o < t->lo[d])
            t->lo[d] = o;
        if (first || o > t->hi[d])
            t->hi[d] = o;
    }
}

static void scan(Scan *sc, Node *n, bool one) {
    for (; n; n = one ? NULL : n->next) {
        if (n->kind == ND_ACCESS) {
            see(sc, n, false);
            scan(sc, n->kexpr, false);
            continue;
        }
        if (n->kind == ND_ASSIGN) {
            see(sc, n->lhs, true);
            scan(sc, n->lhs->kexpr, false);
            scan(sc, n->rhs, false);
            continue;
        }
        scan(sc, n->lhs, false);
        scan(sc, n->rhs, false);
        scan(sc, n->cond, false);
        scan(sc, n->then, false);
        scan(sc, n->els, false);
        scan(sc, n->body, false);
        scan(sc, n->args, false);
    }
}

/* Record statement i's touches of per-point locals: the first statement that writes each
 * (first[l], -1 until one does) and the last that mentions it (last[l]). */
static void local_spans(Decl *s, Node *n, int i, int *first, int *last) {
    for (; n; n = n->next) {
        int x = fpo_slot(s, n->kind == ND_ASSIGN ? n->lhs->var : n->var) - s->nparams - s->ntemps;
        if (x >= 0 && (n->kind == ND_ASSIGN || n->kind == ND_ACCESS)) {
            if (n->kind == ND_ASSIGN && first[x] < 0)
                first[x] = i;
            last[x] = i;
        }
        if (n->kind == ND_ASSIGN) {
            local_spans(s, n->lhs->kexpr, i, first, last);
            local_spans(s, n->rhs, i, first, last);
            continue;
        }
        local_spans(s, n->lhs, i, first, last);
        local_spans(s, n->rhs, i, first, last);
        local_spans(s, n->cond, i, first, last);
        local_spans(s, n->then, i, first, last);
        local_spans(s, n->els, i, first, last);
        local_spans(s, n->body, i, first, last);
        local_spans(s, n->args, i, first, last);
        local_spans(s, n->kexpr, i, first, last);
    }
}

static void widen(Extent *e, Extent x) {
    if (x.ilo < e->ilo)
        e->ilo = x.ilo;
    if (x.ihi > e->ihi)
        e->ihi = x.ihi;
    if (x.jlo < e->jlo)
        e->jlo = x.jlo;
    if (x.jhi > e->jhi)
        e->jhi = x.jhi;
}

static bool same_ext(Extent a, Extent b) {
    return a.ilo == b.ilo && a.ihi == b.ihi && a.jlo == b.jlo && a.jhi == b.jhi;
}

/* Split an interval's statements into units: statements between the first write and the
 * last use of a per-point local stay in one unit (locals live within one loop nest). */
static void split_units(Decl *s, int c, int v, Unit **units, int *nunits, int *at) {
    Node *body = s->comps[c].ivs[v].body;
    int n = 0;
    for (Node *x = body; x; x = x->next)
        n++;
    if (!n)
        return;
    Node **st = fpo_new(sizeof(Node *) * (size_t)n);
    int *first = fpo_new(sizeof(int) * (size_t)(s->nlocals + 1));
    int *last = fpo_new(sizeof(int) * (size_t)(s->nlocals + 1));
    for (int l = 0; l < s->nlocals; l++)
        first[l] = -1;
    int i = 0;
    for (Node *x = body; x; x = x->next, i++) {
        st[i] = x;
        Node *next = x->next;
        x->next = NULL;
        local_spans(s, x, i, first, last);
        x->next = next;
    }
    /* join[i]: the furthest statement a local written at or before i lives to */
    int *reach = fpo_new(sizeof(int) * (size_t)n);
    for (i = 0; i < n; i++)
        reach[i] = i;
    for (int l = 0; l < s->nlocals; l++)
        if (first[l] >= 0 && last[l] > reach[first[l]])
            reach[first[l]] = last[l];
    for (i = 0; i < n;) {
        int j = i + 1, end = reach[i];
        while (j <= end) {     /* statements i .. end share locals: one unit */
            if (reach[j] > end)
                end = reach[j];
            j++;
        }
        Unit u = {c, v, i, j - i, NULL, 0, {0, 0, 0, 0}};
        Scan sc = {s, at, &u};
        for (int k = i; k < j; k++)
            scan(&sc, st[k], true);
        for (int k = 0; k < u.nt; k++)
            at[u.t[k].x] = 0;
        VPUSH(*units, *nunits, u);
        i = j;
    }
}

StencilInfo *fpo_extent(Decl *s) {
    if (s->info)
        return s->info;
    int nv = s->nparams + s->ntemps;
    Unit *units = NULL;
    int nunits = 0;
    int *at = fpo_new(sizeof(int) * (size_t)(nv + 1));
    for (int c = 0; c < s->ncomps; c++)
        for (int v = 0; v < s->comps[c].nivs; v++)
            split_units(s, c, v, &units, &nunits, at);

    /* Backwards: a unit covers what later units read of what it writes. */
    Extent *req = fpo_new(sizeof(Extent) * (size_t)(nv + 1));
    for (int k = nunits - 1; k >= 0; k--) {
        Unit *u = &units[k];
        for (int t = 0; t < u->nt; t++)
            if (u->t[t].written)
                widen(&u->ext, req[u->t[t].x]);
        for (int t = 0; t < u->nt; t++) {
            Touch *a = &u->t[t];
            widen(&req[a->x], (Extent){u->ext.ilo + a->lo[0], u->ext.ihi + a->hi[0],
                                       u->ext.jlo + a->lo[1], u->ext.jhi + a->hi[1]});
        }
    }

    StencilInfo *si = fpo_new(sizeof *si);
    si->groups = fpo_new(sizeof(Group **) * (size_t)(s->ncomps + 1));
    si->ngroups = fpo_new(sizeof(int *) * (size_t)(s->ncomps + 1));
    for (int c = 0; c < s->ncomps; c++) {
        si->groups[c] = fpo_new(sizeof(Group *) * (size_t)(s->comps[c].nivs + 1));
        si->ngroups[c] = fpo_new(sizeof(int) * (size_t)(s->comps[c].nivs + 1));
    }
    si->boxes = fpo_new(sizeof(Box *) * (size_t)(nv + 1));
    si->nboxes = fpo_new(sizeof(int) * (size_t)(nv + 1));
    si->written = fpo_new(sizeof(bool) * (size_t)(nv + 1));
    for (int k = 0; k < nunits; k++) {
        Unit *u = &units[k];
        Group **gs = &si->groups[u->comp][u->iv];
        int *ng = &si->ngroups[u->comp][u->iv];
        /* Consecutive units with one extent share a loop nest. */
        if (*ng && same_ext((*gs)[*ng - 1].ext, u->ext))
            (*gs)[*ng - 1].count += u->count;
        else
            VPUSH(*gs, *ng, ((Group){u->first, u->count, u->ext}));
        Interval *iv = &s->comps[u->comp].ivs[u->iv];
        for (int t = 0; t < u->nt; t++) {
            Touch *a = &u->t[t];
            si->written[a->x] |= a->written;
            Box b = {u->ext.ilo + a->lo[0], u->ext.ihi + a->hi[0],
                     u->ext.jlo + a->lo[1], u->ext.jhi + a->hi[1],
                     iv->lo.base == B_BOTTOM ? KB_BOTTOM : KB_TOP,
                     iv->hi.base == B_BOTTOM ? KB_BOTTOM : KB_TOP,
                     iv->lo.off + a->lo[2], iv->hi.off + a->hi[2]};
            VPUSH(si->boxes[a->x], si->nboxes[a->x], b);
            if (a->full_k) {
                b.klo_base = KB_ZERO;
                b.khi_base = KB_NZ;
                b.klo = b.khi = 0;
                VPUSH(si->boxes[a->x], si->nboxes[a->x], b);
            }
        }
    }
    s->info = si;
    return si;
}
