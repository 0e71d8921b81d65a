/* ir_json.c: takes the program IR, gives its JSON text (schema: docs/ir.md), and back. The
 * round trip is lossless: re-emitting JSON read back gives the same text. */
#include "fpo.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

static const char *orders[] = {"PARALLEL", "FORWARD", "BACKWARD"};
static const char *kbases[] = {"bottom", "top"};
static const char *dbases[] = {"0", "nx", "ny", "nz"};
static const char *axes_keys[] = {"i", "j", "k"};
static const char *ops[] = {"=",  "+=", "-=", "*=", "/=", "||", "&&", "==", "!=", "<", "<=",
                            ">",  ">=", "+",  "-",  "*",  "/",  "%",  "!",  NULL};

/* ---- IR to JSON ---- */

typedef struct Out {
    Ir *ir;
} Out;

static json_t *loc_json(Out *o, Loc loc) {
    int file = -1;
    for (int i = 0; loc.file && i < o->ir->ninputs; i++)
        if (!strcmp(o->ir->inputs[i], loc.file->path))
            file = i;
    return json_pack("[iii]", file, loc.line, loc.col);
}

static json_t *var_json(Var *v) {
    return json_pack("{ssssss}", "name", v->name, "dtype", dtype_name(v->dt), "axes",
                     axes_name(v->ax));
}

static json_t *vars_json(Var **vs, int n) {
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, var_json(vs[i]));
    return a;
}

static json_t *real_json(double f) {
    if (isnan(f))
        return json_string("nan");
    if (isinf(f))
        return json_string(f < 0 ? "-inf" : "inf");
    return json_real(f);
}

static json_t *expr_json(Node *n) {
    json_t *j = json_object();
    const char *dt = dtype_name(n->dt);
    switch (n->kind) {
    case ND_NUM:
        json_object_set_new(j, "kind", json_string("num"));
        json_object_set_new(j, "dtype", json_string(dt));
        json_object_set_new(j, "value", n->dt == DT_BOOL  ? json_boolean(n->ival)
                                        : n->dt == DT_I32 ? json_integer(n->ival)
                                                          : real_json(n->fval));
        break;
    case ND_ACCESS:
        json_object_set_new(j, "kind", json_string("access"));
        json_object_set_new(j, "name", json_string(n->var->name));
        json_object_set_new(j, "dtype", json_string(dt));
        json_object_set_new(j, "offset", json_pack("[III]", (json_int_t)n->off[0],
                                                   (json_int_t)n->off[1], (json_int_t)n->off[2]));
        if (n->kmode == KM_VAR)
            json_object_set_new(j, "k", expr_json(n->kexpr));
        if (n->kmode == KM_ABS)
            json_object_set_new(j, "at", expr_json(n->kexpr));
        break;
    case ND_UNARY:
    case ND_CAST:
        json_object_set_new(j, "kind", json_string(n->kind == ND_UNARY ? "unary" : "cast"));
        if (n->kind == ND_UNARY)
            json_object_set_new(j, "op", json_string(n->op));
        json_object_set_new(j, "dtype", json_string(dt));
        json_object_set_new(j, "arg", expr_json(n->lhs));
        break;
    case ND_BINARY:
        json_object_set_new(j, "kind", json_string("binary"));
        json_object_set_new(j, "op", json_string(n->op));
        json_object_set_new(j, "dtype", json_string(dt));
        json_object_set_new(j, "lhs", expr_json(n->lhs));
        json_object_set_new(j, "rhs", expr_json(n->rhs));
        break;
    case ND_COND:
        json_object_set_new(j, "kind", json_string("cond"));
        json_object_set_new(j, "dtype", json_string(dt));
        json_object_set_new(j, "cond", expr_json(n->cond));
        json_object_set_new(j, "then", expr_json(n->then));
        json_object_set_new(j, "else", expr_json(n->els));
        break;
    case ND_CALL: {
        json_object_set_new(j, "kind", json_string("call"));
        json_object_set_new(j, "fn", json_string(fpo_builtins[n->builtin - 1].name));
        json_object_set_new(j, "dtype", json_string(dt));
        json_t *args = json_array();
        for (Node *a = n->args; a; a = a->next)
            json_array_append_new(args, expr_json(a));
        json_object_set_new(j, "args", args);
        break;
    }
    default:
        break;
    }
    return j;
}

