/* emit_c.c: takes the program IR and its schedule, gives the program's C header and source:
 * open / bind / run / close around one static function per stencil (emit_stmt.c) or run's
 * fused body (emit_fused.c), the halo statements, one source per variant. The fixed text comes
 * from templates/. */
#include "emit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *fpo_dtypes[] = {"FPO_F32", "FPO_F64", "FPO_I32", "FPO_BOOL"};
static const char *fpo_axes[] = {"FPO_IJK", "FPO_IJ", "FPO_K"};

char *fpo_expand(const char *tpl, const char **keys, const char **vals, int n) {
    Buf b = {0};
    const char *p = tpl;
    while (*p) {
        const char *at = strchr(p, '@');
        if (!at) {
            buf_add(&b, p);
            break;
        }
        buf_addn(&b, p, (size_t)(at - p));
        int k;
        for (k = 0; k < n; k++) {
            size_t len = strlen(keys[k]);
            if (!strncmp(at + 1, keys[k], len) && at[1 + len] == '@') {
                buf_add(&b, vals[k]);
                p = at + len + 2;
                break;
            }
        }
        if (k == n) {
            buf_add(&b, "@");
            p = at + 1;
        }
    }
    return buf_fit(&b);
}

/* ---- program ---- */

typedef struct Prog {
    Ir *ir;
    int nfparams;
    const Build *build;
    StrMap *slots;   /* a field variable (its address as text) -> its slot + 1; made at first
                      * use (field_slot) */
} Prog;

/* The slot of field variable v: field parameters, program temporaries, stencil temporaries in
 * order; -1 for none. */
static int field_slot(Prog *pg, Var *v) {
    Ir *ir = pg->ir;
    if (!pg->slots) {
        pg->slots = fpo_new(sizeof(StrMap));
        intptr_t slot = 0;
        for (int i = 0; i < ir->nparams; i++)
            if (ir->params[i]->ax != AX_SCALAR)
                strmap_put(pg->slots, fpo_fmt("%p", (void *)ir->params[i]), (void *)++slot);
        for (int i = 0; i < ir->ntemps; i++)
            strmap_put(pg->slots, fpo_fmt("%p", (void *)ir->temps[i]), (void *)++slot);
        for (int s = 0; s < ir->nstencils; s++)
            for (int i = 0; i < ir->stencils[s]->ntemps; i++)
                strmap_put(pg->slots, fpo_fmt("%p", (void *)ir->stencils[s]->temps[i]),
                           (void *)++slot);
    }
    void *x = strmap_get(pg->slots, fpo_fmt("%p", (void *)v));
    return x ? (int)(intptr_t)x - 1 : -1;
}

static const char *field_ref(Prog *pg, Var *v) {
    int slot = field_slot(pg, v);
    if (slot < pg->nfparams)
        return fpo_fmt("&p->f.%s", v->name);
    return fpo_fmt("&p->tmp[%d]", slot - pg->nfparams);
}


/* ---- halo statements ---- */

static const char *halo_kinds[] = {"FPO_HALO_SCALAR", "FPO_HALO_AGRID", "FPO_HALO_BGRID",
                                   "FPO_HALO_CGRID", "FPO_HALO_DGRID"};

/* Where field c of a halo statement (a vector's u 0, v 1; the c-th scalar) sits in its cell:
 * 0 centre, 1 x face, 2 y face, 3 corner (fpo_halo_pos). */
static int halo_pos(Node *h, int c) {
    return fpo_corner_pos(h->halo.vec, h->halo.at, c);
}

/* fpo_halo's name of where a statement's scalars sit (halo_pos). */
static const char *halo_pos_name(Node *h) {
    static const char *names[] = {"FPO_HALO_CENTER", "FPO_HALO_XFACE", "FPO_HALO_YFACE",
                                  "FPO_HALO_CORNER"};
    return names[halo_pos(h, 0)];
}

static int64_t halo_depth(Node *h, const Build *bd) {
    if (h->halo.op == HO_SYNC_EDGES)
        return 0;
    return h->halo.depth ? h->halo.depth : bd->halo;
}

/* The statement as written, for messages: "halo_update(q, r)". */
/* A halo statement as comments and messages name it: its first HALO_NAMED fields (a statement
 * of thousands would make every message naming it as long), and its place. */
enum { HALO_NAMED = 8 };

static const char *halo_text(Node *h) {
    static const char *ops[] = {"halo_update", "copy_corners", "fill_corners", "sync_edges"};
    Buf b = {0};
    buf_printf(&b, "%s(", ops[h->halo.op]);
    int n = 0;
    for (Node *a = h->args; a; a = a->next, n++) {
        if (n == HALO_NAMED) {
            buf_add(&b, "...");
            break;
        }
        buf_printf(&b, "%s%s", a->var->name, a->next ? ", " : "");
    }
    buf_printf(&b, ") at %s:%d", fpo_loc_path(h->loc), h->loc.line);
    return b.s;
}

/* Whether n is a stages node pass_corners made of a corner fill: it keeps the statement's
 * `halo` and `args`, and open treats it as the statement (halo needs, widths, the count). */
static bool fill_node(Node *n) {
    return n->kind == ND_STAGES && n->args;
}

/* Whether statement n (and what it holds) names field v. */
static bool stmt_mentions(Node *n, Var *v) {
    if (!n)
        return false;
    if (n->kind == ND_STAGES) {
        for (Node *st = n->body; st; st = st->next)
            for (int i = 0; i < st->decl->nparams; i++)
                if (st->decl->params[i]->ax != AX_SCALAR && st->argv[i]->var == v)
                    return true;
        return false;
    }
    if (n->kind == ND_HALO) {
        for (Node *a = n->args; a; a = a->next)
            if (a->var == v)
                return true;
        return false;
    }
    if (n->kind == ND_HOSTCALL) {
        for (int i = 0; i < n->decl->nparams; i++)
            if (n->decl->params[i]->ax != AX_SCALAR && n->argv[i]->var == v)
                return true;
        return false;
    }
    for (Node *c = n->body; c; c = c->next)
        if (stmt_mentions(c, v))
            return true;
    for (Node *c = n->then; c; c = c->next)
        if (stmt_mentions(c, v))
            return true;
    for (Node *c = n->els; c; c = c->next)
        if (stmt_mentions(c, v))
            return true;
    return false;
}

