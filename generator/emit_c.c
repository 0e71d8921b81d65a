/* emit_c.c: takes the program IR, gives the program's C header and source: one static function
 * per stencil (a loop nest per computation and interval, I innermost), open / bind / run /
 * close around them. The fixed text comes from templates/. */
#include "fpo.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *c_types[] = {"float", "double", "int32_t", "bool"};
static const char *fpo_dtypes[] = {"FPO_F32", "FPO_F64", "FPO_I32", "FPO_BOOL"};
static const char *fpo_axes[] = {"FPO_IJK", "FPO_IJ", "FPO_K"};

/* Names in generated scopes a user name could collide with get a trailing underscore: loop
 * indices, run's own parameters, and the C library names the generated code calls. */
static const char *c_reserved[] = {"i", "j", "k", "p", "err", "nx", "ny", "nz", "NAN",
                                   "HUGE_VAL", "INFINITY", "fabs", "fabsf", "tgamma",
                                   "tgammaf", "int32_t", "int64_t", "size_t", NULL};

static const char *cname(const char *name) {
    for (int i = 0; c_reserved[i]; i++)
        if (!strcmp(c_reserved[i], name))
            return fpo_fmt("%s_", name);
    size_t n = strlen(name);
    if (n > 1 && name[n - 1] == 'f' && builtin_find(fpo_strndup(name, n - 1)))
        return fpo_fmt("%s_", name);
    return name;
}

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
    buf_add(&b, "");
    return b.s;
}

typedef struct Emit {
    Ir *ir;
    Buf *b;
    Decl *st;      /* the stencil being emitted, NULL in run */
    int indent;
    unsigned known, edges;   /* the variant's class: tile edges known (EDGE_*), and which of
                              * those the rank touches; unknown edges are tested at run time */
} Emit;

static void ind(Emit *e) {
    for (int i = 0; i < e->indent; i++)
        buf_add(e->b, "    ");
}

/* Point the C compiler (and debuggers) at the .fpo line. */
static void line_directive(Emit *e, Loc loc) {
    if (!loc.file || loc.line <= 0)
        return;
    buf_printf(e->b, "#line %d \"", loc.line);
    for (const char *c = loc.file->path; *c; c++) {
        if (*c == '"' || *c == '\\')
            buf_add(e->b, "\\");
        buf_addn(e->b, c, 1);
    }
    buf_add(e->b, "\"\n");
}

/* ---- expressions ---- */

static void emit_expr(Emit *e, Node *n);

static void emit_num(Buf *b, Node *n) {
    char s[64];
    switch (n->dt) {
    case DT_BOOL:
        buf_add(b, n->ival ? "true" : "false");
        return;
    case DT_I32:
        if (n->ival < 0)
            buf_printf(b, "(%lld)", (long long)n->ival);
        else
            buf_printf(b, "%lld", (long long)n->ival);
        return;
    default:
        if (isnan(n->fval)) {
            buf_add(b, n->dt == DT_F32 ? "((float)NAN)" : "((double)NAN)");
            return;
        }
        if (isinf(n->fval)) {
            buf_add(b, n->fval < 0 ? "(-HUGE_VAL)" : "HUGE_VAL");
            return;
        }
        snprintf(s, sizeof s, n->dt == DT_F32 ? "%.9g" : "%.17g", n->fval);
        if (!strpbrk(s, ".e"))
            strcat(s, ".0");
        if (n->dt == DT_F32)
            strcat(s, "f");
        buf_printf(b, s[0] == '-' ? "(%s)" : "%s", s);
    }
}

static void emit_offset(Buf *b, const char *v, int64_t off) {
    if (off > 0)
        buf_printf(b, "(%s + %lld)", v, (long long)off);
    else if (off < 0)
        buf_printf(b, "(%s - %lld)", v, (long long)-off);
    else
        buf_add(b, v);
}