static json_t *stmts_json(Out *o, Node *n);

static json_t *domain_json(Domain *d) {
    json_t *j = json_object();
    for (int a = 0; a < 3; a++)
        json_object_set_new(j, axes_keys[a],
                            json_pack("[[sI][sI]]", dbases[d->lo[a].base], (json_int_t)d->lo[a].off,
                                      dbases[d->hi[a].base], (json_int_t)d->hi[a].off));
    return j;
}

static const char *rbases[] = {"start", "end"};

/* A region axis: ":" or [[base, lo], [base, hi]] (half-open). */
static json_t *region_axis_json(RegionAxis *r) {
    if (r->all)
        return json_string(":");
    return json_pack("[[sI][sI]]", rbases[r->lo_base], (json_int_t)r->lo, rbases[r->hi_base],
                     (json_int_t)r->hi);
}

static const char *halo_ops[] = {"halo_update", "copy_corners", "fill_corners", "sync_edges"};
static const char *halo_vecs[] = {"none", "A", "B", "C", "D"};
static const char *halo_dirs[] = {"", "X", "Y"};
static const char *halo_ats[] = {"cell", "vertex"};

/* A halo statement's keys (also a corner fill's, in the stages node standing for it). */
static void halo_json(json_t *j, Node *n) {
    json_t *fields = json_array();
    for (Node *a = n->args; a; a = a->next)
        json_array_append_new(fields, json_string(a->var->name));
    json_object_set_new(j, "op", json_string(halo_ops[n->halo.op]));
    json_object_set_new(j, "fields", fields);
    json_object_set_new(j, "vector", json_string(halo_vecs[n->halo.vec]));
    json_object_set_new(j, "depth", json_integer((json_int_t)n->halo.depth));
    json_object_set_new(j, "dir", json_string(halo_dirs[n->halo.dir + 1]));
    json_object_set_new(j, "at", json_string(halo_ats[n->halo.at]));
}

static json_t *stmt_json(Out *o, Node *n) {
    json_t *j = json_object();
    switch (n->kind) {
    case ND_HOSTCALL: {
        json_t *args = json_array();
        for (int i = 0; i < n->decl->nparams; i++)
            json_array_append_new(args, expr_json(n->argv[i]));
        json_object_set_new(j, "kind", json_string("callback"));
        json_object_set_new(j, "name", json_string(n->decl->name));
        json_object_set_new(j, "args", args);
        break;
    }
    case ND_HALO:
        json_object_set_new(j, "kind", json_string("halo"));
        halo_json(j, n);
        break;
    case ND_REGION:
        json_object_set_new(j, "kind", json_string("region"));
        json_object_set_new(j, "i", region_axis_json(&n->reg[0]));
        json_object_set_new(j, "j", region_axis_json(&n->reg[1]));
        json_object_set_new(j, "body", stmts_json(o, n->body));
        break;
    case ND_ASSIGN:
        json_object_set_new(j, "kind", json_string("assign"));
        json_object_set_new(j, "op", json_string(n->op));
        json_object_set_new(j, "target", expr_json(n->lhs));
        json_object_set_new(j, "value", expr_json(n->rhs));
        break;
    case ND_IF:
        json_object_set_new(j, "kind", json_string("if"));
        json_object_set_new(j, "cond", expr_json(n->cond));
        json_object_set_new(j, "then", stmts_json(o, n->then));
        json_object_set_new(j, "else", stmts_json(o, n->els));
        break;
    case ND_WHILE:
        json_object_set_new(j, "kind", json_string("while"));
        json_object_set_new(j, "cond", expr_json(n->cond));
        json_object_set_new(j, "body", stmts_json(o, n->body));
        break;
    case ND_FOR:
        json_object_set_new(j, "kind", json_string("for"));
        json_object_set_new(j, "var", json_string(n->var->name));
        json_object_set_new(j, "lo", expr_json(n->lhs));
        json_object_set_new(j, "hi", expr_json(n->rhs));
        json_object_set_new(j, "body", stmts_json(o, n->body));
        break;
    case ND_STAGES: {
        json_object_set_new(j, "kind", json_string("stages"));
        json_t *stages = json_array();
        for (Node *s = n->body; s; s = s->next) {
            json_t *args = json_array();
            for (int i = 0; i < s->decl->nparams; i++)
                json_array_append_new(args, expr_json(s->argv[i]));
            json_array_append_new(stages, json_pack("{ss s:o s:o s:o}", "stencil", s->decl->name,
                                                    "loc", loc_json(o, s->loc), "args", args,
                                                    "domain", domain_json(&s->dom)));
        }
        json_object_set_new(j, "stages", stages);
        if (n->args) {   /* a corner fill pass_corners made a stencil call: the statement */
            json_t *fill = json_object();
            halo_json(fill, n);
            json_object_set_new(j, "fill", fill);
        }
        break;
    }
    default:
        break;
    }
    json_object_set_new(j, "loc", loc_json(o, n->loc));
    return j;
}

