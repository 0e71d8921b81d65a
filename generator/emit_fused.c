/* emit_fused.c: takes the optimized schedule, gives the C of its blocks (inlined in run): each
 * fused group one parallel K loop holding its I-J loops, temporaries as arrays of the pool,
 * per-thread planes or scalars; other nests as the unfused form runs them. Also the pool
 * allocation of open and the memory report. */
#include "opt.h"

#include <string.h>

static void ind(Buf *b, int n) {
    for (int i = 0; i < n; i++)
        buf_add(b, "    ");
}

/* ---- statements of a nest, with the call's names replaced ---- */

typedef struct Sub {
    Sched *s;
    Unit *u;
    Var **alias;   /* per slot: the C variable standing for it */
    const void *ctx;
} Sub;

static Var *scalar_alias(Unit *u, Var *param) {
    return new_var(fpo_fmt("fpo_a%d_%s", u->stage_no, param->name), param->loc, VK_LOCAL,
                   param->dt, AX_SCALAR);
}

static Var *subst(Sub *m, Var *v) {
    Decl *st = m->u->st;
    for (int i = 0; i < st->nparams; i++)
        if (st->params[i] == v)
            return v->ax == AX_SCALAR
                       ? scalar_alias(m->u, v)
                       : m->alias[fpo_sched_slot(m->s, m->u->stage->argv[i]->var)];
    int slot = fpo_sched_slot(m->s, v);
    return slot >= 0 ? m->alias[slot] : v;
}

static Node *clone(Sub *m, Node *n) {
    if (!n)
        return NULL;
    Node *c = fpo_new(sizeof *c);
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
    c->next = clone(m, n->next);
    return c;
}

static bool mentions(Node *n, Var *v) {
    for (; n; n = n->next)
        if (n->var == v || mentions(n->lhs, v) || mentions(n->rhs, v) || mentions(n->cond, v) ||
            mentions(n->then, v) || mentions(n->els, v) || mentions(n->body, v) ||
            mentions(n->args, v) || mentions(n->kexpr, v))
            return true;
    return false;
}

/* Statements [first, first + count) of an interval, cloned for this call. */
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

/* One nest's statements at a point: its per-point locals, then the statements. */
static void emit_point(Buf *b, Sub *m, Unit *u, int first, int count, int depth) {
    Interval *iv = &u->st->comps[u->comp].ivs[u->iv];
    Node *body = stmts(m, iv, first, count);
    ind(b, depth);
    buf_printf(b, "{   /* %s */\n", u->st->name);
    for (int l = 0; l < u->st->nlocals; l++)
        if (mentions(body, u->st->locals[l])) {
            ind(b, depth + 1);
            buf_printf(b, "%s %s = 0;\n", fpo_c_type(u->st->locals[l]->dt),
                       fpo_c_name(u->st->locals[l]->name));
        }
    fpo_c_stmts(b, body, depth + 1, m->ctx);
    ind(b, depth);
    buf_add(b, "}\n");
}

static const char *bound(DBound d) { return fpo_c_dbound(d); }

static void ij_loops(Buf *b, SBox *x, int depth) {
    ind(b, depth);
    buf_printf(b, "for (int64_t j = %s; j < %s; j++)\n", bound(x->lo[1]), bound(x->hi[1]));
    ind(b, depth + 1);
    buf_printf(b, "for (int64_t i = %s; i < %s; i++) {\n", bound(x->lo[0]), bound(x->hi[0]));
}

/* The scalar arguments of the stages a run of units calls, evaluated once. */
static void scalar_args(Buf *b, Unit *u, int n, int depth) {
    for (int i = 0; i < n; i++) {
        bool seen = false;
        for (int k = 0; k < i; k++)
            seen |= u[k].stage == u[i].stage;
        if (seen)
            continue;
        Decl *st = u[i].st;
        for (int p = 0; p < st->nparams; p++) {
            if (st->params[p]->ax != AX_SCALAR)
                continue;
            ind(b, depth);
            buf_printf(b, "const %s %s = (%s)(", fpo_c_type(st->params[p]->dt),
                       scalar_alias(&u[i], st->params[p])->name, fpo_c_type(st->params[p]->dt));
            fpo_c_expr(b, u[i].stage->argv[p]);
            buf_printf(b, ");\n");
            ind(b, depth);
            buf_printf(b, "(void)%s;\n", scalar_alias(&u[i], st->params[p])->name);
        }
    }
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
        ij_loops(b, &u->box, depth + 2);
        Group *g = &u->si->groups[u->comp][u->iv][u->grp];
        emit_point(b, m, u, g->first, g->count, depth + 4);
        ind(b, depth + 3);
        buf_add(b, "}\n");
    } else {
        omp(b, "parallel num_threads(p->nthreads)");
        ind(b, depth + 1);
        if (u->st->comps[u->comp].order == ORD_FORWARD)
            buf_add(b, "for (int64_t k = fpo_kb; k < fpo_ke; k++) {\n");
        else
            buf_add(b, "for (int64_t k = fpo_ke - 1; k >= fpo_kb; k--) {\n");
        for (int g = 0; g < u->si->ngroups[u->comp][u->iv]; g++) {
            Group *G = &u->si->groups[u->comp][u->iv][g];
            SBox x = u->box;
            x.lo[0].off += G->ext.ilo;
            x.hi[0].off += G->ext.ihi;
            x.lo[1].off += G->ext.jlo;
            x.hi[1].off += G->ext.jhi;
            omp(b, "for");
            ij_loops(b, &x, depth + 2);
            emit_point(b, m, u, G->first, G->count, depth + 4);
            ind(b, depth + 3);
            buf_add(b, "}\n");
        }
        (void)iv;
        ind(b, depth + 1);
        buf_add(b, "}\n");
    }
    ind(b, depth);
    buf_add(b, "}\n");
}

