/* parse.c: takes a file's tokens, gives its declarations (the AST); `import`s are loaded and
 * parsed too, each file once. */
#include "fpo.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct Parser {
    Lexer *lx;
    Token *tok;    /* the next token; the two after it are made too (fpo_lex_ahead) */
    long *nodes;   /* expression and statement nodes parsed, in every file of the run */
    Decl ***decls;
    int *ndecls;
    bool cmdline;
    int nest;      /* expression parsers active (recursion) */
    int snest;     /* compound statements open (if, else if, while, for, region) */
    int imports;   /* files importing this one, in a chain */
} Parser;

/* ---- the language's type names, and the nodes and variables every later stage makes ---- */

static const char *dtype_names[] = {"f32", "f64", "i32", "bool"};
static const char *axes_names[] = {"IJK", "IJ", "K", "scalar"};

const char *dtype_name(DType dt) { return dtype_names[dt]; }
const char *axes_name(Axes ax) { return axes_names[ax]; }

bool dtype_parse(const char *s, int len, DType *dt) {
    for (int i = 0; i < 4; i++)
        if ((int)strlen(dtype_names[i]) == len && !memcmp(s, dtype_names[i], (size_t)len)) {
            *dt = (DType)i;
            return true;
        }
    return false;
}

Node *new_node(NodeKind kind, Loc loc) {
    Node *n = fpo_new(sizeof *n);
    n->kind = kind;
    n->loc = loc;
    return n;
}

Var *new_var(const char *name, Loc loc, VarKind kind, DType dt, Axes ax) {
    Var *v = fpo_new(sizeof *v);
    v->name = fpo_strdup(name);
    v->loc = loc;
    v->kind = kind;
    v->dt = dt;
    v->ax = ax;
    return v;
}

static _Noreturn void expected(Token *t, const char *what) {
    if (t->kind == TK_EOF)
        fpo_error_at(t->loc, "expected %s, found the end of the file", what);
    fpo_error_at(t->loc, "expected %s, found '%.*s'", what, t->len, t->s);
}

/* The parser looks at most two tokens past the next. */
static void advance(Parser *ps, Token *t) { ps->tok = fpo_lex_ahead(ps->lx, t, 2); }

/* A node of the AST: the source files' nodes are at most FPO_MAX_AST_NODES in all (so that
 * memory stays in proportion with what a program can be: lowered, it has at most
 * FPO_MAX_IR_NODES). */
static Node *node(Parser *ps, NodeKind kind, Loc loc) {
    if (++*ps->nodes > FPO_MAX_AST_NODES)
        fpo_error_at(loc, "the source is too large (more than %d expressions and statements in "
                          "all its files)",
                     FPO_MAX_AST_NODES);
    return new_node(kind, loc);
}

static bool consume(Parser *ps, const char *s) {
    if (tok_is(ps->tok, s)) {
        advance(ps, ps->tok->next);
        return true;
    }
    return false;
}

static Token *skip(Parser *ps, const char *s) {
    Token *t = ps->tok;
    if (!tok_is(t, s))
        expected(t, fpo_fmt("'%s'", s));
    advance(ps, t->next);
    return t;
}

static char *ident(Parser *ps, const char *what) {
    Token *t = ps->tok;
    if (t->kind != TK_IDENT)
        expected(t, what);
    advance(ps, t->next);
    return fpo_strndup(t->s, (size_t)t->len);
}

/* dtype = "f32" | "f64" | "i32" | "bool" ; */
static DType parse_dtype(Parser *ps) {
    Token *t = ps->tok;
    DType dt;
    if (t->kind != TK_IDENT || !dtype_parse(t->s, t->len, &dt))
        expected(t, "a dtype (f32, f64, i32, bool)");
    advance(ps, t->next);
    return dt;
}