static bool halo_touched_by(Node *h, Node *n) {
    for (Node *a = h->args; a; a = a->next)
        if (stmt_mentions(n, a->var))
            return true;
    return false;
}

static void emit_halo_check(Emit *e, const char *call, Node *h) {
    fpo_c_ind(e);
    buf_printf(e->b, "if (%s)\n", call);
    fpo_c_ind(e);
    buf_printf(e->b, "    return fpo_halo_failed_(err, \"%s\", &fpo_herr);\n",
               fpo_c_str(halo_text(h)));
}

static void emit_halo_finish(Emit *e, Node *h) {
    fpo_c_ind(e);
    buf_printf(e->b, "{   /* finish %s: before the next statement that touches its fields */\n",
               fpo_c_comment(halo_text(h)));
    e->indent++;
    fpo_c_ind(e);
    buf_add(e->b, "fpo_halo_error fpo_herr;\n");
    emit_halo_check(e, fpo_fmt("fpo_halo_finish(p->plan[%d], &fpo_herr)", h->halo.plan), h);
    e->indent--;
    fpo_c_ind(e);
    buf_add(e->b, "}\n");
}

static const char *halo_field(Prog *pg, Node *a) {
    return fpo_fmt("fpo_hfield_(%s)", field_ref(pg, a->var));
}

/* A halo statement at its place in run: updates start here (finished later by the caller),
 * corner fills and edge syncs run whole. */
static void emit_halo(Emit *e, Prog *pg, Node *h, const Build *bd) {
    static const char *dirs[] = {"FPO_HALO_FILL_X", "FPO_HALO_FILL_Y"};
    int64_t depth = halo_depth(h, bd);
    Buf *b = e->b;
    fpo_c_ind(e);
    buf_add(b, "{\n");
    e->indent++;
    fpo_c_ind(e);
    buf_add(b, "fpo_halo_error fpo_herr;\n");
    switch (h->halo.op) {
    case HO_UPDATE:
        emit_halo_check(e, fpo_fmt("fpo_halo_start(p->plan[%d], &fpo_herr)", h->halo.plan), h);
        break;
    case HO_SYNC_EDGES:
        emit_halo_check(e, fpo_fmt("fpo_halo_exchange(p->plan[%d], &fpo_herr)", h->halo.plan),
                        h);
        break;
    case HO_COPY_CORNERS:
        fpo_c_ind(e);
        buf_printf(b, "const fpo_halo_field fpo_q = %s;\n", halo_field(pg, h->args));
        if (e->stream)
            emit_halo_check(e,
                            fpo_fmt("fpo_halo_copy_corners_on(p->halo, &fpo_q, %s, %lld, %s, "
                                    "%s, &fpo_herr)",
                                    halo_pos_name(h), (long long)depth, dirs[h->halo.dir],
                                    e->stream),
                            h);
        else
            emit_halo_check(e,
                            fpo_fmt("fpo_halo_copy_corners(p->halo, &fpo_q, %s, %lld, %s, "
                                    "&fpo_herr)",
                                    halo_pos_name(h), (long long)depth, dirs[h->halo.dir]),
                            h);
        break;
    case HO_FILL_CORNERS: {
        bool c = h->halo.vec == HV_C;
        fpo_c_ind(e);
        buf_printf(b, "const fpo_halo_field fpo_u = %s, fpo_v = %s;\n", halo_field(pg, h->args),
                   halo_field(pg, h->args->next));
        if (e->stream)
            emit_halo_check(e,
                            fpo_fmt("fpo_halo_fill_corners_on(p->halo, &fpo_u, &fpo_v, %s, %lld, "
                                    "%s, %s, %s, &fpo_herr)",
                                    halo_kinds[h->halo.vec], (long long)depth, dirs[c ? 1 : 0],
                                    dirs[c ? 0 : 1], e->stream),
                            h);
        else
            emit_halo_check(e,
                            fpo_fmt("fpo_halo_fill_corners(p->halo, &fpo_u, &fpo_v, %s, %lld, "
                                    "%s, %s, &fpo_herr)",
                                    halo_kinds[h->halo.vec], (long long)depth, dirs[c ? 1 : 0],
                                    dirs[c ? 0 : 1]),
                            h);
        break;
    }
    }
    e->indent--;
    fpo_c_ind(e);
    buf_add(b, "}\n");
}

/* open: one plan per update and edge sync, built once by each rank alone (open then agrees
 * in its one collective whether every rank built its plans). */
static void emit_halo_plans(Buf *b, Prog *pg, Node *n, const Build *bd) {
    for (; n; n = n->next) {
        emit_halo_plans(b, pg, n->body, bd);
        emit_halo_plans(b, pg, n->then, bd);
        emit_halo_plans(b, pg, n->els, bd);
        if (n->kind != ND_HALO || n->halo.plan < 0)
            continue;
        /* One item per scalar field, one for a vector pair: the array holds exactly those. */
        int nitems = 0, nargs = 0;
        for (Node *a = n->args; a; a = a->next)
            nargs++;
        buf_printf(b, "    {   /* %s */\n        fpo_halo_item items[%d];\n",
                   fpo_c_comment(halo_text(n)), n->halo.vec ? 1 : nargs > 0 ? nargs : 1);
        if (n->halo.vec)
            buf_printf(b, "        items[%d] = fpo_halo_vector(%s, %s, %s);\n", nitems++,
                       halo_field(pg, n->args), halo_field(pg, n->args->next),
                       halo_kinds[n->halo.vec]);
        else
            for (Node *a = n->args; a; a = a->next)
                buf_printf(b, "        items[%d] = fpo_halo_scalar(%s, %s);\n", nitems++,
                           halo_field(pg, a), halo_pos_name(n));
        if (n->halo.op == HO_SYNC_EDGES)
            buf_printf(b, "        if (fpo_halo_plan_create_edges(&p->plan[%d], p->halo, %d, "
                          "items, fpo_hflags, &fpo_herr) ||\n", n->halo.plan, nitems);
        else
            buf_printf(b, "        if (fpo_halo_plan_create(&p->plan[%d], p->halo, %lld, %d, "
                          "items, fpo_hflags, &fpo_herr) ||\n", n->halo.plan,
                       (long long)halo_depth(n, bd), nitems);
        buf_printf(b, "            fpo_halo_plan_stream(p->plan[%d], fpo_hstream, &fpo_herr))\n",
                   n->halo.plan);
        buf_printf(b, "            return fpo_halo_failed_(err, \"%s\", &fpo_herr);\n    }\n",
                   fpo_c_str(halo_text(n)));
    }
}

