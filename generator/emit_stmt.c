/* emit_stmt.c: takes the IR's expressions, statements and stencils, gives their C text for
 * every back end (emit_c.c's program, emit_fused.c's fused groups, emit_cuda.c's kernels): C
 * names of .fpo names, literals and text from outside, a point's statements with the regions
 * its variant holds, I loops split at tile-edge regions, an unfused stencil's function. */
#include "emit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *c_types[] = {"float", "double", "int32_t", "bool"};

/* Names in generated scopes a user name could collide with get a trailing underscore: loop
 * indices, run's own parameters, and the C library names the generated code calls. */
/* Identifiers the generated functions use besides the program's own names: a variable of
 * the program named so is written fpo_u_NAME (users' names never start with fpo_, and the
 * generator's own never with fpo_u_, so no two names meet). */
static const char *c_reserved[] = {
    "i", "j", "k", "p", "err", "user", "nx", "ny", "nz", "NAN", "HUGE_VAL", "INFINITY", "fabs",
    "fabsf", "tgamma", "tgammaf", "fmod", "fmodf", "int32_t", "int64_t", "size_t", "calloc",
    "free", "memcpy", "memset", "snprintf", "strcmp", "strlen", "timespec_get", "fprintf",
    "stderr", "omp_get_max_threads", "omp_get_num_threads", "omp_get_thread_num", NULL};

static const char *cname(const char *name) {
    size_t n = strlen(name);
    for (int i = 0; c_reserved[i]; i++)
        if (!strcmp(c_reserved[i], name))
            return fpo_fmt("fpo_u_%s", name);
    if (n > 1 && name[n - 1] == 'f' && builtin_find(fpo_strndup(name, n - 1)))
        return fpo_fmt("fpo_u_%s", name);
    return name;
}



void fpo_c_ind(Emit *e) {
    for (int i = 0; i < e->indent; i++)
        buf_add(e->b, "    ");
}

/* ---- text from outside (paths, messages) in generated C ---- */

/* One character of `text` inside a C string literal: quotes and backslashes escaped, '?' as
 * \? (no trigraph can form), control characters as three-digit octal escapes (a newline in a
 * path cannot end the literal or the line); with `format` the literal is a printf format, and
 * '%' doubles. */
static void c_str_char(Buf *b, char c, bool format) {
    unsigned char u = (unsigned char)c;
    if (c == '"' || c == '\\' || c == '?')
        buf_printf(b, "\\%c", c);
    else if (u < 0x20 || u == 0x7f)
        buf_printf(b, "\\%03o", u);
    else if (format && c == '%')
        buf_add(b, "%%");
    else
        buf_addn(b, &c, 1);
}

/* `text`, escaped (c_str_char), appended to b. */
static void c_str_add(Buf *b, const char *text, bool format) {
    for (; *text; text++)
        c_str_char(b, *text, format);
}

/* `text` for the inside of a C string literal. */
const char *fpo_c_str(const char *text) {
    Buf b = {0};
    c_str_add(&b, text, false);
    buf_add(&b, "");
    return b.s;
}

/* `text` for the inside of a C string literal that is a printf format. */
const char *fpo_c_fmt(const char *text) {
    Buf b = {0};
    c_str_add(&b, text, true);
    buf_add(&b, "");
    return b.s;
}

/* `text` for the inside of a C comment: a '/' after a '*' or a '*' after a '/' takes a
 * backslash before it (no "*\/" ends the comment early, no "/\*" nests one), control
 * characters are written as octal escapes (the comment stays on its line). */
const char *fpo_c_comment(const char *text) {
    Buf b = {0};
    char prev = 0;
    for (; *text; prev = *text++) {
        unsigned char u = (unsigned char)*text;
        if ((*text == '/' && prev == '*') || (*text == '*' && prev == '/'))
            buf_add(&b, "\\");
        if (u < 0x20 || u == 0x7f)
            buf_printf(&b, "\\%03o", u);
        else
            buf_addn(&b, text, 1);
    }
    buf_add(&b, "");
    return b.s;
}

/* `text` as a C string literal (lines joined with \n, one literal a line; escaped as
 * fpo_c_str does). */
char *fpo_c_string(const char *text) {
    Buf b = {0};
    buf_add(&b, "\"");
    for (const char *c = text; *c; c++) {
        if (*c == '\n') {
            buf_add(&b, c[1] ? "\\n\"\n    \"" : "\\n");
            continue;
        }
        c_str_char(&b, *c, false);
    }
    buf_add(&b, "\"");
    return b.s;
}

/* Point the C compiler (and debuggers) at the .fpo line. */
void fpo_c_line(Emit *e, Loc loc) {
    if (!loc.file || loc.line <= 0)
        return;
    buf_printf(e->b, "#line %d \"", loc.line);
    c_str_add(e->b, fpo_loc_path(loc), false);   /* (in place: one a statement) */
    buf_add(e->b, "\"\n");
}

/* Whether the line at p (up to end) is a #line directive. */
static bool is_line_directive(const char *p, const char *end) {
    while (p < end && *p == ' ')
        p++;
    return end - p >= 6 && !memcmp(p, "#line ", 6);
}

void fpo_c_indented(Buf *b, const char *s, size_t n, int levels) {
    if (!n)
        return;   /* (s may be NULL: an empty Buf) */
    for (const char *q = s, *e = s + n; q < e;) {   /* (lengths known, as below) */
        const char *nl = memchr(q, '\n', (size_t)(e - q));
        size_t len = nl ? (size_t)(nl - q) + 1 : (size_t)(e - q);
        if (*q != '#' && *q != '\n')
            for (int i = 0; i < levels; i++)
                buf_add(b, "    ");
        buf_addn(b, q, len);
        q += len;
    }
}

/* Generated file `name`'s text with a #line back to the file after each line that a #line
 * points at the .fpo source: a statement's own line is the .fpo's, the loops and braces
 * around it the file's own (a debugger or profiler shows them there, not at the .fpo lines
 * that would follow the statement's). With lengths known (memchr, not strchr: a string
 * function under ASan's strict_string_checks reads to the text's end each call). In place:
 * the places found first (Backs, kept in a Buf: each a line's end and the line number after
 * it), then the text grown by realloc to its new length and its lines moved down from the
 * end, each place's #line written in the gap, so a large file is not held twice. */
