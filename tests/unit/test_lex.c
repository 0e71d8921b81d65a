/* test_lex.c: the lexer: token kinds, texts, values and locations; comments; lexing errors. */
#include "check.h"

typedef struct LexRun {
    const char *path;
    Token *toks;
} LexRun;

static void lex_run(void *arg) {
    LexRun *r = arg;
    FpoFile *f = fpo_load(r->path);
    if (!f)
        fpo_error("%s", fpo_errmsg);
    r->toks = fpo_lex(f);
}

static Token *lex(const char *text, int *rc) {
    LexRun r = {check_write("lex.fpo", text), NULL};
    fpo_sources_reset();
    fpo_quiet = true;
    *rc = fpo_try(lex_run, &r);
    return r.toks;
}

static void expect_error(const char *text, const char *msg) {
    int rc;
    lex(text, &rc);
    CHECK_INT(rc, -1);
    CHECK_STR(fpo_errmsg, msg);
}

int main(void) {
    int rc;
    Token *t = lex("stencil s(q: field<f64>) // c\n/* multi\nline */ x += 1.5e-3 .. 0..nx\n"
                   "a[-1, 0, 2] >= 7 && !b;", &rc);
    CHECK_INT(rc, 0);
    const char *want[] = {"stencil", "s", "(", "q", ":", "field", "<", "f64", ">", ")", "x",
                          "+=", "1.5e-3", "..", "0", "..", "nx", "a", "[", "-", "1", ",", "0",
                          ",", "2", "]", ">=", "7", "&&", "!", "b", ";", NULL};
    int n = 0;
    for (Token *x = t; x && x->kind != TK_EOF; x = x->next, n++) {
        if (!want[n]) {
            CHECK(!"too many tokens");
            break;
        }
        char *s = fpo_strndup(x->s, (size_t)x->len);
        CHECK_STR(s, want[n]);
    }
    CHECK_INT(n, 32);
    /* kinds, values, locations */
    Token *x = t;
    CHECK_INT(x->kind, TK_IDENT);
    CHECK_INT(x->loc.line, 1);
    CHECK_INT(x->loc.col, 1);
    for (int i = 0; i < 10; i++)
        x = x->next;
    CHECK_INT(x->loc.line, 3);   /* x, after the two-line comment */
    CHECK_INT(x->loc.col, 9);
    x = x->next->next;
    CHECK_INT(x->kind, TK_FLOAT);
    CHECK(x->fval == 1.5e-3);
    x = x->next->next;
    CHECK_INT(x->kind, TK_INT);  /* `0..nx`: 0 is an integer, `..` follows */
    CHECK_INT(x->ival, 0);
    CHECK(tok_is(x->next, ".."));
    CHECK_INT(t->next->kind, TK_IDENT);
    CHECK(tok_is(t->next->next, "("));

    Token *s = lex("import \"a b.fpo\";", &rc);
    CHECK_INT(rc, 0);
    CHECK_INT(s->next->kind, TK_STR);
    CHECK_STR(s->next->str, "a b.fpo");

    expect_error("x = 1 $ 2;", "unexpected character '$'");
    expect_error("/* never closed", "unterminated comment");
    expect_error("import \"a.fpo;\n", "unterminated string");
    expect_error("x = 1e+;", "malformed number: the exponent has no digits");
    expect_error("x = 12ab;", "malformed number: unexpected 'a' after digits");
    expect_error("x = 3000000000;", "integer literal 3000000000 is too large for i32");
    return check_done("test_lex");
}
