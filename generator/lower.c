/* lower.c: takes a checked program, gives its flattened IR: program calls flattened, functions
 * inlined, externals folded, constant `if`s pruned. */
#include "fpo.h"

#include <string.h>

typedef struct Lower {
    Ir *ir;
    Decl *st;      /* the IR stencil being built, NULL in the program */
    int uniq;
    StrMap *names; /* the names taken in the stencil being built (or the program) */
    StrMap *next;  /* ... and per base name, the number fresh_name tries next */
    int depth;     /* levels of the tree being lowered (expressions and statements) */
    long nodes;    /* nodes lowered so far */
    bool konst;    /* lower_expr: the expression it lowered is a constant (const_eval of it
                    * succeeds), so its parent may fold */
    StrMap callbacks;  /* the callbacks in ir->callbacks, by name */
} Lower;

/* Count one more level and node; the lowered program is at most FPO_MAX_IR_DEPTH deep (the
 * passes after lowering recurse over it) and FPO_MAX_IR_NODES large (functions inlined into
 * functions and programs flattened into programs grow it geometrically). */
static void enter(Lower *L, Loc loc) {
    if (++L->depth > FPO_MAX_IR_DEPTH)
        fpo_error_at(loc,
                     "this is nested too deeply once functions are inlined (more than %d "
                     "levels of expressions and statements)",
                     FPO_MAX_IR_DEPTH);
    if (++L->nodes > fpo_max_ir_nodes)
        fpo_error_at(loc,
                     "the program is too large once functions are inlined and programs "
                     "flattened (more than %ld expressions and statements)",
                     fpo_max_ir_nodes);
}

long fpo_max_ir_nodes = FPO_MAX_IR_NODES;

static void take_name(Lower *L, const char *name) { strmap_put(L->names, name, (void *)name); }

/* `base`, or `base_N` with the first N that is free (hashed, so many inlined calls of one
 * function take linear time). */
static char *fresh_name(Lower *L, const char *base) {
    char *s = fpo_strdup(base);
    if (strmap_get(L->names, s)) {
        intptr_t n = (intptr_t)strmap_get(L->next, base);
        do
            s = fpo_fmt("%s_%ld", base, (long)++n);
        while (strmap_get(L->names, s));
        strmap_put(L->next, fpo_strdup(base), (void *)n);
    }
    take_name(L, s);
    return s;
}

static Node *access_of(Var *v, Loc loc) {
    Node *n = new_node(ND_ACCESS, loc);
    n->var = v;
    n->dt = v->dt;
    return n;
}

static Node *assign(Node *lhs, const char *op, Node *rhs, Loc loc) {
    Node *n = new_node(ND_ASSIGN, loc);
    n->lhs = lhs;
    n->op = op;
    n->rhs = rhs;
    return n;
}

static Node *cast_to(Node *n, DType dt) {
    if (n->dt == dt)
        return n;
    Node *c = new_node(ND_CAST, n->loc);
    c->dt = dt;
    c->lhs = n;
    return c;
}

static void append(Node ***tail, Node *n) {
    **tail = n;
    while (n->next)
        n = n->next;
    *tail = &n->next;
}

/* ---- expressions ---- */

static Node *lower_expr(Lower *L, Node *n, Node ***pre);
static void lower_stmts(Lower *L, Node *n, Node ***out);
static void lower_pstmts(Lower *L, Node *n, Node ***out);

static Node *inline_call(Lower *L, Node *n, Node ***pre) {
    Decl *f = n->decl;
    Node **args = fpo_new(sizeof(Node *) * (size_t)(f->nparams + 1));
    int i = 0;
    for (Node *a = n->args; a; a = a->next, i++)
        args[i] = f->params[i]->ax == AX_SCALAR ? lower_expr(L, a, pre) : NULL;
    i = 0;
    for (Node *a = n->args; a; a = a->next, i++) {
        Var *p = f->params[i];
        if (p->ax != AX_SCALAR) {
            p->lowered = a->var->lowered;
            continue;
        }
        Node *v = args[i];
        if (v->kind == ND_NUM || (v->kind == ND_ACCESS && !v->kexpr)) {
            p->subst = cast_to(v, p->dt);
            continue;
        }
        Var *t = new_var(fresh_name(L, fpo_fmt("%s_%s", f->name, p->name)), n->loc, VK_LOCAL,
                         p->dt, AX_SCALAR);
        VPUSH(L->st->locals, L->st->nlocals, t);
        append(pre, assign(access_of(t, n->loc), "=", v, n->loc));
        p->subst = access_of(t, n->loc);
    }
    for (int k = 0; k < f->nlocals; k++) {
        Var *v = f->locals[k];
        Var *t = new_var(fresh_name(L, fpo_fmt("%s_%s", f->name, v->name)), v->loc, VK_LOCAL,
                         v->dt, AX_SCALAR);
        VPUSH(L->st->locals, L->st->nlocals, t);
        v->lowered = t;
    }
    Node *ret = NULL;
    for (Node *s = f->body; s; s = s->next) {
        if (s->kind == ND_RETURN) {
            ret = s;
            break;
        }
        Node *one = s->next;
        s->next = NULL;
        lower_stmts(L, s, pre);
        s->next = one;
    }
    return cast_to(lower_expr(L, ret->lhs, pre), f->ret);
}