typedef struct Back {
    size_t at;    /* the offset in the text before it: the end of a line the .fpo owns */
    int line;     /* the #line's number (0: none, the next line is a #line of its own) */
    bool nl;      /* a newline first (the text's last line had none) */
} Back;

char *fpo_c_lines_back(char *text, const char *name) {
    const char *file = fpo_c_str(name);
    size_t n = strlen(text), fl = strlen(file), added = 0;
    Buf places = {0};   /* the Backs, in order */
    int line = 1;   /* the next line's number in the text written */
    bool mapped = false;
    for (size_t p = 0; p < n;) {
        const char *nl = memchr(text + p, '\n', n - p);
        size_t len = nl ? (size_t)(nl - (text + p)) + 1 : n - p;
        line++;
        if (is_line_directive(text + p, text + p + len))
            mapped = true;
        else if (mapped) {
            Back b = {p + len, 0, !nl};
            const char *q = text + p + len, *end = text + n;
            const char *qn = q < end ? memchr(q, '\n', (size_t)(end - q)) : NULL;
            if (!is_line_directive(q, qn ? qn : end))
                b.line = ++line;
            buf_addn(&places, (const char *)&b, sizeof b);
            if (b.line)   /* #line N "file" and a newline */
                added += (size_t)snprintf(NULL, 0, "#line %d \"", b.line) + fl + 2;
            added += b.nl;
            mapped = false;
        }
        p += len;
    }
    Buf t = {text, n, n + 1};
    buf_reserve(&t, added);
    size_t src = n, dst = n + added;   /* the ends of what is left to move, and of its place */
    t.s[dst] = 0;
    char dir[64];
    for (size_t i = places.len / sizeof(Back); i-- > 0;) {
        Back b;
        memcpy(&b, places.s + i * sizeof b, sizeof b);
        size_t seg = src - b.at;
        memmove(t.s + dst - seg, t.s + b.at, seg);
        dst -= seg;
        if (b.line) {
            int w = snprintf(dir, sizeof dir, "#line %d \"", b.line);
            dst -= 2, memcpy(t.s + dst, "\"\n", 2);
            dst -= fl, memcpy(t.s + dst, file, fl);
            dst -= (size_t)w, memcpy(t.s + dst, dir, (size_t)w);
        }
        if (b.nl)
            t.s[--dst] = '\n';
        src = b.at;
    }
    buf_free(&places);
    return t.s;
}

/* ---- expressions ---- */

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

void fpo_c_offset(Buf *b, const char *v, int64_t off) {
    if (off > 0)
        buf_printf(b, "(%s + %lld)", v, (long long)off);
    else if (off < 0)
        buf_printf(b, "(%s - %lld)", v, (long long)-off);
    else
        buf_add(b, v);
}

const char *fpo_array_of(Sched *s, int x) {
    return x < s->nfparams ? fpo_fmt("p->f.%s", s->slots[x]->name)
                           : fpo_fmt("p->tmp[%d]", x - s->nfparams);
}

/* --instrument bounds: the level of a read at a variable K offset or an absolute K index goes
 * through fpo_klev_ (program_impl.h.in), which checks it against the field's levels; the site
 * number names the read in the message run gives after the group (emit_fused.c). Only the
 * inlined schedule's views (aliases of its slots, Var.slot_of) are checked: instrumented builds
 * always use it. */
static bool emit_klev_open(Emit *e, Node *n) {
    if (e->kreads && e->st && n->var->ax != AX_SCALAR) {   /* a CUDA kernel's view fpo_NAME */
        KReads *k = e->kreads;
        if (k->at == k->count)
            VPUSH(k->n, k->count, n);
        buf_printf(e->b, "fpo_klev_d_(fpo_kout, fpo_ks + %d, fpo_%s->lo[2], fpo_%s->hi[2], i, j, "
                         "k, ",
                   k->at++, n->var->name, n->var->name);
        return true;
    }
    Sched *s = e->sched;
    int x = n->var->slot;
    if (!s || !s->ins.bounds || !e->st || !n->var->slot_of || x < 0 || x >= s->nslots)
        return false;
    const char *f = fpo_array_of(s, x);
    VPUSH(s->ksites, s->nksites,
          fpo_fmt("'%s' by stencil '%s' at %s:%d:%d", n->var->slot_of->name, e->st->name,
                  fpo_loc_path(n->loc), n->loc.line, n->loc.col));
    buf_printf(e->b, "fpo_klev_(&fpo_kout, %d, %s.lo[2], %s.hi[2], i, j, k, ", s->nksites, f, f);
    return true;
}

/* In a segment kernel (FPO_AT_LEVEL) the views of fields with levels point at level k: an
 * access adds only its K offset from it. (--instrument bounds builds have no segments.) */