/* Mark in w the field parameters halo statements and corner fills name (they write halo points). */
static void halo_writes(Prog *pg, Node *n, unsigned char *w) {
    for (; n; n = n->next) {
        halo_writes(pg, n->body, w);
        halo_writes(pg, n->then, w);
        halo_writes(pg, n->els, w);
        if (n->kind != ND_HALO && !fill_node(n))
            continue;
        for (Node *a = n->args; a; a = a->next) {
            int slot = a->var ? field_slot(pg, a->var) : -1;
            if (slot >= 0 && slot < pg->nfparams)
                w[slot] = 1;
        }
    }
}

/* open and bind: a field the program writes (a nest of its schedule, a halo statement, a corner
 * fill) shares memory with no other field (fpo_fields_apart: its views are restrict). */
static void emit_apart_check(Buf *b, Prog *pg, Sched *s) {
    Ir *ir = pg->ir;
    unsigned char *w = fpo_new((size_t)pg->nfparams + 1);
    for (int k = 0; k < s->nblocks; k++)
        for (int i = 0; i < s->blocks[k].nu; i++)
            for (int x = 0; x < pg->nfparams && x < s->nslots; x++) {
                Acc *a = fpo_unit_acc(&s->blocks[k].u[i], x);
                w[x] |= a && a->write;
            }
    halo_writes(pg, ir->body, w);
    Buf names = {0}, writes = {0}, fields = {0};
    for (int i = 0, x = 0; i < ir->nparams; i++) {
        Var *v = ir->params[i];
        if (v->ax == AX_SCALAR)
            continue;
        buf_printf(&names, "%s\"%s\"", x ? ", " : "", v->name);
        buf_printf(&writes, "%s%d", x ? ", " : "", w[x]);
        buf_printf(&fields, "%s&fields->%s", x ? ", " : "", v->name);
        x++;
    }
    buf_printf(b, "    {   /* a field the program writes shares memory with no other */\n"
                  "        static const char *const fpo_names_[] = {%s};\n"
                  "        static const unsigned char fpo_writes_[] = {%s};\n"
                  "        const fpo_field *const fpo_fs_[] = {%s};\n"
                  "        st = fpo_fields_apart(fpo_fs_, fpo_names_, fpo_writes_, %d, \"%s\", err);\n"
                  "        if (st)\n            return st;\n    }\n",
               names.s, writes.s, fields.s, pg->nfparams, ir->name);
}

/* bind: a field a halo statement exchanges to the build's default depth (HALO) needs that halo;
 * the refusal names the option. */
static void emit_halo_width_checks(Buf *b, Prog *pg, Node *n, const Build *bd) {
    for (; n; n = n->next) {
        emit_halo_width_checks(b, pg, n->body, bd);
        emit_halo_width_checks(b, pg, n->then, bd);
        emit_halo_width_checks(b, pg, n->els, bd);
        if ((n->kind != ND_HALO && !fill_node(n)) || n->halo.depth || n->halo.op == HO_SYNC_EDGES)
            continue;
        int c = 0;
        const char *text = halo_text(n);
        for (Node *a = n->args; a; a = a->next, c++) {
            int slot = field_slot(pg, a->var);
            if (slot >= pg->nfparams)
                continue;   /* temporaries are allocated with it */
            int pos = halo_pos(n, c);
            int xi = pos == 1 || pos == 3, yj = pos == 2 || pos == 3;
            const char *f = a->var->name;
            buf_printf(b,
                       "    {   /* %s exchanges HALO = %d */\n"
                       "        const fpo_field *fpo_f = &fields->%s;\n"
                       "        int64_t fpo_h = -fpo_f->lo[0];\n"
                       "        if (-fpo_f->lo[1] < fpo_h)\n            fpo_h = -fpo_f->lo[1];\n"
                       "        if (fpo_f->hi[0] - (p->dom.nx + %d) < fpo_h)\n"
                       "            fpo_h = fpo_f->hi[0] - (p->dom.nx + %d);\n"
                       "        if (fpo_f->hi[1] - (p->dom.ny + %d) < fpo_h)\n"
                       "            fpo_h = fpo_f->hi[1] - (p->dom.ny + %d);\n"
                       "        if (fpo_h < %d)\n"
                       "            return fpo_fail(err, FPO_ESHAPE, \"%%s: field '%%s' has a halo of "
                       "%%lld but %%s exchanges %d (the build's HALO): allocate a halo of %d, or "
                       "build with fpo_add_program(... HALO %%lld)\",\n"
                       "                            \"%s\", \"%s\", (long long)fpo_h, \"%s\", "
                       "(long long)(fpo_h > 0 ? fpo_h : 1));\n    }\n",
                       fpo_c_comment(text), bd->halo, f, xi, xi, yj, yj, bd->halo,
                       bd->halo, bd->halo, pg->ir->name, f, fpo_c_str(text));
        }
    }
}

/* bind: point the plans at the new fields' data (shapes must stay those of open). */
static void emit_halo_rebind(Buf *b, Prog *pg, Node *n) {
    for (; n; n = n->next) {
        emit_halo_rebind(b, pg, n->body);
        emit_halo_rebind(b, pg, n->then);
        emit_halo_rebind(b, pg, n->els);
        if (n->kind != ND_HALO || n->halo.plan < 0)
            continue;
        int item = 0, comp = 0;
        for (Node *a = n->args; a; a = a->next) {
            int slot = field_slot(pg, a->var);
            if (slot < pg->nfparams) {
                buf_printf(b, "    if (p->plan[%d]) {\n", n->halo.plan);
                buf_printf(b, "        st = fpo_same_shape_(&p->f.%s, &fields->%s, \"%s\", err);\n"
                              "        if (!st && fpo_halo_plan_rebind(p->plan[%d], %d, %d, "
                              "fields->%s.data, &fpo_herr))\n"
                              "            st = fpo_halo_failed_(err, \"%s\", &fpo_herr);\n"
                              "        if (st)\n            return st;\n    }\n",
                           a->var->name, a->var->name, a->var->name, n->halo.plan, item, comp,
                           a->var->name, fpo_c_str(halo_text(n)));
            }
            if (n->halo.vec)
                comp++;
            else
                item++;
        }
    }
}