static json_t *stmts_json(Out *o, Node *n) {
    json_t *a = json_array();
    for (; n; n = n->next)
        json_array_append_new(a, stmt_json(o, n));
    return a;
}

static json_t *stencil_json(Out *o, Decl *s) {
    json_t *comps = json_array();
    for (int c = 0; c < s->ncomps; c++) {
        json_t *ivs = json_array();
        for (int i = 0; i < s->comps[c].nivs; i++) {
            Interval *iv = &s->comps[c].ivs[i];
            json_array_append_new(
                ivs, json_pack("{s:o s:[sI] s:[sI] s:o}", "loc", loc_json(o, iv->loc), "lo",
                               kbases[iv->lo.base], (json_int_t)iv->lo.off, "hi",
                               kbases[iv->hi.base], (json_int_t)iv->hi.off, "body",
                               stmts_json(o, iv->body)));
        }
        json_array_append_new(comps, json_pack("{ss s:o s:o}", "order", orders[s->comps[c].order],
                                               "loc", loc_json(o, s->comps[c].loc), "intervals",
                                               ivs));
    }
    return json_pack("{ss s:o s:o s:o s:o s:o}", "name", s->name, "loc", loc_json(o, s->loc),
                     "params", vars_json(s->params, s->nparams), "temporaries",
                     vars_json(s->temps, s->ntemps), "locals", vars_json(s->locals, s->nlocals),
                     "computations", comps);
}

char *fpo_ir_to_json(Ir *ir) {
    Out o = {ir};
    json_t *inputs = json_array();
    for (int i = 0; i < ir->ninputs; i++)
        json_array_append_new(inputs, json_string(ir->inputs[i]));
    json_t *stencils = json_array();
    for (int i = 0; i < ir->nstencils; i++)
        json_array_append_new(stencils, stencil_json(&o, ir->stencils[i]));
    json_t *defines = json_array();
    for (int i = 0; i < ir->ndefines; i++)
        json_array_append_new(defines, json_string(ir->defines[i]));
    json_t *callbacks = json_array();
    for (int i = 0; i < ir->ncallbacks; i++)
        json_array_append_new(callbacks,
                              json_pack("{ss s:o}", "name", ir->callbacks[i]->name, "params",
                                        vars_json(ir->callbacks[i]->params,
                                                  ir->callbacks[i]->nparams)));
    json_t *root = json_pack("{si ss s:o s:o s:o s:o s:o s:o s:o s:o}", "fpo_ir", 1, "program",
                             ir->name, "loc", loc_json(&o, ir->loc), "inputs", inputs,
                             "defines", defines, "params",
                             vars_json(ir->params, ir->nparams), "temporaries",
                             vars_json(ir->temps, ir->ntemps), "scalars",
                             vars_json(ir->scalars, ir->nscalars), "stencils", stencils, "body",
                             stmts_json(&o, ir->body));
    if (ir->ncallbacks)
        json_object_set_new(root, "callbacks", callbacks);
    else
        json_decref(callbacks);
    char *s = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(root);
    char *r = fpo_fmt("%s\n", s);
    free(s);
    return r;
}

/* ---- JSON to IR ---- */

typedef struct In {
    Ir *ir;
    Decl *st;        /* the stencil being read, NULL in the program body */
    const char *where;
    StrMap names;    /* the variables in scope (the stencil's, or the program's), by name */
    StrMap stencils, callbacks;   /* those read so far, by name (a stencil's first, a
                                   * callback's last) */
    FpoFile **files; /* ir->inputs' files */
} In;