static void emit_level_offset(Emit *e, Node *n) {
    const char *v = n->var->name;
    if (n->kmode == KM_ABS || n->kmode == KM_VAR) {
        buf_add(e->b, n->var->ax == AX_K ? "(" : " + (");
        fpo_c_emit(e, n->kexpr);
        buf_printf(e->b, n->kmode == KM_ABS ? " - k) * fpo_sk_%s" : ") * fpo_sk_%s", v);
    } else if (n->off[2] && n->var->ax == AX_K)
        buf_printf(e->b, "%lld * fpo_sk_%s", (long long)n->off[2], v);
    else if (n->off[2])
        buf_printf(e->b, " %c %lld * fpo_sk_%s", n->off[2] < 0 ? '-' : '+',
                   (long long)(n->off[2] < 0 ? -n->off[2] : n->off[2]), v);
    else if (n->var->ax == AX_K)
        buf_add(e->b, "0");
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
        fpo_c_offset(e->b, "i", n->off[0]);
        buf_add(e->b, " + ");
        if (v->rows) {   /* a ring of rows */
            buf_add(e->b, "(");
            fpo_c_offset(e->b, "j", n->off[1]);
            buf_printf(e->b, " & %d)", v->rows - 1);
        } else
            fpo_c_offset(e->b, "j", n->off[1]);
        buf_printf(e->b, " * fpo_sj_%s", v->name);
    }
    if (v->ax != AX_IJ && (e->where & FPO_AT_LEVEL))
        emit_level_offset(e, n);
    else if (v->ax != AX_IJ) {
        if (v->ax != AX_K)
            buf_add(e->b, " + ");
        if (n->kmode == KM_ABS || n->kmode == KM_VAR) {
            bool checked = emit_klev_open(e, n);
            buf_add(e->b, n->kmode == KM_VAR ? "(k + " : "(");
            fpo_c_emit(e, n->kexpr);
            buf_add(e->b, checked ? "))" : ")");
        } else if (v->krows) {   /* a ring of levels */
            buf_add(e->b, "(");
            fpo_c_offset(e->b, "k", n->off[2]);
            buf_printf(e->b, " & %d)", v->krows - 1);
        } else {
            fpo_c_offset(e->b, "k", n->off[2]);
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
        fpo_c_emit(e, n->args);
        buf_add(e->b, "))");
        return;
    }
    buf_printf(e->b, "%s(", name);
    for (Node *a = n->args; a; a = a->next) {
        fpo_c_emit(e, a);
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
    fpo_c_emit(e, n);
    if (paren)
        buf_add(e->b, ")");
}

/* Whether evaluating `n` has no cost worth a branch and cannot trap, so a select may evaluate
 * it where the branch would not: arithmetic (no integer division, which traps on zero), loads,
 * min/max/abs/sign (no other call). */
static bool cheap(Node *n) {
    for (; n; n = n->next) {
        if (n->kind == ND_BINARY && n->dt == DT_I32 && (!strcmp(n->op, "/") || !strcmp(n->op, "%")))
            return false;
        if (n->kind == ND_CALL && (!n->builtin || (fpo_builtins[n->builtin - 1].kind != BK_SAME &&
                                                   fpo_builtins[n->builtin - 1].kind != BK_MINMAX)))
            return false;
        if (n->kind == ND_ACCESS && n->kmode != KM_CONST)
            return false;
        if (!cheap(n->lhs) || !cheap(n->rhs) || !cheap(n->cond) || !cheap(n->then) ||
            !cheap(n->els) || !cheap(n->args))
            return false;
    }
    return true;
}

/* A floating-point `c ? a : b` whose arms are cheap is emitted as fpo_sel_*(c, a, b): both
 * arms are evaluated (their loads lie inside the extents, which count both), and the result
 * is the same value the branch gives. */
static bool selectable(Node *n) {
    return (n->dt == DT_F64 || n->dt == DT_F32) && cheap(n->then) && cheap(n->els);
}

/* The helper a select is written with: fpo_sel_* (a blend of bits: no branch, so loops
 * vectorize), or, at points run one at a time (FPO_ONE_AT_A_TIME: the edge columns of a split
 * loop), fpo_pick_* (a plain conditional, which compilers may branch on; program_impl.h.in
 * says why). The same value either way. */
static const char *sel_fn(Emit *e) {
    return e->where & FPO_ONE_AT_A_TIME ? "fpo_pick" : "fpo_sel";
}

void fpo_c_emit(Emit *e, Node *n) {
    Buf *b = e->b;
    int p = prec(n);
    switch (n->kind) {
    case ND_NUM:
        emit_num(b, n);
        return;
    case ND_ACCESS:
        emit_access(e, n);
        return;
    case ND_UNARY: {
        buf_add(b, n->op);
        size_t at = b->len;
        emit_sub(e, n->lhs, p);
        if (b->s[at] == '-' || b->s[at] == '+') {   /* `- -x`, not `--x` (a decrement) */
            buf_add(b, " ");
            memmove(b->s + at + 1, b->s + at, b->len - at - 1);
            b->s[at] = ' ';
        }
        return;
    }
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
        if (selectable(n)) {
            /* Both arms evaluated, then one picked (fpo_sel: no branch, so the loop vectorizes). */
            buf_printf(b, "%s_%s(", sel_fn(e), sfx(n->dt));
            fpo_c_emit(e, n->cond);
            buf_add(b, ", ");
            fpo_c_emit(e, n->then);
            buf_add(b, ", ");
            fpo_c_emit(e, n->els);
            buf_add(b, ")");
            return;
        }
        emit_sub(e, n->cond, p + 1);
        buf_add(b, " ? ");
        emit_sub(e, n->then, p + 1);
        buf_add(b, " : ");
        emit_sub(e, n->els, p);
        return;
    case ND_CAST:
        if (n->dt == DT_BOOL) {
            buf_add(b, "(");
            fpo_c_emit(e, n->lhs);
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
bool fpo_c_held(Emit *e, Node *n) {
    for (int ax = 0; ax < 2; ax++) {
        unsigned need = region_edge(&n->reg[ax], ax);
        if (need && (e->known & need) && !(e->edges & need))
            return false;
    }
    return true;
}

/* The test of region `n` at point (i, j): tile indices against the region's bounds, and the
 * tile edges it needs where the class does not fix them. */
/* The test of one axis of a region (after `*sep`, which it updates): that the point holds it,
 * or with `box` (generated expressions [box[0], box[1]) on the axis), that a point of the box
 * does. */
static void emit_axis_cond(Emit *e, RegionAxis *r, int ax, const char **sep,
                           const char *const *box) {
    unsigned need = region_edge(r, ax);
    if (need && !(e->known & need)) {
        buf_printf(e->b, "%s(fpo_edges & %uu)", *sep, need);
        *sep = " && ";
    }
    const char *t = ax ? "fpo_tj" : "fpo_ti", *last = ax ? "fpo_tnj" : "fpo_tni";
    for (int s = 0; s < 2; s++) {   /* the box's end past the region's start, its start before
                                     * the region's end */
        int base = s ? r->hi_base : r->lo_base;
        int64_t off = s ? r->hi : r->lo;
        if (box)
            buf_printf(e->b, "%s%s + %s %s ", *sep, box[!s], t, s ? "<" : ">");
        else
            buf_printf(e->b, "%s%c + %s %s ", *sep, ax ? 'j' : 'i', t, s ? "<" : ">=");
        *sep = " && ";
        if (base == RB_START)
            buf_printf(e->b, "%lld", (long long)off);
        else
            fpo_c_offset(e->b, fpo_fmt("%s - 1", last), off);
    }
}

static void emit_region_cond(Emit *e, Node *n) {
    const char *sep = "";
    for (int ax = 0; ax < 2; ax++)
        if (!n->reg[ax].all)
            emit_axis_cond(e, &n->reg[ax], ax, &sep, NULL);
    if (!*sep)
        buf_add(e->b, "true");
}

/* The statements of a block, one level in, and its closing brace. */
static void emit_block(Emit *e, Node *body) {
    e->indent++;
    emit_stmts(e, body);
    e->indent--;
    fpo_c_ind(e);
    buf_add(e->b, "}\n");
}

/* The most assignments an if (its nested ifs included) may hold to run as selects. */
enum { IF_SELECTS = 8 };

/* Whether `if (c) { x = a; } [else { x = b; }]` sets one floating-point scalar from cheap
 * expressions: then it is emitted as x = fpo_sel_*(c, a, b) (or (c, a, x)). */
static bool if_select(Node *n) {
    Node *t = n->then, *f = n->els;
    if (!t || t->next || t->kind != ND_ASSIGN || strcmp(t->op, "="))
        return false;
    Var *v = t->lhs->var;
    if (v->ax != AX_SCALAR || (v->dt != DT_F64 && v->dt != DT_F32) || !cheap(t->rhs))
        return false;
    if (!f)
        return true;
    return !f->next && f->kind == ND_ASSIGN && !strcmp(f->op, "=") && f->lhs->var == v &&
           cheap(f->rhs);
}

/* In a row version (e->where: FPO_ROW_S or FPO_ROW_N and the row's offset), whether region n
 * holds in the row: 1, 0; -1 when n is no south or north region or the row is any row. */
static int row_holds(Emit *e, Node *n) {
    unsigned need = region_edge(&n->reg[1], 1);
    if (!(e->where & (FPO_ROW_S | FPO_ROW_N)) || !need)
        return -1;
    int o = FPO_ROW_OFF(e->where);
    return (need == EDGE_S) == !!(e->where & FPO_ROW_S) && n->reg[1].lo <= o && o < n->reg[1].hi;
}

/* Whether statement n (and the rest of its list, with `list`) only sets floating-point
 * scalars from cheap expressions, through ifs of the same kind with cheap conditions, at most
 * *budget assignments: such an if runs as selects, without a branch (emit_if_selects). */
static bool sel_stmts(Node *n, bool list, int *budget) {
    for (; n; n = list ? n->next : NULL) {
        if (n->kind == ND_ASSIGN) {
            Var *v = n->lhs->var;
            if (strcmp(n->op, "=") || v->ax != AX_SCALAR || (v->dt != DT_F64 && v->dt != DT_F32) ||
                !cheap(n->rhs) || --*budget < 0)
                return false;
        } else if (n->kind != ND_IF || !cheap(n->cond) || !sel_stmts(n->then, true, budget) ||
                   !sel_stmts(n->els, true, budget))
            return false;
    }
    return true;
}

/* A condition with `&&` and `||` as `&` and `|`: both sides evaluated (they are cheap and
 * have no effect), so the compiler need not branch to skip one (a floating-point compare may
 * trap, as far as it knows, so it keeps the branch `&&` asks for). */
static void emit_eager_cond(Emit *e, Node *n) {
    if (n->kind != ND_BINARY || (strcmp(n->op, "&&") && strcmp(n->op, "||"))) {
        fpo_c_emit(e, n);
        return;
    }
    buf_add(e->b, "(");
    emit_eager_cond(e, n->lhs);
    buf_printf(e->b, ") %s (", n->op[0] == '&' ? "&" : "|");
    emit_eager_cond(e, n->rhs);
    buf_add(e->b, ")");
}

static void emit_if_selects(Emit *e, Node *n, const char *guard, int d);

/* If n under `guard` as selects (emit_if_selects), from its opening brace: its condition is
 * tested once, into fpo_t<d>, in a block of its own. */
static void emit_if_block(Emit *e, Node *n, const char *guard, int d) {
    buf_add(e->b, "{   /* if, as selects */\n");
    e->indent++;
    fpo_c_ind(e);
    buf_printf(e->b, "const int fpo_t%d = (", d);
    emit_eager_cond(e, n->cond);
    buf_add(e->b, ");\n");
    const char *t = fpo_fmt("fpo_t%d", d), *f = fpo_fmt("!fpo_t%d", d);
    if (*guard)
        t = fpo_fmt("%s & %s", guard, t), f = fpo_fmt("%s & %s", guard, f);
    emit_if_selects(e, n->then, t, d + 1);
    emit_if_selects(e, n->els, f, d + 1);
    e->indent--;
    fpo_c_ind(e);
    buf_add(e->b, "}\n");
}

/* The statements n under `guard` (a C condition) as selects: x = fpo_sel(guard, a, x), ifs
 * nested one level deeper. Every value is the one the branches give; only the branches are
 * gone, so loops holding them vectorize. */
static void emit_if_selects(Emit *e, Node *n, const char *guard, int d) {
    for (; n; n = n->next) {
        fpo_c_line(e, n->loc);
        fpo_c_ind(e);
        if (n->kind == ND_IF) {
            emit_if_block(e, n, guard, d);
            continue;
        }
        emit_access(e, n->lhs);
        buf_printf(e->b, " = %s_%s(%s, ", sel_fn(e), sfx(n->lhs->var->dt), guard);
        fpo_c_emit(e, n->rhs);
        buf_add(e->b, ", ");
        emit_access(e, n->lhs);
        buf_add(e->b, ");\n");
    }
}

/* Whether region `n` is emitted here: held by the class, not left out of this part of a
 * split loop, holding in this row version (then row_holds says how: 1 or -1). */
static bool region_emitted(Emit *e, Node *n) {
    if (!fpo_c_held(e, n))
        return false;   /* pruned: no rank of this class holds its points */
    if (((e->where & FPO_DROP_WE) && region_edge(&n->reg[0], 0)) ||
        ((e->where & FPO_DROP_SN) && region_edge(&n->reg[1], 1)))
        return false;   /* a part of a split loop where no such region holds */
    return row_holds(e, n) != 0;   /* a row version: a south or north region not in its row */
}

static void emit_stmt(Emit *e, Node *n) {
    if (n->kind == ND_REGION && !region_emitted(e, n))
        return;
    int row = n->kind == ND_REGION ? row_holds(e, n) : -1;
    fpo_c_line(e, n->loc);
    fpo_c_ind(e);
    switch (n->kind) {
    case ND_REGION:
        if (row > 0 && n->reg[0].all) {
            buf_add(e->b, "{   /* region, holding in this row */\n");
        } else {
            const char *sep = "";
            buf_add(e->b, "if (");
            if (row > 0)   /* its rows hold: only its columns are tested */
                emit_axis_cond(e, &n->reg[0], 0, &sep, NULL);
            else
                emit_region_cond(e, n);
            buf_add(e->b, ") {   /* region */\n");
        }
        emit_block(e, n->body);
        return;
    case ND_ASSIGN:
        emit_access(e, n->lhs);
        buf_printf(e->b, " %s ", n->op);
        fpo_c_emit(e, n->rhs);
        buf_add(e->b, ";\n");
        return;
    case ND_IF:
        if (if_select(n)) {   /* x = c ? a : b, both cheap: a select, no branch */
            Node *t = n->then, *f = n->els;
            emit_access(e, t->lhs);
            buf_printf(e->b, " = %s_%s(", sel_fn(e), sfx(t->lhs->var->dt));
            fpo_c_emit(e, n->cond);
            buf_add(e->b, ", ");
            fpo_c_emit(e, t->rhs);
            buf_add(e->b, ", ");
            if (f)
                fpo_c_emit(e, f->rhs);
            else
                emit_access(e, t->lhs);
            buf_add(e->b, ");\n");
            return;
        }
        int budget = IF_SELECTS;
        if (sel_stmts(n, false, &budget)) {
            emit_if_block(e, n, "", 1);
            return;
        }
        buf_add(e->b, "if (");
        fpo_c_emit(e, n->cond);
        buf_add(e->b, ") {\n");
        if (!n->els) {
            emit_block(e, n->then);
            return;
        }
        e->indent++;
        emit_stmts(e, n->then);
        e->indent--;
        fpo_c_ind(e);
        buf_add(e->b, "} else {\n");
        emit_block(e, n->els);
        return;
    case ND_WHILE:
        buf_add(e->b, "while (");
        fpo_c_emit(e, n->cond);
        buf_add(e->b, ") {\n");
        emit_block(e, n->body);
        return;
    default:
        buf_add(e->b, ";\n");
    }
}

static void emit_stmts(Emit *e, Node *n) {
    for (; n; n = n->next)
        emit_stmt(e, n);
}

/* ---- what statements mention: one walk, marks on the variables ---- */

enum { MK_USED = 1, MK_READ = 2 };

/* Mark the variables of stencil st the statements n, as emitted here (regions left out are
 * not), mention (MK_USED) and read (MK_READ: a local only written is declared and cast to
 * void, so that compilers do not warn that it is set but not used); add each newly marked one
 * to *seen. */
static void mark(Emit *e, Decl *st, Node *n, Var ***seen, int *nseen);

static void mark_var(Decl *st, Var *v, unsigned flags, Var ***seen, int *nseen) {
    if (fpo_slot(st, v) < 0)
        return;
    if (!v->mark)
        VPUSH(*seen, *nseen, v);
    v->mark |= flags;
}

static void mark(Emit *e, Decl *st, Node *n, Var ***seen, int *nseen) {
    for (; n; n = n->next) {
        if (n->kind == ND_REGION && !region_emitted(e, n))
            continue;
        if (n->kind == ND_ASSIGN) {
            mark_var(st, n->lhs->var, MK_USED | (strcmp(n->op, "=") ? MK_READ : 0), seen, nseen);
            mark(e, st, n->lhs->kexpr, seen, nseen);
            mark(e, st, n->rhs, seen, nseen);
            continue;
        }
        if (n->var)
            mark_var(st, n->var, MK_USED | (n->kind == ND_ACCESS ? MK_READ : 0), seen, nseen);
        mark(e, st, n->lhs, seen, nseen);
        mark(e, st, n->rhs, seen, nseen);
        mark(e, st, n->cond, seen, nseen);
        mark(e, st, n->then, seen, nseen);
        mark(e, st, n->els, seen, nseen);
        mark(e, st, n->body, seen, nseen);
        mark(e, st, n->args, seen, nseen);
        mark(e, st, n->kexpr, seen, nseen);
    }
}

static void unmark(Var **seen, int nseen) {
    for (int i = 0; i < nseen; i++)
        seen[i]->mark = 0;
}

/* The marked variables seen, as a flag per param and temp slot of s; the marks cleared. */
static unsigned char *used_slots(Decl *s, Var **seen, int nseen) {
    unsigned char *used = fpo_new((size_t)(s->nparams + s->ntemps + 1));
    for (int i = 0; i < nseen; i++) {
        int x = fpo_slot(s, seen[i]);
        if (x < s->nparams + s->ntemps)
            used[x] = 1;
    }
    unmark(seen, nseen);
    return used;
}

static int by_id(const void *a, const void *b) {
    const Var *x = *(Var *const *)a, *y = *(Var *const *)b;
    return (x->id > y->id) - (x->id < y->id);
}

/* A group's statements `body` at one point, at e's indent: the stencil's per-point locals
 * they use, declared, then the statements (e->where: the part of a split loop they run in,
 * which leaves regions out). */
static void emit_point_body(Emit *e, Decl *st, Node *body) {
    Var **seen = NULL, **locals = NULL;
    int nseen = 0, nlocals = 0;
    mark(e, st, body, &seen, &nseen);
    for (int i = 0; i < nseen; i++)
        if (seen[i]->kind == VK_LOCAL)
            VPUSH(locals, nlocals, seen[i]);
    if (nlocals)   /* declared in the stencil's order */
        qsort(locals, (size_t)nlocals, sizeof *locals, by_id);
    for (int l = 0; l < nlocals; l++) {
        fpo_c_ind(e);
        buf_printf(e->b, "%s %s = 0;\n", c_types[locals[l]->dt], cname(locals[l]->name));
        if (!(locals[l]->mark & MK_READ)) {
            fpo_c_ind(e);
            buf_printf(e->b, "(void)%s;\n", cname(locals[l]->name));
        }
    }
    unmark(seen, nseen);
    emit_stmts(e, body);
}

/* For emit_fused.c: the statements `body` of stencil st at one point, in the state `ctx` (an
 * Emit: the variant's class) gives; `where`: the part of a split loop they run in
 * (fpo_c_iloop). */
void fpo_c_point(Buf *b, Decl *st, Node *body, int indent, const void *ctx, unsigned where) {
    Emit e = *(const Emit *)ctx;
    e.b = b;
    e.st = st;
    e.indent = indent;
    e.where = where;
    if (e.kreads)   /* (the same statements written again number their reads the same) */
        e.kreads->at = 0;
    emit_point_body(&e, st, body);
}

bool fpo_c_emits(const void *ctx, Node *body, unsigned where) {
    Emit e = *(const Emit *)ctx;
    e.where = where;
    for (Node *n = body; n; n = n->next)
        if (n->kind != ND_REGION || region_emitted(&e, n))
            return true;
    return false;
}

/* The test of whether box [box[0], box[1]) x [box[2], box[3]) (generated expressions) holds a
 * point of a region of `n` that FPO_DROP_WE | FPO_DROP_SN leave out where e's class writes
 * it (region_emitted): on each axis such a region is anchored at an edge, the box meets its
 * range (emit_axis_cond); " || " between them. The regions inside it go with it; those inside
 * a region that stays, an if or a loop are looked for there. */
static void rim_tests(Emit *e, Node *n, const char *const box[4], const char **sep) {
    for (; n; n = n->next) {
        if (n->kind == ND_REGION && !fpo_c_held(e, n))
            continue;
        if (n->kind == ND_REGION && (region_edge(&n->reg[0], 0) || region_edge(&n->reg[1], 1))) {
            const char *and = "";
            buf_printf(e->b, "%s(", *sep);
            for (int ax = 0; ax < 2; ax++)
                if (region_edge(&n->reg[ax], ax))
                    emit_axis_cond(e, &n->reg[ax], ax, &and, box + 2 * ax);
            buf_add(e->b, ")");
            *sep = " || ";
            continue;
        }
        rim_tests(e, n->then, box, sep);
        rim_tests(e, n->els, box, sep);
        rim_tests(e, n->body, box, sep);
    }
}

void fpo_c_rim(Buf *b, const void *ctx, Node *body, const char *const box[4], const char **sep) {
    Emit e = *(const Emit *)ctx;
    e.b = b;
    rim_tests(&e, body, box, sep);
}

/* ---- I loops split at tile-edge regions ---- */

/* Collect in *v the regions of `n` anchored at a tile edge on axis `ax` that ranks of this
 * class can hold (their axis `ax`). */
static void edge_axes(Emit *e, Node *n, int ax, RegionAxis **v, int *nv) {
    for (; n; n = n->next) {
        if (n->kind == ND_REGION && fpo_c_held(e, n) && region_edge(&n->reg[ax], ax))
            VPUSH(*v, *nv, n->reg[ax]);
        edge_axes(e, n->then, ax, v, nv);
        edge_axes(e, n->els, ax, v, nv);
        edge_axes(e, n->body, ax, v, nv);
    }
}

/* edge_axes over each of `bodies`; their count in *n. */
static RegionAxis *bodies_edge_axes(Emit *e, Node **bodies, int nbodies, int ax, int *n) {
    RegionAxis *v = NULL;
    *n = 0;
    for (int k = 0; k < nbodies; k++)
        edge_axes(e, bodies[k], ax, &v, n);
    return v;
}

static int axis_order(const void *a, const void *b) {
    const RegionAxis *x = a, *y = b;
    if (x->lo_base != y->lo_base)
        return x->lo_base - y->lo_base;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The union of edge-anchored axes v[0 .. n): sorted by edge and start, those of one edge that
 * overlap or touch merged into one; returns the count left. */
static int axes_union(RegionAxis *v, int n) {
    if (n > 1)   /* (v is NULL where n is 0) */
        qsort(v, (size_t)n, sizeof *v, axis_order);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m && v[m - 1].lo_base == v[i].lo_base && v[i].lo <= v[m - 1].hi) {
            if (v[i].hi > v[m - 1].hi)
                v[m - 1].hi = v[i].hi;
        } else
            v[m++] = v[i];
    }
    return m;
}

/* The bounds of the middle part of a row's I loop: after every region of `bodies` anchored at
 * the west edge, before every one anchored at the east edge (the latest end of the first, the
 * earliest start of the second); returns the regions' count. */
static int isplit_bounds(Emit *e, Node **bodies, int nbodies) {
    int n;
    RegionAxis *v = bodies_edge_axes(e, bodies, nbodies, 0, &n);
    bool west = false, east = false;
    int64_t hi = 0, lo = 0;
    for (int i = 0; i < n; i++) {
        if (v[i].lo_base == RB_START) {   /* holds for i + ti < hi: the middle starts there */
            hi = west && hi > v[i].hi ? hi : v[i].hi;
            west = true;
        } else {                          /* holds for i + ti >= tni - 1 + lo */
            lo = east && lo < v[i].lo ? lo : v[i].lo;
            east = true;
        }
    }
    for (int side = 0; side < 2; side++) {
        unsigned need = side ? EDGE_E : EDGE_W;
        if (!(side ? east : west))
            continue;
        const char *test = need & e->known ? "" : fpo_fmt("(fpo_edges & %uu) && ", need);
        fpo_c_ind(e);
        if (!side)
            buf_printf(e->b, "if (%s%lld - fpo_ti > fpo_ia) fpo_ia = %lld - fpo_ti;\n", test,
                       (long long)hi, (long long)hi);
        else {
            Buf x = {0};
            fpo_c_offset(&x, "fpo_tni - 1", lo);
            buf_printf(e->b, "if (%s%s - fpo_ti < fpo_ib) fpo_ib = %s - fpo_ti;\n", test, x.s,
                       x.s);
        }
    }
    return n;
}

/* The test "a south or north edge region of `bodies` holds in this row": the union of their
 * rows, an interval a line; returns the regions' count (0: no test). */
static int jsplit_cond(Emit *e, Node **bodies, int nbodies) {
    int n;
    RegionAxis *v = bodies_edge_axes(e, bodies, nbodies, 1, &n);
    int m = axes_union(v, n);
    const char *sep = "";
    for (int i = 0; i < m; i++) {
        const char *and = "";
        buf_printf(e->b, "%s(", sep);
        emit_axis_cond(e, &v[i], 1, &and, NULL);
        buf_add(e->b, ")");
        sep = " || ";
    }
    return n;
}

/* The rows of a tile's south and north regions, for the row versions of fpo_c_iloop. */
typedef struct RowSet {
    unsigned s, n;   /* rows j_start + o (j_end + o) a region holds in: bit o + ROW_SPAN */
    bool bad;        /* a region no row version takes (an edge the class leaves open, or
                      * rows further than ROW_SPAN from it) */
} RowSet;

enum { ROW_SPAN = 8, ROW_VERSIONS = 10 };

static void row_set(Emit *e, Node *n, RowSet *r) {
    for (; n; n = n->next) {
        unsigned need = n->kind == ND_REGION && fpo_c_held(e, n) ? region_edge(&n->reg[1], 1) : 0;
        if (need) {
            RegionAxis *a = &n->reg[1];
            if (!(e->known & need) || a->lo < -ROW_SPAN || a->hi > ROW_SPAN)
                r->bad = true;
            for (int64_t o = a->lo; !r->bad && o < a->hi; o++)
                *(need == EDGE_S ? &r->s : &r->n) |= 1u << (o + ROW_SPAN);
        }
        row_set(e, n->then, r);
        row_set(e, n->els, r);
        row_set(e, n->body, r);
    }
}

/* The I loop of one row, split at the west and east regions (fpo_c_iloop); `where`: where the
 * row runs already (the regions it leaves out, its row version). */
static void isplit(Emit *e, Buf *b, Node **bodies, int nbodies, const char *ib, const char *ie,
                   int depth, unsigned where, bool indep, FpoPointFn *point, void *arg) {
    Buf bounds = {0};   /* the bounds' tests, written before the loops */
    e->b = &bounds;
    e->indent = depth + 1;
    int nr = isplit_bounds(e, bodies, nbodies);
    e->b = b;
    e->indent = depth;
    if (!nr) {
        if (indep) {
            fpo_c_ind(e);
            buf_add(b, "FPO_IVDEP\n");
        }
        fpo_c_ind(e);
        buf_printf(b, "for (int64_t i = %s; i < %s; i++) {\n", ib, ie);
        point(b, depth + 1, where, arg);
        fpo_c_ind(e);
        buf_add(b, "}\n");
        return;
    }
    /* The middle runs nothing when every statement is such a region (an edge fix-up). */
    bool middle = false;
    for (int k = 0; k < nbodies; k++)
        for (Node *n = bodies[k]; n; n = n->next)
            middle |= n->kind != ND_REGION || (fpo_c_held(e, n) && !region_edge(&n->reg[0], 0) &&
                                               !((where & FPO_DROP_SN) && region_edge(&n->reg[1], 1)));
    fpo_c_ind(e);
    buf_printf(b, "{   /* I split at the tile-edge regions (%d): their columns, the middle "
                  "without them%s, their columns */\n", nr, middle ? "" : " (nothing to run)");
    e->indent++;
    fpo_c_ind(e);
    buf_printf(b, "int64_t fpo_ia = %s, fpo_ib = %s;\n", ib, ie);
    buf_add(b, bounds.s);
    fpo_c_ind(e);
    buf_printf(b, "if (fpo_ia > %s) fpo_ia = %s;\n", ie, ie);
    fpo_c_ind(e);
    buf_add(b, "if (fpo_ib < fpo_ia) fpo_ib = fpo_ia;\n");
    const char *lo[3] = {ib, "fpo_ia", "fpo_ib"}, *hi[3] = {"fpo_ia", "fpo_ib", ie};
    for (int part = 0; part < 3; part++) {
        if (part == 1 && !middle)
            continue;
        if (indep && part == 1) {   /* the edge columns branch: they do not vectorize */
            fpo_c_ind(e);
            buf_add(b, "FPO_IVDEP\n");
        }
        fpo_c_ind(e);
        buf_printf(b, "for (int64_t i = %s; i < %s; i++) {\n", lo[part], hi[part]);
        /* the middle without edge regions; the edge columns branch on them, scalar code */
        point(b, depth + 2, where | (part == 1 ? FPO_DROP_WE : FPO_ONE_AT_A_TIME), arg);
        fpo_c_ind(e);
        buf_add(b, "}\n");
    }
    e->indent--;
    fpo_c_ind(e);
    buf_add(b, "}\n");
}

/* The I loop of row j over [ib, ie), running `point` at each i. Regions anchored at a tile
 * edge are tested at each point where they may hold and left out where they cannot, so most
 * points run without a branch and the loops vectorize: a row no south or north region holds
 * runs without them (one test per row picks that version), and the I loop is split in three
 * at the west and east regions: the columns before the middle and after it test them, the
 * middle (where none of them holds) runs without. Points run in the same order. */
void fpo_c_iloop(Buf *b, Node **bodies, int nbodies, const void *ctx, const char *ib,
                 const char *ie, int depth, bool indep, FpoPointFn *point, void *arg) {
    Emit e = *(const Emit *)ctx;
    Buf cond = {0};
    e.b = &cond;
    int nj = jsplit_cond(&e, bodies, nbodies);
    if (!nj) {
        isplit(&e, b, bodies, nbodies, ib, ie, depth, 0, indep, point, arg);
        return;
    }
    e.b = b;
    e.indent = depth;
    fpo_c_ind(&e);
    buf_printf(b, "if (%s) {   /* a row of the south or north edge regions (%d) */\n", cond.s, nj);
    RowSet rs = {0, 0, false};
    for (int k = 0; k < nbodies; k++)
        row_set(&e, bodies[k], &rs);
    if (rs.bad || __builtin_popcount(rs.s) + __builtin_popcount(rs.n) > ROW_VERSIONS) {
        isplit(&e, b, bodies, nbodies, ib, ie, depth + 1, 0, indep, point, arg);
    } else {
        /* A version per row, its regions without tests (no branch left in the loop where the
         * regions' statements need none, so it vectorizes), when the tile is tall enough that
         * no row holds both edges' regions: rows from j_start - ROW_SPAN to the highest south
         * row, from the lowest north row to j_end + ROW_SPAN. */
        Buf tall = {0};
        if (rs.s && rs.n)
            buf_printf(&tall, "fpo_tnj >= %d && ",
                       31 - __builtin_clz(rs.s) - __builtin_ctz(rs.n) + 2);
        const char *chain = "";   /* before each row's test: "" first, then "} else " */
        for (int edge = 0; edge < 2; edge++)
            for (int o = -ROW_SPAN; o < ROW_SPAN; o++) {
                if (!((edge ? rs.n : rs.s) >> (o + ROW_SPAN) & 1u))
                    continue;
                Buf row = {0};
                if (edge)
                    fpo_c_offset(&row, "fpo_tnj - 1", o);
                else
                    buf_printf(&row, "%d", o);
                e.indent = depth + 1;
                fpo_c_ind(&e);
                buf_printf(b, "%sif (%sj + fpo_tj == %s) {   /* row %s %c %d */\n", chain,
                           tall.s ? tall.s : "", row.s, edge ? "j_end" : "j_start",
                           o < 0 ? '-' : '+', o < 0 ? -o : o);
                chain = "} else ";
                isplit(&e, b, bodies, nbodies, ib, ie, depth + 2,
                       (edge ? FPO_ROW_N : FPO_ROW_S) | FPO_ROW(o), indep, point, arg);
            }
        e.indent = depth + 1;
        fpo_c_ind(&e);
        buf_add(b, "} else {   /* a row of a small tile */\n");
        isplit(&e, b, bodies, nbodies, ib, ie, depth + 2, 0, indep, point, arg);
        e.indent = depth + 1;
        fpo_c_ind(&e);
        buf_add(b, "}\n");
    }
    e.indent = depth;
    fpo_c_ind(&e);
    buf_add(b, "} else {   /* rows without them */\n");
    isplit(&e, b, bodies, nbodies, ib, ie, depth + 1, FPO_DROP_SN, indep, point,
           arg);
    e.indent = depth;
    fpo_c_ind(&e);
    buf_add(b, "}\n");
}

void fpo_c_expr(Buf *b, Node *n) {
    Emit e = {0};
    e.b = b;
    fpo_c_emit(&e, n);
}

const char *fpo_c_type(DType dt) { return c_types[dt]; }

const char *fpo_c_name(const char *name) { return cname(name); }

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

/* How far the regions of `n` anchored at each tile edge reach into the tile (W, E, S, N): a
 * W region holds at tile indices below r[0]; an E region at indices from tile_nx - r[1] on
 * (likewise S, N). 0: no region at that edge. */
void fpo_c_reach(Node *n, int64_t r[4]) {
    for (; n; n = n->next) {
        for (int ax = 0; n->kind == ND_REGION && ax < 2; ax++) {
            unsigned need = region_edge(&n->reg[ax], ax);
            int64_t *at = &r[2 * ax + (need == EDGE_E || need == EDGE_N)];
            int64_t cells = need == EDGE_W || need == EDGE_S ? n->reg[ax].hi : 1 - n->reg[ax].lo;
            if (need && cells > *at)
                *at = cells;
        }
        fpo_c_reach(n->then, r);
        fpo_c_reach(n->els, r);
        fpo_c_reach(n->body, r);
    }
}

/* Which of stencil s's params and temps s, as emitted for e's class (its regions that no rank
 * of the class holds left out), mentions: per slot (fpo_slot). */
static unsigned char *stencil_used(Emit *e, Decl *s) {
    Var **seen = NULL;
    int nseen = 0;
    for (int c = 0; c < s->ncomps; c++)
        for (int j = 0; j < s->comps[c].nivs; j++)
            mark(e, s, s->comps[c].ivs[j].body, &seen, &nseen);
    return used_slots(s, seen, nseen);
}

/* Whether a statement of stencil s assigns its field v (fpo_extent's record: a walk of the
 * stencil a field was quadratic in stencils of many temporaries). */
static bool stencil_writes(Decl *s, Var *v) {
    int x = fpo_slot(s, v);
    return x >= 0 && x < s->nparams + s->ntemps && fpo_extent(s)->written[x];
}

static void kbound(Buf *b, int base, int64_t off) {
    const char *v = base == B_BOTTOM ? "fpo_k0" : "fpo_k1";
    fpo_c_offset(b, v, off);
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

/* A group's statements at one point: its locals, then the statements. */
typedef struct GroupPoint {
    Emit *e;
    Node *first;
} GroupPoint;

static void group_point(Buf *b, int depth, unsigned where, void *arg) {
    GroupPoint *gp = arg;
    Emit *e = gp->e;
    (void)b;   /* e->b */
    e->indent = depth;
    e->where = where;
    emit_point_body(e, e->st, gp->first);
    e->where = 0;
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
    Node *first = nth(iv->body, g->first), *last = nth(iv->body, g->first + g->count - 1);
    Node *after = last->next;
    last->next = NULL;
    GroupPoint gp = {e, first};
    fpo_c_iloop(b, &first, 1, e, ib, ie, 4, false, group_point, &gp);
    last->next = after;
    buf_printf(b, "%s    }\n", pad);
}

void fpo_c_stencil(Emit *e, Decl *s, StencilInfo *si) {
    Buf *b = e->b;
    e->st = s;
    buf_printf(b, "\n/* stencil %s (%s:%d) */\nstatic void stencil_%s(", s->name,
               fpo_c_comment(fpo_loc_path(s->loc)), s->loc.line, s->name);
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
    unsigned char *used = stencil_used(e, s);
    for (int i = 0; i < s->nparams; i++) {
        Var *v = s->params[i];
        if (v->ax != AX_SCALAR && used[i])
            emit_field_setup(e, v);
        else if (v->ax != AX_SCALAR)
            buf_printf(b, "    (void)fpo_%s;\n", v->name);
        else if (!used[i])
            buf_printf(b, "    (void)%s;\n", cname(v->name));
    }
    for (int i = 0; i < s->ntemps; i++) {
        if (used[s->nparams + i])
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
            fpo_c_line(e, iv->loc);
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

/* ---- what the CUDA back end (emit_cuda.c) takes from here ---- */

const void *fpo_c_ctx(Ir *ir, unsigned edges) {
    Emit *e = fpo_new(sizeof *e);
    *e = (Emit){ir, NULL, NULL, 0, EDGE_ALL, edges, NULL, 0, NULL, NULL, NULL, NULL, NULL};
    return e;
}

void fpo_c_kreads(const void *ctx, KReads *k) { ((Emit *)ctx)->kreads = k; }

Buf *fpo_c_fns(const void *ctx) { return ((const Emit *)ctx)->fns; }

const char *fpo_c_prog(const void *ctx) { return ((const Emit *)ctx)->ir->name; }

unsigned char *fpo_c_used(const void *ctx, Decl *s, Node *body) {
    Emit e = *(const Emit *)ctx;
    Var **seen = NULL;
    int nseen = 0;
    mark(&e, s, body, &seen, &nseen);
    return used_slots(s, seen, nseen);
}

bool fpo_c_has_region(Decl *s) { return stencil_has_region(s); }

void fpo_c_field_setup(Buf *b, Decl *st, Var *v) {
    Emit e = {0};
    e.b = b;
    e.st = st;
    emit_field_setup(&e, v);
}