/* A fused group: one parallel loop over the union of its K ranges; per level, its I-J loops
 * in order, each guarded by its own K range. */
static void emit_fused(Buf *b, Sched *s, Sub *m, Block *bl, FGroup *G, int depth) {
    Unit *u0 = &bl->u[G->first];
    ind(b, depth);
    buf_printf(b, "{   /* fused: %d nests, K outermost */\n", G->count);
    scalar_args(b, u0, G->count, depth + 1);
    int nloops = bl->u[G->first + G->count - 1].loop + 1;
    for (int l = 0; l < nloops; l++)
        for (int i = 0; i < G->count; i++)
            if (u0[i].loop == l) {
                ind(b, depth + 1);
                buf_printf(b, "const int64_t fpo_kb%d = %s, fpo_ke%d = %s;\n", l,
                           bound(u0[i].box.lo[2]), l, bound(u0[i].box.hi[2]));
                break;
            }
    ind(b, depth + 1);
    buf_add(b, "int64_t fpo_klo = fpo_kb0, fpo_khi = fpo_ke0;\n");
    for (int l = 1; l < nloops; l++) {
        ind(b, depth + 1);
        buf_printf(b, "if (fpo_kb%d < fpo_klo) fpo_klo = fpo_kb%d;\n", l, l);
        ind(b, depth + 1);
        buf_printf(b, "if (fpo_ke%d > fpo_khi) fpo_khi = fpo_ke%d;\n", l, l);
    }
    omp(b, "parallel num_threads(p->nthreads)");
    ind(b, depth + 1);
    buf_add(b, "{\n");
    /* Planes of this group: this thread's own. */
    for (int x = s->nfparams; x < s->nslots; x++) {
        if (s->store[x] != SK_PLANE)
            continue;
        bool here = false;
        for (int i = 0; i < G->count; i++)
            here |= fpo_unit_acc(&u0[i], x) != NULL;
        if (!here)
            continue;
        const char *t = fpo_c_type(s->slots[x]->dt);
        ind(b, depth + 2);
        buf_printf(b, "const int64_t fpo_sj_fpo_v%d = p->hi[%d][0] - p->lo[%d][0];\n", x, x, x);
        ind(b, depth + 2);
        buf_printf(b, "%s *restrict fpo_v%d = (%s *)((char *)p->pool + p->off[%d] + "
                      "(size_t)FPO_TID * p->bytes[%d]) - (p->lo[%d][0] + p->lo[%d][1] * "
                      "fpo_sj_fpo_v%d);\n",
                   t, x, t, x, x, x, x, x);
    }
    omp(b, "for schedule(static)");
    ind(b, depth + 2);
    buf_add(b, "for (int64_t k = fpo_klo; k < fpo_khi; k++) {\n");
    for (int l = 0; l < nloops; l++) {
        Unit *first = NULL;
        for (int i = 0; i < G->count && !first; i++)
            if (u0[i].loop == l)
                first = &u0[i];
        ind(b, depth + 3);
        buf_printf(b, "if (k >= fpo_kb%d && k < fpo_ke%d) {\n", l, l);
        ij_loops(b, &first->box, depth + 4);
        /* Scalars of this loop. */
        for (int x = s->nfparams; x < s->nslots; x++) {
            if (s->store[x] != SK_SCALAR)
                continue;
            bool here = false;
            for (int i = 0; i < G->count; i++)
                here |= u0[i].loop == l && fpo_unit_acc(&u0[i], x);
            if (here) {
                ind(b, depth + 6);
                buf_printf(b, "%s fpo_v%d = 0;\n", fpo_c_type(s->slots[x]->dt), x);
                ind(b, depth + 6);
                buf_printf(b, "(void)fpo_v%d;\n", x);
            }
        }
        for (int i = 0; i < G->count; i++) {
            if (u0[i].loop != l)
                continue;
            Group *g = &u0[i].si->groups[u0[i].comp][u0[i].iv][u0[i].grp];
            m->u = &u0[i];
            emit_point(b, m, &u0[i], g->first, g->count, depth + 6);
        }
        ind(b, depth + 5);
        buf_add(b, "}\n");
        ind(b, depth + 3);
        buf_add(b, "}\n");
    }
    ind(b, depth + 2);
    buf_add(b, "}\n");
    ind(b, depth + 1);
    buf_add(b, "}\n");
    ind(b, depth);
    buf_add(b, "}\n");
}

