/* emit_fused.c: takes the optimized schedule, gives the C of its blocks (inlined in run, a
 * large group's loops in functions before it): each fused group one parallel K loop holding
 * its I-J loops, temporaries as arrays of the pool, per-thread planes or scalars; other nests
 * as the unfused form runs them. Also the pool allocation of open and the memory report. */
#include "opt.h"

#include <stdlib.h>
#include <string.h>

static void ind(Buf *b, int n) {
    for (int i = 0; i < n; i++)
        buf_add(b, "    ");
}

/* The J rows a column group's block holds (emit_column), and its strips (fpo_emit_pool). */
enum { COLUMN_ROWS = 4 };

/* Close n blocks opened at depths depth + n - 1 down to depth. */
static void closes(Buf *b, int depth, int n) {
    while (n-- > 0) {
        ind(b, depth + n);
        buf_add(b, "}\n");
    }
}

/* ---- the C names of the slots ---- */

static int mark;   /* the value of a StrMap used as a set */

/* Every slot's C name in inlined code: its .fpo name (as fpo_c_name writes it), so that
 * debuggers and profilers show the model's names. Where a scalar in run's scope (a scalar of
 * the program, a local of a stencil it calls) or an earlier slot has that name (two stencils'
 * temporaries, say), the first NAME_0, NAME_1, ... that no scalar, no slot's own name and no
 * earlier choice has. Linear in the names: sets, and a counter per name. */
static void name_slots(Sched *s) {
    Ir *ir = s->ir;
    StrMap scalars = {0}, own = {0}, taken = {0}, next = {0};
    for (int i = 0; i < ir->nparams; i++)
        if (ir->params[i]->ax == AX_SCALAR)
            strmap_put(&scalars, fpo_c_name(ir->params[i]->name), &mark);
    for (int i = 0; i < ir->nscalars; i++)
        strmap_put(&scalars, fpo_c_name(ir->scalars[i]->name), &mark);
    for (int k = 0; k < ir->nstencils; k++)
        for (int i = 0; i < ir->stencils[k]->nlocals; i++)
            strmap_put(&scalars, fpo_c_name(ir->stencils[k]->locals[i]->name), &mark);
    s->cnames = fpo_new(sizeof(char *) * (size_t)(s->nslots + 1));
    for (int y = 0; y < s->nslots; y++)
        s->cnames[y] = fpo_c_name(s->slots[y]->name);
    for (int y = 0; y < s->nslots; y++)
        strmap_put(&own, s->cnames[y], &mark);
    for (int y = 0; y < s->nslots; y++) {
        const char *base = s->cnames[y], *name = base;
        int *n = strmap_get(&next, base);
        if (strmap_get(&scalars, name) || strmap_get(&taken, name)) {
            if (!n) {
                n = fpo_new(sizeof *n);
                strmap_put(&next, base, n);
            }
            do
                name = fpo_fmt("%s_%d", base, (*n)++);
            while (strmap_get(&scalars, name) || strmap_get(&taken, name) ||
                   strmap_get(&own, name));
        }
        s->cnames[y] = name;
        strmap_put(&taken, name, &mark);
    }
}

static const char *slot_name(Sched *s, int x) {
    if (!s->cnames)
        name_slots(s);
    return s->cnames[x];
}

/* ---- statements of a nest, with the call's names replaced ---- */

typedef struct Sub {
    Sched *s;
    Unit *u;
    Var **alias;   /* per slot: the C variable standing for it */
    const void *ctx;
    FGroup *g;     /* the group being emitted (its streamed slots) */
    NestRun at_i;  /* for indep: which slots an I loop's nests touch off I offset 0 */
} Sub;

static bool at_i(Acc *a) { return !a->lo[0] && !a->hi[0]; }

static Var *scalar_alias(Unit *u, Var *param) {
    return new_var(fpo_fmt("fpo_a%d_%s", u->stage_no, param->name), param->loc, VK_LOCAL,
                   param->dt, AX_SCALAR);
}

static Var *subst(Sub *m, Var *v) {
    Decl *st = m->u->st;
    int i = fpo_slot(st, v);
    if (i >= 0 && i < st->nparams)
        return v->ax == AX_SCALAR ? scalar_alias(m->u, v)
                                  : m->alias[fpo_sched_slot(m->s, m->u->stage->argv[i]->var)];
    int slot = fpo_sched_slot(m->s, v);
    return slot >= 0 ? m->alias[slot] : v;
}

/* The statements n (the rest of the list too), the call's names put in: a copy outside the
 * arena, as the copies made for each I loop are dropped once it is printed (a statement's
 * copies would add up to gigabytes in long programs). */
static Node *clone(Sub *m, Node *n) {
    Node *head = NULL, **tail = &head;
    for (; n; n = n->next) {
        Node *c = fpo_heap_new(sizeof *c);
        *c = *n;
        if (n->var && (n->kind == ND_ACCESS))
            c->var = subst(m, n->var);
        c->lhs = clone(m, n->lhs);
        c->rhs = clone(m, n->rhs);
        c->cond = clone(m, n->cond);
        c->then = clone(m, n->then);
        c->els = clone(m, n->els);
        c->body = clone(m, n->body);
        c->args = clone(m, n->args);
        c->kexpr = clone(m, n->kexpr);
        c->next = NULL;
        *tail = c;
        tail = &c->next;
    }
    return head;
}

static void drop(Node *n) {
    while (n) {
        Node *next = n->next;
        drop(n->lhs);
        drop(n->rhs);
        drop(n->cond);
        drop(n->then);
        drop(n->els);
        drop(n->body);
        drop(n->args);
        drop(n->kexpr);
        free(n);
        n = next;
    }
}

/* Statements [first, first + count) of an interval, cloned for this call (drop them after). */
static Node *stmts(Sub *m, Interval *iv, int first, int count) {
    Node *n = iv->body;
    for (int i = 0; i < first; i++)
        n = n->next;
    Node *last = n;
    for (int i = 1; i < count; i++)
        last = last->next;
    Node *after = last->next;
    last->next = NULL;
    Node *c = clone(m, n);
    last->next = after;
    return c;
}

/* One nest's statements at a point: its per-point locals, then the statements (`where`: the
 * regions left out in this part of a split loop, see fpo_c_iloop). */
static void emit_point(Buf *b, Unit *u, Node *body, const void *ctx, int depth, unsigned where) {
    ind(b, depth);
    buf_printf(b, "{   /* %s */\n", u->st->name);
    fpo_c_point(b, u->st, body, depth + 1, ctx, where);
    ind(b, depth);
    buf_add(b, "}\n");
}

static const char *bound(DBound d) { return fpo_dbound_text(d); }

/* What one I loop runs at each point: statements [first, first + count) of nests, after the
 * declarations in `pre` (scalar temporaries). */
typedef struct Pt {
    Unit *u;
    int first, count;
    const char *guard;   /* the points it runs, where the loop runs more (NULL: all of them) */
} Pt;

typedef struct Points {
    Sub *m;
    Pt *pt;
    int n, cap;
    Buf pre;
    Node **bodies;       /* while an I loop is printed: each Pt's statements, cloned */
} Points;

static void add_pt(Points *ps, Unit *u, int first, int count) {
    if (ps->n == ps->cap) {
        ps->cap = ps->cap ? 2 * ps->cap : 4;
        Pt *pt = fpo_new(sizeof(Pt) * (size_t)ps->cap);
        if (ps->n)
            memcpy(pt, ps->pt, sizeof(Pt) * (size_t)ps->n);
        ps->pt = pt;
    }
    ps->pt[ps->n++] = (Pt){u, first, count, NULL};
}

static void points(Buf *b, int depth, unsigned where, void *arg) {
    Points *ps = arg;
    fpo_c_indented(b, ps->pre.s, ps->pre.len, depth);
    for (int k = 0; k < ps->n; k++) {
        ps->m->u = ps->pt[k].u;
        const char *g = ps->pt[k].guard;
        if (g) {
            ind(b, depth);
            buf_printf(b, "if (%s) {   /* points of this nest only */\n", g);
        }
        emit_point(b, ps->pt[k].u, ps->bodies[k], ps->m->ctx, depth + !!g, where);
        if (g) {
            ind(b, depth);
            buf_add(b, "}\n");
        }
    }
}

/* Whether the points of an I loop are independent: every slot the loop writes is touched at I
 * offset 0 only, by every nest in it. Other J rows and levels lie a row or more apart and the
 * pool gives slots used in one group their own bytes, so no point then reads what another
 * writes; the loop's order no longer matters and it may run as vectors (FPO_IVDEP). */
static bool indep(Points *ps) {
    NestRun *r = &ps->m->at_i;
    fpo_run_clear(r);
    for (int k = 0; k < ps->n; k++)
        fpo_run_add(r, ps->pt[k].u);
    for (int i = 0; i < r->nslots; i++)
        if ((r->seen[r->slots[i]] & NR_WRITTEN) && (r->seen[r->slots[i]] & NR_NOT_OK))
            return false;
    return true;
}

/* The streamed slots (pass_stream) that statements of `ps` write, each once, into out. */
static int streamed(Points *ps, int *out) {
    FGroup *G = ps->m->g;
    int n = 0;
    for (int k = 0; G && G->stream && k < ps->n; k++) {
        Unit *u = ps->pt[k].u;
        Node *st = u->st->comps[u->comp].ivs[u->iv].body;
        for (int i = 0; i < ps->pt[k].first; i++)
            st = st->next;
        for (int i = 0; i < ps->pt[k].count; i++, st = st->next) {
            int x = st->kind == ND_ASSIGN ? fpo_call_slot(ps->m->s, u, st->lhs->var) : -1;
            bool seen = false;
            for (int e = 0; e < n; e++)
                seen |= out[e] == x;
            if (x >= 0 && G->stream[x] && !seen)
                out[n++] = x;
        }
    }
    return n;
}

/* The I loop of row j over [ib, ie) running `ps`, split at tile-edge regions. */
static void iloop_plain(Buf *b, Points *ps, const char *ib, const char *ie, int depth) {
    Node **bodies = fpo_new(sizeof(Node *) * (size_t)ps->n);
    for (int k = 0; k < ps->n; k++) {
        Unit *u = ps->pt[k].u;
        ps->m->u = u;
        bodies[k] = stmts(ps->m, &u->st->comps[u->comp].ivs[u->iv], ps->pt[k].first,
                          ps->pt[k].count);
    }
    ps->bodies = bodies;
    fpo_c_iloop(b, bodies, ps->n, ps->m->ctx, ib, ie, depth, indep(ps), points, ps);
    ps->bodies = NULL;
    for (int k = 0; k < ps->n; k++)
        drop(bodies[k]);
}