static void emit_access(Emit *e, Node *n) {
    Var *v = n->var;
    const char *name = cname(v->name);
    if (v->ax == AX_SCALAR) {
        buf_add(e->b, name);
        return;
    }
    buf_printf(e->b, "%s[", name);
    if (v->ax != AX_K) {
        emit_offset(e->b, "i", n->off[0]);
        buf_add(e->b, " + ");
        emit_offset(e->b, "j", n->off[1]);
        buf_printf(e->b, " * fpo_sj_%s", v->name);
    }
    if (v->ax != AX_IJ) {
        if (v->ax != AX_K)
            buf_add(e->b, " + ");
        if (n->kmode == KM_ABS) {
            buf_add(e->b, "(");
            emit_expr(e, n->kexpr);
            buf_add(e->b, ")");
        } else if (n->kmode == KM_VAR) {
            buf_add(e->b, "(k + ");
            emit_expr(e, n->kexpr);
            buf_add(e->b, ")");
        } else {
            emit_offset(e->b, "k", n->off[2]);
        }
        buf_printf(e->b, " * fpo_sk_%s", v->name);
    }
    buf_add(e->b, "]");
}

static const char *sfx(DType dt) {
    return dt == DT_F32 ? "f32" : dt == DT_I32 ? "i32" : "f64";
}

static void emit_call(Emit *e, Node *n) {
    const Builtin *bi = &fpo_builtins[n->builtin - 1];
    const char *name = bi->name;
    switch (bi->kind) {
    case BK_SAME:
        if (!strcmp(name, "abs"))
            name = n->dt == DT_I32 ? "abs" : n->dt == DT_F32 ? "fabsf" : "fabs";
        else
            name = fpo_fmt("fpo_sign_%s", sfx(n->dt));
        break;
    case BK_MINMAX:
    case BK_MOD:
        name = fpo_fmt("fpo_%s_%s", name, sfx(n->dt));
        break;
    case BK_FLOAT:
    case BK_FLOAT2:
    case BK_ROUND:
        if (!strcmp(name, "gamma"))
            name = "tgamma";
        if (n->dt == DT_F32)
            name = fpo_fmt("%sf", name);
        break;
    case BK_PRED:
        buf_printf(e->b, "%s((double)(", name);
        emit_expr(e, n->args);
        buf_add(e->b, "))");
        return;
    }
    buf_printf(e->b, "%s(", name);
    for (Node *a = n->args; a; a = a->next) {
        emit_expr(e, a);
        if (a->next)
            buf_add(e->b, ", ");
    }
    buf_add(e->b, ")");
}

/* C precedence of an expression's top operator: binding tighter is higher. */
static int prec(Node *n) {
    static const char *levels[][4] = {{"||"}, {"&&"}, {"==", "!="}, {"<", "<=", ">", ">="},
                                      {"+", "-"}, {"*", "/", "%"}};
    if (n->kind == ND_COND)
        return 1;
    if (n->kind == ND_BINARY)
        for (int l = 0; l < 6; l++)
            for (int i = 0; i < 4 && levels[l][i]; i++)
                if (!strcmp(n->op, levels[l][i]))
                    return 2 + l;
    if (n->kind == ND_UNARY || n->kind == ND_CAST)
        return 8;
    return 9;
}

/* Emit `n`, in parentheses when it binds looser than `min`. */
static void emit_sub(Emit *e, Node *n, int min) {
    bool paren = prec(n) < min;
    if (paren)
        buf_add(e->b, "(");
    emit_expr(e, n);
    if (paren)
        buf_add(e->b, ")");
}

static void emit_expr(Emit *e, Node *n) {
    Buf *b = e->b;
    int p = prec(n);
    switch (n->kind) {
    case ND_NUM:
        emit_num(b, n);
        return;
    case ND_ACCESS:
        emit_access(e, n);
        return;
    case ND_UNARY:
        buf_add(b, n->op);
        emit_sub(e, n->lhs, p);
        return;
    case ND_BINARY:
    {
        /* Left-associative: the right operand needs parentheses at equal precedence. As
         * gcc's -Wparentheses asks, `&&` inside `||` and comparisons inside comparisons get
         * them too. */
        int lmin = p, rmin = p + 1;
        if (!strcmp(n->op, "||"))
            lmin = rmin = 4;
        else if (p == 4 || p == 5)
            lmin = rmin = 6;
        emit_sub(e, n->lhs, lmin);
        buf_printf(b, " %s ", n->op);
        emit_sub(e, n->rhs, rmin);
        return;
    }
    case ND_COND:
        emit_sub(e, n->cond, p + 1);
        buf_add(b, " ? ");
        emit_sub(e, n->then, p + 1);
        buf_add(b, " : ");
        emit_sub(e, n->els, p);
        return;
    case ND_CAST:
        if (n->dt == DT_BOOL) {
            buf_add(b, "(");
            emit_expr(e, n->lhs);
            buf_add(b, " != 0)");
            return;
        }
        buf_printf(b, "(%s)", c_types[n->dt]);
        emit_sub(e, n->lhs, p);
        return;
    case ND_CALL:
        emit_call(e, n);
        return;
    default:
        buf_add(b, "/* ? */0");
    }
}

