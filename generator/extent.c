/* extent.c: takes an IR stencil, gives each computation's extent (the halo it computes so that
 * later computations can read it at horizontal offsets, as GT4Py does) and the boxes of points
 * each field and temporary is touched at, relative to the call's domain. */
#include "fpo.h"

#include <string.h>

typedef struct Scan {
    Decl *s;
    int nvars;
    bool *used, *full_k;
    int64_t (*lo)[3], (*hi)[3];   /* offsets seen per variable */
    bool *written;
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
    if (write)
        sc->written[x] = true;
    if (a->kmode != KM_CONST)
        sc->full_k[x] = true;
    for (int d = 0; d < 3; d++) {
        int64_t o = d == 2 && a->kmode != KM_CONST ? 0 : a->off[d];
        if (!sc->used[x] || o < sc->lo[x][d])
            sc->lo[x][d] = o;
        if (!sc->used[x] || o > sc->hi[x][d])
            sc->hi[x][d] = o;
    }
    sc->used[x] = true;
}

static void scan(Scan *sc, Node *n) {
    for (; n; n = n->next) {
        if (n->kind == ND_ACCESS) {
            see(sc, n, false);
            scan(sc, n->kexpr);
            continue;
        }
        if (n->kind == ND_ASSIGN) {
            see(sc, n->lhs, true);
            scan(sc, n->lhs->kexpr);
            scan(sc, n->rhs);
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

static void scan_reset(Scan *sc) {
    memset(sc->used, 0, sizeof(bool) * (size_t)sc->nvars);
    memset(sc->full_k, 0, sizeof(bool) * (size_t)sc->nvars);
    memset(sc->written, 0, sizeof(bool) * (size_t)sc->nvars);
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

StencilInfo *fpo_extent(Decl *s) {
    int nv = s->nparams + s->ntemps;
    Scan sc = {s, nv, fpo_new(sizeof(bool) * (size_t)(nv + 1)),
               fpo_new(sizeof(bool) * (size_t)(nv + 1)), fpo_new(sizeof(int64_t[3]) * (size_t)(nv + 1)),
               fpo_new(sizeof(int64_t[3]) * (size_t)(nv + 1)), fpo_new(sizeof(bool) * (size_t)(nv + 1))};
    StencilInfo *si = fpo_new(sizeof *si);
    si->comp_ext = fpo_new(sizeof(Extent) * (size_t)(s->ncomps + 1));
    si->boxes = fpo_new(sizeof(Box *) * (size_t)(nv + 1));
    si->nboxes = fpo_new(sizeof(int) * (size_t)(nv + 1));
    Extent *req = fpo_new(sizeof(Extent) * (size_t)(nv + 1));

    /* Backwards: a computation covers what later computations read of what it writes. */
    for (int c = s->ncomps - 1; c >= 0; c--) {
        scan_reset(&sc);
        for (int j = 0; j < s->comps[c].nivs; j++)
            scan(&sc, s->comps[c].ivs[j].body);
        Extent e = {0, 0, 0, 0};
        for (int x = 0; x < nv; x++)
            if (sc.written[x])
                widen(&e, req[x]);
        si->comp_ext[c] = e;
        for (int x = 0; x < nv; x++)
            if (sc.used[x])
                widen(&req[x], (Extent){e.ilo + sc.lo[x][0], e.ihi + sc.hi[x][0],
                                        e.jlo + sc.lo[x][1], e.jhi + sc.hi[x][1]});
    }

    /* Boxes: per computation and interval, what each variable is touched at. */
    for (int c = 0; c < s->ncomps; c++) {
        Extent e = si->comp_ext[c];
        for (int j = 0; j < s->comps[c].nivs; j++) {
            Interval *iv = &s->comps[c].ivs[j];
            scan_reset(&sc);
            scan(&sc, iv->body);
            for (int x = 0; x < nv; x++) {
                if (!sc.used[x])
                    continue;
                Box b = {e.ilo + sc.lo[x][0], e.ihi + sc.hi[x][0], e.jlo + sc.lo[x][1],
                         e.jhi + sc.hi[x][1],
                         iv->lo.base == B_BOTTOM ? KB_BOTTOM : KB_TOP,
                         iv->hi.base == B_BOTTOM ? KB_BOTTOM : KB_TOP,
                         iv->lo.off + sc.lo[x][2], iv->hi.off + sc.hi[x][2]};
                VPUSH(si->boxes[x], si->nboxes[x], b);
                if (sc.full_k[x]) {
                    b.klo_base = KB_ZERO;
                    b.khi_base = KB_NZ;
                    b.klo = b.khi = 0;
                    VPUSH(si->boxes[x], si->nboxes[x], b);
                }
            }
        }
    }
    return si;
}