static _Noreturn void bad(In *in, const char *fmt, const char *arg) {
    char msg[512];
    snprintf(msg, sizeof msg, fmt, arg);
    fpo_error("%s%s", in->where ? fpo_fmt("in %s: ", in->where) : "", msg);
}

static json_t *get(In *in, json_t *o, const char *key) {
    json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;
    if (!v)
        bad(in, "missing \"%s\"", key);
    return v;
}

static const char *get_str(In *in, json_t *o, const char *key) {
    json_t *v = get(in, o, key);
    if (!json_is_string(v))
        bad(in, "\"%s\" must be a string", key);
    return fpo_strdup(json_string_value(v));
}

static json_t *get_arr(In *in, json_t *o, const char *key) {
    json_t *v = get(in, o, key);
    if (!json_is_array(v))
        bad(in, "\"%s\" must be an array", key);
    return v;
}

static int pick(In *in, const char *s, const char **names, int n, const char *what) {
    for (int i = 0; i < n; i++)
        if (names[i] && !strcmp(s, names[i]))
            return i;
    bad(in, fpo_fmt("unknown %s '%%s'", what), s);
}

static DType get_dtype(In *in, json_t *o) {
    DType dt;
    const char *s = get_str(in, o, "dtype");
    if (!dtype_parse(s, (int)strlen(s), &dt))
        bad(in, "unknown dtype '%s'", s);
    return dt;
}

static Loc get_loc(In *in, json_t *o) {
    json_t *l = get(in, o, "loc");
    json_int_t f, line, col;
    if (json_unpack(l, "[III]", &f, &line, &col))
        bad(in, "%s", "\"loc\" must be [file, line, column]");
    if (f < -1 || f >= in->ir->ninputs)
        bad(in, "%s", "\"loc\" names no input file");
    Loc loc = {f < 0 ? NULL : in->files[f], (int)line, (int)col};
    return loc;
}

static Var **get_vars(In *in, json_t *o, const char *key, VarKind kind, int *n) {
    json_t *a = get_arr(in, o, key);
    Var **vs = NULL;
    size_t i;
    json_t *x;
    *n = 0;
    json_array_foreach(a, i, x) {
        Var *v = fpo_new(sizeof *v);
        v->name = (char *)get_str(in, x, "name");
        v->dt = get_dtype(in, x);
        v->ax = (Axes)pick(in, get_str(in, x, "axes"), (const char *[]){"IJK", "IJ", "K", "scalar"},
                           4, "axes");
        v->kind = kind;
        v->id = (int)i;
        if (kind == VK_TEMP && v->ax == AX_SCALAR)
            bad(in, "temporary '%s' must be a field", v->name);
        if (kind == VK_LOCAL && v->ax != AX_SCALAR)
            bad(in, "'%s' must be a scalar", v->name);
        VPUSH(vs, *n, v);
    }
    return vs;
}

/* A scope's variables into in->names: vs[0..n) of each list, the first list's first (a name
 * in two lists is found in the earlier, as the front end gives params before temporaries). */
static void scope(In *in, Var **vs[3], const int n[3]) {
    in->names = (StrMap){0};
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < n[l]; i++)
            if (!strmap_get(&in->names, vs[l][i]->name))
                strmap_put(&in->names, vs[l][i]->name, vs[l][i]);
}

static Var *lookup(In *in, const char *name) {
    Var *v = strmap_get(&in->names, name);
    if (!v)
        bad(in, "unknown name '%s'", name);
    return v;
}

static const char *get_op(In *in, json_t *o) {
    const char *s = get_str(in, o, "op");
    return ops[pick(in, s, ops, (int)(sizeof ops / sizeof *ops) - 1, "operator")];
}