/* The points halo statements touch: the fields' compute points and `depth` around them. */
static void emit_halo_needs(Buf *b, Prog *pg, Node *n, const Build *bd) {
    int c = 0;
    int64_t d = halo_depth(n, bd);
    buf_printf(b, "    /* %s */\n", fpo_c_comment(halo_text(n)));
    for (Node *a = n->args; a; a = a->next, c++) {
        int pos = halo_pos(n, c);
        int slot = field_slot(pg, a->var);
        int xi = pos == 1 || pos == 3, yj = pos == 2 || pos == 3;
        buf_printf(b, "    fpo_need(p->lo[%d], p->hi[%d], 0, -%lld, nx + %lld);\n", slot, slot,
                   (long long)d, (long long)(d + xi));
        buf_printf(b, "    fpo_need(p->lo[%d], p->hi[%d], 1, -%lld, ny + %lld);\n", slot, slot,
                   (long long)d, (long long)(d + yj));
    }
}

/* A corner fill run as a stencil call reads the rank's first `depth` rows and columns (and
 * their halo): refused at open on smaller ranks, as fpo_halo_copy_corners refuses them. */
static void emit_fill_size_check(Buf *b, Prog *pg, Node *n) {
    long long d = (long long)halo_depth(n, pg->build);
    buf_printf(b,
               "    if (nx < %lld || ny < %lld) {\n"
               "        %s_close(p);\n"
               "        return fpo_fail(err, FPO_EINVAL, \"%s: %s fills corners of depth %lld but "
               "this rank's domain is %%lld x %%lld points: give each rank %lld x %lld or "
               "more\", (long long)nx, (long long)ny);\n"
               "    }\n",
               d, d, pg->ir->name, pg->ir->name, fpo_c_fmt(halo_text(n)), d, d, d);
}

/* A callback may touch every compute point of the fields it is given. */
static void emit_callback_needs(Buf *b, Prog *pg, Node *n) {
    buf_printf(b, "    /* callback %s (%s:%d) */\n", n->decl->name,
               fpo_c_comment(fpo_loc_path(n->loc)), n->loc.line);
    for (int i = 0; i < n->decl->nparams; i++) {
        Var *v = n->decl->params[i];
        if (v->ax == AX_SCALAR)
            continue;
        int slot = field_slot(pg, n->argv[i]->var);
        if (v->ax != AX_K) {
            buf_printf(b, "    fpo_need(p->lo[%d], p->hi[%d], 0, 0, nx);\n", slot, slot);
            buf_printf(b, "    fpo_need(p->lo[%d], p->hi[%d], 1, 0, ny);\n", slot, slot);
        }
        if (v->ax != AX_IJ)
            buf_printf(b, "    fpo_need(p->lo[%d], p->hi[%d], 2, 0, nz);\n", slot, slot);
    }
}