/* type = dtype | "field" , "<" , dtype , [ "," , ( "IJK" | "IJ" | "K" ) ] , ">" ; */
static void parse_type(Parser *ps, DType *dt, Axes *ax) {
    if (!consume(ps, "field")) {
        *dt = parse_dtype(ps);
        *ax = AX_SCALAR;
        return;
    }
    skip(ps, "<");
    *dt = parse_dtype(ps);
    *ax = AX_IJK;
    if (consume(ps, ",")) {
        Token *t = ps->tok;
        if (tok_is(t, "IJK"))
            *ax = AX_IJK;
        else if (tok_is(t, "IJ"))
            *ax = AX_IJ;
        else if (tok_is(t, "K"))
            *ax = AX_K;
        else
            expected(t, "field axes (IJK, IJ or K)");
        advance(ps, t->next);
    }
    skip(ps, ">");
}

/* ---- expressions ---- */

static Node *expr(Parser *ps);

/* Limits (docs/design.md, "Limits"): the parser's recursion is counted on entry, so that no
 * input overflows the stack; the tree's depth is counted as it is built, so that no later
 * pass (each walks the tree recursively) sees a tree deeper than FPO_MAX_EXPR_DEPTH. */
static void enter(Parser *ps) {
    if (++ps->nest > FPO_MAX_EXPR_DEPTH)
        fpo_error_at(ps->tok->loc, "the expression is nested too deeply (more than %d levels)",
                     FPO_MAX_EXPR_DEPTH);
}

static int depth_of(Node *n) { return n ? n->depth : 0; }

/* Set n's depth from its children's; refuse a tree deeper than the limit. */
static Node *deep(Node *n) {
    int d = depth_of(n->lhs);
    Node *kids[] = {n->rhs, n->cond, n->then, n->els, n->idx[0], n->idx[1], n->idx[2]};
    for (size_t i = 0; i < sizeof kids / sizeof *kids; i++)
        if (depth_of(kids[i]) > d)
            d = depth_of(kids[i]);
    for (Node *a = n->args; a; a = a->next)
        if (depth_of(a) > d)
            d = depth_of(a);
    n->depth = d + 1;
    if (n->depth > FPO_MAX_EXPR_DEPTH)
        fpo_error_at(n->loc,
                     "the expression is nested too deeply (more than %d levels; each operand "
                     "of a chain like 'a + b + c' is one level: split it with 'var')",
                     FPO_MAX_EXPR_DEPTH);
    return n;
}

static Node *binary(Parser *ps, Token *t, const char *op, Node *l, Node *r) {
    Node *n = node(ps, ND_BINARY, t->loc);
    n->op = op;
    n->lhs = l;
    n->rhs = r;
    return deep(n);
}

/* args = "(" , [ arg , { "," , arg } ] , ")" ;  arg = [ name , "=" ] , expr ; */
static Node *call_args(Parser *ps, Node *call) {
    Node head = {0}, *cur = &head;
    skip(ps, "(");
    while (!tok_is(ps->tok, ")")) {
        if (cur != &head)
            skip(ps, ",");
        Token *t = ps->tok;
        if (t->kind == TK_IDENT && tok_is(t->next, "=")) {
            Node *a = node(ps, ND_ARG, t->loc);
            a->name = ident(ps, "a name");
            skip(ps, "=");
            a->lhs = expr(ps);
            cur = cur->next = deep(a);
        } else {
            cur = cur->next = expr(ps);
        }
    }
    skip(ps, ")");
    call->args = head.next;
    return deep(call);
}

/* access = name , [ "[" , expr , [ "," , expr , [ "," , expr ] ] , "]"
 *                 | "." , "at" , "(" , "K" , "=" , expr , ")" ] ; */