/* ---- stencil statements ---- */

static void emit_stmts(Emit *e, Node *n);

/* The edge a region axis needs the rank to touch (both ends anchored at one edge), or 0. */
static unsigned region_edge(const RegionAxis *r, int ax) {
    if (r->all || r->lo_base != r->hi_base)
        return 0;
    if (ax == 0)
        return r->lo_base == RB_START ? EDGE_W : EDGE_E;
    return r->lo_base == RB_START ? EDGE_S : EDGE_N;
}

/* Whether ranks of the emitted class can hold points of region `n`. */
static bool region_held(Emit *e, Node *n) {
    for (int ax = 0; ax < 2; ax++) {
        unsigned need = region_edge(&n->reg[ax], ax);
        if (need && (e->known & need) && !(e->edges & need))
            return false;
    }
    return true;
}

/* The test of region `n` at point (i, j): tile indices against the region's bounds, and the
 * tile edges it needs where the class does not fix them. */
static void emit_region_cond(Emit *e, Node *n) {
    const char *sep = "";
    for (int ax = 0; ax < 2; ax++) {
        RegionAxis *r = &n->reg[ax];
        if (r->all)
            continue;
        unsigned need = region_edge(r, ax);
        if (need && !(e->known & need)) {
            buf_printf(e->b, "%s(fpo_edges & %uu)", sep, need);
            sep = " && ";
        }
        const char *idx = ax ? "j + fpo_tj" : "i + fpo_ti", *last = ax ? "fpo_tnj" : "fpo_tni";
        for (int s = 0; s < 2; s++) {
            int base = s ? r->hi_base : r->lo_base;
            int64_t off = s ? r->hi : r->lo;
            buf_printf(e->b, "%s%s %s ", sep, idx, s ? "<" : ">=");
            sep = " && ";
            if (base == RB_START)
                buf_printf(e->b, "%lld", (long long)off);
            else
                emit_offset(e->b, fpo_fmt("%s - 1", last), off);
        }
    }
    if (!*sep)
        buf_add(e->b, "true");
}

static void emit_stmt(Emit *e, Node *n) {
    if (n->kind == ND_REGION && !region_held(e, n))
        return;   /* pruned: no rank of this class holds its points */
    line_directive(e, n->loc);
    ind(e);
    switch (n->kind) {
    case ND_REGION:
        buf_add(e->b, "if (");
        emit_region_cond(e, n);
        buf_add(e->b, ") {   /* region */\n");
        e->indent++;
        emit_stmts(e, n->body);
        e->indent--;
        ind(e);
        buf_add(e->b, "}\n");
        return;
    case ND_ASSIGN:
        emit_access(e, n->lhs);
        buf_printf(e->b, " %s ", n->op);
        emit_expr(e, n->rhs);
        buf_add(e->b, ";\n");
        return;
    case ND_IF:
        buf_add(e->b, "if (");
        emit_expr(e, n->cond);
        buf_add(e->b, ") {\n");
        e->indent++;
        emit_stmts(e, n->then);
        e->indent--;
        if (n->els) {
            ind(e);
            buf_add(e->b, "} else {\n");
            e->indent++;
            emit_stmts(e, n->els);
            e->indent--;
        }
        ind(e);
        buf_add(e->b, "}\n");
        return;
    case ND_WHILE:
        buf_add(e->b, "while (");
        emit_expr(e, n->cond);
        buf_add(e->b, ") {\n");
        e->indent++;
        emit_stmts(e, n->body);
        e->indent--;
        ind(e);
        buf_add(e->b, "}\n");
        return;
    default:
        buf_add(e->b, ";\n");
    }
}

