/* test_sema.c: semantic checks: types (widening, f32 literals), offsets, externals and -D,
 * domains, and each rule of design.md 2.3 with its message. */
#include "check.h"

static const char *ok_src =
    "external H: i32 = 2;\n"
    "external CNST: f64 = 0.5 * H;\n"
    "external LIM: bool = true;\n"
    "function half(x: f32) -> f32 { return x * 0.5; }\n"
    "stencil s(a: field<f32>, b: field<f64>, c: field<f64>, w: f64) {\n"
    "  computation(PARALLEL) interval(bottom + H, top - 1) {\n"
    "    a = half(f32(w)) + 2.0;\n"
    "    b = a + w * CNST + c[-H, 0, 0 - 1];\n"
    "  }\n"
    "}\n"
    "program p(a: field<f32>, b: field<f64>, c: field<f64>, w: f64) {\n"
    "  s(a, b, c, w) domain(i: -1 .. nx + H);\n}\n";

static void expect(const char *src, const char *msg, Define *defs, int ndefs) {
    Front f;
    memset(&f, 0, sizeof f);
    f.path = check_write("bad.fpo", src);
    f.defs = defs;
    f.ndefs = ndefs;
    fpo_sources_reset();
    fpo_quiet = true;
    int rc = fpo_try(check_front_run, &f);
    CHECK_INT(rc, -1);
    if (rc == -1 && strcmp(fpo_errmsg, msg)) {
        fprintf(stderr, "for:\n%s\ngot:  %s\nwant: %s\n", src, fpo_errmsg, msg);
        check_failures++;
    }
}

#define ST(body) "stencil s(q: field<f64>, r: field<f64>, w: f64, k2: field<f64, K>, " \
                 "e: field<f64, IJ>) {\n" body "\n}\n"