static Node *parse_access(Parser *ps, Token *t) {
    Node *n = node(ps, ND_ACCESS, t->loc);
    n->name = fpo_strndup(t->s, (size_t)t->len);
    if (consume(ps, "[")) {
        do {
            if (n->nidx == 3)
                fpo_error_at(ps->tok->loc, "too many indices (at most 3)");
            n->idx[n->nidx++] = expr(ps);
        } while (consume(ps, ","));
        skip(ps, "]");
    }
    if (tok_is(ps->tok, ".")) {
        Token *dot = ps->tok;
        advance(ps, dot->next);
        if (!tok_is(ps->tok, "at"))
            expected(ps->tok, "'at' after '.'");
        if (n->nidx)
            fpo_error_at(dot->loc, "'.at' cannot follow an index");
        advance(ps, ps->tok->next);
        skip(ps, "(");
        if (!tok_is(ps->tok, "K"))
            expected(ps->tok, "'K' in '.at(K = ...)'");
        advance(ps, ps->tok->next);
        skip(ps, "=");
        n->at = true;
        n->idx[0] = expr(ps);
        skip(ps, ")");
    }
    return deep(n);
}

/* primary = "(" , expr , ")" | int | float | "true" | "false"
 *         | dtype , "(" , expr , ")" | name , args | access ; */
static Node *primary(Parser *ps) {
    Token *t = ps->tok;
    if (consume(ps, "(")) {
        Node *n = expr(ps);
        skip(ps, ")");
        return n;
    }
    if (t->kind == TK_INT || t->kind == TK_FLOAT) {
        Node *n = node(ps, ND_NUM, t->loc);
        n->dt = t->kind == TK_INT ? DT_I32 : DT_F64;
        n->flex = t->kind == TK_FLOAT;
        n->ival = t->ival;
        n->fval = t->kind == TK_INT ? (double)t->ival : t->fval;
        advance(ps, t->next);
        return n;
    }
    if (tok_is(t, "true") || tok_is(t, "false")) {
        Node *n = node(ps, ND_NUM, t->loc);
        n->dt = DT_BOOL;
        n->ival = tok_is(t, "true");
        advance(ps, t->next);
        return n;
    }
    if (t->kind != TK_IDENT)
        expected(t, "an expression");
    advance(ps, t->next);
    DType dt;
    if (tok_is(ps->tok, "(")) {
        if (dtype_parse(t->s, t->len, &dt)) {
            Node *n = node(ps, ND_CAST, t->loc);
            n->dt = dt;
            skip(ps, "(");
            n->lhs = expr(ps);
            skip(ps, ")");
            return deep(n);
        }
        Node *n = node(ps, ND_CALL, t->loc);
        n->name = fpo_strndup(t->s, (size_t)t->len);
        return call_args(ps, n);
    }
    return parse_access(ps, t);
}

/* unary = ( "-" | "+" | "!" ) , unary | primary ; */
static Node *unary(Parser *ps) {
    Token *t = ps->tok;
    const char *ops[] = {"-", "+", "!"};
    for (int i = 0; i < 3; i++)
        if (consume(ps, ops[i])) {
            Node *n = node(ps, ND_UNARY, t->loc);
            n->op = ops[i];
            enter(ps);
            n->lhs = unary(ps);
            ps->nest--;
            return deep(n);
        }
    return primary(ps);
}

/* Binary levels, loosest first (or, and, equality, relation, sum, term); each is left
 * associative. */
static const char *levels[][5] = {
    {"||"}, {"&&"}, {"==", "!="}, {"<", "<=", ">", ">="}, {"+", "-"}, {"*", "/", "%"},
};
enum { NLEVELS = sizeof levels / sizeof *levels };

/* Level lv: or = and , { "||" , and } ;  and = equality , { "&&" , equality } ;
 * equality = relation , { ( "==" | "!=" ) , relation } ;
 * relation = sum , { ( "<" | "<=" | ">" | ">=" ) , sum } ;
 * sum = term , { ( "+" | "-" ) , term } ;  term = unary , { ( "*" | "/" | "%" ) , unary } ; */
static Node *binary_level(Parser *ps, int lv) {
    if (lv == NLEVELS)
        return unary(ps);
    Node *n = binary_level(ps, lv + 1);
    for (;;) {
        Token *t = ps->tok;
        const char *op = NULL;
        for (int i = 0; i < 5 && levels[lv][i]; i++)
            if (tok_is(t, levels[lv][i]))
                op = levels[lv][i];
        if (!op)
            return n;
        advance(ps, t->next);
        n = binary(ps, t, op, n, binary_level(ps, lv + 1));
    }
}