static void emit_stmts(Emit *e, Node *n) {
    for (; n; n = n->next)
        emit_stmt(e, n);
}

static bool uses(Node *n, Var *v) {
    for (; n; n = n->next)
        if (n->var == v || uses(n->lhs, v) || uses(n->rhs, v) || uses(n->cond, v) ||
            uses(n->then, v) || uses(n->els, v) || uses(n->body, v) || uses(n->args, v) ||
            uses(n->kexpr, v))
            return true;
    return false;
}

static bool has_region(Node *n) {
    for (; n; n = n->next)
        if (n->kind == ND_REGION || has_region(n->then) || has_region(n->els) ||
            has_region(n->body))
            return true;
    return false;
}

static bool stencil_has_region(Decl *s) {
    for (int c = 0; c < s->ncomps; c++)
        for (int j = 0; j < s->comps[c].nivs; j++)
            if (has_region(s->comps[c].ivs[j].body))
                return true;
    return false;
}

static bool stencil_uses(Decl *s, Var *v) {
    for (int c = 0; c < s->ncomps; c++)
        for (int j = 0; j < s->comps[c].nivs; j++)
            if (uses(s->comps[c].ivs[j].body, v))
                return true;
    return false;
}

static bool stencil_writes_in(Node *n, Var *v) {
    for (; n; n = n->next)
        if ((n->kind == ND_ASSIGN && n->lhs->var == v) || stencil_writes_in(n->then, v) ||
            stencil_writes_in(n->els, v) || stencil_writes_in(n->body, v))
            return true;
    return false;
}

static bool stencil_writes(Decl *s, Var *v) {
    for (int c = 0; c < s->ncomps; c++)
        for (int j = 0; j < s->comps[c].nivs; j++)
            if (stencil_writes_in(s->comps[c].ivs[j].body, v))
                return true;
    return false;
}

static void kbound(Buf *b, int base, int64_t off) {
    const char *v = base == B_BOTTOM ? "fpo_k0" : "fpo_k1";
    emit_offset(b, v, off);
}

static void emit_field_setup(Emit *e, Var *v) {
    Buf *b = e->b;
    const char *t = c_types[v->dt];
    const char *cq = stencil_writes(e->st, v) ? "" : "const ";
    buf_printf(b, "    const int64_t fpo_sj_%s = fpo_%s->stride[1], fpo_sk_%s = fpo_%s->stride[2];\n",
               v->name, v->name, v->name, v->name);
    buf_printf(b,
               "    %s%s *restrict %s = (%s%s *)fpo_%s->data - (fpo_%s->lo[0] * fpo_%s->stride[0] "
               "+ fpo_%s->lo[1] * fpo_sj_%s + fpo_%s->lo[2] * fpo_sk_%s);\n",
               cq, t, cname(v->name), cq, t, v->name, v->name, v->name, v->name, v->name, v->name,
               v->name);
    if (v->ax == AX_K)
        buf_printf(b, "    (void)fpo_sj_%s;\n", v->name);
    if (v->ax == AX_IJ)
        buf_printf(b, "    (void)fpo_sk_%s;\n", v->name);
}

static Node *nth(Node *n, int i) {
    while (i-- > 0)
        n = n->next;
    return n;
}