int main(void) {
    Front f;
    CHECK_INT(check_front("ok.fpo", ok_src, &f), 0);
    if (f.ndecls == 6) {
        Decl *s = check_decl(&f, "s");
        Interval *iv = &s->comps[0].ivs[0];
        CHECK_INT(iv->lo.off, 2);   /* bottom + H */
        CHECK_INT(iv->hi.off, -1);
        Node *a1 = iv->body;        /* a = half(...) + 2.0: the literal takes f32 */
        CHECK_INT(a1->rhs->dt, DT_F32);
        CHECK_INT(a1->rhs->rhs->dt, DT_F32);
        Node *b1 = a1->next;        /* b = a + w * CNST + b[-H, 0, -1]: f64 */
        CHECK_INT(b1->rhs->dt, DT_F64);
        Node *acc = b1->rhs->rhs;
        CHECK_INT(acc->off[0], -2);
        CHECK_INT(acc->off[2], -1);
        Decl *c = check_decl(&f, "CNST");
        CHECK(c->ext->value->fval == 1.0);
        Decl *p = check_decl(&f, "p");
        CHECK_INT(p->body->dom.lo[0].base, DB_ZERO);
        CHECK_INT(p->body->dom.lo[0].off, -1);
        CHECK_INT(p->body->dom.hi[0].base, DB_NX);
        CHECK_INT(p->body->dom.hi[0].off, 2);
        CHECK_INT(p->body->dom.hi[2].base, DB_NZ);
    } else {
        fprintf(stderr, "ok.fpo: %s (%d decls)\n", fpo_errmsg, f.ndecls);
        check_failures++;
    }

    /* -D overrides an external, and externals computed from it follow. */
    Define d = {"H", "5"};
    f.defs = &d;
    memset(&f, 0, sizeof f);
    f.path = check_write("ok.fpo", ok_src);
    f.defs = &d;
    f.ndefs = 1;
    fpo_sources_reset();
    CHECK_INT(fpo_try(check_front_run, &f), 0);
    CHECK(check_decl(&f, "CNST")->ext->value->fval == 2.5);

    Define bad_name = {"NOPE", "1"}, bad_value = {"H", "2.5"};
    expect(ok_src, "-D NOPE=1: there is no external named 'NOPE'", &bad_name, 1);
    expect(ok_src, "-D H=2.5: '2.5' is not a valid i32 value", &bad_value, 1);

    /* rule 1 */
    expect(ST("computation(PARALLEL) { r[1, 0, 0] = q; }"),
           "a write must be at offset 0 in I and J ('r')", NULL, 0);
    expect(ST("computation(PARALLEL) { r[0, 0, 1] = q; }"),
           "a write with a K offset is only allowed in FORWARD and BACKWARD computations ('r')",
           NULL, 0);
    /* rule 2, also through a function */
    expect(ST("computation(PARALLEL) { r = q; q = r[0, 1, 0]; }"),
           "'r' is written in this PARALLEL computation and cannot be read at a horizontal "
           "offset in it", NULL, 0);
    expect("function dx(f: field<f64>) -> f64 { return f[1, 0, 0]; }\n"
           ST("computation(PARALLEL) { r = dx(r); }"),
           "'r' is written in this PARALLEL computation and cannot be read at a horizontal "
           "offset in it", NULL, 0);
    /* rule 3 */
    expect(ST("computation(PARALLEL) { r = r[0, 0, -1]; }"),
           "'r' is written in this PARALLEL computation and cannot be read at a K offset in it",
           NULL, 0);
    /* FORWARD allows it */
    CHECK_INT(check_front("fw.fpo", ST("computation(FORWARD) interval(bottom + 1, top) "
                                       "{ r = r[0, 0, -1]; r[0, 0, -1] = 1.0; }"), &f), 0);
    /* rule 4 */
    expect(ST("computation(PARALLEL) { var t: f64; r = t; }"),
           "temporary 't' is read before it is written", NULL, 0);
    CHECK_INT(check_front("tmp.fpo", ST("computation(PARALLEL) { var t = 1.0; t += t; }\n"
                                        "  computation(PARALLEL) { r = t[1, 0, 0]; }"), &f), 0);
    /* rule 5 */
    expect(ST("computation(PARALLEL) { k2 = 1.0; }"),
           "1D (K) field 'k2' cannot be written in a stencil", NULL, 0);
    expect(ST("computation(PARALLEL) interval(bottom, bottom + 2) { e = 1.0; }"),
           "2D (IJ) field 'e' can only be written in an interval one level thick", NULL, 0);
    /* rule 6 */
    expect(ST("computation(PARALLEL) { if (q) { r = 1.0; } }"),
           "the condition of 'if' must be bool, not f64", NULL, 0);
    expect(ST("computation(PARALLEL) { while (1) { r = 1.0; } }"),
           "the condition of 'while' must be bool, not i32", NULL, 0);
    /* rule 7 */
    expect("function f(x: f64) -> f64 { return g(x); }\n"
           "function g(x: f64) -> f64 { return f(x); }\n",
           "function 'f' calls itself, directly or not (recursion is not allowed)", NULL, 0);
    /* types */
    expect("stencil s(a: field<f32>, b: field<f64>) { computation(PARALLEL) { a = b; } }",
           "cannot convert f64 to f32 implicitly in the assignment to 'a' (use a cast)", NULL, 0);
    expect("stencil s(a: field<i32>) { computation(PARALLEL) { a = 1.5; } }",
           "cannot convert f64 to i32 implicitly in the assignment to 'a' (use a cast)", NULL, 0);
    /* names and arity */
    expect(ST("computation(PARALLEL) { r = zz; }"), "unknown name 'zz'", NULL, 0);
    expect(ST("computation(PARALLEL) { r = min(q); }"), "builtin 'min' takes 2 arguments, got 1",
           NULL, 0);
    expect(ST("") "program p(q: field<f64>) { s(q, q); }",
           "stencil 's' takes 5 arguments, got 2 (missing 'w')", NULL, 0);
    expect("stencil s(q: field<f64>) { computation(PARALLEL) { q = 1.0; } }\n"
           "stencil s(q: field<f64>) { computation(PARALLEL) { q = 1.0; } }\n",
           "'s' is already defined", NULL, 0);
    expect(ST("computation(PARALLEL) { r = q; }") "program p(a: field<f32>, w: f64) { s(a, a, w, a, a); }",
           "'a' is field<f32, IJK> but parameter 'q' of 's' is field<f64, IJK>", NULL, 0);
    expect(ST("computation(PARALLEL) { r = q; }") "program p(a: field<f64>, k: field<f64, K>, e: field<f64, IJ>) "
           "{ s(a, a, 1.0, k, e); }",
           "field 'a' is bound to both 'q' and 'r' of 's', and one of them is written", NULL, 0);
    return check_done("test_sema");
}
