/* test_parse.c: the parser: declarations, types, computations and intervals, precedence,
 * named arguments, domains, imports (once each, cycles allowed), and syntax errors. */
#include "check.h"

typedef struct ParseRun {
    const char *path;
    Decl **decls;
    int ndecls;
} ParseRun;

static void parse_run(void *arg) {
    ParseRun *r = arg;
    long nodes = 0;
    fpo_parse_file(r->path, (Loc){0}, true, &r->decls, &r->ndecls, &nodes);
}

static ParseRun parse(const char *name, const char *text, int *rc) {
    ParseRun r = {check_write(name, text), NULL, 0};
    fpo_sources_reset();
    fpo_quiet = true;
    *rc = fpo_try(parse_run, &r);
    return r;
}

static void expect_error(const char *text, int line, int col, const char *msg) {
    int rc;
    ParseRun r = parse("bad.fpo", text, &rc);
    (void)r;
    CHECK_INT(rc, -1);
    if (strncmp(fpo_errmsg, msg, strlen(msg))) {
        fprintf(stderr, "got '%s', want '%s...'\n", fpo_errmsg, msg);
        check_failures++;
    }
    (void)line;
    (void)col;
}

int main(void) {
    int rc;
    check_write("lib.fpo", "import \"main.fpo\";\nexternal N: i32 = 2;\n");
    ParseRun r = parse("main.fpo",
                       "import \"lib.fpo\";\n"
                       "stencil s(a: field<f32, IJ>, b: field<f64>, c: field<i32, K>, w: f64) {\n"
                       "  computation(FORWARD) {\n"
                       "    interval(bottom, bottom + 1) { b = 1.0; }\n"
                       "    interval(bottom + 1, top - N) { b = b[0, 0, -1] + w * 2.0 - 1.0; }\n"
                       "  }\n"
                       "  computation(BACKWARD) interval(top - 1, top) { b = x ? 1.0 : 2.0; }\n"
                       "  computation(PARALLEL) { var t: f64 = a.at(K = c); }\n"
                       "}\n"
                       "program p(b: field<f64>, n: i32) {\n"
                       "  for (s in 0 .. n) { s(w = 1.0, a, b, c) domain(i: -1 .. nx + 1, k: 0 .. 1); }\n"
                       "}\n",
                       &rc);
    CHECK_INT(rc, 0);
    CHECK_INT(r.ndecls, 3);   /* external N (lib.fpo, imported first), stencil s, program p */
    CHECK_INT(r.decls[0]->kind, D_EXTERNAL);
    CHECK_STR(r.decls[0]->name, "N");
    CHECK(!r.decls[0]->from_cmdline);
    Decl *s = r.decls[1];
    CHECK_INT(s->kind, D_STENCIL);
    CHECK(s->from_cmdline);
    CHECK_INT(s->nparams, 4);
    CHECK_INT(s->params[0]->dt, DT_F32);
    CHECK_INT(s->params[0]->ax, AX_IJ);
    CHECK_INT(s->params[1]->ax, AX_IJK);
    CHECK_INT(s->params[2]->ax, AX_K);
    CHECK_INT(s->params[3]->ax, AX_SCALAR);
    CHECK_INT(s->ncomps, 3);
    CHECK_INT(s->comps[0].order, ORD_FORWARD);
    CHECK_INT(s->comps[0].nivs, 2);
    CHECK_INT(s->comps[0].ivs[1].lo.base, B_BOTTOM);
    CHECK_INT(s->comps[0].ivs[1].hi.base, B_TOP);
    CHECK_INT(s->comps[0].ivs[1].hi.sign, -1);
    CHECK_INT(s->comps[1].order, ORD_BACKWARD);
    CHECK_INT(s->comps[1].nivs, 1);
    CHECK_INT(s->comps[2].ivs[0].lo.base, B_BOTTOM);   /* whole column */
    CHECK_INT(s->comps[2].ivs[0].hi.base, B_TOP);
    /* b[0, 0, -1] + w * 2.0 - 1.0 parses as ((b + (w * 2.0)) - 1.0) */
    Node *e = s->comps[0].ivs[1].body->rhs;
    CHECK_INT(e->kind, ND_BINARY);
    CHECK_STR(e->op, "-");
    CHECK_STR(e->lhs->op, "+");
    CHECK_INT(e->lhs->lhs->kind, ND_ACCESS);
    CHECK_INT(e->lhs->lhs->nidx, 3);
    CHECK_STR(e->lhs->rhs->op, "*");
    CHECK_INT(s->comps[1].ivs[0].body->rhs->kind, ND_COND);
    Node *v = s->comps[2].ivs[0].body;
    CHECK_INT(v->kind, ND_VARDECL);
    CHECK(v->rhs->at);
    Decl *p = r.decls[2];
    Node *f = p->body;
    CHECK_INT(f->kind, ND_FOR);
    Node *call = f->body;
    CHECK_INT(call->kind, ND_CALL);
    CHECK_INT(call->args->kind, ND_ARG);
    CHECK_STR(call->args->name, "w");
    CHECK(call->has_dom[0] && !call->has_dom[1] && call->has_dom[2]);
    CHECK_INT(call->dom_e[0][0]->kind, ND_UNARY);

    expect_error("stencil s(q: field<f64>) { computation(SIDEWAYS) { } }", 1, 40,
                 "expected PARALLEL, FORWARD or BACKWARD, found 'SIDEWAYS'");
    expect_error("program p() { x = 1 }", 1, 21, "expected ';', found '}'");
    expect_error("function f(a: f64) -> f64 { return a + ; }", 1, 40,
                 "expected an expression, found ';'");
    expect_error("stencil s(q: field<f64, IK>) { }", 1, 25,
                 "expected field axes (IJK, IJ or K), found 'IK'");
    expect_error("stencil s(q: f16) { }", 1, 14, "expected a dtype (f32, f64, i32, bool), found 'f16'");
    expect_error("import \"missing.fpo\";", 1, 8, "cannot open '");
    expect_error("stencil s(q: field<f64>) {", 1, 27,
                 "expected 'computation' or '}', found the end of the file");
    expect_error("thing x;", 1, 1,
                 "expected a declaration (import, external, function, stencil, program or callback), found 'thing'");
    return check_done("test_parse");
}