/* Constants fold bottom-up: a node is folded when its operands were constants (L->konst after
 * lowering each), so a long chain of operators is evaluated once, not once per level. */
static Node *lower_expr1(Lower *L, Node *n, Node ***pre) {
    Node *c = new_node(n->kind, n->loc);
    c->dt = n->dt;
    c->op = n->op;
    switch (n->kind) {
    case ND_NUM:
        c->ival = n->ival;
        c->fval = n->fval;
        L->konst = true;
        return c;
    case ND_ACCESS: {
        Var *v = n->var;
        if (v->kind == VK_EXTERNAL) {
            Node *x = lower_expr(L, v->value, pre);
            x->loc = n->loc;
            return x;
        }
        if (v->subst && !v->lowered) {
            Node *x = lower_expr(L, v->subst, pre);
            L->konst = false;   /* a parameter: not folded into its uses */
            return x;
        }
        c->var = v->lowered ? v->lowered : v;
        memcpy(c->off, n->off, sizeof c->off);
        c->kmode = n->kmode;
        if (n->kexpr)
            c->kexpr = lower_expr(L, n->kexpr, pre);
        L->konst = false;
        return c;
    }
    case ND_CALL:
        if (n->decl) {
            Node *x = inline_call(L, n, pre);
            L->konst = false;
            return x;
        }
        c->builtin = n->builtin;
        {
            Node head = {0}, *cur = &head;
            for (Node *a = n->args; a; a = a->next)
                cur = cur->next = lower_expr(L, a, pre);
            c->args = head.next;
        }
        L->konst = false;
        return c;
    case ND_COND: {
        Value v;
        c->cond = lower_expr(L, n->cond, pre);
        if (L->konst && const_eval(c->cond, &v))
            return lower_expr(L, v.i ? n->then : n->els, pre);
        c->then = lower_expr(L, n->then, pre);
        c->els = lower_expr(L, n->els, pre);
        L->konst = false;
        return c;
    }
    default:
        if (n->kind == ND_BINARY || n->kind == ND_UNARY || n->kind == ND_CAST) {
            c->lhs = lower_expr(L, n->lhs, pre);
            bool k = L->konst;
            if (n->rhs) {
                c->rhs = lower_expr(L, n->rhs, pre);
                k = k && L->konst;
            }
            Value v;
            L->konst = k && const_eval(c, &v);
            if (L->konst && n->kind != ND_CAST) {
                Node *x = new_node(ND_NUM, n->loc);
                x->dt = v.dt;
                x->ival = v.i;
                x->fval = v.f;
                return x;
            }
            return c;
        }
        fpo_error_at(n->loc, "internal error: cannot lower this expression");
    }
}

static Node *lower_expr(Lower *L, Node *n, Node ***pre) {
    enter(L, n->loc);
    Node *x = lower_expr1(L, n, pre);
    L->depth--;
    return x;
}

/* ---- statements (stencils and functions) ---- */

typedef void LowerList(Lower *L, Node *n, Node ***out);

/* An `if`, in a stencil or a program: a constant condition keeps one branch. */
static void lower_if(Lower *L, Node *n, Node ***out, LowerList *list) {
    Value v;
    if (const_eval(n->cond, &v)) {
        list(L, v.i ? n->then : n->els, out);
        return;
    }
    Node *c = new_node(ND_IF, n->loc);
    c->cond = lower_expr(L, n->cond, out);
    Node **t = &c->then, **e = &c->els;
    list(L, n->then, &t);
    list(L, n->els, &e);
    append(out, c);
}