/* expr = or , [ "?" , expr , ":" , expr ] ; */
static Node *expr(Parser *ps) {
    enter(ps);
    Node *c = binary_level(ps, 0);
    Token *t = ps->tok;
    if (!consume(ps, "?")) {
        ps->nest--;
        return c;
    }
    Node *n = node(ps, ND_COND, t->loc);
    n->cond = c;
    n->then = expr(ps);
    skip(ps, ":");
    n->els = expr(ps);
    ps->nest--;
    return deep(n);
}

/* ---- statements ---- */

static Node *stmt(Parser *ps);

/* block = "{" , { statement } , "}" ; */
static Node *block(Parser *ps) {
    skip(ps, "{");
    Node head = {0}, *cur = &head;
    while (!consume(ps, "}")) {
        if (ps->tok->kind == TK_EOF)
            expected(ps->tok, "'}'");
        cur = cur->next = stmt(ps);
    }
    return head.next;
}

static const char *assign_ops[] = {"=", "+=", "-=", "*=", "/="};

/* domain = "(" , daxis , { "," , daxis } , ")" ;
 * daxis = ( "i" | "j" | "k" ) , ":" , expr , ".." , expr ;   (each axis once) */
static Node *domain(Parser *ps, Node *call) {
    skip(ps, "(");
    do {
        Token *t = ps->tok;
        int ax = tok_is(t, "i") ? 0 : tok_is(t, "j") ? 1 : tok_is(t, "k") ? 2 : -1;
        if (ax < 0)
            expected(t, "a domain axis (i, j or k)");
        if (call->has_dom[ax])
            fpo_error_at(t->loc, "axis '%.*s' is given twice in the domain", t->len, t->s);
        advance(ps, t->next);
        skip(ps, ":");
        call->has_dom[ax] = true;
        call->dom_e[ax][0] = expr(ps);
        skip(ps, "..");
        call->dom_e[ax][1] = expr(ps);
    } while (consume(ps, ","));
    skip(ps, ")");
    return call;
}

/* rbound = ( "i_start" | "i_end" | "j_start" | "j_end" ) , [ ( "+" | "-" ) , term ] ; */
static void region_bound(Parser *ps, int axis, int *base, Node **e, int *sign) {
    Token *t = ps->tok;
    const char *s0 = axis ? "j_start" : "i_start", *s1 = axis ? "j_end" : "i_end";
    if (tok_is(t, s0))
        *base = RB_START;
    else if (tok_is(t, s1))
        *base = RB_END;
    else
        expected(t, fpo_fmt("a region bound of axis %c ('%s + n', '%s - n' or ':')",
                            axis ? 'J' : 'I', s0, s1));
    advance(ps, t->next);
    *sign = 1;
    *e = NULL;
    if (consume(ps, "+"))
        *e = binary_level(ps, 4 + 1);
    else if (consume(ps, "-")) {
        *sign = -1;
        *e = binary_level(ps, 4 + 1);
    }
}

/* region = "region" , "(" , raxis , "," , raxis , ")" , block ;
 * raxis = ":" | rbound , [ ".." , rbound ] ; */
static Node *region(Parser *ps, Token *t) {
    Node *n = node(ps, ND_REGION, t->loc);
    skip(ps, "(");
    for (int ax = 0; ax < 2; ax++) {
        if (ax)
            skip(ps, ",");
        RegionAxis *r = &n->reg[ax];
        if (consume(ps, ":")) {
            r->all = true;
            continue;
        }
        region_bound(ps, ax, &r->lo_base, &r->lo_e, &r->lo_sign);
        if (consume(ps, "..")) {
            r->range = true;
            region_bound(ps, ax, &r->hi_base, &r->hi_e, &r->hi_sign);
        }
    }
    skip(ps, ")");
    n->body = block(ps);
    return n;
}

static const char *halo_ops[] = {"halo_update", "copy_corners", "fill_corners", "sync_edges"};

