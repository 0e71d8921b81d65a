/* lower.c: takes a checked program, gives its flattened IR: program calls flattened, functions
 * inlined, externals folded, constant `if`s pruned. */
#include "fpo.h"

#include <string.h>

typedef struct Lower {
    Ir *ir;
    Decl *st;      /* the IR stencil being built, NULL in the program */
    int uniq;
} Lower;

static bool name_in(Var **vs, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (!strcmp(vs[i]->name, name))
            return true;
    return false;
}

static bool name_taken(Lower *L, const char *name) {
    if (L->st)
        return name_in(L->st->params, L->st->nparams, name) ||
               name_in(L->st->temps, L->st->ntemps, name) ||
               name_in(L->st->locals, L->st->nlocals, name);
    return name_in(L->ir->params, L->ir->nparams, name) ||
           name_in(L->ir->temps, L->ir->ntemps, name) ||
           name_in(L->ir->scalars, L->ir->nscalars, name);
}

static char *fresh_name(Lower *L, const char *base) {
    if (!name_taken(L, base))
        return fpo_strdup(base);
    for (int n = 1;; n++) {
        char *s = fpo_fmt("%s_%d", base, n);
        if (!name_taken(L, s))
            return s;
    }
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
    Node *args[64];
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

static Node *lower_expr(Lower *L, Node *n, Node ***pre) {
    Node *c = new_node(n->kind, n->loc);
    c->dt = n->dt;
    c->op = n->op;
    switch (n->kind) {
    case ND_NUM:
        c->ival = n->ival;
        c->fval = n->fval;
        return c;
    case ND_ACCESS: {
        Var *v = n->var;
        if (v->kind == VK_EXTERNAL) {
            Node *x = lower_expr(L, v->value, pre);
            x->loc = n->loc;
            return x;
        }
        if (v->subst && !v->lowered)
            return lower_expr(L, v->subst, pre);
        c->var = v->lowered ? v->lowered : v;
        memcpy(c->off, n->off, sizeof c->off);
        c->kmode = n->kmode;
        if (n->kexpr)
            c->kexpr = lower_expr(L, n->kexpr, pre);
        return c;
    }
    case ND_CALL:
        if (n->decl)
            return inline_call(L, n, pre);
        c->builtin = n->builtin;
        {
            Node head = {0}, *cur = &head;
            for (Node *a = n->args; a; a = a->next)
                cur = cur->next = lower_expr(L, a, pre);
            c->args = head.next;
        }
        return c;
    case ND_COND: {
        Value v;
        if (const_eval(n->cond, &v))
            return lower_expr(L, v.i ? n->then : n->els, pre);
        c->cond = lower_expr(L, n->cond, pre);
        c->then = lower_expr(L, n->then, pre);
        c->els = lower_expr(L, n->els, pre);
        return c;
    }
    default:
        if (n->kind == ND_BINARY || n->kind == ND_UNARY || n->kind == ND_CAST) {
            Value v;
            if (const_eval(n, &v) && n->kind != ND_CAST) {
                Node *x = new_node(ND_NUM, n->loc);
                x->dt = v.dt;
                x->ival = v.i;
                x->fval = v.f;
                return x;
            }
            c->lhs = lower_expr(L, n->lhs, pre);
            if (n->rhs)
                c->rhs = lower_expr(L, n->rhs, pre);
            return c;
        }
        fpo_error_at(n->loc, "internal error: cannot lower this expression");
    }
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

static void lower_stmt(Lower *L, Node *n, Node ***out) {
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

/* Where a temporary is accessed: -1 nowhere yet, -2 at an offset or in two intervals. */
static void temp_uses(Node *n, Var *t, int where, int *seen) {
    for (; n; n = n->next) {
        if (n->kind == ND_ACCESS && n->var == t) {
            bool at_point = !n->off[0] && !n->off[1] && !n->off[2] && n->kmode == KM_CONST;
            if (!at_point || (*seen >= 0 && *seen != where))
                *seen = -2;
            else if (*seen == -1)
                *seen = where;
        }
        temp_uses(n->lhs, t, where, seen);
        temp_uses(n->rhs, t, where, seen);
        temp_uses(n->cond, t, where, seen);
        temp_uses(n->then, t, where, seen);
        temp_uses(n->els, t, where, seen);
        temp_uses(n->body, t, where, seen);
        temp_uses(n->args, t, where, seen);
        temp_uses(n->kexpr, t, where, seen);
    }
}

/* A temporary read and written only at the current point of one interval needs no storage:
 * it becomes a per-point local (GT4Py demotes such temporaries too). */
static void demote_temps(Decl *s) {
    Var **keep = NULL;
    int nkeep = 0;
    for (int i = 0; i < s->ntemps; i++) {
        Var *t = s->temps[i];
        int seen = -1, where = 0;
        for (int c = 0; c < s->ncomps; c++)
            for (int v = 0; v < s->comps[c].nivs; v++, where++)
                temp_uses(s->comps[c].ivs[v].body, t, where, &seen);
        if (seen == -2) {
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
    for (int i = 0; i < d->nparams; i++)
        VPUSH(s->params, s->nparams, copy_var(d->params[i]));
    for (int i = 0; i < d->ntemps; i++)
        VPUSH(s->temps, s->ntemps, copy_var(d->temps[i]));
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
    demote_temps(s);
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

static void lower_pstmt(Lower *L, Node *n, Node ***out) {
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
            int k;
            for (k = 0; k < L->ir->ncallbacks && L->ir->callbacks[k] != cb; k++)
                ;
            if (k == L->ir->ncallbacks)
                VPUSH(L->ir->callbacks, L->ir->ncallbacks, cb);
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
    Lower L = {ir, NULL, 0};
    ir->name = program->name;
    ir->loc = program->loc;
    for (int i = 0; i < program->nparams; i++)
        VPUSH(ir->params, ir->nparams, copy_var(program->params[i]));
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