static void lower_stmt1(Lower *L, Node *n, Node ***out);

static void lower_stmt(Lower *L, Node *n, Node ***out) {
    enter(L, n->loc);
    lower_stmt1(L, n, out);
    L->depth--;
}

static void lower_stmt1(Lower *L, Node *n, Node ***out) {
    switch (n->kind) {
    case ND_VARDECL:
        if (n->var->kind == VK_LOCAL && !n->var->lowered)
            fpo_error_at(n->loc, "internal error: unlowered local");
        if (n->rhs) {
            Node *v = lower_expr(L, n->rhs, out);
            append(out, assign(access_of(n->var->lowered, n->loc), "=", v, n->loc));
        }
        return;
    case ND_ASSIGN: {
        Node *v = lower_expr(L, n->rhs, out);
        Node *t = lower_expr(L, n->lhs, out);
        append(out, assign(t, n->op, v, n->loc));
        return;
    }
    case ND_IF:
        lower_if(L, n, out, lower_stmts);
        return;
    case ND_REGION: {
        Node *c = new_node(ND_REGION, n->loc);
        memcpy(c->reg, n->reg, sizeof c->reg);
        for (int ax = 0; ax < 2; ax++)
            c->reg[ax].lo_e = c->reg[ax].hi_e = NULL;
        Node **b = &c->body;
        lower_stmts(L, n->body, &b);
        append(out, c);
        return;
    }
    case ND_WHILE: {
        Node *c = new_node(ND_WHILE, n->loc);
        Node *pre = NULL, **pt = &pre;
        c->cond = lower_expr(L, n->cond, &pt);
        Node **b = &c->body;
        lower_stmts(L, n->body, &b);
        if (pre) {
            /* The condition needs statements (inlined calls): keep it in a flag that is
             * computed before the loop and again after each pass. */
            Var *w = new_var(fresh_name(L, "while_cond"), n->loc, VK_LOCAL, DT_BOOL, AX_SCALAR);
            VPUSH(L->st->locals, L->st->nlocals, w);
            append(out, pre);
            append(out, assign(access_of(w, n->loc), "=", c->cond, n->loc));
            Node *again = lower_expr(L, n->cond, &b);
            append(&b, assign(access_of(w, n->loc), "=", again, n->loc));
            c->cond = access_of(w, n->loc);
        }
        append(out, c);
        return;
    }
    default:
        fpo_error_at(n->loc, "internal error: cannot lower this statement");
    }
}

static void lower_stmts(Lower *L, Node *n, Node ***out) {
    for (; n; n = n->next)
        lower_stmt(L, n, out);
}

/* ---- stencils ---- */

static Var *copy_var(Var *v) {
    Var *c = new_var(v->name, v->loc, v->kind, v->dt, v->ax);
    c->id = v->id;
    c->written = v->written;
    v->lowered = c;
    return c;
}

/* Where each temporary of s is accessed (seen[id]): -1 nowhere yet, -2 at an offset or in two
 * intervals, else the interval. One walk for all temporaries. */
static void temp_uses(Decl *s, Node *n, int where, int *seen) {
    for (; n; n = n->next) {
        Var *t = n->kind == ND_ACCESS ? n->var : NULL;
        if (t && t->kind == VK_TEMP && t->id >= 0 && t->id < s->ntemps && s->temps[t->id] == t) {
            int *x = &seen[t->id];
            bool at_point = !n->off[0] && !n->off[1] && !n->off[2] && n->kmode == KM_CONST;
            if (!at_point || (*x >= 0 && *x != where))
                *x = -2;
            else if (*x == -1)
                *x = where;
        }
        temp_uses(s, n->lhs, where, seen);
        temp_uses(s, n->rhs, where, seen);
        temp_uses(s, n->cond, where, seen);
        temp_uses(s, n->then, where, seen);
        temp_uses(s, n->els, where, seen);
        temp_uses(s, n->body, where, seen);
        temp_uses(s, n->args, where, seen);
        temp_uses(s, n->kexpr, where, seen);
    }
}

/* A temporary read and written only at the current point of one interval needs no storage:
 * it becomes a per-point local (GT4Py demotes such temporaries too). */