/* One loop nest over J and I (and K when `par`) running statements of a group. */
static void emit_group(Emit *e, Interval *iv, Group *g, bool par) {
    Buf *b = e->b;
    Extent x = g->ext;
    const char *ib = x.ilo ? fpo_fmt("fpo_i0 - %lld", (long long)-x.ilo) : "fpo_i0";
    const char *ie = x.ihi ? fpo_fmt("fpo_i1 + %lld", (long long)x.ihi) : "fpo_i1";
    const char *jb = x.jlo ? fpo_fmt("fpo_j0 - %lld", (long long)-x.jlo) : "fpo_j0";
    const char *je = x.jhi ? fpo_fmt("fpo_j1 + %lld", (long long)x.jhi) : "fpo_j1";
    const char *pad = "        ";
    if (x.ilo || x.ihi || x.jlo || x.jhi)
        buf_printf(b, "%s/* on the domain extended by i %lld..+%lld, j %lld..+%lld: later "
                      "statements read these values at offsets */\n",
                   pad, (long long)x.ilo, (long long)x.ihi, (long long)x.jlo, (long long)x.jhi);
    if (par) {
        buf_add(b, "#ifdef _OPENMP\n#pragma omp parallel for collapse(2)\n#endif\n");
        buf_add(b, "        for (int64_t k = fpo_kb; k < fpo_ke; k++)\n");
    } else {
        buf_add(b, "#ifdef _OPENMP\n#pragma omp for\n#endif\n");
    }
    buf_printf(b, "%s    for (int64_t j = %s; j < %s; j++) {\n", pad, jb, je);
    buf_printf(b, "%s        for (int64_t i = %s; i < %s; i++) {\n", pad, ib, ie);
    e->indent = 5;
    Node *first = nth(iv->body, g->first), *last = nth(iv->body, g->first + g->count - 1);
    Node *after = last->next;
    last->next = NULL;
    for (int l = 0; l < e->st->nlocals; l++)
        if (uses(first, e->st->locals[l])) {
            ind(e);
            buf_printf(b, "%s %s = 0;\n", c_types[e->st->locals[l]->dt],
                       cname(e->st->locals[l]->name));
        }
    emit_stmts(e, first);
    last->next = after;
    buf_printf(b, "%s        }\n%s    }\n", pad, pad);
}

static void emit_stencil(Emit *e, Decl *s, StencilInfo *si) {
    Buf *b = e->b;
    e->st = s;
    buf_printf(b, "\n/* stencil %s (%s:%d) */\nstatic void stencil_%s(", s->name,
               s->loc.file ? s->loc.file->path : "?", s->loc.line, s->name);
    for (int i = 0; i < s->nparams; i++) {
        Var *v = s->params[i];
        if (v->ax == AX_SCALAR)
            buf_printf(b, "%s %s, ", c_types[v->dt], cname(v->name));
        else
            buf_printf(b, "const fpo_field *fpo_%s, ", v->name);
    }
    for (int i = 0; i < s->ntemps; i++)
        buf_printf(b, "const fpo_field *fpo_%s, ", s->temps[i]->name);
    buf_add(b, "const fpo_domain *fpo_dom, unsigned fpo_edges, int64_t fpo_i0, int64_t fpo_i1, "
               "int64_t fpo_j0, int64_t fpo_j1, int64_t fpo_k0, int64_t fpo_k1) {\n");
    buf_add(b, "    (void)fpo_k0, (void)fpo_k1;   /* intervals may use one end only */\n");
    if (stencil_has_region(s))
        buf_add(b, "    /* regions: this rank's place on its tile */\n"
                   "    const int64_t fpo_ti = fpo_dom->i0, fpo_tj = fpo_dom->j0, "
                   "fpo_tni = fpo_dom->tile_nx, fpo_tnj = fpo_dom->tile_ny;\n"
                   "    (void)fpo_ti, (void)fpo_tj, (void)fpo_tni, (void)fpo_tnj, (void)fpo_edges;\n");
    else
        buf_add(b, "    (void)fpo_dom, (void)fpo_edges;\n");
    for (int i = 0; i < s->nparams; i++) {
        Var *v = s->params[i];
        if (v->ax != AX_SCALAR && stencil_uses(s, v))
            emit_field_setup(e, v);
        else if (v->ax != AX_SCALAR)
            buf_printf(b, "    (void)fpo_%s;\n", v->name);
        else if (!stencil_uses(s, v))
            buf_printf(b, "    (void)%s;\n", cname(v->name));
    }
    for (int i = 0; i < s->ntemps; i++) {
        if (stencil_uses(s, s->temps[i]))
            emit_field_setup(e, s->temps[i]);
        else
            buf_printf(b, "    (void)fpo_%s;\n", s->temps[i]->name);
    }
    static const char *orders[] = {"PARALLEL", "FORWARD", "BACKWARD"};
    for (int c = 0; c < s->ncomps; c++) {
        Comp *cp = &s->comps[c];
        buf_printf(b, "\n    /* computation %d: %s */\n", c + 1, orders[cp->order]);
        for (int v = 0; v < cp->nivs; v++) {
            Interval *iv = &cp->ivs[v];
            buf_add(b, "    {\n        const int64_t fpo_kb = ");
            kbound(b, iv->lo.base, iv->lo.off);
            buf_add(b, ", fpo_ke = ");
            kbound(b, iv->hi.base, iv->hi.off);
            buf_add(b, ";\n");
            line_directive(e, iv->loc);
            bool par = cp->order == ORD_PARALLEL;
            /* K in order: one team for the whole column loop; every thread walks K and
             * shares each level's J rows (`omp for` ends with a barrier). */
            if (!par)
                buf_add(b, "#ifdef _OPENMP\n#pragma omp parallel\n#endif\n");
            if (cp->order == ORD_FORWARD)
                buf_add(b, "        for (int64_t k = fpo_kb; k < fpo_ke; k++) {\n");
            else if (cp->order == ORD_BACKWARD)
                buf_add(b, "        for (int64_t k = fpo_ke - 1; k >= fpo_kb; k--) {\n");
            for (int g = 0; g < si->ngroups[c][v]; g++)
                emit_group(e, iv, &si->groups[c][v][g], par);
            if (!par)
                buf_add(b, "        }\n");
            buf_add(b, "    }\n");
        }
    }
    buf_add(b, "}\n");
    e->st = NULL;
}