/* halo = ( "halo_update" | "copy_corners" | "fill_corners" | "sync_edges" ) ,
 *        "(" , haloitem , { "," , haloitem } , ")" , ";" ;
 * haloitem = "depth" , ":" , expr | "vector" , ":" , ( "A" | "B" | "C" | "D" )
 *          | "at" , ":" , ( "cell" | "vertex" ) | "X" | "Y" (copy_corners only) | access ;
 * Option values are checked by sema; the parser keeps them as expressions. */
static Node *halo_stmt(Parser *ps, Token *t, int op) {
    Node *n = node(ps, ND_HALO, t->loc);
    n->halo.op = op;
    n->halo.dir = -1;
    n->halo.plan = -1;
    Node head = {0}, *cur = &head;
    skip(ps, "(");
    do {
        Token *a = ps->tok;
        if (a->kind == TK_IDENT && tok_is(a->next, ":")) {
            advance(ps, a->next->next);
            if (tok_is(a, "depth")) {
                if (n->cond)
                    fpo_error_at(a->loc, "'depth:' is given twice");
                n->cond = expr(ps);
            } else if (tok_is(a, "vector")) {
                Token *v = ps->tok;
                static const char *kinds[] = {"A", "B", "C", "D"};
                for (int k = 0; k < 4; k++)
                    if (tok_is(v, kinds[k]))
                        n->halo.vec = HV_A + k;
                if (!n->halo.vec)
                    expected(v, "a vector kind (A, B, C or D)");
                advance(ps, v->next);
            } else if (tok_is(a, "at")) {
                Token *v = ps->tok;
                if (n->halo.at_given)
                    fpo_error_at(a->loc, "'at:' is given twice");
                if (tok_is(v, "vertex"))
                    n->halo.at = HA_VERTEX;
                else if (!tok_is(v, "cell"))
                    expected(v, "a place of scalars (cell or vertex)");
                n->halo.at_given = true;
                advance(ps, v->next);
            } else {
                fpo_error_at(a->loc, "unknown option '%.*s:' (known: depth:, vector:, at:)",
                             a->len, a->s);
            }
            continue;
        }
        if (op == HO_COPY_CORNERS && (tok_is(a, "X") || tok_is(a, "Y"))) {
            n->halo.dir = tok_is(a, "Y");
            advance(ps, a->next);
            continue;
        }
        if (a->kind != TK_IDENT)
            expected(a, "a field name");
        advance(ps, a->next);
        cur = cur->next = parse_access(ps, a);
    } while (consume(ps, ","));
    skip(ps, ")");
    skip(ps, ";");
    n->args = head.next;
    return n;
}

static Node *stmt1(Parser *ps);

/* statement = halo | region | vardecl | if | while | for | return | callstmt | assign ;
 * compound statements (if, else if, while, for, region) nest at most FPO_MAX_STMT_DEPTH
 * deep. */
static Node *stmt(Parser *ps) {
    Token *t = ps->tok;
    bool compound = tok_is(t, "if") || tok_is(t, "while") || tok_is(t, "for") ||
                    (tok_is(t, "region") && tok_is(t->next, "("));
    if (compound && ++ps->snest > FPO_MAX_STMT_DEPTH)
        fpo_error_at(t->loc,
                     "statements are nested too deeply (more than %d levels of if, else if, "
                     "while, for and region)",
                     FPO_MAX_STMT_DEPTH);
    Node *n = stmt1(ps);
    if (compound)
        ps->snest--;
    return n;
}

/* statement (stmt counts its depth); halo and region only where "(" follows their word:
 * vardecl = "var" , name , ( ":" , type , [ "=" , expr ] | "=" , expr ) , ";" ;
 * if = "if" , "(" , expr , ")" , block , [ "else" , ( if | block ) ] ;
 * while = "while" , "(" , expr , ")" , block ;
 * for = "for" , "(" , name , "in" , expr , ".." , expr , ")" , block ;
 * return = "return" , expr , ";" ;
 * callstmt = name , args , [ "domain" , domain ] , ";" ;
 * assign = access , ( "=" | "+=" | "-=" | "*=" | "/=" ) , expr , ";" ; */