static void demote_temps(Decl *s) {
    Var **keep = NULL;
    int nkeep = 0;
    int *seen = fpo_new(sizeof(int) * (size_t)(s->ntemps + 1));
    for (int i = 0; i < s->ntemps; i++) {
        seen[i] = -1;
        s->temps[i]->id = i;
    }
    int where = 0;
    for (int c = 0; c < s->ncomps; c++)
        for (int v = 0; v < s->comps[c].nivs; v++, where++)
            temp_uses(s, s->comps[c].ivs[v].body, where, seen);
    for (int i = 0; i < s->ntemps; i++) {
        Var *t = s->temps[i];
        if (seen[i] == -2) {
            t->id = nkeep;
            VPUSH(keep, nkeep, t);
            continue;
        }
        t->kind = VK_LOCAL;
        t->ax = AX_SCALAR;
        VPUSH(s->locals, s->nlocals, t);
    }
    s->temps = keep;
    s->ntemps = nkeep;
}

static Decl *lower_stencil(Lower *L, Decl *d) {
    if (d->lowered)
        return d->lowered;
    Decl *s = fpo_new(sizeof *s);
    s->kind = D_STENCIL;
    s->name = d->name;
    s->loc = d->loc;
    StrMap names = {0}, next = {0}, *saved_names = L->names, *saved_next = L->next;
    L->names = &names;
    L->next = &next;
    for (int i = 0; i < d->nparams; i++) {
        VPUSH(s->params, s->nparams, copy_var(d->params[i]));
        take_name(L, d->params[i]->name);
    }
    for (int i = 0; i < d->ntemps; i++) {
        VPUSH(s->temps, s->ntemps, copy_var(d->temps[i]));
        take_name(L, d->temps[i]->name);
    }
    Decl *saved = L->st;
    L->st = s;
    for (int i = 0; i < d->ncomps; i++) {
        Comp c = d->comps[i];
        c.ivs = NULL;
        c.nivs = 0;
        for (int j = 0; j < d->comps[i].nivs; j++) {
            Interval iv = d->comps[i].ivs[j];
            iv.lo.expr = iv.hi.expr = NULL;
            Node *body = NULL, **tail = &body;
            lower_stmts(L, d->comps[i].ivs[j].body, &tail);
            iv.body = body;
            VPUSH(c.ivs, c.nivs, iv);
        }
        VPUSH(s->comps, s->ncomps, c);
    }
    L->st = saved;
    L->names = saved_names;
    L->next = saved_next;
    demote_temps(s);
    for (int i = 0; i < s->nparams; i++)    /* ids: each list's indices (fpo_slot) */
        s->params[i]->id = i;
    for (int i = 0; i < s->ntemps; i++)
        s->temps[i]->id = i;
    for (int i = 0; i < s->nlocals; i++)
        s->locals[i]->id = i;
    d->lowered = s;
    VPUSH(L->ir->stencils, L->ir->nstencils, s);
    return s;
}

/* ---- programs ---- */

static void add_scalar(Lower *L, Var *v, const char *prefix) {
    Var *c = new_var(fresh_name(L, prefix ? fpo_fmt("%s_%s", prefix, v->name) : v->name),
                     v->loc, VK_LOCAL, v->dt, AX_SCALAR);
    v->lowered = c;
    VPUSH(L->ir->scalars, L->ir->nscalars, c);
}

static void add_temp(Lower *L, Var *v, const char *prefix) {
    Var *c = new_var(fresh_name(L, prefix ? fpo_fmt("%s_%s", prefix, v->name) : v->name),
                     v->loc, VK_TEMP, v->dt, v->ax);
    v->lowered = c;
    VPUSH(L->ir->temps, L->ir->ntemps, c);
}

static void flatten_call(Lower *L, Node *n, Node ***out) {
    Decl *p = n->decl;
    for (int i = 0; i < p->nparams; i++) {
        Var *v = p->params[i];
        Node *a = n->argv[i];
        if (v->ax != AX_SCALAR) {
            v->lowered = a->var->lowered;
            continue;
        }
        Node *val = lower_expr(L, a, out);
        add_scalar(L, v, p->name);
        append(out, assign(access_of(v->lowered, n->loc), "=", val, n->loc));
    }
    for (int i = 0; i < p->ntemps; i++)
        add_temp(L, p->temps[i], p->name);
    for (int i = 0; i < p->nlocals; i++)
        add_scalar(L, p->locals[i], p->name);
    lower_pstmts(L, p->body, out);
}