static Node *expr_from(In *in, json_t *j) {
    static const char *kinds[] = {"num", "access", "unary", "binary", "cond", "cast", "call"};
    int k = pick(in, get_str(in, j, "kind"), kinds, 7, "expression kind");
    Node *n = new_node(ND_NUM, (Loc){0});
    n->dt = get_dtype(in, j);
    switch (k) {
    case 0: {
        json_t *v = get(in, j, "value");
        if (n->dt == DT_BOOL) {
            if (!json_is_boolean(v))
                bad(in, "%s", "a bool value must be true or false");
            n->ival = json_is_true(v);
        } else if (n->dt == DT_I32) {
            if (!json_is_integer(v))
                bad(in, "%s", "an i32 value must be an integer");
            n->ival = json_integer_value(v);
        } else if (json_is_string(v)) {
            const char *s = json_string_value(v);
            n->fval = !strcmp(s, "nan") ? NAN : !strcmp(s, "inf") ? INFINITY
                                            : !strcmp(s, "-inf") ? -INFINITY
                                                                 : (bad(in, "bad number '%s'", s), 0);
        } else if (json_is_number(v)) {
            n->fval = json_number_value(v);
        } else {
            bad(in, "%s", "a float value must be a number");
        }
        if (n->dt != DT_F32 && n->dt != DT_F64)
            n->fval = (double)n->ival;
        return n;
    }
    case 1: {
        n->kind = ND_ACCESS;
        n->var = lookup(in, get_str(in, j, "name"));
        json_int_t o[3];
        if (json_unpack(get(in, j, "offset"), "[III]", &o[0], &o[1], &o[2]))
            bad(in, "%s", "\"offset\" must be [i, j, k]");
        for (int d = 0; d < 3; d++)
            n->off[d] = o[d];
        json_t *kv = json_object_get(j, "k"), *at = json_object_get(j, "at");
        if (kv) {
            n->kmode = KM_VAR;
            n->kexpr = expr_from(in, kv);
        } else if (at) {
            n->kmode = KM_ABS;
            n->kexpr = expr_from(in, at);
        }
        if (n->var->ax == AX_SCALAR && (n->kexpr || o[0] || o[1] || o[2]))
            bad(in, "scalar '%s' cannot be indexed", n->var->name);
        return n;
    }
    case 2:
    case 5:
        n->kind = k == 2 ? ND_UNARY : ND_CAST;
        if (k == 2)
            n->op = get_op(in, j);
        n->lhs = expr_from(in, get(in, j, "arg"));
        return n;
    case 3:
        n->kind = ND_BINARY;
        n->op = get_op(in, j);
        n->lhs = expr_from(in, get(in, j, "lhs"));
        n->rhs = expr_from(in, get(in, j, "rhs"));
        return n;
    case 4:
        n->kind = ND_COND;
        n->cond = expr_from(in, get(in, j, "cond"));
        n->then = expr_from(in, get(in, j, "then"));
        n->els = expr_from(in, get(in, j, "else"));
        return n;
    default: {
        n->kind = ND_CALL;
        const char *fn = get_str(in, j, "fn");
        n->builtin = builtin_find(fn);
        if (!n->builtin)
            bad(in, "unknown builtin '%s'", fn);
        json_t *args = get_arr(in, j, "args");
        if ((int)json_array_size(args) != fpo_builtins[n->builtin - 1].nargs)
            bad(in, "wrong number of arguments for '%s'", fn);
        Node **tail = &n->args;
        size_t i;
        json_t *a;
        json_array_foreach(args, i, a) {
            *tail = expr_from(in, a);
            tail = &(*tail)->next;
        }
        return n;
    }
    }
}

static Node *stmts_from(In *in, json_t *a);

static DBound dbound_from(In *in, json_t *j) {
    const char *base;
    json_int_t off;
    if (json_unpack(j, "[sI]", &base, &off))
        bad(in, "%s", "a domain bound must be [base, offset]");
    return (DBound){pick(in, base, dbases, 4, "domain base"), off};
}

static Decl *find_stencil(In *in, const char *name) {
    Decl *d = strmap_get(&in->stencils, name);
    if (!d)
        bad(in, "unknown stencil '%s'", name);
    return d;
}

/* The "args" of a call of `d` (a stencil or a callback): one per parameter, a field of the
 * parameter's type for a field parameter. */
static Node **args_from(In *in, json_t *j, Decl *d, const char *what) {
    json_t *args = get_arr(in, j, "args");
    if ((int)json_array_size(args) != d->nparams)
        bad(in, fpo_fmt("%s '%%s' takes another number of arguments", what), d->name);
    Node **argv = fpo_new(sizeof(Node *) * (size_t)(d->nparams + 1));
    for (int i = 0; i < d->nparams; i++) {
        Node *a = expr_from(in, json_array_get(args, (size_t)i));
        Var *p = d->params[i];
        if (p->ax != AX_SCALAR &&
            (a->kind != ND_ACCESS || a->var->ax != p->ax || a->var->dt != p->dt))
            bad(in, "the argument for field '%s' must be a field of its type", p->name);
        argv[i] = a;
    }
    return argv;
}