/* ... and where it writes streamed slots (pass_stream): when open found one of them too large
 * for the caches, the loop writes their rows to buffers (each slot's alias fpo_s_<name>, J and K
 * strides 0) that fpo_stream_row_ then copies out, past the caches for those open chose;
 * otherwise the plain loop. */
static void iloop(Buf *b, Points *ps, const char *ib, const char *ie, int depth) {
    Sched *s = ps->m->s;
    int nst = 0;   /* statements: each writes at most one streamed slot */
    for (int k = 0; ps->m->g && ps->m->g->stream && k < ps->n; k++)
        nst += ps->pt[k].count;
    int *sx = nst ? fpo_new(sizeof(int) * (size_t)nst) : NULL, ns = nst ? streamed(ps, sx) : 0;
    if (!ns) {
        iloop_plain(b, ps, ib, ie, depth);
        return;
    }
    ind(b, depth);
    buf_add(b, "if (");
    for (int e = 0; e < ns; e++)
        buf_printf(b, "%sp->stream[%d]", e ? " || " : "", sx[e]);
    buf_add(b, ") {   /* rows written past the caches (pass_stream):");
    for (int e = 0; e < ns; e++)
        buf_printf(b, " %s", s->slots[sx[e]]->name);
    buf_add(b, " */\n");
    ind(b, depth + 1);
    buf_printf(b, "const int64_t fpo_sn = (%s) - (%s) > 0 ? (%s) - (%s) : 0;\n", ie, ib, ie, ib);
    Var **saved = fpo_new(sizeof(Var *) * (size_t)ns);
    for (int e = 0; e < ns; e++) {
        int x = sx[e];
        Var *v = s->slots[x];
        const char *t = fpo_c_type(v->dt), *n = slot_name(s, x);
        ind(b, depth + 1);
        buf_printf(b, "%s fpo_sb_%s[fpo_sn > 0 ? fpo_sn : 1];\n", t, n);
        ind(b, depth + 1);
        buf_printf(b, "%s *const fpo_s_%s = fpo_sb_%s - (%s);\n", t, n, n, ib);
        ind(b, depth + 1);
        buf_printf(b, "const int64_t fpo_sj_fpo_s_%s = 0, fpo_sk_fpo_s_%s = 0;\n", n, n);
        ind(b, depth + 1);
        buf_printf(b, "fpo_stream_ends_(&%s[(%s) + j * fpo_sj_%s + k * fpo_sk_%s], "
                      "sizeof fpo_sb_%s[0] * (size_t)fpo_sn, p->stream[%d]);\n",
                   n, ib, n, n, n, x);
        saved[e] = ps->m->alias[x];
        ps->m->alias[x] = new_var(fpo_fmt("fpo_s_%s", n), v->loc, VK_TEMP, v->dt, v->ax);
        ps->m->alias[x]->slot_of = v, ps->m->alias[x]->slot = x;
    }
    iloop_plain(b, ps, ib, ie, depth + 1);
    for (int e = 0; e < ns; e++) {
        int x = sx[e];
        const char *n = slot_name(s, x);
        ps->m->alias[x] = saved[e];
        ind(b, depth + 1);
        buf_printf(b, "fpo_stream_row_(&%s[(%s) + j * fpo_sj_%s + k * fpo_sk_%s], "
                      "fpo_sb_%s, sizeof fpo_sb_%s[0] * (size_t)fpo_sn, p->stream[%d]);\n",
                   n, ib, n, n, n, n, x);
    }
    ind(b, depth);
    buf_add(b, "} else {\n");
    iloop_plain(b, ps, ib, ie, depth + 1);
    ind(b, depth);
    buf_add(b, "}\n");
}

/* Whether group G streams any slot (then each thread fences after each level or block):
 * pass_stream makes G->stream for a slot it streams. */
static bool streams(FGroup *G) {
    return G->stream != NULL;
}

/* `ps` with each nest guarded by its own range where it differs from box x's (for the points
 * only some nests of a merged loop compute, pass_merge). */
static Points guarded(Points *ps, SBox *x) {
    Points g = *ps;
    g.pt = fpo_new(sizeof(Pt) * (size_t)(ps->n + 1));
    for (int k = 0; k < ps->n; k++) {
        SBox *u = &ps->pt[k].u->box;
        const char *t = NULL;
        for (int d = 0; d < 2; d++)
            if (!fpo_dbound_eq(u->lo[d], x->lo[d]) || !fpo_dbound_eq(u->hi[d], x->hi[d]))
                t = fpo_fmt("%s%s%s >= %s && %s < %s", t ? t : "", t ? " && " : "",
                            d ? "j" : "i", bound(u->lo[d]), d ? "j" : "i", bound(u->hi[d]));
        g.pt[k] = ps->pt[k];
        g.pt[k].guard = t;
    }
    return g;
}

/* Row j of an I-J loop over box x running `ps`. Where its nests' ranges differ (pass_merge),
 * x holds their union and `common` their intersection: the common points run every nest
 * unguarded, the rest each nest guarded by its own range, the loop's plain version (a
 * streamed row needs all of its writers). */
static void row(Buf *b, SBox *x, SBox *common, Points *ps, int depth) {
    bool rows = fpo_dbound_eq(x->lo[1], common->lo[1]) && fpo_dbound_eq(x->hi[1], common->hi[1]);
    bool cols = fpo_dbound_eq(x->lo[0], common->lo[0]) && fpo_dbound_eq(x->hi[0], common->hi[0]);
    if (rows && cols) {
        iloop(b, ps, bound(x->lo[0]), bound(x->hi[0]), depth);
        return;
    }
    Points g = guarded(ps, x);
    if (!rows) {
        ind(b, depth);
        buf_printf(b, "if (j >= %s && j < %s) {   /* rows of every nest of the loop */\n",
                   bound(common->lo[1]), bound(common->hi[1]));
    }
    int d = depth + !rows;
    if (!cols) {
        ind(b, d);
        buf_add(b, "/* columns only some nests of the loop compute, before and after the rest */\n");
    }
    if (!fpo_dbound_eq(x->lo[0], common->lo[0]))
        iloop_plain(b, &g, bound(x->lo[0]), bound(common->lo[0]), d);
    iloop(b, ps, bound(common->lo[0]), bound(common->hi[0]), d);
    if (!fpo_dbound_eq(x->hi[0], common->hi[0]))
        iloop_plain(b, &g, bound(common->hi[0]), bound(x->hi[0]), d);
    if (!rows) {
        ind(b, depth);
        buf_add(b, "} else {\n");
        iloop_plain(b, &g, bound(x->lo[0]), bound(x->hi[0]), depth + 1);
        ind(b, depth);
        buf_add(b, "}\n");
    }
}

/* Rows of box x, each an I loop running `ps` (row: where its nests' ranges differ). */
static void ij_loops(Buf *b, SBox *x, SBox *common, Points *ps, int depth) {
    ind(b, depth);
    buf_printf(b, "for (int64_t j = %s; j < %s; j++) {\n", bound(x->lo[1]), bound(x->hi[1]));
    row(b, x, common, ps, depth + 1);
    ind(b, depth);
    buf_add(b, "}\n");
}

/* The scalar arguments of the stages a run of units calls, evaluated once. */
/* A scalar argument of a stage: its nest and parameter. */
typedef struct ScalarArg {
    Unit *u;
    int p;
} ScalarArg;

/* The scalar arguments of the stages of nests u[0 .. n), each once; their count in *count. */
static ScalarArg *stage_scalars(Unit *u, int n, int *count) {
    ScalarArg *a = NULL;
    *count = 0;
    for (int i = 0; i < n; i++) {
        if (i && u[i - 1].stage == u[i].stage)
            continue;   /* a stage's nests are consecutive (sched.c): its arguments are set */
        for (int p = 0; p < u[i].st->nparams; p++)
            if (u[i].st->params[p]->ax == AX_SCALAR)
                VPUSH(a, *count, ((ScalarArg){&u[i], p}));
    }
    return a;
}

/* The C type and variable of scalar argument a. */
static const char *scalar_type(ScalarArg a) { return fpo_c_type(a.u->st->params[a.p]->dt); }
static const char *scalar_name(ScalarArg a) {
    return scalar_alias(a.u, a.u->st->params[a.p])->name;
}

/* The scalar arguments of nests u[0 .. n), evaluated once, as constants. */
static void scalar_args(Buf *b, Unit *u, int n, int depth) {
    int na;
    ScalarArg *a = stage_scalars(u, n, &na);
    for (int i = 0; i < na; i++) {
        ind(b, depth);
        buf_printf(b, "const %s %s = (%s)(", scalar_type(a[i]), scalar_name(a[i]),
                   scalar_type(a[i]));
        fpo_c_expr(b, a[i].u->stage->argv[a[i].p]);
        buf_printf(b, ");\n");
        ind(b, depth);
        buf_printf(b, "(void)%s;\n", scalar_name(a[i]));
    }
}

/* Widen the run-time range [lo_var, hi_var) to hold [lo, hi). */
static void widen_range(Buf *b, int depth, const char *lo_var, const char *lo, const char *hi_var,
                        const char *hi) {
    ind(b, depth);
    buf_printf(b, "if (%s < %s) %s = %s;\n", lo, lo_var, lo_var, lo);
    ind(b, depth);
    buf_printf(b, "if (%s > %s) %s = %s;\n", hi, hi_var, hi_var, hi);
}

/* Fold bound d into the bounds *v (one a base): the least offset of its base where dir < 0,
 * the greatest where dir > 0. */
static void bound_fold(DBound **v, int *n, DBound d, int dir) {
    for (int i = 0; i < *n; i++)
        if ((*v)[i].base == d.base) {
            if (dir < 0 ? d.off < (*v)[i].off : d.off > (*v)[i].off)
                (*v)[i].off = d.off;
            return;
        }
    VPUSH(*v, *n, d);
}

static void omp(Buf *b, const char *what) {
    buf_printf(b, "#ifdef _OPENMP\n#pragma omp %s\n#endif\n", what);
}

