/* extent.c: takes an IR stencil, gives the extent each statement group computes on and the
 * boxes of points each field and temporary is touched at, relative to the call's domain.
 * As in GT4Py, a statement that writes what a later statement reads at a horizontal offset
 * computes on a domain extended by that offset; other statements keep the call's domain. */
#include "fpo.h"

#include <string.h>

/* What one unit (statements that share per-point locals) reads and writes. */
typedef struct Unit {
    int comp, iv, first, count;
    bool *used, *written, *full_k;
    int64_t (*lo)[3], (*hi)[3];
    Extent ext;
} Unit;

typedef struct Scan {
    Decl *s;
    int nvars;
    Unit *u;
} Scan;

static int var_index(Decl *s, Var *v) {
    for (int i = 0; i < s->nparams; i++)
        if (s->params[i] == v)
            return v->ax == AX_SCALAR ? -1 : i;
    for (int i = 0; i < s->ntemps; i++)
        if (s->temps[i] == v)
            return s->nparams + i;
    return -1;
}

static void see(Scan *sc, Node *a, bool write) {
    int x = var_index(sc->s, a->var);
    if (x < 0)
        return;
    Unit *u = sc->u;
    if (write)
        u->written[x] = true;
    if (a->kmode != KM_CONST)
        u->full_k[x] = true;
    for (int d = 0; d < 3; d++) {
        int64_t o = d == 2 && a->kmode != KM_CONST ? 0 : a->off[d];
        if (!u->used[x] || o < u->lo[x][d])
            u->lo[x][d] = o;
        if (!u->used[x] || o > u->hi[x][d])
            u->hi[x][d] = o;
    }
    u->used[x] = true;
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

static bool touches_local(Node *n, Var *v, bool write) {
    for (; n; n = n->next) {
        if (n->kind == ND_ASSIGN && n->lhs->var == v && write)
            return true;
        if (n->kind == ND_ACCESS && n->var == v && !write)
            return true;
        if (n->kind == ND_ASSIGN ? touches_local(n->rhs, v, write)
                                 : touches_local(n->lhs, v, write) ||
                                       touches_local(n->rhs, v, write))
            return true;
        if (touches_local(n->cond, v, write) || touches_local(n->then, v, write) ||
            touches_local(n->els, v, write) || touches_local(n->body, v, write) ||
            touches_local(n->args, v, write) || touches_local(n->kexpr, v, write))
            return true;
    }
    return false;
}

static bool stmt_touches(Node *s, Var *v, bool write) {
    Node *next = s->next;
    s->next = NULL;
    bool r = touches_local(s, v, write);
    s->next = next;
    return r;
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
static void split_units(Decl *s, int c, int v, Unit **units, int *nunits, int nv) {
    Node *body = s->comps[c].ivs[v].body;
    int n = 0;
    for (Node *x = body; x; x = x->next)
        n++;
    if (!n)
        return;
    Node **st = fpo_new(sizeof(Node *) * (size_t)n);
    bool *joined = fpo_new(sizeof(bool) * (size_t)n);   /* statement i joins i - 1 */
    int i = 0;
    for (Node *x = body; x; x = x->next, i++)
        st[i] = x;
    for (int l = 0; l < s->nlocals; l++) {
        int first_write = -1, last_use = -1;
        for (i = 0; i < n; i++) {
            if (first_write < 0 && stmt_touches(st[i], s->locals[l], true))
                first_write = i;
            if (stmt_touches(st[i], s->locals[l], false) || stmt_touches(st[i], s->locals[l], true))
                last_use = i;
        }
        for (i = first_write + 1; first_write >= 0 && i <= last_use; i++)
            joined[i] = true;
    }
    for (i = 0; i < n;) {
        int j = i;
        while (j < n && (j == i || joined[j]))
            j++;
        Unit u = {c, v, i, j - i, fpo_new(sizeof(bool) * (size_t)(nv + 1)),
                  fpo_new(sizeof(bool) * (size_t)(nv + 1)), fpo_new(sizeof(bool) * (size_t)(nv + 1)),
                  fpo_new(sizeof(int64_t[3]) * (size_t)(nv + 1)),
                  fpo_new(sizeof(int64_t[3]) * (size_t)(nv + 1)), {0, 0, 0, 0}};
        Scan sc = {s, nv, &u};
        for (int k = i; k < j; k++)
            scan(&sc, st[k], true);
        VPUSH(*units, *nunits, u);
        i = j;
    }
}

StencilInfo *fpo_extent(Decl *s) {
    int nv = s->nparams + s->ntemps;
    Unit *units = NULL;
    int nunits = 0;
    for (int c = 0; c < s->ncomps; c++)
        for (int v = 0; v < s->comps[c].nivs; v++)
            split_units(s, c, v, &units, &nunits, nv);

    /* Backwards: a unit covers what later units read of what it writes. */
    Extent *req = fpo_new(sizeof(Extent) * (size_t)(nv + 1));
    for (int k = nunits - 1; k >= 0; k--) {
        Unit *u = &units[k];
        for (int x = 0; x < nv; x++)
            if (u->written[x])
                widen(&u->ext, req[x]);
        for (int x = 0; x < nv; x++)
            if (u->used[x])
                widen(&req[x], (Extent){u->ext.ilo + u->lo[x][0], u->ext.ihi + u->hi[x][0],
                                        u->ext.jlo + u->lo[x][1], u->ext.jhi + u->hi[x][1]});
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
        for (int x = 0; x < nv; x++) {
            if (!u->used[x])
                continue;
            Box b = {u->ext.ilo + u->lo[x][0], u->ext.ihi + u->hi[x][0],
                     u->ext.jlo + u->lo[x][1], u->ext.jhi + u->hi[x][1],
                     iv->lo.base == B_BOTTOM ? KB_BOTTOM : KB_TOP,
                     iv->hi.base == B_BOTTOM ? KB_BOTTOM : KB_TOP,
                     iv->lo.off + u->lo[x][2], iv->hi.off + u->hi[x][2]};
            VPUSH(si->boxes[x], si->nboxes[x], b);
            if (u->full_k[x]) {
                b.klo_base = KB_ZERO;
                b.khi_base = KB_NZ;
                b.klo = b.khi = 0;
                VPUSH(si->boxes[x], si->nboxes[x], b);
            }
        }
    }
    return si;
}