static Node *stage_from(In *in, json_t *j) {
    Node *s = new_node(ND_STAGE, get_loc(in, j));
    s->decl = find_stencil(in, get_str(in, j, "stencil"));
    s->argv = args_from(in, j, s->decl, "stencil");
    json_t *dom = get(in, j, "domain");
    for (int a = 0; a < 3; a++) {
        json_t *ax = get_arr(in, dom, axes_keys[a]);
        s->dom.lo[a] = dbound_from(in, json_array_get(ax, 0));
        s->dom.hi[a] = dbound_from(in, json_array_get(ax, 1));
    }
    return s;
}

static RegionAxis region_axis_from(In *in, json_t *j) {
    RegionAxis r = {0};
    if (json_is_string(j) && !strcmp(json_string_value(j), ":")) {
        r.all = true;
        return r;
    }
    const char *lb, *hb;
    json_int_t lo, hi;
    if (json_unpack(j, "[[sI][sI]]", &lb, &lo, &hb, &hi))
        bad(in, "%s", "a region axis must be \":\" or [[\"start\" or \"end\", lo], [base, hi]]");
    r.lo_base = pick(in, lb, rbases, 2, "region base");
    r.hi_base = pick(in, hb, rbases, 2, "region base");
    r.lo = lo;
    r.hi = hi;
    r.range = true;
    return r;
}

/* A halo statement's keys into n (kind set by the caller). */
static void halo_from(In *in, json_t *j, Node *n) {
    n->halo.op = pick(in, get_str(in, j, "op"), halo_ops, 4, "halo operation");
    n->halo.vec = pick(in, get_str(in, j, "vector"), halo_vecs, 5, "vector kind");
    n->halo.dir = pick(in, get_str(in, j, "dir"), halo_dirs, 3, "direction") - 1;
    /* `at` (scalars' place) may be absent: dumps from before it was a key place them at cells */
    n->halo.at = json_object_get(j, "at") ? pick(in, get_str(in, j, "at"), halo_ats, 2,
                                                 "place of scalars")
                                          : HA_CELL;
    if (n->halo.at != HA_CELL &&
        (n->halo.vec || (n->halo.op != HO_UPDATE && n->halo.op != HO_COPY_CORNERS)))
        bad(in, "%s", "\"at\": \"vertex\" places the scalars of halo_update and copy_corners");
    n->halo.plan = -1;
    json_t *d = get(in, j, "depth");
    if (!json_is_integer(d) || json_integer_value(d) < 0)
        bad(in, "%s", "a halo depth must be an integer >= 0");
    n->halo.depth = json_integer_value(d);
    Node head = {0}, *cur = &head;
    size_t i;
    json_t *f;
    json_array_foreach(get_arr(in, j, "fields"), i, f) {
        if (!json_is_string(f))
            bad(in, "%s", "halo fields are names");
        Var *v = lookup(in, json_string_value(f));
        if (v->ax != AX_IJK && v->ax != AX_IJ)
            bad(in, "halo field '%s' must be an IJK or IJ field", v->name);
        cur = cur->next = new_node(ND_ACCESS, n->loc);
        cur->var = v;
        cur->dt = v->dt;
    }
    if (!head.next)
        bad(in, "%s", "a halo statement names one field or more");
    n->args = head.next;
}