/* A nest the unfused way: PARALLEL over K and J, or K in order with J shared. */
static void emit_plain(Buf *b, Sub *m, Unit *u, int depth) {
    Interval *iv = &u->st->comps[u->comp].ivs[u->iv];
    ind(b, depth);
    buf_printf(b, "{   /* %s, computation %d, interval %d */\n", u->st->name, u->comp + 1,
               u->iv + 1);
    scalar_args(b, u, 1, depth + 1);
    ind(b, depth + 1);
    buf_printf(b, "const int64_t fpo_kb = %s, fpo_ke = %s;\n", bound(u->box.lo[2]),
               bound(u->box.hi[2]));
    if (u->par) {
        omp(b, "parallel for collapse(2) num_threads(p->nthreads)");
        ind(b, depth + 1);
        buf_add(b, "for (int64_t k = fpo_kb; k < fpo_ke; k++)\n");
        Group *g = &u->si->groups[u->comp][u->iv][u->grp];
        Points ps = {.m = m};
        add_pt(&ps, u, g->first, g->count);
        ij_loops(b, &u->box, &u->box, &ps, depth + 2);
    } else {
        omp(b, "parallel num_threads(p->nthreads)");
        ind(b, depth + 1);
        if (u->st->comps[u->comp].order == ORD_FORWARD)
            buf_add(b, "for (int64_t k = fpo_kb; k < fpo_ke; k++) {\n");
        else
            buf_add(b, "for (int64_t k = fpo_ke - 1; k >= fpo_kb; k--) {\n");
        for (int g = 0; g < u->si->ngroups[u->comp][u->iv]; g++) {
            Group *G = &u->si->groups[u->comp][u->iv][g];
            SBox x = fpo_group_box(u, G);
            omp(b, "for");
            Points ps = {.m = m};
            add_pt(&ps, u, G->first, G->count);
            ij_loops(b, &x, &x, &ps, depth + 2);
        }
        (void)iv;
        ind(b, depth + 1);
        buf_add(b, "}\n");
    }
    ind(b, depth);
    buf_add(b, "}\n");
}

/* The first nest of I-J loop l of group G. */
static Unit *loop_unit(Block *bl, FGroup *G, int l) {
    int i = fpo_loop_first(bl, G, l);
    return i < G->first + G->count ? &bl->u[i] : NULL;
}

/* The box of I-J loop l of group G: its nests share K; its I and J ranges are the union of
 * theirs (bounds of one base, pass_merge), the ranges all of them run in *common. */
static SBox loop_box(Block *bl, FGroup *G, int l, SBox *common) {
    Unit *f = loop_unit(bl, G, l);
    SBox x = f->box, c = x;
    for (int i = (int)(f - bl->u); i < G->first + G->count && bl->u[i].loop == l; i++) {
        SBox *v = &bl->u[i].box;
        for (int d = 0; d < 2; d++) {
            if (v->lo[d].off < x.lo[d].off)
                x.lo[d] = v->lo[d];
            if (v->hi[d].off > x.hi[d].off)
                x.hi[d] = v->hi[d];
            if (v->lo[d].off > c.lo[d].off)
                c.lo[d] = v->lo[d];
            if (v->hi[d].off < c.hi[d].off)
                c.hi[d] = v->hi[d];
        }
    }
    if (common)
        *common = c;
    return x;
}

/* A fused group: one parallel loop over the union of its K ranges; per level, its I-J loops
 * in order, each guarded by its own K range; with a row pipeline (pass_rows), one loop over
 * rows per level, loop l running the row lag[l] behind. */
/* The K range of a fused group's I-J loop l (fpo_kb<l>, fpo_ke<l>). */
static void k_range(Buf *b, Block *bl, FGroup *G, int l, int depth) {
    Unit *f = loop_unit(bl, G, l);
    ind(b, depth);
    buf_printf(b, "const int64_t fpo_kb%d = %s, fpo_ke%d = %s;\n", l, bound(f->box.lo[2]), l,
               bound(f->box.hi[2]));
}

/* The K ranges of a fused group's I-J loops and their union. */
static void fused_bounds(Buf *b, Block *bl, FGroup *G, int depth) {
    int nloops = bl->u[G->first + G->count - 1].loop + 1;
    for (int l = 0; l < nloops; l++)
        k_range(b, bl, G, l, depth);
    ind(b, depth);
    buf_add(b, "int64_t fpo_klo = fpo_kb0, fpo_khi = fpo_ke0;\n");
    for (int l = 1; l < nloops; l++)
        widen_range(b, depth, "fpo_klo", fpo_fmt("fpo_kb%d", l), "fpo_khi", fpo_fmt("fpo_ke%d", l));
}

/* The slots nests of groups g0 .. g0 + ng - 1 (consecutive) touch, in slot order. */
static int *groups_slots(Sched *s, Block *bl, FGroup *g0, int ng, int *n) {
    int count = g0[ng - 1].first + g0[ng - 1].count - g0->first;
    return fpo_nests_slots(s, bl, g0->first, count, n);
}

/* This thread's plane of slot x: a whole level, or a ring of rows. */
static void plane_view(Buf *b, Sched *s, int x, int depth) {
    const char *t = fpo_c_type(s->slots[x]->dt), *n = slot_name(s, x);
    ind(b, depth);
    buf_printf(b, "const int64_t fpo_sj_%s = p->hi[%d][0] - p->lo[%d][0];\n", n, x, x);
    ind(b, depth);
    if (s->ring[x])   /* a ring of rows: row j at j & (rows - 1) */
        buf_printf(b, "%s *restrict %s = (%s *)FPO_MINE(p, %d) - p->lo[%d][0];   "
                      "/* ring of %d rows */\n",
                   t, n, t, x, x, s->ring[x]);
    else
        buf_printf(b, "%s *restrict %s = (%s *)FPO_MINE(p, %d) - (p->lo[%d][0] + "
                      "p->lo[%d][1] * fpo_sj_%s);\n",
                   t, n, t, x, x, x, n);
}

/* This thread's planes of a fused group. */
static void plane_views(Buf *b, Sched *s, Block *bl, FGroup *G, int depth) {
    int nx, *xs = groups_slots(s, bl, G, 1, &nx);
    for (int e = 0; e < nx; e++)
        if (xs[e] >= s->nfparams && s->store[xs[e]] == SK_PLANE)
            plane_view(b, s, xs[e], depth);
}

/* A row pipeline's fetches at step fpo_r of level k before its I-J loop l (pass_prefetch): of
 * each array, the row it first touches p->fetch_rows steps later. The arrays are spread over
 * the step's loops, a row each before every few loops: a burst of every row at once fills the
 * core's misses in flight, and stalls it (the chain's pipeline lost 10 % so). */
static void fetch_rows(Buf *b, Sched *s, FGroup *G, int l, int nloops, const int *fx, int n,
                       int *m, int d) {
    for (; *m < n && (int64_t)*m * nloops / n == l; ++*m) {   /* the m-th goes before loop
                                                              * m * nloops / n */
        int x = fx[*m];
        ind(b, d);
        buf_add(b, "if (p->fetch_rows)   /* the row it first touches fetch_rows steps on */\n");
        Buf j = {0}, lev = {0};
        fpo_c_offset(&j, "fpo_r + p->fetch_rows", G->fetch[x].dj);
        fpo_c_offset(&lev, "k", G->fetch[x].dk);
        ind(b, d + 1);
        buf_printf(b, "fpo_fetch_row_(&%s, sizeof(%s), %s, %s);\n", fpo_array_of(s, x),
                   fpo_c_type(s->slots[x]->dt), j.s, lev.s);
    }
}

/* The nests of I-J loop l of a fused group: [*first, end) (first: NULL where not wanted). */
static int loop_nests(Block *bl, FGroup *G, int l, int *first) {
    int end = fpo_loop_first(bl, G, l);
    if (first)
        *first = end;
    while (end < G->first + G->count && bl->u[end].loop == l)
        end++;
    return end;
}

/* I-J loop l of a fused group at level k: its whole box, or (with lags) its row
 * fpo_r - lag[l], within `rows` when given (a joined group: this thread's rows). */
static void fused_loop(Buf *b, Sched *s, Sub *m, Block *bl, FGroup *G, int l, const char *rows,
                       int d) {
    SBox common, box = loop_box(bl, G, l, &common);
    ind(b, d);
    buf_printf(b, "if (k >= fpo_kb%d && k < fpo_ke%d) {\n", l, l);
    int first, end = loop_nests(bl, G, l, &first);
    /* Scalars of this loop. */
    Buf pre = {0};
    int nx, *xs = fpo_nests_slots(s, bl, first, end - first, &nx);
    for (int e = 0; e < nx; e++) {
        int x = xs[e];
        if (x >= s->nfparams && s->store[x] == SK_SCALAR)
            buf_printf(&pre, "%s %s = 0;\n(void)%s;\n", fpo_c_type(s->slots[x]->dt),
                       slot_name(s, x), slot_name(s, x));
    }
    Points ps = {.m = m, .pre = pre};
    for (int i = first; i < end; i++) {
        Unit *u = &bl->u[i];
        Group *g = &u->si->groups[u->comp][u->iv][u->grp];
        add_pt(&ps, u, g->first, g->count);
    }
    if (G->lag) {   /* one row: lag[l] behind the step */
        ind(b, d + 1);
        buf_printf(b, "const int64_t j = fpo_r - %d;\n", G->lag[l]);
        ind(b, d + 1);
        buf_printf(b, "if (j >= %s && j < %s%s) {\n", bound(box.lo[1]), bound(box.hi[1]),
                   rows ? rows : "");
        row(b, &box, &common, &ps, d + 2);
        ind(b, d + 1);
        buf_add(b, "}\n");
    } else
        ij_loops(b, &box, &common, &ps, d + 1);
    ind(b, d);
    buf_add(b, "}\n");
}

static bool array_written(Sched *s, int x);

/* The views of a fused group whose loops go to functions (chunk_fn): one struct a group,
 * filled once a thread in its parallel region, each view a member of the name it has there;
 * slot x's part of the struct's declaration, of its initializer, or a function's views of x
 * taken from it. */
enum { VIEW_MEMBER, VIEW_INIT, VIEW_LOCAL };
static void view_text(Buf *b, Sched *s, int x, int as) {
    const char *t = fpo_c_type(s->slots[x]->dt), *n = slot_name(s, x);
    bool array = s->store[x] == SK_ARRAY;
    const char *cq = array && !array_written(s, x) ? "const " : "";
    if (as == VIEW_MEMBER)
        buf_printf(b, "    %s%s *%s;\n    int64_t fpo_sj_%s%s%s;\n", cq, t, n, n,
                   array ? ", fpo_sk_" : "", array ? n : "");
    else if (as == VIEW_INIT)
        buf_printf(b, ", %s, fpo_sj_%s%s%s", n, n, array ? ", fpo_sk_" : "", array ? n : "");
    else {
        buf_printf(b, "    %s%s *restrict %s = fpo_c->%s;\n", cq, t, n, n);
        buf_printf(b, "    const int64_t fpo_sj_%s = fpo_c->fpo_sj_%s;\n", n, n);
        if (array)
            buf_printf(b, "    const int64_t fpo_sk_%s = fpo_c->fpo_sk_%s;\n", n, n);
        buf_printf(b, "    (void)%s, (void)fpo_sj_%s%s%s;\n", n, n, array ? ", (void)fpo_sk_" : "",
                   array ? n : "");
    }
}

