/* lex.c: takes a file's text, gives its token list (identifiers, numbers, strings,
 * punctuators); comments and spaces are dropped. */
#include "fpo.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool tok_is(const Token *t, const char *s) {
    return (t->kind == TK_PUNCT || t->kind == TK_IDENT) && (int)strlen(s) == t->len &&
           !memcmp(t->s, s, (size_t)t->len);
}

static const char *puncts[] = {"==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=",
                               "->", "..", "(", ")", "{", "}", "[", "]", "<", ">", ",", ";",
                               ":", "=", "+", "-", "*", "/", "%", "!", "?", "."};

typedef struct Lexer {
    FpoFile *file;
    const char *p;
    int line;
    const char *line_start;
    const char *end;   /* the end of the text (a NUL byte before it is an error) */
} Lexer;

static Loc here(Lexer *lx, const char *p) {
    return (Loc){lx->file, lx->line, (int)(p - lx->line_start) + 1};
}

static Token *new_token(Lexer *lx, TokKind kind, const char *s, int len) {
    Token *t = fpo_scratch_new(sizeof *t);   /* parse.c releases them */
    t->kind = kind;
    t->s = s;
    t->len = len;
    t->loc = here(lx, s);
    return t;
}

static void newline(Lexer *lx, const char *p) {
    lx->line++;
    lx->line_start = p + 1;
}

static Token *lex_number(Lexer *lx) {
    const char *s = lx->p, *p = s;
    bool is_float = false;
    while (isdigit((unsigned char)*p))
        p++;
    if (*p == '.' && p[1] != '.') {
        is_float = true;
        p++;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        const char *e = p + 1;
        if (*e == '+' || *e == '-')
            e++;
        if (!isdigit((unsigned char)*e))
            fpo_error_at(here(lx, s), "malformed number: the exponent has no digits");
        is_float = true;
        p = e;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (isalpha((unsigned char)*p) || *p == '_')
        fpo_error_at(here(lx, p), "malformed number: unexpected '%c' after digits", *p);
    Token *t = new_token(lx, is_float ? TK_FLOAT : TK_INT, s, (int)(p - s));
    char *text = fpo_strndup(s, (size_t)(p - s));
    if (is_float) {
        t->fval = strtod(text, NULL);
    } else {
        errno = 0;
        unsigned long long v = strtoull(text, NULL, 10);
        if (errno || v > 2147483647ULL)
            fpo_error_at(t->loc, "integer literal %s is too large for i32", text);
        t->ival = (int64_t)v;
    }
    lx->p = p;
    return t;
}

/* A byte the language never allows: NUL, a control byte other than tab, newline and carriage
 * return, DEL; outside comments, any byte from 0x80 (the language is ASCII). */
static bool bad_byte(unsigned char c, bool in_comment) {
    if (c == '\t' || c == '\n' || c == '\r')
        return false;
    return c < 0x20 || c == 0x7f || (c >= 0x80 && !in_comment);
}

static _Noreturn void byte_error(Lexer *lx, const char *p, bool in_comment) {
    unsigned char c = (unsigned char)*p;
    if (!c)
        fpo_error_at(here(lx, p), "a NUL byte is not allowed in a source file");
    if (c >= 0x80)
        fpo_error_at(here(lx, p), "byte 0x%02x is not allowed here: outside comments a source "
                                  "file is ASCII",
                     c);
    fpo_error_at(here(lx, p), "control byte 0x%02x is not allowed%s", c,
                 in_comment ? ", not even in a comment" : " (only tab, newline and carriage return)");
}

static Token *lex_string(Lexer *lx) {
    const char *s = lx->p, *p = s + 1;
    while (*p != '"') {
        if ((!*p && p == lx->end) || *p == '\n')
            fpo_error_at(here(lx, s), "unterminated string");
        if (bad_byte((unsigned char)*p, false))
            byte_error(lx, p, false);
        if (*p == '\\')
            fpo_error_at(here(lx, p), "escapes are not allowed in strings");
        p++;
    }
    Token *t = new_token(lx, TK_STR, s, (int)(p + 1 - s));
    t->str = fpo_strndup(s + 1, (size_t)(p - s - 1));
    lx->p = p + 1;
    return t;
}

Token *fpo_lex(FpoFile *file) {
    Lexer lx = {file, file->text, 1, file->text, file->text + file->len};
    if (!file->len)
        lx.end = file->text + strlen(file->text);
    Token head = {0}, *cur = &head;
    for (;;) {
        const char *p = lx.p;
        if (*p == '\n') {
            newline(&lx, p);
            lx.p++;
            continue;
        }
        if (*p == ' ' || *p == '\t' || *p == '\r') {
            lx.p++;
            continue;
        }
        if (p[0] == '/' && p[1] == '/') {
            for (; *p != '\n' && p < lx.end; p++)
                if (bad_byte((unsigned char)*p, true))
                    byte_error(&lx, p, true);
            lx.p = p;
            continue;
        }
        if (p[0] == '/' && p[1] == '*') {
            const char *s = p;
            int line = lx.line;
            const char *ls = lx.line_start;
            for (p += 2; !(p[0] == '*' && p[1] == '/'); p++) {
                if (p == lx.end) {
                    lx.line = line;
                    lx.line_start = ls;
                    fpo_error_at(here(&lx, s), "unterminated comment");
                }
                if (*p == '\n')
                    newline(&lx, p);
                else if (bad_byte((unsigned char)*p, true))
                    byte_error(&lx, p, true);
            }
            lx.p = p + 2;
            continue;
        }
        if (p == lx.end) {
            cur->next = new_token(&lx, TK_EOF, p, 0);
            return head.next;
        }
        if (bad_byte((unsigned char)*p, false))
            byte_error(&lx, p, false);
        if (isdigit((unsigned char)*p)) {
            cur = cur->next = lex_number(&lx);
            continue;
        }
        if (*p == '"') {
            cur = cur->next = lex_string(&lx);
            continue;
        }
        if (isalpha((unsigned char)*p) || *p == '_') {
            const char *s = p;
            while (isalnum((unsigned char)*p) || *p == '_')
                p++;
            if (p - s > FPO_MAX_NAME)
                fpo_error_at(here(&lx, s), "a name is at most %d characters (this one has %td)",
                             FPO_MAX_NAME, p - s);
            cur = cur->next = new_token(&lx, TK_IDENT, s, (int)(p - s));
            lx.p = p;
            continue;
        }
        int len = 0;
        for (size_t i = 0; i < sizeof puncts / sizeof *puncts; i++)
            if (p[0] == puncts[i][0] && (!puncts[i][1] || p[1] == puncts[i][1])) {
                len = puncts[i][1] ? 2 : 1;
                break;
            }
        if (!len) {
            if ((unsigned char)*p >= 0x80 || !isprint((unsigned char)*p))
                fpo_error_at(here(&lx, p), "unexpected character (byte 0x%02x)", (unsigned char)*p);
            fpo_error_at(here(&lx, p), "unexpected character '%c'", *p);
        }
        cur = cur->next = new_token(&lx, TK_PUNCT, p, len);
        lx.p = p + len;
    }
}