static Node *stmt_from(In *in, json_t *j) {
    static const char *kinds[] = {"assign", "if", "while", "for", "stages", "region", "halo",
                                  "callback"};
    int k = pick(in, get_str(in, j, "kind"), kinds, 8, "statement kind");
    Node *n = new_node(ND_ASSIGN, get_loc(in, j));
    switch (k) {
    case 7: {
        if (in->st)
            bad(in, "%s", "callbacks are called in the program body only");
        n->kind = ND_HOSTCALL;
        const char *name = get_str(in, j, "name");
        n->decl = strmap_get(&in->callbacks, name);
        if (!n->decl)
            bad(in, "unknown callback '%s'", name);
        n->argv = args_from(in, j, n->decl, "callback");
        return n;
    }
    case 6: {
        if (in->st)
            bad(in, "%s", "halo statements only appear in the program body");
        n->kind = ND_HALO;
        halo_from(in, j, n);
        return n;
    }
    case 5:
        if (!in->st)
            bad(in, "%s", "regions only appear in stencils");
        n->kind = ND_REGION;
        n->reg[0] = region_axis_from(in, get(in, j, "i"));
        n->reg[1] = region_axis_from(in, get(in, j, "j"));
        n->body = stmts_from(in, get_arr(in, j, "body"));
        return n;
    case 0:
        n->op = get_op(in, j);
        n->lhs = expr_from(in, get(in, j, "target"));
        n->rhs = expr_from(in, get(in, j, "value"));
        if (n->lhs->kind != ND_ACCESS)
            bad(in, "%s", "an assignment target must be an access");
        return n;
    case 1:
        n->kind = ND_IF;
        n->cond = expr_from(in, get(in, j, "cond"));
        n->then = stmts_from(in, get_arr(in, j, "then"));
        n->els = stmts_from(in, get_arr(in, j, "else"));
        return n;
    case 2:
        n->kind = ND_WHILE;
        n->cond = expr_from(in, get(in, j, "cond"));
        n->body = stmts_from(in, get_arr(in, j, "body"));
        return n;
    case 3:
        n->kind = ND_FOR;
        n->var = lookup(in, get_str(in, j, "var"));
        n->lhs = expr_from(in, get(in, j, "lo"));
        n->rhs = expr_from(in, get(in, j, "hi"));
        n->body = stmts_from(in, get_arr(in, j, "body"));
        return n;
    default: {
        if (in->st)
            bad(in, "%s", "stages only appear in the program body");
        n->kind = ND_STAGES;
        Node **tail = &n->body;
        size_t i;
        json_t *s;
        json_array_foreach(get_arr(in, j, "stages"), i, s) {
            *tail = stage_from(in, s);
            tail = &(*tail)->next;
        }
        json_t *fill = json_object_get(j, "fill");
        if (fill)   /* a corner fill as a stencil call (pass_corners) */
            halo_from(in, fill, n);
        return n;
    }
    }
}

static Node *stmts_from(In *in, json_t *a) {
    Node head = {0}, *cur = &head;
    size_t i;
    json_t *x;
    json_array_foreach(a, i, x) cur = cur->next = stmt_from(in, x);
    return head.next;
}

static KBound kbound_from(In *in, json_t *j) {
    const char *base;
    json_int_t off;
    if (json_unpack(j, "[sI]", &base, &off))
        bad(in, "%s", "an interval bound must be [\"bottom\" or \"top\", offset]");
    return (KBound){pick(in, base, kbases, 2, "interval base"), off, NULL, 1};
}

static Decl *stencil_from(In *in, json_t *j) {
    Decl *s = fpo_new(sizeof *s);
    s->kind = D_STENCIL;
    s->name = (char *)get_str(in, j, "name");
    in->where = fpo_fmt("stencil '%s'", s->name);
    s->loc = get_loc(in, j);
    s->params = get_vars(in, j, "params", VK_PARAM, &s->nparams);
    s->temps = get_vars(in, j, "temporaries", VK_TEMP, &s->ntemps);
    s->locals = get_vars(in, j, "locals", VK_LOCAL, &s->nlocals);
    in->st = s;
    StrMap program = in->names;
    scope(in, (Var **[3]){s->params, s->temps, s->locals},
          (int[3]){s->nparams, s->ntemps, s->nlocals});
    size_t i, k;
    json_t *c, *v;
    json_array_foreach(get_arr(in, j, "computations"), i, c) {
        Comp cp = {0};
        cp.loc = get_loc(in, c);
        cp.order = pick(in, get_str(in, c, "order"), orders, 3, "order");
        json_array_foreach(get_arr(in, c, "intervals"), k, v) {
            Interval iv = {0};
            iv.loc = get_loc(in, v);
            iv.lo = kbound_from(in, get(in, v, "lo"));
            iv.hi = kbound_from(in, get(in, v, "hi"));
            iv.body = stmts_from(in, get_arr(in, v, "body"));
            VPUSH(cp.ivs, cp.nivs, iv);
        }
        VPUSH(s->comps, s->ncomps, cp);
    }
    in->st = NULL;
    in->names = program;
    in->where = NULL;
    return s;
}

typedef struct FromJson {
    const char *text, *path;
    Ir *ir;
    json_t *root;   /* freed by fpo_ir_from_json, after an error too */
} FromJson;