/* Whether slot x's views are in a fused group's struct of views (view_text). */
static bool viewed(Sched *s, int x) {
    return s->store[x] == SK_ARRAY || (x >= s->nfparams && s->store[x] == SK_PLANE);
}

/* A fused group's K loop body larger than this many bytes of C goes to functions of about
 * this size (chunk_fn): GCC's time on a function grows faster than the function (the example
 * model's step, variant `all`, at -O3: 24 s with its group's 25 loops in one function, 7.8 s
 * in 6; the shallow-water step's: 82 s and 43 s), and a call a step of the pipeline costs
 * little beside a chunk's rows. Smaller bodies (a variant of inner tiles, most ranks of a large
 * run) stay inline. */
enum { FN_BYTES = 96 * 1024 };

/* The tile's numbers, as run's views and a loop function use them. */
static void tile_numbers(Buf *b) {
    buf_add(b, "    const int64_t fpo_ti = p->dom.i0, fpo_tj = p->dom.j0, fpo_tni = p->dom.tile_nx, "
               "fpo_tnj = p->dom.tile_ny;\n    const unsigned fpo_edges = p->edges;\n"
               "    (void)fpo_ti, (void)fpo_tj, (void)fpo_tni, (void)fpo_tnj, (void)fpo_edges;\n");
}

/* Loops [l0, l1) of a fused group (their C, `loops`, written at depth 0) as one function
 * (`static void fpo_loopsN`, written to the file before run: fpo_c_fns) and its call in the
 * group's K loop (with lags: at step fpo_r), the fetches ahead before each loop as inline
 * (fetch_rows, *fm). The function takes the views its nests touch from the thread's struct
 * `views` (view_text) into restrict locals of the names the inline loops use, and the tile's
 * numbers and its loops' K ranges from p; the stages' scalar arguments, evaluated once a
 * group, come as parameters. It has the vectors run has (FPO_NARROW_, pass_width). */
static void chunk_fn(Buf *b, Sched *s, Sub *m, Block *bl, FGroup *G, int l0, int l1,
                     const Buf *loops, int nloops, const int *fx, int nf, int *fm, const char *views,
                     int d) {
    Buf *f = fpo_c_fns(m->ctx), params = {0}, args = {0};
    const char *name = fpo_fmt("fpo_loops%d", s->nfns++);
    int first = fpo_loop_first(bl, G, l0), end = loop_nests(bl, G, l1 - 1, NULL);
    int na;
    ScalarArg *a = stage_scalars(&bl->u[first], end - first, &na);
    for (int i = 0; i < na; i++) {
        buf_printf(&params, ", const %s %s", scalar_type(a[i]), scalar_name(a[i]));
        buf_printf(&args, ", %s", scalar_name(a[i]));
    }
    Loc loc = bl->u[G->first].stage->loc;
    buf_printf(f, "\n/* run's fused group at %s:%d: I-J loops %d to %d (%s to %s), at level k%s */\n",
               fpo_loc_path(loc), loc.line, l0, l1 - 1, bl->u[first].st->name,
               bl->u[end - 1].st->name, G->lag ? ", step fpo_r" : "");
    buf_printf(f, "%sstatic void %s(%s *p, const struct %s *fpo_c, const int64_t k%s%s) {\n",
               s->narrow ? "FPO_NARROW_\n" : "", name, fpo_c_prog(m->ctx), views,
               G->lag ? ", const int64_t fpo_r" : "", params.s ? params.s : "");
    buf_printf(f, "    const int64_t nx = p->dom.nx, ny = p->dom.ny, nz = p->dom.nz;\n"
                  "    (void)nx, (void)ny, (void)nz, (void)k%s;\n", G->lag ? ", (void)fpo_r" : "");
    tile_numbers(f);
    for (int i = 0; i < na; i++)
        buf_printf(f, "    (void)%s;\n", scalar_name(a[i]));
    for (int l = l0; l < l1; l++)
        k_range(f, bl, G, l, 1);
    int nx, *xs = fpo_nests_slots(s, bl, first, end - first, &nx);
    for (int i = 0; i < nx; i++)
        if (viewed(s, xs[i]))
            view_text(f, s, xs[i], VIEW_LOCAL);
    for (int l = l0; l < l1; l++) {
        if (G->lag)
            fetch_rows(f, s, G, l, nloops, fx, nf, fm, 1);
        fpo_c_indented(f, loops[l].s, loops[l].len, 1);
    }
    buf_add(f, "}\n");
    ind(b, d);
    buf_printf(b, "%s(p, &fpo_c, k%s%s);\n", name, G->lag ? ", fpo_r" : "",
               args.s ? args.s : "");
}

static void emit_fused(Buf *b, Sched *s, Sub *m, Block *bl, FGroup *G, int depth) {
    ind(b, depth);
    buf_printf(b, "{   /* fused: %d nests, K outermost */\n", G->count);
    scalar_args(b, &bl->u[G->first], G->count, depth + 1);
    int nloops = bl->u[G->first + G->count - 1].loop + 1;
    fused_bounds(b, bl, G, depth + 1);
    if (G->lag) {   /* the row pipeline's steps: loop l runs row r - lag[l] at step r */
        DBound *lo = NULL, *hi = NULL;
        int nlo = 0, nhi = 0;
        for (int l = 0; l < nloops; l++) {
            SBox f = loop_box(bl, G, l, NULL);
            f.lo[1].off += G->lag[l];
            f.hi[1].off += G->lag[l];
            bound_fold(&lo, &nlo, f.lo[1], -1);
            bound_fold(&hi, &nhi, f.hi[1], 1);
        }
        ind(b, depth + 1);
        buf_printf(b, "int64_t fpo_rlo = %s, fpo_rhi = %s;\n", bound(lo[0]), bound(hi[0]));
        for (int i = 1; i < nlo; i++) {   /* bounds on other bases: compared at run time */
            ind(b, depth + 1);
            buf_printf(b, "if (%s < fpo_rlo) fpo_rlo = %s;\n", bound(lo[i]), bound(lo[i]));
        }
        for (int i = 1; i < nhi; i++) {
            ind(b, depth + 1);
            buf_printf(b, "if (%s > fpo_rhi) fpo_rhi = %s;\n", bound(hi[i]), bound(hi[i]));
        }
    }
    /* Each loop's C, written once at depth 0 and placed inline or, where a group's loops
     * come to more than FN_BYTES, in functions of about FN_BYTES each (chunk_fn; not with
     * --instrument bounds, whose record fpo_kout is run's, nor for one loop, which would be as
     * large a function). */
    Buf *loops = fpo_new(sizeof(Buf) * (size_t)nloops);
    size_t total = 0;
    for (int l = 0; l < nloops; l++) {
        fused_loop(&loops[l], s, m, bl, G, l, NULL, 0);
        total += loops[l].len;
    }
    bool fns = fpo_c_fns(m->ctx) && !s->ins.bounds && nloops > 1 && total > FN_BYTES;
    omp(b, "parallel num_threads(p->nthreads)");
    ind(b, depth + 1);
    buf_add(b, "{\n");
    plane_views(b, s, bl, G, depth + 2);
    const char *views = fns ? fpo_fmt("fpo_views%d", s->nfns) : NULL;
    if (fns) {   /* the views the loops' functions take (view_text) */
        Buf *f = fpo_c_fns(m->ctx), init = {0};
        int nv, *vs = groups_slots(s, bl, G, 1, &nv);
        buf_printf(f, "\n/* the views of run's fused group at %s:%d, for its loops' functions */\n"
                      "struct %s {\n", fpo_loc_path(bl->u[G->first].stage->loc),
                   bl->u[G->first].stage->loc.line, views);
        for (int e = 0; e < nv; e++)
            if (viewed(s, vs[e])) {
                view_text(f, s, vs[e], VIEW_MEMBER);
                view_text(&init, s, vs[e], VIEW_INIT);
            }
        buf_add(f, "};\n");
        ind(b, depth + 2);
        buf_printf(b, "const struct %s fpo_c = {%s};\n", views, init.s ? init.s + 2 : "0");
    }
    omp(b, "for schedule(static)");
    ind(b, depth + 2);
    buf_add(b, "for (int64_t k = fpo_klo; k < fpo_khi; k++) {\n");
    int d = depth + 3;
    if (G->lag) {
        ind(b, d);
        buf_add(b, "for (int64_t fpo_r = fpo_rlo; fpo_r < fpo_rhi; fpo_r++) {   /* rows in a "
                   "pipeline */\n");
        d++;
    }
    int nf = 0, *fx = NULL, fm = 0;   /* the slots fetched ahead, in slot order */
    if (G->lag && G->fetch) {
        int nx, *xs = groups_slots(s, bl, G, 1, &nx);
        for (int e = 0; e < nx; e++)
            if (G->fetch[xs[e]].on)
                VPUSH(fx, nf, xs[e]);
    }
    for (int l = 0; l < nloops;) {
        if (fns) {   /* loops [l, l1) to about FN_BYTES */
            int l1 = l + 1;
            for (size_t n = loops[l].len; l1 < nloops && n + loops[l1].len <= FN_BYTES;)
                n += loops[l1++].len;
            chunk_fn(b, s, m, bl, G, l, l1, loops, nloops, fx, nf, &fm, views, d);
            l = l1;
            continue;
        }
        if (G->lag)
            fetch_rows(b, s, G, l, nloops, fx, nf, &fm, d);
        fpo_c_indented(b, loops[l].s, loops[l].len, d);
        l++;
    }
    if (G->lag) {
        ind(b, depth + 3);
        buf_add(b, "}\n");
    }
    if (streams(G)) {
        ind(b, depth + 3);
        buf_add(b, "fpo_stream_fence_();\n");
    }
    closes(b, depth, 3);
}

/* A column group's row range (fpo_jlo, fpo_jhi) and its nests' K ranges (fpo_cb<i>, fpo_ce<i>). */
static void column_bounds(Buf *b, Block *bl, FGroup *G, int depth) {
    Unit *u0 = &bl->u[G->first];
    ind(b, depth);
    buf_printf(b, "int64_t fpo_jlo = %s, fpo_jhi = %s;\n", bound(u0->box.lo[1]),
               bound(u0->box.hi[1]));
    for (int i = 0; i < G->count; i++) {
        Unit *u = &u0[i];
        ind(b, depth);
        buf_printf(b, "const int64_t fpo_cb%d = %s, fpo_ce%d = %s;\n", i, bound(u->box.lo[2]), i,
                   bound(u->box.hi[2]));
        SBox x = fpo_unit_points(u);   /* (a sequential nest: over its statement groups) */
        widen_range(b, depth, "fpo_jlo", bound(x.lo[1]), "fpo_jhi", bound(x.hi[1]));
    }
}