static void emit_run(Emit *e, Prog *pg, Node *n) {
    Buf *b = e->b;
    Node **pending = NULL;   /* updates started in this block, not finished yet */
    int npending = 0;
    /* An update starts as soon as its data is final: before the earliest statement after the
     * last one of this block that names its fields. */
    Node **list = NULL;
    int nlist = 0;
    for (Node *m = n; m; m = m->next)
        VPUSH(list, nlist, m);
    int *start_at = fpo_new(sizeof(int) * (size_t)(nlist + 1));
    for (int k = 0; k < nlist; k++) {
        start_at[k] = -1;
        if (list[k]->kind != ND_HALO || list[k]->halo.op != HO_UPDATE)
            continue;
        start_at[k] = k;
        while (start_at[k] > 0 && !halo_touched_by(list[k], list[start_at[k] - 1]))
            start_at[k]--;
    }
    /* The updates starting before each statement, in order: a list per statement. */
    int *first = fpo_new(sizeof(int) * (size_t)(nlist + 1));
    int *next = fpo_new(sizeof(int) * (size_t)(nlist + 1));
    for (int k = 0; k <= nlist; k++)
        first[k] = -1;
    for (int k = nlist - 1; k >= 0; k--)
        if (start_at[k] >= 0)
            next[k] = first[start_at[k]], first[start_at[k]] = k;
    for (int at = 0; at < nlist; at++) {
        n = list[at];
        for (int k = first[at]; k >= 0; k = next[k]) {
            if (k > at) {
                fpo_c_ind(e);
                buf_printf(b, "/* start %s here: its fields are final */\n",
                           fpo_c_comment(halo_text(list[k])));
            }
            for (int i = 0; i < npending;)   /* one plan per field in flight */
                if (halo_touched_by(pending[i], list[k])) {
                    emit_halo_finish(e, pending[i]);
                    pending[i] = pending[--npending];
                } else {
                    i++;
                }
            emit_halo(e, pg, list[k], pg->build);
            VPUSH(pending, npending, list[k]);
        }
        for (int i = 0; i < npending;) {
            /* Fused, or from another back end (whose schedule's blocks run the calls of
             * adjacent blocks of stages in one), a block of stages may run the adjacent blocks
             * of stages too. */
            bool touched = pending[i] != n && halo_touched_by(pending[i], n);
            bool spans = fpo_sched_inline(e->sched) || e->block;
            for (Node *m = n->next; spans && n->kind == ND_STAGES && m && m->kind == ND_STAGES &&
                                    !touched;
                 m = m->next)
                touched = halo_touched_by(pending[i], m);
            if (touched) {
                emit_halo_finish(e, pending[i]);
                pending[i] = pending[--npending];
            } else {
                i++;
            }
        }
        fpo_c_line(e, n->loc);
        switch (n->kind) {
        case ND_HALO:
            if (n->halo.op != HO_UPDATE)   /* updates were started above */
                emit_halo(e, pg, n, pg->build);
            break;
        case ND_HOSTCALL: {
            Decl *cb = n->decl;
            fpo_c_ind(e);
            buf_printf(b, "{\n");
            if (e->stream) {   /* the callback sees the fields as the kernels before it left them */
                fpo_c_ind(e);
                buf_printf(b, "    fpo_status fpo_sw = fpo_cuda_wait(fpo__cu, \"%s\", err);\n",
                           e->ir->name);
                fpo_c_ind(e);
                buf_add(b, "    if (fpo_sw)\n");
                fpo_c_ind(e);
                buf_add(b, "        return fpo_sw;\n");
            }
            fpo_c_ind(e);
            buf_printf(b, "    fpo_status fpo_st = %s(p->user", cb->name);
            for (int i = 0; i < cb->nparams; i++) {
                buf_add(b, ", ");
                if (cb->params[i]->ax == AX_SCALAR)
                    fpo_c_emit(e, n->argv[i]);
                else
                    buf_add(b, field_ref(pg, n->argv[i]->var));
            }
            buf_add(b, ", err);\n");
            fpo_c_ind(e);
            buf_printf(b, "    if (fpo_st)\n");
            fpo_c_ind(e);
            buf_printf(b, "        return fpo_st;   /* the callback's message is in err */\n");
            fpo_c_ind(e);
            buf_add(b, "}\n");
            break;
        }
        case ND_ASSIGN:
            fpo_c_ind(e);
            buf_printf(b, "%s %s ", fpo_c_name(n->lhs->var->name), n->op);
            fpo_c_emit(e, n->rhs);
            buf_add(b, ";\n");
            break;
        case ND_FOR: {
            const char *v = fpo_c_name(n->var->name);
            fpo_c_ind(e);
            buf_printf(b, "for (%s = ", v);
            fpo_c_emit(e, n->lhs);
            buf_printf(b, "; %s < ", v);
            fpo_c_emit(e, n->rhs);
            buf_printf(b, "; %s++) {\n", v);
            e->indent++;
            emit_run(e, pg, n->body);
            e->indent--;
            fpo_c_ind(e);
            buf_add(b, "}\n");
            break;
        }
        case ND_IF:
            fpo_c_ind(e);
            buf_add(b, "if (");
            fpo_c_emit(e, n->cond);
            buf_add(b, ") {\n");
            e->indent++;
            emit_run(e, pg, n->then);
            e->indent--;
            if (n->els) {
                fpo_c_ind(e);
                buf_add(b, "} else {\n");
                e->indent++;
                emit_run(e, pg, n->els);
                e->indent--;
            }
            fpo_c_ind(e);
            buf_add(b, "}\n");
            break;
        case ND_STAGES:
            if (e->block) {
                e->block(b, n, e->indent, e->block_arg);
                break;
            }
            if (fpo_sched_inline(e->sched)) {
                fpo_emit_block(b, e->sched, n, e->indent, e);
                break;
            }
            for (Node *st = n->body; st; st = st->next) {
                Decl *s = st->decl;
                fpo_c_ind(e);
                buf_printf(b, "stencil_%s(", s->name);
                for (int i = 0; i < s->nparams; i++) {
                    Node *a = st->argv[i];
                    if (s->params[i]->ax == AX_SCALAR)
                        fpo_c_emit(e, a);
                    else
                        buf_add(b, field_ref(pg, a->var));
                    buf_add(b, ", ");
                }
                for (int i = 0; i < s->ntemps; i++)
                    buf_printf(b, "%s, ", field_ref(pg, s->temps[i]));
                buf_add(b, "&p->dom, p->edges, ");
                const char *kb[3] = {"0", "0", "0"};
                (void)kb;
                for (int a = 0; a < 3; a++)
                    buf_printf(b, "%s, %s%s", fpo_dbound_text(st->dom.lo[a]), fpo_dbound_text(st->dom.hi[a]),
                               a < 2 ? ", " : ");\n");
            }
            break;
        default:
            break;
        }
    }
    for (int i = 0; i < npending; i++)
        emit_halo_finish(e, pending[i]);
}

static DBound shift(DBound d, int64_t off) { return (DBound){d.base, d.off + off}; }

/* A K bound of a box as an expression of the call's K range (k0, k1) and nz. */
static const char *kb_expr(int base, int64_t off, DBound k0, DBound k1) {
    if (base == KB_BOTTOM)
        return fpo_dbound_text(shift(k0, off));
    if (base == KB_TOP)
        return fpo_dbound_text(shift(k1, off));
    return fpo_dbound_text((DBound){base == KB_NZ ? DB_NZ : DB_ZERO, off});
}

/* Append `line` to the need block `call` of one stencil call unless the block has it already
 * (a field read at several points of one box repeats the same range). */
static void need_once(Buf *call, StrMap *lines, const char *line) {
    if (strmap_get(lines, line))
        return;
    strmap_put(lines, line, (void *)line);
    buf_printf(call, "\n%s", line);
}