/* Refuse a text of more than FPO_MAX_IR_VALUES JSON values before Jansson builds them (about
 * 40 bytes a value): a value opens with '[' or '{' or follows ',' or ':', outside strings. */
static void count_values(const char *t) {
    long n = 1;
    int line = 1;
    const char *line_start = t;
    for (const char *p = t; *p; p++) {
        if (*p == '"') {
            while (*++p && *p != '"')
                if (*p == '\\' && p[1])
                    p++;
            if (!*p)
                return;   /* Jansson says where the string is left open */
        } else if (*p == '\n') {
            line++;
            line_start = p + 1;
        } else if ((*p == '[' || *p == '{' || *p == ',' || *p == ':') &&
                   ++n > FPO_MAX_IR_VALUES) {
            fpo_error("line %d, column %ld: the IR is too large (more than %d JSON values; a "
                      "program at the limits of fpo-gen has fewer)",
                      line, (long)(p - line_start) + 1, FPO_MAX_IR_VALUES);
        }
    }
}

static void from_json(void *arg) {
    FromJson *fj = arg;
    json_error_t jerr;
    count_values(fj->text);
    json_t *root = json_loads(fj->text, 0, &jerr);
    if (!root)
        fpo_error("line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
    fj->root = root;
    Ir *ir = fpo_new(sizeof *ir);
    In in = {.ir = ir};
    json_t *ver = json_object_get(root, "fpo_ir");
    if (!json_is_integer(ver) || json_integer_value(ver) != 1)
        fpo_error("not FPO IR version 1 (\"fpo_ir\": 1 is missing)");
    size_t i;
    json_t *x;
    json_t *inputs = json_object_get(root, "inputs");
    if (!json_is_array(inputs))
        fpo_error("missing \"inputs\"");
    json_array_foreach(inputs, i, x) {
        if (!json_is_string(x))
            break;
        VPUSH(ir->inputs, ir->ninputs, fpo_strdup(json_string_value(x)));
    }
    in.files = fpo_new(sizeof(FpoFile *) * (size_t)(ir->ninputs + 1));
    for (int f = 0; f < ir->ninputs; f++)
        in.files[f] = fpo_file_named(ir->inputs[f]);
    json_t *defines = json_object_get(root, "defines");
    json_array_foreach(defines, i, x) {
        if (!json_is_string(x))
            fpo_error("\"defines\" holds strings NAME=VALUE");
        VPUSH(ir->defines, ir->ndefines, fpo_strdup(json_string_value(x)));
    }
    fj->ir = ir;
    ir->name = (char *)get_str(&in, root, "program");
    ir->loc = get_loc(&in, root);
    ir->params = get_vars(&in, root, "params", VK_PARAM, &ir->nparams);
    ir->temps = get_vars(&in, root, "temporaries", VK_TEMP, &ir->ntemps);
    ir->scalars = get_vars(&in, root, "scalars", VK_LOCAL, &ir->nscalars);
    scope(&in, (Var **[3]){ir->params, ir->temps, ir->scalars},
          (int[3]){ir->nparams, ir->ntemps, ir->nscalars});
    json_array_foreach(json_object_get(root, "callbacks"), i, x) {
        Decl *cb = fpo_new(sizeof *cb);
        cb->kind = D_CALLBACK;
        cb->name = (char *)get_str(&in, x, "name");
        cb->params = get_vars(&in, x, "params", VK_PARAM, &cb->nparams);
        VPUSH(ir->callbacks, ir->ncallbacks, cb);
        strmap_put(&in.callbacks, cb->name, cb);
    }
    json_array_foreach(get_arr(&in, root, "stencils"), i, x) {
        Decl *s = stencil_from(&in, x);
        VPUSH(ir->stencils, ir->nstencils, s);
        if (!strmap_get(&in.stencils, s->name))
            strmap_put(&in.stencils, s->name, s);
    }
    ir->body = stmts_from(&in, get_arr(&in, root, "body"));
}

Ir *fpo_ir_from_json(const char *text, const char *path) {
    FromJson fj = {text, path, NULL, NULL};
    bool quiet = fpo_quiet;
    fpo_quiet = true;
    int rc = fpo_try(from_json, &fj);
    fpo_quiet = quiet;
    json_decref(fj.root);
    return rc ? NULL : fj.ir;
}