/* This thread's strips among the slots groups [g0, g0 + ng) touch: its row of every level (J
 * stride 0; for small nz the array itself), its rows fpo_j0 .. fpo_j0 + COLUMN_ROWS of every
 * level (`block`: a column group's block of rows), a ring of the last levels of those rows
 * (pass_kcache), or its ring of rows of every level. */
static void strip_views(Buf *b, Sched *s, Block *bl, FGroup *g0, int ng, bool block, int depth) {
    int nx, *xs = groups_slots(s, bl, g0, ng, &nx);
    for (int e = 0; e < nx; e++) {
        int x = xs[e];
        if (x < s->nfparams || s->store[x] != SK_STRIP)
            continue;
        const char *t = fpo_c_type(s->slots[x]->dt), *f = fpo_fmt("p->tmp[%d]", x - s->nfparams);
        const char *n = slot_name(s, x);
        if (s->kring[x]) {   /* row j of level k at (j - fpo_j0) * sj + (k & (levels - 1)) * sk */
            ind(b, depth);
            buf_printf(b, "const int64_t fpo_sj_%s = %s, fpo_sk_%s = %s;\n", n,
                       block ? fpo_fmt("p->hi[%d][0] - p->lo[%d][0]", x, x) : "0", n,
                       block ? fpo_fmt("%d * fpo_sj_%s", COLUMN_ROWS, n)
                             : fpo_fmt("p->hi[%d][0] - p->lo[%d][0]", x, x));
            ind(b, depth);
            buf_printf(b, "%s *restrict %s = (%s *)FPO_MINE(p, %d) - (p->lo[%d][0]%s);   "
                          "/* a ring of %d levels */\n",
                       t, n, t, x, x, block ? fpo_fmt(" + fpo_j0 * fpo_sj_%s", n) : "",
                       s->kring[x]);
            continue;
        }
        if (s->ring[x]) {   /* row j of level k at (j & (rows - 1)) * sj + k * sk */
            ind(b, depth);
            buf_printf(b, "const int64_t fpo_sj_%s = p->hi[%d][0] - p->lo[%d][0], "
                          "fpo_sk_%s = %d * fpo_sj_%s;\n", n, x, x, n, s->ring[x], n);
            ind(b, depth);
            buf_printf(b, "%s *restrict %s = (%s *)FPO_MINE(p, %d) - (p->lo[%d][0] + "
                          "p->lo[%d][2] * fpo_sk_%s);   /* ring of %d rows of every level */\n",
                       t, n, t, x, x, x, n, s->ring[x]);
            continue;
        }
        ind(b, depth);
        buf_printf(b, "const int fpo_strip%d = nz >= %d;\n", x, s->strip_nz[x]);
        ind(b, depth);
        if (block)   /* row j of level k at (j - fpo_j0) * sj + k * sk */
            buf_printf(b, "const int64_t fpo_sj_%s = fpo_strip%d ? p->hi[%d][0] - p->lo[%d][0] "
                          ": %s.stride[1], fpo_sk_%s = fpo_strip%d ? %d * fpo_sj_%s : "
                          "%s.stride[2];\n",
                       n, x, x, x, f, n, x, COLUMN_ROWS, n, f);
        else
            buf_printf(b, "const int64_t fpo_sj_%s = fpo_strip%d ? 0 : %s.stride[1], "
                          "fpo_sk_%s = fpo_strip%d ? p->hi[%d][0] - p->lo[%d][0] : "
                          "%s.stride[2];\n",
                       n, x, f, n, x, x, x, f);
        ind(b, depth);
        buf_printf(b, "%s *restrict %s = fpo_strip%d ? (%s *)FPO_MINE(p, %d) - (p->lo[%d][0] + "
                      "p->lo[%d][2] * fpo_sk_%s%s) : (%s *)%s.data - (%s.lo[0] + %s.lo[1] * "
                      "fpo_sj_%s + %s.lo[2] * fpo_sk_%s);\n",
                   t, n, x, t, x, x, x, n, block ? fpo_fmt(" + fpo_j0 * fpo_sj_%s", n) : "",
                   t, f, f, f, n, f, n);
    }
}

/* Nest u at level k of row j of a column group: its statement groups, each in its rows, I
 * innermost. */
static void column_points(Buf *b, Sub *m, Unit *u, int depth) {
    m->u = u;
    int ngr = u->grp < 0 ? u->si->ngroups[u->comp][u->iv] : 1;
    for (int g = 0; g < ngr; g++) {
        Group *G2 = &u->si->groups[u->comp][u->iv][u->grp < 0 ? g : u->grp];
        SBox x = u->grp < 0 ? fpo_group_box(u, G2) : u->box;
        ind(b, depth);
        buf_printf(b, "if (j >= %s && j < %s) {\n", bound(x.lo[1]), bound(x.hi[1]));
        Points ps = {.m = m};
        add_pt(&ps, u, G2->first, G2->count);
        iloop(b, &ps, bound(x.lo[0]), bound(x.hi[0]), depth + 1);
        ind(b, depth);
        buf_add(b, "}\n");
    }
}

/* Row j of a column group (`block`: rows fpo_j0 .. fpo_j1): each nest in order over its K
 * range (in its K order), the block's rows one after another at each level, I innermost. The
 * nests inside a sweep (pass_kcache) run in each of the sweep's loops, after its nest at each
 * level of their own range. */
static void column_row(Buf *b, Sub *m, Block *bl, FGroup *G, bool block, int depth) {
    Unit *u0 = &bl->u[G->first];
    /* the nests inside sweeps, in order: their hosts never decrease (each sweep's follow it) */
    int *hosted = fpo_new(sizeof(int) * ((size_t)G->count + 1)), nh = 0;
    for (int c = 0; c < G->count; c++)
        if (fpo_nest_host(G, c) >= 0)
            hosted[nh++] = c;
    for (int i = 0; i < G->count; i++) {
        if (fpo_nest_host(G, i) >= 0)
            continue;
        Unit *u = &u0[i];
        ind(b, depth);
        if (u->par || u->st->comps[u->comp].order == ORD_FORWARD)
            buf_printf(b, "for (int64_t k = fpo_cb%d; k < fpo_ce%d; k++) {\n", i, i);
        else
            buf_printf(b, "for (int64_t k = fpo_ce%d - 1; k >= fpo_cb%d; k--) {\n", i, i);
        int d = depth + 1 + block;
        if (block) {
            ind(b, depth + 1);
            buf_add(b, "for (int64_t j = fpo_j0; j < fpo_j1; j++) {\n");
        }
        column_points(b, m, u, d);
        /* The nests inside its sweep: after it, hosted by the sweep's first nest, at or before
         * it (the first hosted nest after it by binary search, then while their host is) */
        int lo = 0, hi = nh;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (hosted[mid] <= i)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (int x = lo; x < nh && fpo_nest_host(G, hosted[x]) <= i; x++) {
            int c = hosted[x];
            ind(b, d);
            buf_printf(b, "if (k >= fpo_cb%d && k < fpo_ce%d) {   /* %s, inside the sweep */\n",
                       c, c, u0[c].st->name);
            column_points(b, m, &u0[c], d + 1);
            ind(b, d);
            buf_add(b, "}\n");
        }
        closes(b, depth, 1 + block);
    }
}

/* The slots of column group G that are strips of every level (not rings), in slot order:
 * what sets the rows of its blocks (fpo_column_rows). */
static int *full_strips(Sched *s, Block *bl, FGroup *G, int *n) {
    int nx, *xs = groups_slots(s, bl, G, 1, &nx);
    *n = 0;
    for (int e = 0; e < nx; e++) {
        int x = xs[e];
        if (x >= s->nfparams && s->store[x] == SK_STRIP && !s->ring[x] && !s->kring[x])
            xs[(*n)++] = x;
    }
    return xs;
}

/* Number the column groups whose blocks' rows open sets (run by blocks, not joined, with
 * strips of every level), once: s->col_rows[block][group] is a group's entry in p->col_rows,
 * -1 for the others, which take COLUMN_ROWS; s->ncol_rows how many there are. */
static void number_col_rows(Sched *s) {
    if (s->col_rows)
        return;
    s->col_rows = fpo_new(sizeof(int *) * (size_t)(s->nblocks + 1));
    for (int k = 0; k < s->nblocks; k++) {
        Block *bl = &s->blocks[k];
        s->col_rows[k] = fpo_new(sizeof(int) * (size_t)(bl->ng + 1));
        for (int g = 0; g < bl->ng; g++) {
            int n = 0;
            s->col_rows[k][g] = -1;
            if (!bl->g[g].column || (g > 0 && bl->g[g - 1].join))
                continue;
            full_strips(s, bl, &bl->g[g], &n);
            if (n)
                s->col_rows[k][g] = s->ncol_rows++;
        }
    }
}

static int col_rows_index(Sched *s, Block *bl, FGroup *G) {
    number_col_rows(s);
    return s->col_rows[bl - s->blocks][G - bl->g];
}

int fpo_ncol_rows(Sched *s) {
    number_col_rows(s);
    return s->ncol_rows;
}

/* A column group: blocks of J rows in parallel (single rows when there are too few for every
 * thread to take several blocks of COLUMN_ROWS); per block, each nest in order over its K
 * range (in its K order), the block's rows at each level, I innermost. Strips hold the
 * block's rows, so a level is read and written several rows at a time; with the K-caches of
 * pass_kcache that is faster than row by row. A block takes as many rows (at most
 * COLUMN_ROWS, the strips' size) as keep its strips within half the level-2 cache
 * (fpo_column_rows): more spill them to the next cache between the sweeps (docs/optimizer.md). */
static void emit_column(Buf *b, Sched *s, Sub *m, Block *bl, FGroup *G, int depth) {
    ind(b, depth);
    buf_printf(b, "{   /* column by column: %d nests, blocks of J rows outermost */\n", G->count);
    scalar_args(b, &bl->u[G->first], G->count, depth + 1);
    column_bounds(b, bl, G, depth + 1);
    int c = col_rows_index(s, bl, G);
    ind(b, depth + 1);
    buf_printf(b, "const int64_t fpo_rows = fpo_jhi - fpo_jlo >= %d * (int64_t)p->nthreads ? %s : 1;\n",
               4 * COLUMN_ROWS, c < 0 ? fpo_fmt("%d", COLUMN_ROWS) : fpo_fmt("p->col_rows[%d]", c));
    omp(b, "parallel for schedule(static) num_threads(p->nthreads)");
    ind(b, depth + 1);
    buf_add(b, "for (int64_t fpo_j0 = fpo_jlo; fpo_j0 < fpo_jhi; fpo_j0 += fpo_rows) {\n");
    ind(b, depth + 2);
    buf_add(b, "const int64_t fpo_j1 = fpo_j0 + fpo_rows < fpo_jhi ? fpo_j0 + fpo_rows : fpo_jhi;\n");
    strip_views(b, s, bl, G, 1, true, depth + 2);
    column_row(b, m, bl, G, true, depth + 2);
    if (streams(G)) {
        ind(b, depth + 2);
        buf_add(b, "fpo_stream_fence_();\n");
    }
    closes(b, depth, 2);
}