/* ---- program ---- */

static int field_slot(Ir *ir, Decl **sts, StencilInfo **infos, Var *v) {
    (void)infos;
    int slot = 0;
    for (int i = 0; i < ir->nparams; i++) {
        if (ir->params[i] == v)
            return slot;
        if (ir->params[i]->ax != AX_SCALAR)
            slot++;
    }
    for (int i = 0; i < ir->ntemps; i++, slot++)
        if (ir->temps[i] == v)
            return slot;
    for (int s = 0; s < ir->nstencils; s++)
        for (int i = 0; i < sts[s]->ntemps; i++, slot++)
            if (sts[s]->temps[i] == v)
                return slot;
    return -1;
}

typedef struct Prog {
    Ir *ir;
    StencilInfo **infos;
    int nfparams;
} Prog;

static const char *field_ref(Prog *pg, Var *v) {
    int slot = field_slot(pg->ir, pg->ir->stencils, pg->infos, v);
    if (slot < pg->nfparams)
        return fpo_fmt("&p->f.%s", v->name);
    return fpo_fmt("&p->tmp[%d]", slot - pg->nfparams);
}

static const char *dbound(DBound d) {
    static const char *base[] = {"0", "nx", "ny", "nz"};
    if (d.base == DB_ZERO)
        return fpo_fmt("%lld", (long long)d.off);
    if (!d.off)
        return base[d.base];
    return fpo_fmt("%s %c %lld", base[d.base], d.off > 0 ? '+' : '-',
                   (long long)(d.off > 0 ? d.off : -d.off));
}

static int stencil_index(Ir *ir, Decl *s) {
    for (int i = 0; i < ir->nstencils; i++)
        if (ir->stencils[i] == s)
            return i;
    return -1;
}