static Var **aliases(Sched *s) {
    Var **a = fpo_new(sizeof(Var *) * (size_t)(s->nslots + 1));
    for (int x = 0; x < s->nslots; x++) {
        Var *v = s->slots[x];
        Axes ax = s->store[x] == SK_PLANE ? AX_IJ : s->store[x] == SK_SCALAR ? AX_SCALAR : v->ax;
        a[x] = new_var(fpo_fmt("fpo_v%d", x), v->loc, VK_TEMP, v->dt, ax);
    }
    return a;
}

void fpo_emit_block(Buf *b, Sched *s, Node *stages, int depth, const void *ctx) {
    Block *bl = NULL;
    for (int k = 0; k < s->nblocks; k++)
        if (s->blocks[k].stages == stages)
            bl = &s->blocks[k];
    if (!bl)
        return;   /* a later node of a block: emitted with the first */
    Sub m = {s, NULL, aliases(s), ctx};
    for (int g = 0; g < bl->ng; g++) {
        FGroup *G = &bl->g[g];
        m.u = &bl->u[G->first];
        if (G->fused)
            emit_fused(b, s, &m, bl, G, depth);
        else
            emit_plain(b, &m, m.u, depth);
    }
}

/* At the top of run: a pointer and strides per field parameter and array temporary. */
void fpo_emit_views(Buf *b, Sched *s) {
    buf_add(b, "    const int64_t fpo_ti = p->dom.i0, fpo_tj = p->dom.j0, fpo_tni = p->dom.tile_nx, "
               "fpo_tnj = p->dom.tile_ny;\n    const unsigned fpo_edges = p->edges;\n"
               "    (void)fpo_ti, (void)fpo_tj, (void)fpo_tni, (void)fpo_tnj, (void)fpo_edges;\n");
    for (int x = 0; x < s->nslots; x++) {
        if (s->store[x] != SK_ARRAY)
            continue;
        bool used = false, written = false;
        for (int k = 0; k < s->nblocks; k++)
            for (int i = 0; i < s->blocks[k].nu; i++) {
                Acc *a = fpo_unit_acc(&s->blocks[k].u[i], x);
                used |= a != NULL;
                written |= a && a->write;
            }
        if (!used)
            continue;
        const char *f = x < s->nfparams ? fpo_fmt("p->f.%s", s->slots[x]->name)
                                        : fpo_fmt("p->tmp[%d]", x - s->nfparams);
        const char *t = fpo_c_type(s->slots[x]->dt), *cq = written ? "" : "const ";
        buf_printf(b, "    const int64_t fpo_sj_fpo_v%d = %s.stride[1], fpo_sk_fpo_v%d = "
                      "%s.stride[2];\n", x, f, x, f);
        buf_printf(b, "    %s%s *restrict fpo_v%d = (%s%s *)%s.data - (%s.lo[0] + %s.lo[1] * "
                      "fpo_sj_fpo_v%d + %s.lo[2] * fpo_sk_fpo_v%d);\n",
                   cq, t, x, cq, t, f, f, f, x, f, x);
        buf_printf(b, "    (void)fpo_sj_fpo_v%d, (void)fpo_sk_fpo_v%d, (void)fpo_v%d;\n", x, x, x);
    }
}

/* ---- open: one pool for every temporary; the memory report ---- */