/* A fused group joined with the column group after it (pass_rows): each thread takes its
 * share [fpo_c0, fpo_c1) of the column group's rows; per step r, every level of the fused
 * group's pipeline (loop l: row r - lag[l], within the rows its readers need), then the
 * column group's row r - lagc over all its levels. */
static void emit_joined(Buf *b, Sched *s, Sub *m, Block *bl, FGroup *G, int depth) {
    FGroup *C = G + 1;
    int nloops = bl->u[G->first + G->count - 1].loop + 1;
    ind(b, depth);
    buf_printf(b, "{   /* rows outermost: fused group (%d nests) and column group (%d nests) "
                  "joined */\n", G->count, C->count);
    scalar_args(b, &bl->u[G->first], G->count + C->count, depth + 1);
    fused_bounds(b, bl, G, depth + 1);
    column_bounds(b, bl, C, depth + 1);
    omp(b, "parallel num_threads(p->nthreads)");
    ind(b, depth + 1);
    buf_add(b, "{\n");
    int d = depth + 2;
    plane_views(b, s, bl, G, d);
    strip_views(b, s, bl, G, 2, false, d);
    ind(b, d);
    buf_add(b, "/* this thread's rows of the column group, and the steps that compute them */\n");
    ind(b, d);
    buf_add(b, "const int64_t fpo_n = fpo_jhi - fpo_jlo, fpo_t = FPO_TID, fpo_nt = FPO_TEAM;\n");
    ind(b, d);
    buf_add(b, "const int64_t fpo_c0 = fpo_jlo + fpo_n * fpo_t / fpo_nt, "
               "fpo_c1 = fpo_jlo + fpo_n * (fpo_t + 1) / fpo_nt;\n");
    ind(b, d);
    buf_printf(b, "int64_t fpo_rlo = fpo_c0 + %d, fpo_rhi = fpo_c1 + %d;\n", G->lagc, G->lagc);
    for (int l = 0; l < nloops; l++)
        if (G->nhi[l] >= G->nlo[l])
            widen_range(b, d, "fpo_rlo", fpo_fmt("fpo_c0 + %d", G->nlo[l] + G->lag[l]), "fpo_rhi",
                        fpo_fmt("fpo_c1 + %d", G->nhi[l] + G->lag[l]));
    ind(b, d);
    buf_add(b, "if (fpo_c1 <= fpo_c0)\n");
    ind(b, d + 1);
    buf_add(b, "fpo_rhi = fpo_rlo;   /* no rows for this thread */\n");
    ind(b, d);
    buf_add(b, "for (int64_t fpo_r = fpo_rlo; fpo_r < fpo_rhi; fpo_r++) {\n");
    ind(b, d + 1);
    buf_add(b, "for (int64_t k = fpo_klo; k < fpo_khi; k++) {\n");
    for (int l = 0; l < nloops; l++) {
        if (G->nhi[l] < G->nlo[l])
            continue;
        const char *rows = fpo_fmt(" && j >= fpo_c0 + %d && j < fpo_c1 + %d", G->nlo[l],
                                   G->nhi[l]);
        fused_loop(b, s, m, bl, G, l, rows, d + 2);
    }
    ind(b, d + 1);
    buf_add(b, "}\n");
    ind(b, d + 1);
    buf_add(b, "{   /* the column group */\n");
    ind(b, d + 2);
    buf_printf(b, "const int64_t j = fpo_r - %d;\n", G->lagc);
    ind(b, d + 2);
    buf_add(b, "if (j >= fpo_c0 && j < fpo_c1) {\n");
    column_row(b, m, bl, C, false, d + 3);
    ind(b, d + 2);
    buf_add(b, "}\n");
    ind(b, d + 1);
    buf_add(b, "}\n");
    closes(b, depth, 3);
}

static Var **aliases(Sched *s) {
    Var **a = fpo_new(sizeof(Var *) * (size_t)(s->nslots + 1));
    for (int x = 0; x < s->nslots; x++) {
        Var *v = s->slots[x];
        Axes ax = s->store[x] == SK_PLANE ? AX_IJ : s->store[x] == SK_SCALAR ? AX_SCALAR : v->ax;
        /* a strip is a 3D view with J stride 0 (or the array itself, for small nz) */
        a[x] = new_var(slot_name(s, x), v->loc, VK_TEMP, v->dt, ax);
        a[x]->rows = s->store[x] == SK_PLANE || s->store[x] == SK_STRIP ? s->ring[x] : 0;
        a[x]->krows = s->store[x] == SK_STRIP ? s->kring[x] : 0;
        a[x]->slot_of = v, a[x]->slot = x;
    }
    return a;
}

bool fpo_sched_inline(Sched *s) {
    return s->fused || fpo_instrumented(&s->ins);
}

/* ---- instrumentation, after each group ---- */

static int ngroups(Sched *s) {
    int n = 0;
    for (int k = 0; k < s->nblocks; k++)
        n += s->blocks[k].ng;
    return n;
}

/* The first assignment to `slot` in statements n, looking into regions, both arms of ifs and
 * loops (any of them may be empty). */
static Node *writer_in(Sched *s, Unit *u, Node *n, int slot) {
    for (; n; n = n->next) {
        if (n->kind == ND_ASSIGN && fpo_call_slot(s, u, n->lhs->var) == slot)
            return n;
        Node *w = n->kind == ND_IF ? writer_in(s, u, n->then, slot) : NULL;
        if (!w && n->kind == ND_IF)
            w = writer_in(s, u, n->els, slot);
        if (!w && n->kind != ND_ASSIGN)
            w = writer_in(s, u, n->body, slot);
        if (w)
            return w;
    }
    return NULL;
}

/* The first statement of the nest writing `slot` (for the message's .fpo line). */
static Loc writer_loc(Sched *s, Unit *u, int slot) {
    Node *w = writer_in(s, u, u->st->comps[u->comp].ivs[u->iv].body, slot);
    return w ? w->loc : u->stage->loc;
}

/* "file:line" of l, for the inside of a printf format (fpo_c_fmt). */
static const char *where(Loc l) {
    return fpo_c_fmt(fpo_fmt("%s:%d", fpo_loc_path(l), l.line));
}

/* The first point of u's box where slot x fails `test` (fn: a host search over the array, or
 * with `device` a FPO_CUDA_* test of fpo_cuda_find over device memory) fails the run. */
static void emit_find(Buf *b, Sched *s, Unit *u, int x, const char *fn, const char *what,
                      bool device) {
    SBox w = fpo_unit_points(u);
    Loc l = writer_loc(s, u, x);
    const char *bx = fpo_fmt("%s, %s, %s, %s, %s, %s", bound(w.lo[0]), bound(w.hi[0]),
                             bound(w.lo[1]), bound(w.hi[1]), bound(w.lo[2]), bound(w.hi[2]));
    const char *n = slot_name(s, x);
    if (device)
        buf_printf(b, "    if (fpo_cuda_find(fpo__cu, %s, &%s, %s, fpo_at))\n", fn,
                   fpo_array_of(s, x), bx);
    else
        buf_printf(b, "    if (%s(%s, fpo_sj_%s, fpo_sk_%s, %s, fpo_at))\n", fn, n, n, n, bx);
    buf_printf(b, "        return fpo_fail(err, FPO_ECHECK, \"%s: %s in '%s' at (i=%%lld, j=%%lld, "
                  "k=%%lld), written by stencil '%s' at %s (called at %s)\", (long long)fpo_at[0], "
                  "(long long)fpo_at[1], (long long)fpo_at[2]);\n",
               s->ir->name, what, s->slots[x]->name, u->st->name, where(l), where(u->stage->loc));
}

/* --instrument bounds: after a group whose reads site0 + 1 .. s->nksites are checked
 * (fpo_klev_), the first out of its field's levels fails the run, naming it. */
static void emit_kcheck(Buf *b, Sched *s, int site0) {
    if (!s->ins.bounds || s->nksites == site0)
        return;
    buf_add(b, "    if (fpo_kout.site) {\n        static const char *const fpo_ks[] = {\n");
    for (int k = site0; k < s->nksites; k++)
        buf_printf(b, "            %s,\n", fpo_c_string(s->ksites[k]));
    buf_printf(b, "        };\n        return fpo_fail(err, FPO_ECHECK, \"%s: level %%lld outside "
                  "%%lld .. %%lld read from %%s, at (i=%%lld, j=%%lld, k=%%lld)\", "
                  "(long long)fpo_kout.level, (long long)fpo_kout.lo, (long long)fpo_kout.hi, "
                  "fpo_ks[fpo_kout.site - %d], (long long)fpo_kout.at[0], (long long)fpo_kout.at[1], "
                  "(long long)fpo_kout.at[2]);\n    }\n",
               s->ir->name, site0 + 1);
}