static Node *stmt1(Parser *ps) {
    Token *t = ps->tok;
    for (int op = 0; op < 4; op++)
        if (tok_is(t, halo_ops[op]) && tok_is(t->next, "(")) {
            advance(ps, t->next);
            return halo_stmt(ps, t, op);
        }
    if (tok_is(t, "region") && tok_is(t->next, "(")) {
        advance(ps, t->next);
        return region(ps, t);
    }
    if (consume(ps, "var")) {
        Node *n = node(ps, ND_VARDECL, ps->tok->loc);
        n->name = ident(ps, "a variable name");
        if (consume(ps, ":")) {
            n->has_type = true;
            parse_type(ps, &n->vdt, &n->vax);
        }
        if (consume(ps, "="))
            n->rhs = expr(ps);
        if (!n->has_type && !n->rhs)
            fpo_error_at(n->loc, "variable '%s' needs a type or an initial value", n->name);
        skip(ps, ";");
        return n;
    }
    if (consume(ps, "if")) {
        Node *n = node(ps, ND_IF, t->loc);
        skip(ps, "(");
        n->cond = expr(ps);
        skip(ps, ")");
        n->then = block(ps);
        if (consume(ps, "else"))
            n->els = tok_is(ps->tok, "if") ? stmt(ps) : block(ps);
        return n;
    }
    if (consume(ps, "while")) {
        Node *n = node(ps, ND_WHILE, t->loc);
        skip(ps, "(");
        n->cond = expr(ps);
        skip(ps, ")");
        n->body = block(ps);
        return n;
    }
    if (consume(ps, "for")) {
        Node *n = node(ps, ND_FOR, t->loc);
        skip(ps, "(");
        n->name = ident(ps, "a loop variable");
        skip(ps, "in");
        n->lhs = expr(ps);
        skip(ps, "..");
        n->rhs = expr(ps);
        skip(ps, ")");
        n->body = block(ps);
        return n;
    }
    if (consume(ps, "return")) {
        Node *n = node(ps, ND_RETURN, t->loc);
        n->lhs = expr(ps);
        skip(ps, ";");
        return n;
    }
    if (t->kind != TK_IDENT)
        expected(t, "a statement");
    advance(ps, t->next);
    if (tok_is(ps->tok, "(")) {
        Node *n = node(ps, ND_CALL, t->loc);
        n->name = fpo_strndup(t->s, (size_t)t->len);
        call_args(ps, n);
        if (consume(ps, "domain"))
            domain(ps, n);
        skip(ps, ";");
        return n;
    }
    Node *target = parse_access(ps, t);
    Token *op = ps->tok;
    for (int i = 0; i < 5; i++)
        if (consume(ps, assign_ops[i])) {
            Node *n = node(ps, ND_ASSIGN, op->loc);
            n->op = assign_ops[i];
            n->lhs = target;
            n->rhs = expr(ps);
            skip(ps, ";");
            return n;
        }
    expected(op, "an assignment ('=', '+=', '-=', '*=' or '/=')");
}

/* ---- declarations ---- */

/* params = "(" , [ param , { "," , param } ] , ")" ;  param = name , ":" , type ; */
static void params(Parser *ps, Decl *d) {
    skip(ps, "(");
    while (!tok_is(ps->tok, ")")) {
        if (d->nparams)
            skip(ps, ",");
        Var *v = fpo_new(sizeof *v);
        v->loc = ps->tok->loc;
        v->name = ident(ps, "a parameter name");
        v->kind = VK_PARAM;
        skip(ps, ":");
        parse_type(ps, &v->dt, &v->ax);
        v->id = d->nparams;
        VPUSH(d->params, d->nparams, v);
    }
    skip(ps, ")");
}