void fpo_emit_pool(Buf *b, Sched *s) {
    static const char *dts[] = {"FPO_F32", "FPO_F64", "FPO_I32", "FPO_BOOL"};
    static const char *axs[] = {"FPO_IJK", "FPO_IJ", "FPO_K"};
    buf_add(b, "    p->nthreads = FPO_NTHREADS;\n");
    for (int x = s->nfparams; x < s->nslots; x++) {
        Var *v = s->slots[x];
        buf_printf(b, "    /* %d: %s, %s */\n", x, v->name,
                   s->store[x] == SK_ARRAY ? "array" : s->store[x] == SK_PLANE ? "plane per thread"
                                                                                : "scalar");
        buf_printf(b, "    p->unfused_bytes += fpo_tmp_bytes(%s, %s, p->lo[%d], p->hi[%d]);\n",
                   dts[v->dt], axs[v->ax], x, x);
        if (s->store[x] == SK_SCALAR)
            continue;
        if (s->store[x] == SK_ARRAY)
            buf_printf(b, "    p->bytes[%d] = fpo_tmp_bytes(%s, %s, p->lo[%d], p->hi[%d]);\n", x,
                       dts[v->dt], axs[v->ax], x, x);
        else
            buf_printf(b, "    p->bytes[%d] = fpo_tmp_bytes(%s, FPO_IJ, p->lo[%d], p->hi[%d]);\n",
                       x, dts[v->dt], x, x);
        buf_printf(b, "    p->by_kind[%d] += p->bytes[%d]%s;\n", s->store[x], x,
                   s->store[x] == SK_PLANE ? " * (size_t)p->nthreads" : "");
    }
    /* Sizes: a shared space is as large as its largest user. */
    for (int x = s->nfparams; x < s->nslots; x++) {
        if (s->store[x] == SK_SCALAR || s->share[x] != x)
            continue;
        buf_printf(b, "    {\n        size_t fpo_sz = p->bytes[%d];\n", x);
        for (int y = x + 1; y < s->nslots; y++)
            if (s->share[y] == x && s->store[y] != SK_SCALAR)
                buf_printf(b, "        if (p->bytes[%d] > fpo_sz)\n            fpo_sz = p->bytes[%d];\n", y, y);
        buf_printf(b, "        p->off[%d] = p->pool_bytes;\n", x);
        for (int y = x + 1; y < s->nslots; y++)
            if (s->share[y] == x && s->store[y] != SK_SCALAR)
                buf_printf(b, "        p->off[%d] = p->off[%d];\n", y, x);
        buf_printf(b, "        p->pool_bytes += (fpo_sz%s + 63) / 64 * 64;\n    }\n",
                   s->store[x] == SK_PLANE ? " * (size_t)p->nthreads" : "");
    }
    buf_add(b, "    if (p->pool_bytes) {\n        p->pool = fpo_alloc(p->pool_bytes);\n"
               "        if (!p->pool) {\n");
    buf_printf(b, "            const size_t fpo_n = p->pool_bytes;\n            %s_close(p);\n"
                  "            return fpo_fail(err, FPO_ENOMEM, \"%s_open: cannot allocate %%zu "
                  "bytes of temporaries\", fpo_n);\n        }\n    }\n",
               s->ir->name, s->ir->name);
    for (int x = s->nfparams; x < s->nslots; x++)
        if (s->store[x] == SK_ARRAY)
            buf_printf(b, "    p->tmp[%d] = fpo_field_make((char *)p->pool + p->off[%d], %s, %s, "
                          "p->lo[%d], p->hi[%d]);\n",
                       x - s->nfparams, x, dts[s->slots[x]->dt], axs[s->slots[x]->ax], x, x);
    int counts[3] = {0, 0, 0};
    for (int x = s->nfparams; x < s->nslots; x++)
        counts[s->store[x]]++;
    buf_printf(b, "    p->counts[0] = %d, p->counts[1] = %d, p->counts[2] = %d;\n", counts[0],
               counts[1], counts[2]);
}

/* The line the build prints. */
char *fpo_memory_summary(Sched *s) {
    int counts[3] = {0, 0, 0}, nests = 0, groups = 0, loops = 0, fused = 0, shared = 0;
    for (int x = s->nfparams; x < s->nslots; x++) {
        counts[s->store[x]]++;
        shared += s->share[x] != x;
    }
    for (int k = 0; k < s->nblocks; k++) {
        nests += s->blocks[k].nu;
        groups += s->blocks[k].ng;
        for (int g = 0; g < s->blocks[k].ng; g++) {
            FGroup *G = &s->blocks[k].g[g];
            fused += G->fused;
            loops += G->fused ? s->blocks[k].u[G->first + G->count - 1].loop + 1 : 1;
        }
    }
    return fpo_fmt("fpo-gen: %s (%s): %d loop nests -> %d groups (%d fused, K outermost) and %d "
                   "I-J loops; %d temporaries: %d arrays, %d planes, %d scalars; %d share pool "
                   "space (unfused: %d arrays)\n",
                   s->ir->name, s->fused ? "fused" : "unfused", nests, groups, fused, loops,
                   s->nslots - s->nfparams, counts[0], counts[1], counts[2], shared,
                   s->nslots - s->nfparams);
}