void fpo_emit_checks(Buf *b, Sched *s, Block *bl, FGroup *G, int gno, int site0, bool device) {
    Instrument *n = &s->ins;
    static const char *sfx[] = {"f32", "f64", "i32", "bool"};
    bool kread = n->bounds && s->nksites > site0, arrays = n->nan || n->nnegative || n->trace ||
                                                          n->progress;
    if (device && (kread || arrays)) {   /* the group's kernels done, their failures first */
        buf_printf(b, "    {\n    fpo_status fpo_w = fpo_cuda_wait(fpo__cu, \"%s\", err);\n"
                      "    if (fpo_w)\n        return fpo_w;\n", s->ir->name);
        if (kread)   /* the kernels' record */
            buf_add(b, "    fpo_cuda_record_take(fpo__cu, &fpo_kout, sizeof fpo_kout);\n");
        buf_add(b, "    }\n");
    }
    emit_kcheck(b, s, site0);
    if (!arrays)
        return;
    buf_add(b, "    {\n    int64_t fpo_at[3];\n    (void)fpo_at;\n");
    for (int i = G->first; i < G->first + G->count; i++) {
        Unit *u = &bl->u[i];
        for (int a = 0; a < u->nacc; a++) {
            int x = u->acc[a].slot;
            Var *v = s->slots[x];
            if (!u->acc[a].write || s->store[x] != SK_ARRAY)
                continue;
            if (n->nan && (v->dt == DT_F64 || v->dt == DT_F32))
                emit_find(b, s, u, x,
                          device ? "FPO_CUDA_NAN" : fpo_fmt("fpo_find_nan_%s", sfx[v->dt]), "NaN",
                          device);
            for (int k = 0; k < n->nnegative; k++)
                if (!strcmp(n->negative[k], v->name) && v->dt != DT_BOOL)
                    emit_find(b, s, u, x,
                              device ? "FPO_CUDA_NEGATIVE" : fpo_fmt("fpo_find_neg_%s", sfx[v->dt]),
                              "negative value", device);
            if (n->trace) {
                SBox w = fpo_unit_points(u);
                buf_printf(b, "    if (%lld >= %s && %lld < %s && %lld >= %s && %lld < %s && %lld >= %s && "
                              "%lld < %s)\n",
                           (long long)n->at[0], bound(w.lo[0]), (long long)n->at[0], bound(w.hi[0]),
                           (long long)n->at[1], bound(w.lo[1]), (long long)n->at[1], bound(w.hi[1]),
                           (long long)n->at[2], bound(w.lo[2]), (long long)n->at[2], bound(w.hi[2]));
                buf_printf(b, "        fprintf(stderr, \"fpo trace: %s: %s(%lld, %lld, %lld) = %%.17g "
                              "after stencil '%s' (%s)\\n\", ",
                           s->ir->name, v->name, (long long)n->at[0], (long long)n->at[1],
                           (long long)n->at[2], u->st->name, where(writer_loc(s, u, x)));
                if (device)
                    buf_printf(b, "fpo_cuda_value(fpo__cu, &%s, %lld, %lld, %lld));\n",
                               fpo_array_of(s, x), (long long)n->at[0], (long long)n->at[1],
                               (long long)n->at[2]);
                else
                    buf_printf(b, "(double)%s[%lld + %lld * fpo_sj_%s + %lld * fpo_sk_%s]);\n",
                               slot_name(s, x), (long long)n->at[0], (long long)n->at[1],
                               slot_name(s, x), (long long)n->at[2], slot_name(s, x));
            }
        }
    }
    if (n->progress)
        buf_printf(b, "    fprintf(stderr, \"fpo: %s: group %d of %d done (%s, %d nests)\\n\");\n",
                   s->ir->name, gno + 1, ngroups(s), bl->u[G->first].st->name, G->count);
    buf_add(b, "    }\n");
}

void fpo_emit_timer(Buf *b, Sched *s, int gno, bool end, bool device, int depth) {
    if (!s->ins.timers)
        return;
    if (device) {   /* the group's kernels alone: the stream waited for at both ends */
        ind(b, depth);
        buf_printf(b, "{\n");
        ind(b, depth);
        buf_printf(b, "    fpo_status fpo_w = fpo_cuda_wait(fpo__cu, \"%s\", err);\n", s->ir->name);
        ind(b, depth);
        buf_add(b, "    if (fpo_w)\n");
        ind(b, depth);
        buf_add(b, "        return fpo_w;\n");
        ind(b, depth);
        buf_add(b, "}\n");
    }
    ind(b, depth);
    if (end)
        buf_printf(b, "p->timers[%d] += fpo_now() - fpo_tg%d;\n", gno, gno);
    else
        buf_printf(b, "const double fpo_tg%d = fpo_now();\n", gno);   /* one per group */
}

void fpo_emit_block(Buf *b, Sched *s, Node *stages, int depth, const void *ctx) {
    int gno;
    Block *bl = fpo_sched_block(s, stages, &gno);
    if (!bl)
        return;   /* a later node of a block: emitted with the first */
    Sub m = {s, NULL, aliases(s), ctx, NULL, fpo_run_new(s, at_i)};
    for (int g = 0; g < bl->ng; g++, gno++) {
        FGroup *G = &bl->g[g];
        const int site0 = s->nksites;   /* the reads this group's bounds check covers */
        m.u = &bl->u[G->first];
        m.g = G;
        fpo_emit_timer(b, s, gno, false, false, depth);
        if (G->join) {   /* this group and the next, a column group, as one */
            emit_joined(b, s, &m, bl, G, depth);
            g++, gno++;
        } else if (G->fused)
            emit_fused(b, s, &m, bl, G, depth);
        else if (G->column)
            emit_column(b, s, &m, bl, G, depth);
        else
            emit_plain(b, &m, m.u, depth);
        fpo_emit_timer(b, s, gno, true, false, depth);
        fpo_emit_checks(b, s, bl, G, gno, site0, false);
    }
}

/* File scope: the names of the timed groups. */
void fpo_emit_decls(Buf *b, Sched *s) {
    buf_add(b, "\nstatic const char *const fpo_timer_names[] = {");
    for (int k = 0; k < s->nblocks && s->ins.timers; k++)
        for (int g = 0; g < s->blocks[k].ng; g++) {
            Unit *u = &s->blocks[k].u[s->blocks[k].g[g].first];
            Loc l = u->stage->loc;
            buf_printf(b, "\n    \"%s (%s:%d)%s\",", u->st->name,
                       fpo_c_str(fpo_loc_path(l)), l.line,
                       s->blocks[k].g[g].count > 1 ? " and after" : "");
        }
    buf_add(b, "\n    NULL};\n");
}

/* Whether a nest of the program writes array x (its views are const where none does). */
static bool array_written(Sched *s, int x) {
    bool written = false;
    for (int e = 0; e < s->nusers[x]; e++)
        written |= fpo_unit_acc(&s->blocks[s->users[x][e].block].u[s->users[x][e].unit],
                                x)->write;
    return written;
}

/* The view of array x (a field or a temporary in the pool): a pointer at (0, 0, 0) and the
 * J and K strides. */
static void array_view(Buf *b, Sched *s, int x, int depth) {
    const char *f = fpo_array_of(s, x);
    const char *t = fpo_c_type(s->slots[x]->dt), *cq = array_written(s, x) ? "" : "const ";
    const char *n = slot_name(s, x);
    ind(b, depth);
    buf_printf(b, "const int64_t fpo_sj_%s = %s.stride[1], fpo_sk_%s = %s.stride[2];\n", n, f, n,
               f);
    ind(b, depth);
    buf_printf(b, "%s%s *restrict %s = (%s%s *)%s.data - (%s.lo[0] + %s.lo[1] * fpo_sj_%s + "
                  "%s.lo[2] * fpo_sk_%s);\n",
               cq, t, n, cq, t, f, f, f, n, f, n);
    ind(b, depth);
    buf_printf(b, "(void)fpo_sj_%s, (void)fpo_sk_%s, (void)%s;\n", n, n, n);
}

/* At the top of run: the tile's numbers, a pointer and strides per field parameter and array
 * temporary. */
void fpo_emit_views(Buf *b, Sched *s) {
    tile_numbers(b);
    if (s->ins.bounds)   /* the first variable-K read out of its field's levels (fpo_klev_) */
        buf_add(b, "    fpo_kbad_ fpo_kout = {0};\n    (void)fpo_kout;\n");
    for (int x = 0; x < s->nslots; x++)
        if (s->store[x] == SK_ARRAY && s->nusers[x] > 0)
            array_view(b, s, x, 1);
}

/* ---- open: one pool for every temporary; the memory report ---- */

/* The J rows of `slot`'s strip: a column group's block (emit_column), or a single row where
 * a joined group (emit_joined) runs its column group row by row. */
static int strip_rows(Sched *s, int slot) {
    for (int e = 0; e < s->nusers[slot]; e++) {   /* a nest of a group joined to the one before */
        Block *bl = &s->blocks[s->users[slot][e].block];
        int g = fpo_group_of(bl, s->users[slot][e].unit);
        if (g > 0 && bl->g[g - 1].join)
            return 1;
    }
    return COLUMN_ROWS;
}

/* Per slot x, the next slot after x sharing the space of x's owner (s->share), -1 after the
 * last: from an owner, the slots sharing its space in order. */
static int *sharers(Sched *s) {
    int *next = fpo_new(sizeof(int) * (size_t)(s->nslots + 1));
    int *last = fpo_new(sizeof(int) * (size_t)(s->nslots + 1));   /* per owner */
    for (int x = 0; x < s->nslots; x++)
        next[x] = -1, last[x] = x;
    for (int y = 0; y < s->nslots; y++) {
        int x = s->share[y];
        if (x < y) {   /* (an owner comes before the slots sharing its space) */
            next[last[x]] = y;
            last[x] = y;
        }
    }
    return next;
}