static void emit_needs(Buf *b, Prog *pg, Node *n) {
    for (; n; n = n->next) {
        if (n->kind == ND_FOR)
            emit_needs(b, pg, n->body);
        if (n->kind == ND_IF) {
            emit_needs(b, pg, n->then);
            emit_needs(b, pg, n->els);
        }
        if (n->kind == ND_HALO)
            emit_halo_needs(b, pg, n, pg->build);
        if (n->kind == ND_HOSTCALL)
            emit_callback_needs(b, pg, n);
        if (fill_node(n)) {   /* what the corner fill needs as a statement */
            emit_halo_needs(b, pg, n, pg->build);
            emit_fill_size_check(b, pg, n);
            continue;
        }
        if (n->kind != ND_STAGES)
            continue;
        for (Node *st = n->body; st; st = st->next) {
            Decl *s = st->decl;
            StencilInfo *si = fpo_extent(s);
            buf_printf(b, "    /* %s (%s:%d) */", s->name,
                       fpo_c_comment(fpo_loc_path(st->loc)), st->loc.line);
            Buf call = {0};
            StrMap lines = {0};
            for (int x = 0; x < s->nparams + s->ntemps; x++) {
                Var *v = x < s->nparams ? s->params[x] : s->temps[x - s->nparams];
                if (v->ax == AX_SCALAR)
                    continue;
                Var *pv = x < s->nparams ? st->argv[x]->var : v;
                int slot = field_slot(pg, pv);
                for (int k = 0; k < si->nboxes[x]; k++) {
                    Box *bx = &si->boxes[x][k];
                    if (v->ax != AX_K) {
                        need_once(&call, &lines, fpo_fmt("    fpo_need(p->lo[%d], p->hi[%d], 0, %s, %s);",
                                                 slot, slot, fpo_dbound_text(shift(st->dom.lo[0], bx->ilo)),
                                                 fpo_dbound_text(shift(st->dom.hi[0], bx->ihi))));
                        need_once(&call, &lines, fpo_fmt("    fpo_need(p->lo[%d], p->hi[%d], 1, %s, %s);",
                                                 slot, slot, fpo_dbound_text(shift(st->dom.lo[1], bx->jlo)),
                                                 fpo_dbound_text(shift(st->dom.hi[1], bx->jhi))));
                    }
                    if (v->ax != AX_IJ)
                        need_once(&call, &lines, fpo_fmt("    fpo_need(p->lo[%d], p->hi[%d], 2, %s, %s);",
                                                 slot, slot,
                                                 kb_expr(bx->klo_base, bx->klo, st->dom.lo[2], st->dom.hi[2]),
                                                 kb_expr(bx->khi_base, bx->khi, st->dom.lo[2], st->dom.hi[2])));
                }
            }
            buf_printf(b, "%s\n", call.s ? call.s : "");
        }
    }
}

/* Number the plans of updates and edge syncs; count halo statements. */
static void number_plans(Node *n, int *nplans, int *nhalo) {
    for (; n; n = n->next) {
        number_plans(n->body, nplans, nhalo);
        number_plans(n->then, nplans, nhalo);
        number_plans(n->els, nplans, nhalo);
        if (fill_node(n))
            ++*nhalo;   /* a corner fill as a stencil call: open asks for the decomposition all
                         * the same, so fused and unfused builds take the same options */
        if (n->kind != ND_HALO)
            continue;
        ++*nhalo;
        n->halo.plan = n->halo.op == HO_UPDATE || n->halo.op == HO_SYNC_EDGES ? (*nplans)++ : -1;
    }
}


/* Which regions of the statements n the class of e holds, one character each, onto h. */
static void regions_held_in(Emit *e, Node *n, Buf *h) {
    for (; n; n = n->next) {
        if (n->kind == ND_REGION)
            buf_add(h, fpo_c_held(e, n) ? "1" : "0");
        regions_held_in(e, n->then, h);
        regions_held_in(e, n->els, h);
        regions_held_in(e, n->body, h);
    }
}

static void regions_held(Emit *e, Decl *s, Buf *h) {
    for (int c = 0; c < s->ncomps; c++)
        for (int v = 0; v < s->comps[c].nivs; v++)
            regions_held_in(e, s->comps[c].ivs[v].body, h);
}

/* One variant: the stencils and the run body as ranks of class `edges` run them. */
static char *emit_variant(Prog *pg, unsigned edges, char **body) {
    Ir *ir = pg->ir;
    Buf stencils = {0}, run = {0};
    Sched *sched = pg->build->sched;
    Emit e = {ir, &stencils, NULL, 0, EDGE_ALL, edges, sched, 0, NULL, NULL, NULL, NULL, NULL};
    for (int s = 0; s < ir->nstencils && !fpo_sched_inline(sched); s++)
        fpo_c_stencil(&e, ir->stencils[s], fpo_extent(ir->stencils[s]));
    e.b = &run;
    e.indent = 1;
    for (int i = 0; i < ir->nscalars; i++) {
        Var *v = ir->scalars[i];
        buf_printf(&run, "    %s %s = 0;\n", fpo_c_type(v->dt), fpo_c_name(v->name));
        buf_printf(&run, "    (void)%s;\n", fpo_c_name(v->name));
    }
    if (fpo_sched_inline(sched)) {
        fpo_emit_views(&run, sched);
        e.fns = &stencils;   /* a fused group's I-J loops: functions before run */
        sched->nfns = 0;
    }
    emit_run(&e, pg, ir->body);
    buf_add(&stencils, "");
    buf_add(&run, "");
    *body = run.s;
    return stencils.s;
}

/* The state of a program's emission: how many field parameters. */
static Prog prog_of(Ir *ir, const Build *bd) {
    Prog pg = {ir, 0, bd, NULL};
    for (int i = 0; i < ir->nparams; i++)
        pg.nfparams += ir->params[i]->ax != AX_SCALAR;
    return pg;
}

char *fpo_c_run_body(Ir *ir, const Build *bd, unsigned edges, FpoBlockFn *block, void *arg,
                     const char *stream) {
    Prog pg = prog_of(ir, bd);
    Buf run = {0};
    Emit e = {ir, &run, NULL, 1, EDGE_ALL, edges, bd->sched, 0, block, arg, stream, NULL, NULL};
    for (int i = 0; i < ir->nscalars; i++) {
        Var *v = ir->scalars[i];
        buf_printf(&run, "    %s %s = 0;\n", fpo_c_type(v->dt), fpo_c_name(v->name));
        buf_printf(&run, "    (void)%s;\n", fpo_c_name(v->name));
    }
    emit_run(&e, &pg, ir->body);
    buf_add(&run, "");
    return run.s;
}

bool fpo_build_has(const Build *bd, const char *backend) {
    for (int i = 0; i < bd->nbackends; i++)
        if (!strcmp(bd->backends[i], backend))
            return true;
    return false;
}