static void emit_run(Emit *e, Prog *pg, Node *n) {
    Buf *b = e->b;
    for (; n; n = n->next) {
        line_directive(e, n->loc);
        switch (n->kind) {
        case ND_ASSIGN:
            ind(e);
            buf_printf(b, "%s %s ", cname(n->lhs->var->name), n->op);
            emit_expr(e, n->rhs);
            buf_add(b, ";\n");
            break;
        case ND_FOR: {
            const char *v = cname(n->var->name);
            ind(e);
            buf_printf(b, "for (%s = ", v);
            emit_expr(e, n->lhs);
            buf_printf(b, "; %s < ", v);
            emit_expr(e, n->rhs);
            buf_printf(b, "; %s++) {\n", v);
            e->indent++;
            emit_run(e, pg, n->body);
            e->indent--;
            ind(e);
            buf_add(b, "}\n");
            break;
        }
        case ND_IF:
            ind(e);
            buf_add(b, "if (");
            emit_expr(e, n->cond);
            buf_add(b, ") {\n");
            e->indent++;
            emit_run(e, pg, n->then);
            e->indent--;
            if (n->els) {
                ind(e);
                buf_add(b, "} else {\n");
                e->indent++;
                emit_run(e, pg, n->els);
                e->indent--;
            }
            ind(e);
            buf_add(b, "}\n");
            break;
        case ND_STAGES:
            for (Node *st = n->body; st; st = st->next) {
                Decl *s = st->decl;
                ind(e);
                buf_printf(b, "stencil_%s(", s->name);
                for (int i = 0; i < s->nparams; i++) {
                    Node *a = st->argv[i];
                    if (s->params[i]->ax == AX_SCALAR)
                        emit_expr(e, a);
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
                    buf_printf(b, "%s, %s%s", dbound(st->dom.lo[a]), dbound(st->dom.hi[a]),
                               a < 2 ? ", " : ");\n");
            }
            break;
        default:
            break;
        }
    }
}

static DBound shift(DBound d, int64_t off) { return (DBound){d.base, d.off + off}; }

/* A K bound of a box as an expression of the call's K range (k0, k1) and nz. */
static const char *kb_expr(int base, int64_t off, DBound k0, DBound k1) {
    if (base == KB_BOTTOM)
        return dbound(shift(k0, off));
    if (base == KB_TOP)
        return dbound(shift(k1, off));
    return dbound((DBound){base == KB_NZ ? DB_NZ : DB_ZERO, off});
}

static void emit_needs(Buf *b, Prog *pg, Node *n) {
    for (; n; n = n->next) {
        if (n->kind == ND_FOR)
            emit_needs(b, pg, n->body);
        if (n->kind == ND_IF) {
            emit_needs(b, pg, n->then);
            emit_needs(b, pg, n->els);
        }
        if (n->kind != ND_STAGES)
            continue;
        for (Node *st = n->body; st; st = st->next) {
            Decl *s = st->decl;
            StencilInfo *si = pg->infos[stencil_index(pg->ir, s)];
            buf_printf(b, "    /* %s (%s:%d) */\n", s->name, st->loc.file ? st->loc.file->path : "?",
                       st->loc.line);
            for (int x = 0; x < s->nparams + s->ntemps; x++) {
                Var *v = x < s->nparams ? s->params[x] : s->temps[x - s->nparams];
                if (v->ax == AX_SCALAR)
                    continue;
                Var *pv = x < s->nparams ? st->argv[x]->var : v;
                int slot = field_slot(pg->ir, pg->ir->stencils, pg->infos, pv);
                for (int k = 0; k < si->nboxes[x]; k++) {
                    Box *bx = &si->boxes[x][k];
                    if (v->ax != AX_K) {
                        buf_printf(b, "    fpo_need(p->lo[%d], p->hi[%d], 0, %s, %s);\n", slot,
                                   slot, dbound(shift(st->dom.lo[0], bx->ilo)),
                                   dbound(shift(st->dom.hi[0], bx->ihi)));
                        buf_printf(b, "    fpo_need(p->lo[%d], p->hi[%d], 1, %s, %s);\n", slot,
                                   slot, dbound(shift(st->dom.lo[1], bx->jlo)),
                                   dbound(shift(st->dom.hi[1], bx->jhi)));
                    }
                    if (v->ax != AX_IJ)
                        buf_printf(b, "    fpo_need(p->lo[%d], p->hi[%d], 2, %s, %s);\n", slot,
                                   slot, kb_expr(bx->klo_base, bx->klo, st->dom.lo[2], st->dom.hi[2]),
                                   kb_expr(bx->khi_base, bx->khi, st->dom.lo[2], st->dom.hi[2]));
                }
            }
        }
    }
}

static void emit_alloc(Buf *b, const char *prog, int slot, int tslot, Var *v, const char *label) {
    buf_printf(b,
               "    st = fpo_tmp_alloc(&p->tmp[%d], %s, %s, p->lo[%d], p->hi[%d], \"%s\", err);\n"
               "    if (st) {\n        %s_close(p);\n        return st;\n    }\n",
               tslot, fpo_dtypes[v->dt], fpo_axes[v->ax], slot, slot, label, prog);
}

void fpo_emit_c(Ir *ir, Output out[2]) {
    Prog pg = {ir, fpo_new(sizeof(StencilInfo *) * (size_t)(ir->nstencils + 1)), 0};
    for (int i = 0; i < ir->nstencils; i++)
        pg.infos[i] = fpo_extent(ir->stencils[i]);
    Buf fields = {0}, run_params = {0}, fenum = {0}, checks = {0}, allocs = {0};
    int slot = 0;
    for (int i = 0; i < ir->nparams; i++) {
        Var *v = ir->params[i];
        if (v->ax == AX_SCALAR) {
            buf_printf(&run_params, ", %s %s", c_types[v->dt], cname(v->name));
            continue;
        }
        buf_printf(&fields, "    fpo_field %s;   /* %s */\n", v->name, fpo_fmt("field<%s, %s>",
                   dtype_name(v->dt), axes_name(v->ax)));
        buf_printf(&fenum, "    /* %d: field %s */\n", slot, v->name);
        buf_printf(&checks,
                   "    st = fpo_field_check(&fields->%s, \"%s\", \"%s\", %s, %s, p->lo[%d], "
                   "p->hi[%d], err);\n    if (st)\n        return st;\n",
                   v->name, ir->name, v->name, fpo_dtypes[v->dt], fpo_axes[v->ax], slot, slot);
        slot++;
    }
    pg.nfparams = slot;
    if (!slot)
        buf_add(&fields, "    char fpo_none;   /* the program has no field parameters */\n");
    for (int i = 0; i < ir->ntemps; i++, slot++) {
        buf_printf(&fenum, "    /* %d: temporary %s */\n", slot, ir->temps[i]->name);
        emit_alloc(&allocs, ir->name, slot, slot - pg.nfparams, ir->temps[i], ir->temps[i]->name);
    }
    for (int s = 0; s < ir->nstencils; s++)
        for (int i = 0; i < ir->stencils[s]->ntemps; i++, slot++) {
            Var *v = ir->stencils[s]->temps[i];
            const char *label = fpo_fmt("%s.%s", ir->stencils[s]->name, v->name);
            buf_printf(&fenum, "    /* %d: temporary %s */\n", slot, label);
            emit_alloc(&allocs, ir->name, slot, slot - pg.nfparams, v, label);
        }
    Buf stencils = {0}, needs = {0}, body = {0};
    Emit e = {ir, &stencils, NULL, 0};
    for (int s = 0; s < ir->nstencils; s++)
        emit_stencil(&e, ir->stencils[s], pg.infos[s]);
    emit_needs(&needs, &pg, ir->body);
    e.b = &body;
    e.indent = 1;
    for (int i = 0; i < ir->nscalars; i++) {
        Var *v = ir->scalars[i];
        buf_printf(&body, "    %s %s = 0;\n", c_types[v->dt], cname(v->name));
        buf_printf(&body, "    (void)%s;\n", cname(v->name));
    }
    emit_run(&e, &pg, ir->body);
    buf_add(&fields, "");
    buf_add(&run_params, "");
    buf_add(&fenum, "");
    buf_add(&checks, "");
    buf_add(&allocs, "");
    buf_add(&stencils, "");
    buf_add(&needs, "");
    buf_add(&body, "");

    const char *src = ir->loc.file ? strrchr(ir->loc.file->path, '/') : NULL;
    src = src ? src + 1 : ir->loc.file ? ir->loc.file->path : "IR";
    Buf guard = {0};
    buf_add(&guard, "FPO_PROGRAM_");
    for (const char *c = ir->name; *c; c++)
        buf_printf(&guard, "%c", *c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
    buf_add(&guard, "_H");
    const char *keys[] = {"NAME", "SOURCE", "GUARD", "FIELDS", "RUN_PARAMS", "FIELD_ENUM",
                          "NFIELDS", "NPARAMS", "STENCILS", "CHECKS", "NEEDS", "ALLOCS",
                          "RUN_BODY"};
    const char *vals[] = {ir->name, src, guard.s, fields.s, run_params.s, fenum.s,
                          fpo_fmt("%d", slot), fpo_fmt("%d", pg.nfparams), stencils.s,
                          checks.s, needs.s, allocs.s, body.s};
    int n = (int)(sizeof keys / sizeof *keys);
    out[0].name = fpo_fmt("%s.h", ir->name);
    out[0].text = fpo_expand(fpo_tpl_program_h, keys, vals, n);
    out[1].name = fpo_fmt("%s.c", ir->name);
    out[1].text = fpo_expand(fpo_tpl_program_c, keys, vals, n);
}