void fpo_emit_pool(Buf *b, Sched *s) {
    static const char *dts[] = {"FPO_F32", "FPO_F64", "FPO_I32", "FPO_BOOL"};
    static const char *axs[] = {"FPO_IJK", "FPO_IJ", "FPO_K"};
    buf_add(b, "    p->nthreads = FPO_NTHREADS;\n    p->fetch_rows = fpo_prefetch_rows();\n");
    /* Column groups: the J rows of their blocks, from their strips' bytes per row. */
    bool first = true;
    for (int k = 0; k < s->nblocks; k++)
        for (int g = 0; g < s->blocks[k].ng; g++) {
            Block *bl = &s->blocks[k];
            int c = col_rows_index(s, bl, &bl->g[g]);
            if (c < 0)
                continue;
            if (first)
                buf_add(b, "    const size_t fpo_l2 = fpo_cache_bytes(2);\n"
                           "    const int fpo_forced = fpo_column_rows_env();\n");
            first = false;
            buf_add(b, "    {\n        size_t fpo_rowb = 0;   /* bytes per J row of every level */\n");
            int nx, *xs = full_strips(s, bl, &bl->g[g], &nx);
            for (int e = 0; e < nx; e++) {
                int x = xs[e];
                buf_printf(b, "        if (nz >= %d)\n            fpo_rowb += sizeof(%s) * "
                              "(size_t)(p->hi[%d][0] - p->lo[%d][0]) * (size_t)(p->hi[%d][2] - "
                              "p->lo[%d][2]);\n",
                           s->strip_nz[x], fpo_c_type(s->slots[x]->dt), x, x, x, x);
            }
            buf_printf(b, "        p->col_rows[%d] = (unsigned char)fpo_column_rows(fpo_l2, "
                          "fpo_forced, fpo_rowb, %d);\n    }\n", c, COLUMN_ROWS);
        }
    for (int x = s->nfparams; x < s->nslots; x++) {
        Var *v = s->slots[x];
        buf_printf(b, "    /* %d: %s, %s */\n", x, v->name,
                   (const char *[]){"array",
                                    s->ring[x] ? "plane per thread, a ring of rows"
                                               : "plane per thread",
                                    "scalar",
                                    s->ring[x]    ? "ring of rows of every level, per thread"
                                    : s->kring[x] ? "ring of levels of a block of rows, per thread"
                                                  : "strip per thread (an array when nz is small)"}
                       [s->store[x]]);
        buf_printf(b, "    p->unfused_bytes += fpo_tmp_bytes(%s, %s, p->lo[%d], p->hi[%d]);\n",
                   dts[v->dt], axs[v->ax], x, x);
        if (s->store[x] == SK_SCALAR)
            continue;
        if (s->store[x] == SK_STRIP) {   /* its rows of every level, or of its ring's levels */
            const char *levels = s->kring[x] ? fpo_fmt("%d", s->kring[x])
                                             : fpo_fmt("(size_t)(p->hi[%d][2] - p->lo[%d][2])", x, x);
            buf_printf(b, "    if (nz >= %d) {\n        p->bytes[%d] = fpo_lines(fpo_dtype_size(%s) * "
                          "(size_t)(p->hi[%d][0] - p->lo[%d][0]) * %s * %d);\n"
                          "        p->by_kind[3] += p->bytes[%d] * (size_t)p->nthreads;\n    } else {\n"
                          "        p->bytes[%d] = fpo_tmp_bytes(%s, %s, p->lo[%d], p->hi[%d]);\n"
                          "        p->by_kind[0] += p->bytes[%d];\n    }\n",
                       s->strip_nz[x], x, dts[v->dt], x, x, levels,
                       s->ring[x] ? s->ring[x] : strip_rows(s, x), x, x, dts[v->dt], axs[v->ax],
                       x, x, x);
            continue;
        }
        if (s->store[x] == SK_ARRAY)
            buf_printf(b, "    p->bytes[%d] = fpo_tmp_bytes(%s, %s, p->lo[%d], p->hi[%d]);\n", x,
                       dts[v->dt], axs[v->ax], x, x);
        else if (s->ring[x])
            buf_printf(b, "    p->bytes[%d] = fpo_dtype_size(%s) * (size_t)(p->hi[%d][0] - "
                          "p->lo[%d][0]) * %d;   /* a ring of %d rows */\n",
                       x, dts[v->dt], x, x, s->ring[x], s->ring[x]);
        else
            buf_printf(b, "    p->bytes[%d] = fpo_tmp_bytes(%s, FPO_IJ, p->lo[%d], p->hi[%d]);\n",
                       x, dts[v->dt], x, x);
        if (s->store[x] == SK_PLANE)   /* whole lines */
            buf_printf(b, "    p->bytes[%d] = fpo_lines(p->bytes[%d]);\n", x, x);
        buf_printf(b, "    p->by_kind[%d] += p->bytes[%d]%s;\n", s->store[x], x,
                   s->store[x] == SK_PLANE ? " * (size_t)p->nthreads" : "");
    }
    /* Places: a shared space is as large as its largest user. Arrays (and strips kept as
     * arrays when nz is small) come first; then each thread's part, its planes and strips
     * together, the parts a whole number of pages apart (FPO_MINE). */
    int *sharer = sharers(s);
    for (int x = s->nfparams; x < s->nslots; x++) {
        if (s->store[x] == SK_SCALAR || s->share[x] != x)
            continue;
        buf_printf(b, "    {\n        size_t fpo_sz = p->bytes[%d];\n", x);
        for (int y = sharer[x]; y >= 0; y = sharer[y])
            if (s->store[y] != SK_SCALAR)
                buf_printf(b, "        if (p->bytes[%d] > fpo_sz)\n            fpo_sz = p->bytes[%d];\n", y, y);
        /* where x goes: the shared part, or every thread's */
        const char *to = s->store[x] == SK_PLANE ? "&p->mine_bytes"
                         : s->store[x] == SK_STRIP
                             ? fpo_fmt("nz >= %d ? &p->mine_bytes : &p->pool_bytes", s->strip_nz[x])
                             : "&p->pool_bytes";
        buf_printf(b, "        size_t *fpo_at = %s;\n        p->off[%d] = *fpo_at;\n", to, x);
        for (int y = sharer[x]; y >= 0; y = sharer[y])
            if (s->store[y] != SK_SCALAR)
                buf_printf(b, "        p->off[%d] = p->off[%d];\n", y, x);
        buf_add(b, "        *fpo_at += fpo_lines(fpo_sz);\n    }\n");
    }
    buf_add(b, "    if (p->mine_bytes) {\n        p->mine = fpo_pages(p->pool_bytes);\n"
               "        p->mine_bytes = fpo_pages(p->mine_bytes);\n"
               "        p->pool_bytes = p->mine + p->mine_bytes * (size_t)p->nthreads;\n    }\n");
    buf_add(b, "    if (p->pool_bytes) {\n        p->pool = fpo_alloc_pages(p->pool_bytes);   /* zeroed below, by its threads */\n"
               "        if (!p->pool) {\n");
    buf_printf(b, "            const size_t fpo_n = p->pool_bytes;\n            %s_close(p);\n"
                  "            return fpo_fail(err, FPO_ENOMEM, \"%s_open: cannot allocate %%zu "
                  "bytes of temporaries\", fpo_n);\n        }\n    }\n",
               s->ir->name, s->ir->name);
    for (int x = s->nfparams; x < s->nslots; x++)
        if (s->store[x] == SK_ARRAY || s->store[x] == SK_STRIP)
            buf_printf(b, "    %sp->tmp[%d] = fpo_field_make((char *)p->pool + p->off[%d], %s, %s, "
                          "p->lo[%d], p->hi[%d]);\n",
                       s->store[x] == SK_STRIP ? fpo_fmt("if (nz < %d)\n        ", s->strip_nz[x]) : "",
                       x - s->nfparams, x, dts[s->slots[x]->dt], axs[s->slots[x]->ax], x, x);
    if (s->ins.timers)
        buf_printf(b, "    p->timers = calloc(%d, sizeof(double));\n    if (!p->timers) {\n"
                      "        %s_close(p);\n        return fpo_fail(err, FPO_ENOMEM, \"%s_open: out "
                      "of memory\");\n    }\n", ngroups(s) + 1, s->ir->name, s->ir->name);
    int counts[4] = {0, 0, 0, 0};
    for (int x = s->nfparams; x < s->nslots; x++)
        counts[s->store[x]]++;
    buf_printf(b, "    p->counts[0] = %d, p->counts[1] = %d, p->counts[2] = %d, p->counts[3] = %d;\n",
               counts[0], counts[1], counts[2], counts[3]);
    /* Arrays written with streaming stores (pass_stream): past the caches when large. */
    for (int x = 0; x < s->nslots; x++) {
        bool any = false, read = false;   /* read: by another group (its writer reads none) */
        for (int e = 0; e < s->nusers[x]; e++) {   /* (a group streams only slots it touches) */
            Block *bl = &s->blocks[s->users[x][e].block];
            FGroup *G = &bl->g[fpo_group_of(bl, s->users[x][e].unit)];
            any |= G->stream && G->stream[x];
            read |= fpo_unit_acc(&bl->u[s->users[x][e].unit], x)->read;
        }
        if (any)
            buf_printf(b, "    p->stream[%d] = (unsigned char)fpo_stream_worth(fpo_tmp_bytes(%s, %s, "
                          "p->lo[%d], p->hi[%d]), %d);   /* %s%s */\n",
                       x, dts[s->slots[x]->dt], axs[s->slots[x]->ax], x, x, read,
                       s->slots[x]->name, read ? ", read by a later group" : "");
    }
}

/* The line the build prints. */
char *fpo_memory_summary(Sched *s) {
    int counts[4] = {0, 0, 0, 0}, nests = 0, groups = 0, loops = 0, fused = 0, shared = 0;
    int rings = 0, piped = 0, krings = 0;
    for (int x = s->nfparams; x < s->nslots; x++) {
        counts[s->store[x]]++;
        shared += s->share[x] != x;
        rings += s->store[x] == SK_PLANE && s->ring[x];
        krings += s->store[x] == SK_STRIP && s->kring[x];
    }
    for (int k = 0; k < s->nblocks; k++) {
        nests += s->blocks[k].nu;
        groups += s->blocks[k].ng;
        for (int g = 0; g < s->blocks[k].ng; g++) {
            FGroup *G = &s->blocks[k].g[g];
            fused += G->fused;
            piped += G->lag != NULL;
            loops += G->fused ? s->blocks[k].u[G->first + G->count - 1].loop + 1 : 1;
        }
    }
    int columns = 0, streamed = 0, fetched = 0;
    for (int k = 0; k < s->nblocks; k++)
        for (int g = 0; g < s->blocks[k].ng; g++) {
            FGroup *G = &s->blocks[k].g[g];
            columns += G->column;
            if (!G->stream && !G->fetch)
                continue;
            int nx, *xs = groups_slots(s, &s->blocks[k], G, 1, &nx);   /* (what it touches) */
            for (int e = 0; e < nx; e++) {
                streamed += G->stream && G->stream[xs[e]];
                fetched += G->fetch && G->fetch[xs[e]].on;
            }
        }
    /* Bytes per point of what each kind spans (arrays: the domain; planes: one level; strips:
     * one row of levels), before pool sharing; unfused: every temporary an array. */
    static const int size[] = {4, 8, 4, 1};
    int bytes[4] = {0, 0, 0, 0}, unfused = 0;
    for (int x = s->nfparams; x < s->nslots; x++) {
        bytes[s->store[x]] += size[s->slots[x]->dt];
        unfused += size[s->slots[x]->dt];
    }
    return fpo_fmt("fpo-gen: %s (%s): %d loop nests -> %d group%s (%d fused, K outermost, %d of "
                   "them rows in a pipeline; %d by columns) and %d I-J loops; %d temporaries: %d "
                   "arrays (%d B per point), %d planes (%d B per point of a level, per thread; %d "
                   "of them rings of rows), %d strips (%d B per point of a row, per thread; %d of "
                   "them rings of levels), %d scalars; %d share pool space (unfused: %d arrays, %d "
                   "B per point); %d array%s streamed past the caches when large; %d array%s "
                   "fetched ahead by a pipeline\n",
                   s->ir->name, s->fused ? "fused" : "unfused", nests, groups,
                   groups == 1 ? "" : "s", fused, piped,
                   columns, loops, s->nslots - s->nfparams, counts[0], bytes[0], counts[1],
                   bytes[1], rings, counts[3], bytes[3], krings, counts[2], shared,
                   s->nslots - s->nfparams, unfused, streamed, streamed == 1 ? "" : "s", fetched,
                   fetched == 1 ? "" : "s");
}