Output *fpo_emit_c(Ir *ir, Build *bd, int *nout) {
    if (!bd->sched)
        bd->sched = fpo_sched_new(ir, false);
    Prog pg = prog_of(ir, bd);
    bool cuda = fpo_build_has(bd, "cuda");
    int nplans = 0;
    bd->nhalo = 0;
    number_plans(ir->body, &nplans, &bd->nhalo);
    Buf fields = {0}, run_params = {0}, run_args = {0}, fenum = {0}, checks = {0}, allocs = {0};
    int slot = 0;
    for (int i = 0; i < ir->nparams; i++) {
        Var *v = ir->params[i];
        if (v->ax == AX_SCALAR) {
            buf_printf(&run_params, ", %s %s", fpo_c_type(v->dt), fpo_c_name(v->name));
            buf_printf(&run_args, ", %s", fpo_c_name(v->name));
            continue;
        }
        buf_printf(&fields, "    fpo_field %s;   /* %s */\n", v->name, fpo_fmt("field<%s, %s>",
                   dtype_name(v->dt), axes_name(v->ax)));
        buf_printf(&fenum, "    /* %d: field %s */\n", slot, v->name);
        buf_printf(&checks,
                   "    st = fpo_field_check(&fields->%s, \"%s\", \"%s\", %s, %s, p->lo[%d], "
                   "p->hi[%d], err);\n    if (st)\n        return st;\n",
                   v->name, ir->name, v->name, fpo_dtypes[v->dt], fpo_axes[v->ax], slot, slot);
        buf_printf(&checks, "    st = fpo_space_check_(p, &fields->%s, \"%s\", err);\n    if (st)\n"
                            "        return st;\n", v->name, v->name);
        slot++;
    }
    if (slot > 1)
        emit_apart_check(&checks, &pg, bd->sched);
    Buf hwidth = {0};
    emit_halo_width_checks(&hwidth, &pg, ir->body, bd);
    if (hwidth.len) {
        buf_add(&hwidth, checks.s ? checks.s : "");
        checks = hwidth;
    }
    if (!slot)
        buf_add(&fields, "    char fpo_none;   /* the program has no field parameters */\n");
    Buf cslots = {0};   /* the temporaries' dtypes and axes, for the CUDA back end's pool */
    for (int i = 0; i < ir->ntemps; i++, slot++) {
        buf_printf(&fenum, "    /* %d: temporary %s */\n", slot, ir->temps[i]->name);
        buf_printf(&cslots, "    {%s, %s},   /* %d: %s */\n", fpo_dtypes[ir->temps[i]->dt],
                   fpo_axes[ir->temps[i]->ax], slot, ir->temps[i]->name);
    }
    for (int s = 0; s < ir->nstencils; s++)
        for (int i = 0; i < ir->stencils[s]->ntemps; i++, slot++) {
            Var *v = ir->stencils[s]->temps[i];
            const char *label = fpo_fmt("%s.%s", ir->stencils[s]->name, v->name);
            buf_printf(&fenum, "    /* %d: temporary %s */\n", slot, label);
            buf_printf(&cslots, "    {%s, %s},   /* %d: %s */\n", fpo_dtypes[v->dt],
                       fpo_axes[v->ax], slot, label);
        }
    buf_add(&cslots, "    {FPO_F64, FPO_IJK}   /* (none: the list ends here) */\n");
    fpo_emit_pool(&allocs, bd->sched);
    Buf decls = {0};
    fpo_emit_decls(&decls, bd->sched);
    Buf needs = {0};
    emit_needs(&needs, &pg, ir->body);

    /* Variants: one per class, kept once when two classes give the same code. A class's code
     * differs from another's only in the regions it holds: a class holding the same regions
     * as one already emitted takes its variant without being emitted. */
    char **texts = NULL, **bodies = NULL, **held = NULL;
    int ntexts = 0, nbodies = 0, nheld = 0;
    bd->variant_of = fpo_new(sizeof(int) * (size_t)(bd->nclasses + 1));
    bd->variants = NULL;
    bd->nvariants = 0;
    for (int c = 0; c < bd->nclasses; c++) {
        Buf h = {0};
        Emit ce = {.known = EDGE_ALL, .edges = bd->classes[c]};
        for (int i = 0; i < ir->nstencils; i++)
            regions_held(&ce, ir->stencils[i], &h);
        buf_add(&h, "");
        int v;
        for (v = 0; v < bd->nvariants; v++)
            if (!strcmp(held[v], h.s))
                break;
        if (v < bd->nvariants) {
            bd->variant_of[c] = v;
            continue;
        }
        bd->sched->nksites = 0;   /* each variant numbers its checked reads from 1 */
        char *body, *st = emit_variant(&pg, bd->classes[c], &body);
        for (v = 0; v < bd->nvariants; v++)
            if (!strcmp(texts[v], st) && !strcmp(bodies[v], body))
                break;
        if (v == bd->nvariants) {
            VPUSH(texts, ntexts, st);
            VPUSH(bodies, nbodies, body);
            VPUSH(held, nheld, h.s);
            VPUSH(bd->variants, bd->nvariants, bd->classes[c]);
        }
        bd->variant_of[c] = v;
    }
    Buf protos = {0}, table = {0}, backends = {0}, backends_text = {0};
    for (int v = 0; v < bd->nvariants; v++) {
        buf_printf(&protos, "fpo_run_fn_ %s__run_%s;\n", ir->name, fpo_class_name(bd->variants[v]));
        if (cuda)
            buf_printf(&protos, "fpo_run_fn_ %s__cuda_%s;   /* %s.%s.cu */\n", ir->name,
                       fpo_class_name(bd->variants[v]), ir->name, fpo_class_name(bd->variants[v]));
    }
    for (int c = 0; c < bd->nclasses; c++) {
        const char *vn = fpo_class_name(bd->variants[bd->variant_of[c]]);
        buf_printf(&table, "    {%uu, \"%s\", %s__run_%s, %s},\n", bd->classes[c],
                   fpo_class_name(bd->classes[c]), ir->name, vn,
                   cuda ? fpo_fmt("%s__cuda_%s", ir->name, vn) : "NULL");
    }
    Buf built = {0};
    for (int c = 0; c < bd->nclasses; c++)
        buf_printf(&built, "%s%s", c ? ", " : "", fpo_class_name(bd->classes[c]));
    buf_add(&built, "");
    for (int i = 0; i < bd->nbackends; i++) {
        buf_printf(&backends, "%s\"%s\"", i ? ", " : "", bd->backends[i]);
        buf_printf(&backends_text, "%s%s", i ? " " : "", bd->backends[i]);
    }

    /* Halo statements: the decomposition, one plan per update or edge sync. */
    Buf hinc = {0}, hmembers = {0}, hplans = {0}, hbind = {0};
    if (bd->nhalo) {
        buf_add(&hinc, "#define FPO_PROGRAM_HALO_ 1\n#include \"fpo_halo.h\"\n");
        buf_printf(&hmembers, "    const fpo_halo_decomp *halo;   /* the decomposition (open's options) */\n"
                              "    fpo_halo_plan *plan[%d];         /* one per update or edge sync */\n",
                   nplans ? nplans : 1);
        emit_halo_plans(&hplans, &pg, ir->body, bd);
        buf_add(&hbind, "    fpo_halo_error fpo_herr;\n    (void)fpo_herr;\n");
        emit_halo_rebind(&hbind, &pg, ir->body);
    }
    if (cuda)
        buf_add(&hinc, "#define FPO_PROGRAM_CUDA_ 1\n#include \"fpo_cuda.h\"\n");
    buf_add(&hinc, "");
    buf_add(&hmembers, "");
    buf_add(&hplans, "");
    buf_add(&hbind, "");
    buf_add(&fields, "");
    buf_add(&run_params, "");
    buf_add(&run_args, "");
    buf_add(&fenum, "");
    buf_add(&checks, "");
    buf_add(&allocs, "");
    buf_add(&needs, "");
    buf_add(&protos, "");
    buf_add(&table, "");
    buf_add(&backends, "");
    buf_add(&backends_text, "");

    const char *src = ir->loc.file ? strrchr(ir->loc.file->path, '/') : NULL;
    src = src ? src + 1 : ir->loc.file ? ir->loc.file->path : "IR";
    Buf guard = {0};
    buf_add(&guard, "FPO_PROGRAM_");
    for (const char *c = ir->name; *c; c++)
        buf_printf(&guard, "%c", *c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
    buf_add(&guard, "_H");
    char *manifest = fpo_manifest(ir, bd);
    int64_t reach[4] = {0, 0, 0, 0};
    for (int i = 0; i < ir->nstencils; i++)
        for (int c = 0; c < ir->stencils[i]->ncomps; c++)
            for (int j = 0; j < ir->stencils[i]->comps[c].nivs; j++)
                fpo_c_reach(ir->stencils[i]->comps[c].ivs[j].body, reach);
    const char *reach_s = fpo_fmt("%lld, %lld, %lld, %lld", (long long)reach[0],
                                  (long long)reach[1], (long long)reach[2], (long long)reach[3]);
    Buf cbprotos = {0};
    for (int i = 0; i < ir->ncallbacks; i++) {
        Decl *cb = ir->callbacks[i];
        buf_printf(&cbprotos, "/* Host callback '%s': defined by the caller; `user` is "
                              "fpo_options.user given to open. Return FPO_OK, or an error "
                              "code (fpo_fail fills err) to stop the run. */\n"
                              "fpo_status %s(void *user", cb->name, cb->name);
        for (int k = 0; k < cb->nparams; k++) {
            Var *v = cb->params[k];
            if (v->ax == AX_SCALAR)
                buf_printf(&cbprotos, ", %s %s", fpo_c_type(v->dt), fpo_c_name(v->name));
            else
                buf_printf(&cbprotos, ", const fpo_field *%s", fpo_c_name(v->name));
        }
        buf_add(&cbprotos, ", fpo_error *err);\n");
    }
    buf_add(&cbprotos, "");
    const char *keys[] = {"NAME", "SOURCE", "GUARD", "FIELDS", "RUN_PARAMS", "RUN_ARGS",
                          "FIELD_ENUM", "NFIELDS", "NPARAMS", "CHECKS", "NEEDS", "ALLOCS",
                          "VARIANT_PROTOS", "CLASS_TABLE", "BACKENDS", "BACKENDS_TEXT",
                          "MANIFEST", "HALO_INCLUDE", "HALO_MEMBERS", "HALO_PLANS",
                          "HALO_BIND", "NHALO", "CALLBACK_PROTOS", "DECLS", "REACH", "CUDA_SLOTS",
                          "NCOLROWS", "BUILT", "STENCILS",
                          "RUN_ATTRS", "RUN_BODY", "VARIANT", "CLASSES"};
    const char *vals[] = {ir->name, fpo_c_comment(src), guard.s, fields.s, run_params.s, run_args.s, fenum.s,
                          fpo_fmt("%d", slot), fpo_fmt("%d", pg.nfparams), checks.s, needs.s,
                          allocs.s, protos.s, table.s, backends.s, backends_text.s,
                          fpo_c_string(manifest), hinc.s, hmembers.s, hplans.s, hbind.s,
                          fpo_fmt("%d", bd->nhalo), cbprotos.s, decls.s, reach_s, cslots.s,
                          fpo_fmt("%d", bd->sched ? fpo_ncol_rows(bd->sched) : 0), built.s, "",
                          bd->sched && bd->sched->narrow ? "FPO_NARROW_\n" : "", "", "", ""};
    int n = (int)(sizeof keys / sizeof *keys);
    Output *out = fpo_new(sizeof(Output) * (size_t)(bd->nvariants + 5));
    int k = 0;
    out[k++] = (Output){fpo_fmt("%s.h", ir->name), fpo_expand(fpo_tpl_program_h, keys, vals, n)};
    out[k++] = (Output){fpo_fmt("%s.impl.h", ir->name),
                        fpo_expand(fpo_tpl_program_impl_h, keys, vals, n)};
    out[k++] = (Output){fpo_fmt("%s.c", ir->name), fpo_expand(fpo_tpl_program_c, keys, vals, n)};
    for (int v = 0; v < bd->nvariants; v++) {
        Buf cls = {0};
        for (int c = 0; c < bd->nclasses; c++)
            if (bd->variant_of[c] == v)
                buf_printf(&cls, "%s%s", cls.len ? ", " : "", fpo_class_name(bd->classes[c]));
        const char *name = fpo_class_name(bd->variants[v]);
        vals[n - 5] = texts[v];
        vals[n - 3] = bodies[v];
        vals[n - 2] = name;
        vals[n - 1] = cls.s;
        char *file = fpo_fmt("%s.%s.c", ir->name, name);
        char *text = fpo_expand(fpo_tpl_program_variant_c, keys, vals, n);
        out[k++] = (Output){file, fpo_c_lines_back(text, file)};
    }
    out[k++] = (Output){fpo_fmt("%s.manifest.json", ir->name), manifest};
    *nout = k;
    return out;
}
