/* lex.c: takes a file's text, gives its tokens (identifiers, numbers, strings, punctuators)
 * as the parser reaches them; comments and spaces are dropped. Made on demand and reused after
 * each declaration, the tokens in memory are those of one declaration, not the file's (a
 * token is ten times its bytes of text). */
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

struct Lexer {
    FpoFile *file;
    const char *p;
    int line;
    const char *line_start;
    const char *end;   /* the end of the text (a NUL byte before it is an error) */
    Token *last;       /* the last token made (its next: none yet) */
    Token *spare;      /* tokens given back (fpo_lex_recycle), linked by next */
};

static Loc here(Lexer *lx, const char *p) {
    return (Loc){lx->file, lx->line, (int)(p - lx->line_start) + 1};
}

static Token *new_token(Lexer *lx, TokKind kind, const char *s, int len) {
    Token *t = lx->spare;
    if (t) {
        lx->spare = t->next;
        memset(t, 0, sizeof *t);
    } else {
        t = fpo_scratch_new(sizeof *t);   /* parse.c releases them with the file */
    }
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
    char small[64], *text = small;   /* the digits, NUL-terminated (rarely longer than small) */
    if ((size_t)(p - s) < sizeof small) {
        memcpy(small, s, (size_t)(p - s));
        small[p - s] = 0;
    } else {
        text = fpo_scratch_new((size_t)(p - s) + 1);
        memcpy(text, s, (size_t)(p - s));
    }
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

/* The next token of the text (TK_EOF at its end). */
static Token *lex1(Lexer *lx) {
    for (;;) {
        const char *p = lx->p;
        if (*p == '\n') {
            newline(lx, p);
            lx->p++;
            continue;
        }
        if (*p == ' ' || *p == '\t' || *p == '\r') {
            lx->p++;
            continue;
        }
        if (p[0] == '/' && p[1] == '/') {
            for (; *p != '\n' && p < lx->end; p++)
                if (bad_byte((unsigned char)*p, true))
                    byte_error(lx, p, true);
            lx->p = p;
            continue;
        }
        if (p[0] == '/' && p[1] == '*') {
            const char *s = p;
            int line = lx->line;
            const char *ls = lx->line_start;
            for (p += 2; !(p[0] == '*' && p[1] == '/'); p++) {
                if (p == lx->end) {
                    lx->line = line;
                    lx->line_start = ls;
                    fpo_error_at(here(lx, s), "unterminated comment");
                }
                if (*p == '\n')
                    newline(lx, p);
                else if (bad_byte((unsigned char)*p, true))
                    byte_error(lx, p, true);
            }
            lx->p = p + 2;
            continue;
        }
        if (p == lx->end)
            return new_token(lx, TK_EOF, p, 0);
        if (bad_byte((unsigned char)*p, false))
            byte_error(lx, p, false);
        if (isdigit((unsigned char)*p))
            return lex_number(lx);
        if (*p == '"')
            return lex_string(lx);
        if (isalpha((unsigned char)*p) || *p == '_') {
            const char *s = p;
            while (isalnum((unsigned char)*p) || *p == '_')
                p++;
            if (p - s > FPO_MAX_NAME)
                fpo_error_at(here(lx, s), "a name is at most %d characters (this one has %td)",
                             FPO_MAX_NAME, p - s);
            lx->p = p;
            return new_token(lx, TK_IDENT, s, (int)(p - s));
        }
        int len = 0;
        for (size_t i = 0; i < sizeof puncts / sizeof *puncts; i++)
            if (p[0] == puncts[i][0] && (!puncts[i][1] || p[1] == puncts[i][1])) {
                len = puncts[i][1] ? 2 : 1;
                break;
            }
        if (!len) {
            if ((unsigned char)*p >= 0x80 || !isprint((unsigned char)*p))
                fpo_error_at(here(lx, p), "unexpected character (byte 0x%02x)", (unsigned char)*p);
            fpo_error_at(here(lx, p), "unexpected character '%c'", *p);
        }
        lx->p = p + len;
        return new_token(lx, TK_PUNCT, p, len);
    }
}

Lexer *fpo_lex_open(FpoFile *file, Token **first) {
    Lexer *lx = fpo_scratch_new(sizeof *lx);
    *lx = (Lexer){file, file->text, 1, file->text, file->text + file->len, NULL, NULL};
    if (!file->len)
        lx->end = file->text + strlen(file->text);
    *first = lx->last = lex1(lx);
    return lx;
}

Token *fpo_lex_ahead(Lexer *lx, Token *t, int n) {
    Token *u = t;
    for (int i = 0; i < n && u->kind != TK_EOF; i++) {
        if (!u->next)
            u->next = lx->last = lex1(lx);
        u = u->next;
    }
    return t;
}

void fpo_lex_recycle(Lexer *lx, Token *from, Token *to) {
    while (from != to) {
        Token *next = from->next;
        from->next = lx->spare;
        lx->spare = from;
        from = next;
    }
}

Token *fpo_lex(FpoFile *file) {
    Token *first;
    Lexer *lx = fpo_lex_open(file, &first);
    while (lx->last->kind != TK_EOF)
        fpo_lex_ahead(lx, lx->last, 1);
    return first;
}