static void lower_pstmt1(Lower *L, Node *n, Node ***out);

static void lower_pstmt(Lower *L, Node *n, Node ***out) {
    enter(L, n->loc);
    lower_pstmt1(L, n, out);
    L->depth--;
}

static void lower_pstmt1(Lower *L, Node *n, Node ***out) {
    switch (n->kind) {
    case ND_VARDECL:
        if (n->rhs) {
            Node *v = lower_expr(L, n->rhs, out);
            append(out, assign(access_of(n->var->lowered, n->loc), "=", v, n->loc));
        }
        return;
    case ND_ASSIGN: {
        Node *v = lower_expr(L, n->rhs, out);
        append(out, assign(access_of(n->lhs->var->lowered, n->loc), n->op, v, n->loc));
        return;
    }
    case ND_FOR: {
        Node *c = new_node(ND_FOR, n->loc);
        c->var = n->var->lowered;
        c->lhs = lower_expr(L, n->lhs, out);
        c->rhs = lower_expr(L, n->rhs, out);
        Node **b = &c->body;
        lower_pstmts(L, n->body, &b);
        append(out, c);
        return;
    }
    case ND_IF:
        lower_if(L, n, out, lower_pstmts);
        return;
    case ND_HALO: {
        Node *c = new_node(ND_HALO, n->loc);
        c->halo = n->halo;
        Node head = {0}, *cur = &head;
        for (Node *a = n->args; a; a = a->next)
            cur = cur->next = access_of(a->var->lowered, a->loc);
        c->args = head.next;
        append(out, c);
        return;
    }
    case ND_CALL: {
        if (n->decl->kind == D_PROGRAM) {
            flatten_call(L, n, out);
            return;
        }
        if (n->decl->kind == D_CALLBACK) {
            Decl *cb = n->decl;
            Node *h = new_node(ND_HOSTCALL, n->loc);
            h->decl = cb;
            h->argv = fpo_new(sizeof(Node *) * (size_t)(cb->nparams + 1));
            for (int i = 0; i < cb->nparams; i++) {
                Node *a = n->argv[i];
                h->argv[i] = cb->params[i]->ax == AX_SCALAR ? lower_expr(L, a, out)
                                                            : access_of(a->var->lowered, a->loc);
            }
            if (strmap_get(&L->callbacks, cb->name) != cb) {   /* each callback once */
                strmap_put(&L->callbacks, cb->name, cb);
                VPUSH(L->ir->callbacks, L->ir->ncallbacks, cb);
            }
            append(out, h);
            return;
        }
        Decl *s = lower_stencil(L, n->decl);
        Node *st = new_node(ND_STAGE, n->loc);
        st->decl = s;
        st->dom = n->dom;
        st->argv = fpo_new(sizeof(Node *) * (size_t)(s->nparams + 1));
        for (int i = 0; i < s->nparams; i++) {
            Node *a = n->argv[i];
            st->argv[i] = s->params[i]->ax == AX_SCALAR ? lower_expr(L, a, out)
                                                        : access_of(a->var->lowered, a->loc);
        }
        Node *g = new_node(ND_STAGES, n->loc);
        g->body = st;
        append(out, g);
        return;
    }
    default:
        fpo_error_at(n->loc, "internal error: cannot lower this program statement");
    }
}

static void lower_pstmts(Lower *L, Node *n, Node ***out) {
    for (; n; n = n->next)
        lower_pstmt(L, n, out);
}

Ir *fpo_lower(Decl *program) {
    Ir *ir = fpo_new(sizeof *ir);
    StrMap names = {0}, next = {0};
    Lower L = {ir, NULL, 0, &names, &next, 0, 0, false, {0}};
    ir->name = program->name;
    ir->loc = program->loc;
    for (int i = 0; i < program->nparams; i++) {
        VPUSH(ir->params, ir->nparams, copy_var(program->params[i]));
        take_name(&L, program->params[i]->name);
    }
    for (int i = 0; i < program->ntemps; i++)
        add_temp(&L, program->temps[i], NULL);
    for (int i = 0; i < program->nlocals; i++)
        add_scalar(&L, program->locals[i], NULL);
    Node **tail = &ir->body;
    lower_pstmts(&L, program->body, &tail);
    for (FpoFile *f = fpo_files(); f; f = f->next)
        VPUSH(ir->inputs, ir->ninputs, f->path);
    return ir;
}