/* kbound = ( "bottom" | "top" ) , [ ( "+" | "-" ) , term ] ; */
static KBound kbound(Parser *ps) {
    KBound b = {0};
    Token *t = ps->tok;
    if (tok_is(t, "bottom"))
        b.base = B_BOTTOM;
    else if (tok_is(t, "top"))
        b.base = B_TOP;
    else
        expected(t, "an interval bound ('bottom + n' or 'top - n')");
    advance(ps, t->next);
    b.sign = 1;
    if (consume(ps, "+"))
        b.expr = binary_level(ps, 4 + 1);
    else if (consume(ps, "-")) {
        b.sign = -1;
        b.expr = binary_level(ps, 4 + 1);
    }
    return b;
}

/* interval = "interval" , "(" , kbound , "," , kbound , ")" , block ; */
static Interval interval(Parser *ps) {
    Interval iv = {0};
    iv.loc = skip(ps, "interval")->loc;
    skip(ps, "(");
    iv.lo = kbound(ps);
    skip(ps, ",");
    iv.hi = kbound(ps);
    skip(ps, ")");
    iv.body = block(ps);
    return iv;
}

/* computation = "computation" , "(" , ( "PARALLEL" | "FORWARD" | "BACKWARD" ) , ")" ,
 *               ( interval | "{" , interval , { interval } , "}" | block ) ;
 * a block alone is interval(bottom, top). */
static Comp computation(Parser *ps) {
    Comp c = {0};
    c.loc = skip(ps, "computation")->loc;
    skip(ps, "(");
    Token *t = ps->tok;
    if (tok_is(t, "PARALLEL"))
        c.order = ORD_PARALLEL;
    else if (tok_is(t, "FORWARD"))
        c.order = ORD_FORWARD;
    else if (tok_is(t, "BACKWARD"))
        c.order = ORD_BACKWARD;
    else
        expected(t, "PARALLEL, FORWARD or BACKWARD");
    advance(ps, t->next);
    skip(ps, ")");
    if (tok_is(ps->tok, "interval")) {
        Interval iv = interval(ps);
        VPUSH(c.ivs, c.nivs, iv);
        return c;
    }
    if (tok_is(ps->tok, "{") && tok_is(ps->tok->next, "interval")) {
        skip(ps, "{");
        while (!consume(ps, "}")) {
            Interval iv = interval(ps);
            VPUSH(c.ivs, c.nivs, iv);
        }
        return c;
    }
    Interval iv = {0};
    iv.loc = ps->tok->loc;
    iv.lo = (KBound){B_BOTTOM, 0, NULL, 1};
    iv.hi = (KBound){B_TOP, 0, NULL, 1};
    iv.body = block(ps);
    VPUSH(c.ivs, c.nivs, iv);
    return c;
}

static Decl *new_decl(Parser *ps, DeclKind kind, Loc loc) {
    Decl *d = fpo_new(sizeof *d);
    d->kind = kind;
    d->loc = loc;
    d->from_cmdline = ps->cmdline;
    return d;
}

static void parse_file(const char *path, const char *shown, Loc from, bool cmdline,
                       Decl ***decls, int *ndecls, long *nodes, int imports);

/* import = "import" , string , ";" ;  the path (relative to the importing file) names a .fpo
 * file (no other file's line is shown in an error), a regular one of FPO_MAX_SOURCE bytes at
 * most, FPO_MAX_IMPORT_DEPTH files in a chain at most; errors are placed at the path. */
static void import(Parser *ps, Token *kw) {
    Token *t = ps->tok;
    if (t->kind != TK_STR)
        expected(t, "a file name in quotes");
    advance(ps, t->next);
    skip(ps, ";");
    size_t n = strlen(t->str);
    if (n < 5 || strcmp(t->str + n - 4, ".fpo") || t->str[n - 5] == '/')
        fpo_error_at(t->loc, "an import names a .fpo file ('%s' is not one)", t->str);
    if (ps->imports >= FPO_MAX_IMPORT_DEPTH)
        fpo_error_at(t->loc, "imports are nested too deeply (more than %d files in a chain)",
                     FPO_MAX_IMPORT_DEPTH);
    char *path = t->str;
    if (t->str[0] != '/') {
        char *dir = fpo_strdup(kw->loc.file->path);
        char *slash = strrchr(dir, '/');
        if (slash)
            slash[slash == dir] = 0;
        path = slash ? fpo_fmt("%s/%s", dir, t->str) : t->str;
    }
    parse_file(path, t->str, t->loc, false, ps->decls, ps->ndecls, ps->nodes, ps->imports + 1);
}

/* declaration = import | external | function | stencil | callback | program ;
 * external = "external" , name , ":" , dtype , "=" , expr , ";" ;
 * function = "function" , name , params , "->" , dtype , block ;
 * stencil = "stencil" , name , params , "{" , { computation } , "}" ;
 * callback = "callback" , name , params , ";" ;
 * program = "program" , name , params , block ; */
static void top_decl(Parser *ps) {
    Token *t = ps->tok;
    if (consume(ps, "import")) {
        import(ps, t);
        return;
    }
    Decl *d;
    if (consume(ps, "external")) {
        d = new_decl(ps, D_EXTERNAL, ps->tok->loc);
        d->name = ident(ps, "an external name");
        Var *v = fpo_new(sizeof *v);
        v->name = d->name;
        v->loc = d->loc;
        v->kind = VK_EXTERNAL;
        skip(ps, ":");
        v->dt = parse_dtype(ps);
        v->ax = AX_SCALAR;
        skip(ps, "=");
        d->ext_init = expr(ps);
        skip(ps, ";");
        d->ext = v;
    } else if (consume(ps, "function")) {
        d = new_decl(ps, D_FUNCTION, ps->tok->loc);
        d->name = ident(ps, "a function name");
        params(ps, d);
        skip(ps, "->");
        d->ret = parse_dtype(ps);
        d->body = block(ps);
    } else if (consume(ps, "stencil")) {
        d = new_decl(ps, D_STENCIL, ps->tok->loc);
        d->name = ident(ps, "a stencil name");
        params(ps, d);
        skip(ps, "{");
        while (!consume(ps, "}")) {
            if (!tok_is(ps->tok, "computation"))
                expected(ps->tok, "'computation' or '}'");
            Comp c = computation(ps);
            VPUSH(d->comps, d->ncomps, c);
        }
    } else if (consume(ps, "callback")) {
        d = new_decl(ps, D_CALLBACK, ps->tok->loc);
        d->name = ident(ps, "a callback name");
        params(ps, d);
        skip(ps, ";");
    } else if (consume(ps, "program")) {
        d = new_decl(ps, D_PROGRAM, ps->tok->loc);
        d->name = ident(ps, "a program name");
        params(ps, d);
        d->body = block(ps);
    } else {
        expected(t, "a declaration (import, external, function, stencil, program or callback)");
    }
    VPUSH(*ps->decls, *ps->ndecls, d);
}

/* file = { declaration } ;  the tokens of each declaration are made again for the next. */
static void parse_file(const char *path, const char *shown, Loc from, bool cmdline,
                       Decl ***decls, int *ndecls, long *nodes, int imports) {
    FpoFile *file = fpo_load_as(path, shown);
    if (!file) {
        char *msg = fpo_strdup(fpo_errmsg);
        if (from.file)
            fpo_error_at(from, "%s", msg);
        fpo_error("%s", msg);
    }
    if (file->parsed)
        return;   /* read already: imported once */
    file->parsed = true;
    FpoMark tokens = fpo_scratch_mark();
    Token *first;
    Parser ps = {.lx = fpo_lex_open(file, &first), .decls = decls, .ndecls = ndecls,
                 .nodes = nodes, .cmdline = cmdline, .imports = imports};
    advance(&ps, first);
    while (ps.tok->kind != TK_EOF) {
        first = ps.tok;
        top_decl(&ps);
        fpo_lex_recycle(ps.lx, first, ps.tok);   /* nothing parsed points at a token */
    }
    fpo_scratch_release(tokens);
}

void fpo_parse_file(const char *path, Loc from, bool cmdline, Decl ***decls, int *ndecls,
                    long *nodes) {
    parse_file(path, path, from, cmdline, decls, ndecls, nodes, 0);
}
