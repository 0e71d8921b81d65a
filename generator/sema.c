/* sema.c: takes the declarations of every file and the -D overrides, gives a checked AST:
 * names resolved, types known, externals valued, and GT4Py's rules enforced. */
#include "fpo.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const Builtin fpo_builtins[] = {
    {"abs", 1, BK_SAME},     {"sign", 1, BK_SAME},     {"min", 2, BK_MINMAX},
    {"max", 2, BK_MINMAX},   {"mod", 2, BK_MOD},       {"sqrt", 1, BK_FLOAT},
    {"cbrt", 1, BK_FLOAT},   {"exp", 1, BK_FLOAT},     {"log", 1, BK_FLOAT},
    {"log10", 1, BK_FLOAT},  {"pow", 2, BK_FLOAT2},    {"sin", 1, BK_FLOAT},
    {"cos", 1, BK_FLOAT},    {"tan", 1, BK_FLOAT},     {"asin", 1, BK_FLOAT},
    {"acos", 1, BK_FLOAT},   {"atan", 1, BK_FLOAT},    {"atan2", 2, BK_FLOAT2},
    {"sinh", 1, BK_FLOAT},   {"cosh", 1, BK_FLOAT},    {"tanh", 1, BK_FLOAT},
    {"asinh", 1, BK_FLOAT},  {"acosh", 1, BK_FLOAT},   {"atanh", 1, BK_FLOAT},
    {"floor", 1, BK_ROUND},  {"ceil", 1, BK_ROUND},    {"trunc", 1, BK_ROUND},
    {"round", 1, BK_ROUND},  {"isnan", 1, BK_PRED},    {"isfinite", 1, BK_PRED},
    {"isinf", 1, BK_PRED},   {"erf", 1, BK_FLOAT},     {"erfc", 1, BK_FLOAT},
    {"gamma", 1, BK_FLOAT},  {NULL, 0, BK_SAME},
};

int builtin_find(const char *name) {
    for (int i = 0; fpo_builtins[i].name; i++)
        if (!strcmp(fpo_builtins[i].name, name))
            return i + 1;
    return 0;
}

static const char *type_str(DType dt, Axes ax) {
    if (ax == AX_SCALAR)
        return dtype_name(dt);
    return fpo_fmt("field<%s, %s>", dtype_name(dt), axes_name(ax));
}

/* ---- names ---- */

static const char *reserved[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
    "typedef", "union", "unsigned", "void", "volatile", "while", "bool", "true", "false",
    "import", "external", "function", "stencil", "program", "computation", "interval", "var",
    "in", "domain", "field", "PARALLEL", "FORWARD", "BACKWARD", "bottom", "top", "f32", "f64",
    "i32", "nx", "ny", "nz", "main", "region", "i_start", "i_end", "j_start", "j_end", "halo_update",
    "copy_corners", "fill_corners", "sync_edges", "callback", NULL,
};

static void check_name(const char *name, Loc loc) {
    for (int i = 0; reserved[i]; i++)
        if (!strcmp(reserved[i], name))
            fpo_error_at(loc, "'%s' is a reserved word", name);
    if (!strncmp(name, "fpo_", 4) || !strncmp(name, "FPO_", 4) || name[0] == '_')
        fpo_error_at(loc, "names starting with 'fpo_', 'FPO_' or '_' are reserved");
    if (builtin_find(name))
        fpo_error_at(loc, "'%s' is the name of a builtin", name);
}

/* Names that reach the generated C (all but externals', which are folded) must not be taken
 * there: C keywords (C23's too), the identifiers the C library and the compilers define as
 * macros or types in lower case, every name without a lower-case letter (NULL, EOF, NAN,
 * M_PI, CHAR_BIT, ...: the C library's macros are written so), names ending in '_t' (types)
 * and the prefixes of OpenMP and MPI. Program and callback names are C functions and types at
 * file scope: they must not be a C library function the generated code may declare either. */
static const char *c_taken[] = {
    /* keywords (C89 to C23) not in `reserved` */
    "alignas", "alignof", "constexpr", "nullptr", "static_assert", "thread_local", "typeof",
    "typeof_unqual", "asm", "noreturn", "complex", "imaginary",
    /* object-like and function-like macros in lower case */
    "errno", "stdin", "stdout", "stderr", "assert", "offsetof", "math_errhandling",
    "signbit", "fpclassify", "isnormal", "isgreater", "isgreaterequal", "isless",
    "islessequal", "islessgreater", "isunordered", "va_start", "va_arg", "va_end", "va_copy",
    "setjmp", "unix", "linux", "i386", "sun", "sparc", "mips", "vax", "getc", "putc",
    "getchar", "putchar",
    /* types without '_t' */
    "va_list", "jmp_buf", "sigjmp_buf",
    /* the generator's own (fpo_open, ... of the runtime) */
    "fpo", NULL};

static const char *c_globals[] = {
    /* math.h (and POSIX's) */
    "acosf", "acosl", "acoshf", "acoshl", "asinf", "asinl", "asinhf", "asinhl", "atanf",
    "atanl", "atan2f", "atan2l", "atanhf", "atanhl", "cbrtf", "cbrtl", "ceilf", "ceill",
    "copysign", "copysignf", "copysignl", "cosf", "cosl", "coshf", "coshl", "erff", "erfl",
    "erfcf", "erfcl", "expf", "expl", "exp2", "exp2f", "exp2l", "expm1", "expm1f", "expm1l",
    "fabs", "fabsf", "fabsl", "fdim", "fdimf", "fdiml", "floorf", "floorl", "fma", "fmaf",
    "fmal", "fmax", "fmaxf", "fmaxl", "fmin", "fminf", "fminl", "fmod", "fmodf", "fmodl",
    "frexp", "frexpf", "frexpl", "hypot", "hypotf", "hypotl", "ilogb", "ilogbf", "ilogbl",
    "ldexp", "ldexpf", "ldexpl", "lgamma", "lgammaf", "lgammal", "llrint", "llrintf",
    "llrintl", "llround", "llroundf", "llroundl", "log10f", "log10l", "log1p", "log1pf",
    "log1pl", "log2", "log2f", "log2l", "logb", "logbf", "logbl", "logf", "logl", "lrint",
    "lrintf", "lrintl", "lround", "lroundf", "lroundl", "modf", "modff", "modfl", "nan",
    "nanf", "nanl", "nearbyint", "nearbyintf", "nearbyintl", "nextafter", "nextafterf",
    "nextafterl", "nexttoward", "nexttowardf", "nexttowardl", "powf", "powl", "remainder",
    "remainderf", "remainderl", "remquo", "remquof", "remquol", "rint", "rintf", "rintl",
    "roundf", "roundl", "scalbln", "scalblnf", "scalblnl", "scalbn", "scalbnf", "scalbnl",
    "sinf", "sinl", "sinhf", "sinhl", "sqrtf", "sqrtl", "tanf", "tanl", "tanhf", "tanhl",
    "tgamma", "tgammaf", "tgammal", "truncf", "truncl", "j0", "j1", "jn", "y0", "y1", "yn",
    "scalb", "signgam", "drem", "finite", "significand", "exp10", "pow10", "lgamma_r",
    "sincos", "isinff", "isnanf",
    /* stdio.h */
    "printf", "fprintf", "sprintf", "snprintf", "vprintf", "vfprintf", "vsprintf",
    "vsnprintf", "scanf", "fscanf", "sscanf", "fopen", "fclose", "fflush", "fread", "fwrite",
    "fgetc", "fgets", "fputc", "fputs", "puts", "gets", "ungetc", "fseek", "ftell", "rewind",
    "fgetpos", "fsetpos", "clearerr", "feof", "ferror", "perror", "remove", "rename",
    "tmpfile", "tmpnam", "setbuf", "setvbuf", "freopen", "fdopen", "fileno", "popen",
    "pclose", "dprintf", "getline", "getdelim",
    /* stdlib.h */
    "malloc", "calloc", "realloc", "free", "abort", "exit", "atexit", "quick_exit",
    "at_quick_exit", "getenv", "setenv", "unsetenv", "system", "atoi", "atol", "atoll", "atof",
    "strtol", "strtoll", "strtoul", "strtoull", "strtod", "strtof", "strtold", "rand",
    "srand", "random", "srandom", "qsort", "bsearch", "labs", "llabs", "div", "ldiv",
    "lldiv", "mblen", "mbtowc", "wctomb", "mbstowcs", "wcstombs", "aligned_alloc",
    "posix_memalign", "mkstemp", "mkdtemp", "realpath", "drand48", "erand48", "lrand48",
    "mrand48", "srand48", "putenv",
    /* string.h */
    "memcpy", "memmove", "memset", "memcmp", "memchr", "strcpy", "strncpy", "strcat",
    "strncat", "strcmp", "strncmp", "strchr", "strrchr", "strstr", "strlen", "strnlen",
    "strdup", "strndup", "strtok", "strtok_r", "strerror", "strerror_r", "strspn", "strcspn",
    "strpbrk", "strcoll", "strxfrm", "stpcpy", "stpncpy", "strsignal", "memccpy",
    /* time.h */
    "time", "clock", "difftime", "mktime", "strftime", "gmtime", "localtime", "asctime",
    "ctime", "gmtime_r", "localtime_r", "timespec_get", "clock_gettime", "clock_getres",
    "nanosleep", "tzset", "tzname", "timezone", "daylight", "timespec", "tm", NULL};

static bool in_list(const char *const *list, const char *name) {
    for (int i = 0; list[i]; i++)
        if (!strcmp(list[i], name))
            return true;
    return false;
}

static void check_c_name(const char *name, Loc loc, bool global) {
    size_t n = strlen(name);
    bool lower = false;
    for (const char *c = name; *c; c++)
        lower |= *c >= 'a' && *c <= 'z';
    if (!lower)
        fpo_error_at(loc,
                     "'%s' has no lower-case letter: such names are the C library's macros "
                     "(NULL, EOF, NAN, M_PI ...) in the generated code; only externals may be "
                     "written so",
                     name);
    if (in_list(c_taken, name))
        fpo_error_at(loc, "'%s' is a keyword, macro or type of C (or the runtime's prefix), taken in "
                          "the generated code",
                     name);
    if (n > 2 && !strcmp(name + n - 2, "_t"))
        fpo_error_at(loc, "'%s': names ending in '_t' are types of C, taken in the generated code",
                     name);
    if (!strncmp(name, "omp_", 4) || !strncmp(name, "MPI_", 4) || !strncmp(name, "PMPI_", 5) ||
        !strncmp(name, "mpi_", 4))
        fpo_error_at(loc, "'%s': names starting with 'omp_', 'MPI_', 'PMPI_' or 'mpi_' are taken by "
                          "OpenMP and MPI in the generated code",
                     name);
    if (global && in_list(c_globals, name))
        fpo_error_at(loc, "'%s' is a function of the C library: a program or callback cannot be "
                          "named so (it is a C function or type of the generated code)",
                     name);
}

typedef enum { CX_CONST, CX_FUNCTION, CX_STENCIL, CX_PROGRAM } CtxKind;

typedef struct Ctx {
    CtxKind kind;
    Decl **decls;
    int ndecls;
    Decl *owner;       /* the function, stencil or program being checked */
    Var **scope;
    int nscope;
    Comp *comp;        /* stencil: the computation being checked */
    Interval *iv;
    StrMap *written;   /* PARALLEL computation: names written in it */
    StrMap *names;     /* the scope's variables by name */
} Ctx;

/* Every declaration by name (fpo_sema fills it): lookups are hashed, so that files of many
 * declarations and variables take linear time. */
static StrMap decl_map;

static Decl *find_decl(Ctx *cx, const char *name) {
    (void)cx;
    return strmap_get(&decl_map, name);
}

static Var *find_var(Ctx *cx, const char *name) { return strmap_get(cx->names, name); }

static void push_scope(Ctx *cx, Var *v) {
    VPUSH(cx->scope, cx->nscope, v);
    strmap_put(cx->names, v->name, v);
}

/* Leave the variables declared after the first n. */
static void truncate_scope(Ctx *cx, int n) {
    while (cx->nscope > n)
        strmap_put(cx->names, cx->scope[--cx->nscope]->name, NULL);
}

static Var *declare(Ctx *cx, const char *name, Loc loc, VarKind kind, DType dt, Axes ax) {
    check_name(name, loc);
    check_c_name(name, loc, false);
    if (find_var(cx, name) || find_decl(cx, name))
        fpo_error_at(loc, "'%s' is already defined", name);
    Var *v = new_var(name, loc, kind, dt, ax);
    push_scope(cx, v);
    return v;
}

static const char *decl_kind(Decl *d) {
    static const char *k[] = {"import", "external", "function", "stencil", "program",
                              "callback"};
    return k[d->kind];
}

/* ---- constant values ---- */

static double as_f(Value v) { return v.dt == DT_F32 || v.dt == DT_F64 ? v.f : (double)v.i; }

bool const_eval(Node *n, Value *v) {
    Value a, b;
    switch (n->kind) {
    case ND_NUM:
        *v = (Value){n->dt, n->ival, n->fval};
        return true;
    case ND_ACCESS:
        if (!n->var || n->var->kind != VK_EXTERNAL || !n->var->value)
            return false;
        return const_eval(n->var->value, v);
    case ND_CAST:
        if (!const_eval(n->lhs, &a))
            return false;
        v->dt = n->dt;
        if (n->dt == DT_F32 || n->dt == DT_F64) {
            v->f = as_f(a);
            if (n->dt == DT_F32)
                v->f = (float)v->f;
        } else if (n->dt == DT_BOOL)
            v->i = as_f(a) != 0;
        else
            v->i = a.dt == DT_I32 || a.dt == DT_BOOL ? a.i : (int64_t)(int32_t)a.f;
        v->f = n->dt == DT_F32 || n->dt == DT_F64 ? v->f : (double)v->i;
        return true;
    case ND_UNARY:
        if (!const_eval(n->lhs, &a))
            return false;
        *v = a;
        if (*n->op == '-') {
            v->i = -a.i;
            v->f = -a.f;
        } else if (*n->op == '!')
            v->i = !a.i;
        v->dt = n->dt;
        return true;
    case ND_COND:
        if (!const_eval(n->cond, &a))
            return false;
        return const_eval(a.i ? n->then : n->els, v);
    case ND_BINARY: {
        if (!const_eval(n->lhs, &a) || !const_eval(n->rhs, &b))
            return false;
        const char *op = n->op;
        bool fl = a.dt == DT_F32 || a.dt == DT_F64 || b.dt == DT_F32 || b.dt == DT_F64;
        double x = as_f(a), y = as_f(b);
        v->dt = n->dt;
        v->i = 0;
        v->f = 0;
        if (!strcmp(op, "&&"))
            v->i = a.i && b.i;
        else if (!strcmp(op, "||"))
            v->i = a.i || b.i;
        else if (!strcmp(op, "=="))
            v->i = fl ? x == y : a.i == b.i;
        else if (!strcmp(op, "!="))
            v->i = fl ? x != y : a.i != b.i;
        else if (!strcmp(op, "<"))
            v->i = fl ? x < y : a.i < b.i;
        else if (!strcmp(op, "<="))
            v->i = fl ? x <= y : a.i <= b.i;
        else if (!strcmp(op, ">"))
            v->i = fl ? x > y : a.i > b.i;
        else if (!strcmp(op, ">="))
            v->i = fl ? x >= y : a.i >= b.i;
        else if (fl) {
            if (*op == '+')
                v->f = x + y;
            else if (*op == '-')
                v->f = x - y;
            else if (*op == '*')
                v->f = x * y;
            else if (*op == '/')
                v->f = x / y;
            else
                return false;
            if (n->dt == DT_F32)
                v->f = (float)v->f;
        } else {
            if ((*op == '/' || *op == '%') && b.i == 0)
                return false;
            if (*op == '+')
                v->i = (int32_t)(a.i + b.i);
            else if (*op == '-')
                v->i = (int32_t)(a.i - b.i);
            else if (*op == '*')
                v->i = (int32_t)(a.i * b.i);
            else if (*op == '/')
                v->i = a.i / b.i;
            else
                v->i = a.i % b.i;
        }
        if (v->dt != DT_F32 && v->dt != DT_F64)
            v->f = (double)v->i;
        return true;
    }
    default:
        return false;
    }
}

static Node *value_node(Value v, Loc loc) {
    Node *n = new_node(ND_NUM, loc);
    n->dt = v.dt;
    n->ival = v.i;
    n->fval = v.f;
    return n;
}

/* ---- expressions ---- */

static void check_expr(Ctx *cx, Node *n);

static int rank(DType dt) { return dt == DT_I32 ? 0 : dt == DT_F32 ? 1 : 2; }

/* Give a flexible (float-literal) expression the type f32. */
static void make_f32(Node *n) {
    if (!n || !n->flex)
        return;
    n->dt = DT_F32;
    if (n->kind == ND_NUM)
        n->fval = (float)n->fval;
    make_f32(n->lhs);
    make_f32(n->rhs);
    make_f32(n->then);
    make_f32(n->els);
    for (Node *a = n->args; a; a = a->next)
        make_f32(a);
}

static void need_number(Node *n, const char *what) {
    if (n->dt == DT_BOOL)
        fpo_error_at(n->loc, "%s needs a number, not bool", what);
}

/* The type of arithmetic on a and b: the wider one; a float literal takes f32 beside f32. */
static DType unify(Node *a, Node *b, const char *what) {
    need_number(a, what);
    need_number(b, what);
    if (a->flex && !b->flex && b->dt == DT_F32)
        make_f32(a);
    if (b->flex && !a->flex && a->dt == DT_F32)
        make_f32(b);
    return rank(a->dt) >= rank(b->dt) ? a->dt : b->dt;
}

/* Check that `n` converts implicitly to `to` (widening only). */
static void coerce(Node *n, DType to, const char *what) {
    if (n->dt == to)
        return;
    if (n->flex && to == DT_F32) {
        make_f32(n);
        return;
    }
    if (n->dt != DT_BOOL && to != DT_BOOL && rank(n->dt) < rank(to))
        return;
    fpo_error_at(n->loc, "cannot convert %s to %s implicitly in %s (use a cast)",
                 dtype_name(n->dt), dtype_name(to), what);
}

static void need_bool(Node *n, const char *what) {
    if (n->dt != DT_BOOL)
        fpo_error_at(n->loc, "%s must be bool, not %s", what, dtype_name(n->dt));
}

static bool name_written(Ctx *cx, const char *name) {
    return cx->written && strmap_get(cx->written, name);
}

static int field_use(Node *n, Var *p);

/* field_use of a function's parameter i, computed once (functions calling functions would
 * otherwise walk the callees' bodies once per path). */
static int param_use(Decl *f, int i) {
    Var *p = f->params[i];
    if (!p->use)
        p->use = field_use(f->body, p) + 1;
    return p->use - 1;
}

/* How a function reads its field parameter p: bit 1 a horizontal offset, bit 2 a K offset. */
static int field_use(Node *n, Var *p) {
    int use = 0;
    for (; n; n = n->next) {
        if (n->kind == ND_ACCESS && n->var == p) {
            if (n->off[0] || n->off[1])
                use |= 1;
            if (n->off[2] || n->kmode != KM_CONST)
                use |= 2;
        }
        if (n->kind == ND_CALL && n->decl && n->decl->kind == D_FUNCTION) {
            int i = 0;
            for (Node *a = n->args; a; a = a->next, i++)
                if (a->kind == ND_ACCESS && a->var == p && a->nidx == 0)
                    use |= param_use(n->decl, i);
        }
        use |= field_use(n->lhs, p) | field_use(n->rhs, p) | field_use(n->cond, p) |
               field_use(n->then, p) | field_use(n->els, p) | field_use(n->body, p) |
               field_use(n->kexpr, p);
        if (n->kind != ND_CALL)
            use |= field_use(n->args, p);
        else
            for (Node *a = n->args; a; a = a->next)
                if (!(a->kind == ND_ACCESS && a->nidx == 0))
                    use |= field_use(a, p);
    }
    return use;
}

/* Rules 2 and 3: a field written in a PARALLEL computation is read there only at (0, 0, 0). */
static void check_parallel_read(Ctx *cx, Var *v, Loc loc, int use) {
    if (!cx->comp || cx->comp->order != ORD_PARALLEL || !name_written(cx, v->name))
        return;
    if (use & 1)
        fpo_error_at(loc,
                     "'%s' is written in this PARALLEL computation and cannot be read at a "
                     "horizontal offset in it",
                     v->name);
    if (use & 2)
        fpo_error_at(loc,
                     "'%s' is written in this PARALLEL computation and cannot be read at a K "
                     "offset in it",
                     v->name);
}

static int64_t const_int(Node *n, const char *what) {
    Value v;
    if (!const_eval(n, &v) || v.dt != DT_I32)
        fpo_error_at(n->loc, "%s must be a constant integer", what);
    return v.i;
}

static Var *resolve(Ctx *cx, Node *n) {
    Var *v = find_var(cx, n->name);
    if (!v) {
        Decl *d = find_decl(cx, n->name);
        if (d && d->kind == D_EXTERNAL)
            v = d->ext;
        else if (d)
            fpo_error_at(n->loc, "'%s' is a %s, not a value", n->name, decl_kind(d));
        else
            fpo_error_at(n->loc, "unknown name '%s'", n->name);
    }
    if (v->kind == VK_EXTERNAL && !v->value)
        fpo_error_at(n->loc, "external '%s' is used before its value is known", n->name);
    n->var = v;
    return v;
}

/* Resolve an access and its offsets; `write` skips the read rules. */
static void check_access(Ctx *cx, Node *n, bool write) {
    Var *v = resolve(cx, n);
    n->dt = v->dt;
    if (v->ax == AX_SCALAR) {
        if (n->nidx || n->at)
            fpo_error_at(n->loc, "'%s' is a scalar and cannot be indexed", v->name);
        return;
    }
    if (cx->kind == CX_PROGRAM)
        fpo_error_at(n->loc, "field '%s' cannot be used as a value in a program", v->name);
    int dims = v->ax == AX_IJK ? 3 : v->ax == AX_IJ ? 2 : 1;
    if (n->nidx && n->nidx != dims)
        fpo_error_at(n->loc, "field '%s' (%s) takes %d indices, got %d", v->name,
                     axes_name(v->ax), dims, n->nidx);
    if (n->at) {
        if (v->ax == AX_IJ)
            fpo_error_at(n->loc, "'.at(K = ...)' needs a field with a K axis; '%s' is IJ",
                         v->name);
        check_expr(cx, n->idx[0]);
        if (n->idx[0]->dt != DT_I32)
            fpo_error_at(n->idx[0]->loc, "a K index must be i32, not %s",
                         dtype_name(n->idx[0]->dt));
        n->kmode = KM_ABS;
        n->kexpr = n->idx[0];
    }
    int axis[3] = {0, 1, 2};
    if (v->ax == AX_K)
        axis[0] = 2;
    for (int d = 0; d < n->nidx; d++) {
        Node *e = n->idx[d];
        check_expr(cx, e);
        Value val;
        if (const_eval(e, &val) && val.dt == DT_I32) {
            n->off[axis[d]] = val.i;
            continue;
        }
        if (axis[d] != 2)
            fpo_error_at(e->loc, "an I or J offset must be a constant integer");
        if (e->dt != DT_I32)
            fpo_error_at(e->loc, "a K offset must be i32, not %s", dtype_name(e->dt));
        n->kmode = KM_VAR;
        n->kexpr = e;
    }
    if (write)
        return;
    if (v->kind == VK_TEMP && cx->kind == CX_STENCIL && !v->written)
        fpo_error_at(n->loc, "temporary '%s' is read before it is written", v->name);
    int use = (n->off[0] || n->off[1] ? 1 : 0) | (n->off[2] || n->kmode != KM_CONST ? 2 : 0);
    check_parallel_read(cx, v, n->loc, use);
}

static void check_builtin(Ctx *cx, Node *n, int b, int nargs) {
    const Builtin *bi = &fpo_builtins[b - 1];
    if (nargs != bi->nargs)
        fpo_error_at(n->loc, "builtin '%s' takes %d argument%s, got %d", bi->name, bi->nargs,
                     bi->nargs == 1 ? "" : "s", nargs);
    n->builtin = b;
    Node *a = n->args, *c = a ? a->next : NULL;
    for (Node *x = a; x; x = x->next) {
        if (x->kind == ND_ARG)
            fpo_error_at(x->loc, "builtin '%s' takes no named arguments", bi->name);
        check_expr(cx, x);
    }
    const char *what = fpo_fmt("'%s'", bi->name);
    switch (bi->kind) {
    case BK_SAME:
        need_number(a, what);
        n->dt = a->dt;
        n->flex = a->flex;
        break;
    case BK_MINMAX:
    case BK_MOD:
        n->dt = unify(a, c, what);
        n->flex = a->flex && c->flex;
        break;
    case BK_FLOAT:
    case BK_ROUND:
        need_number(a, what);
        n->dt = a->dt == DT_F32 ? DT_F32 : DT_F64;
        n->flex = a->flex;
        break;
    case BK_FLOAT2:
        n->dt = unify(a, c, what) == DT_F32 ? DT_F32 : DT_F64;
        n->flex = a->flex && c->flex;
        break;
    case BK_PRED:
        need_number(a, what);
        n->dt = DT_BOOL;
        break;
    }
}

/* Bind call arguments (positional, then named) to the callee's parameters, in order. */
static Node **bind_args(Node *n, Decl *d) {
    Node **argv = fpo_new(sizeof(Node *) * (size_t)(d->nparams + 1));
    int pos = 0, nargs = 0;
    bool named = false;
    StrMap index = {0};   /* parameter name -> its index + 1, made at the first named argument */
    for (Node *a = n->args; a; a = a->next)
        nargs++;
    for (Node *a = n->args; a; a = a->next) {
        int i;
        if (a->kind == ND_ARG) {
            if (!named)
                for (i = 0; i < d->nparams; i++)
                    strmap_put(&index, d->params[i]->name, (void *)(intptr_t)(i + 1));
            named = true;
            intptr_t at = (intptr_t)strmap_get(&index, a->name);
            i = at ? (int)at - 1 : d->nparams;
            if (i == d->nparams)
                fpo_error_at(a->loc, "%s '%s' has no parameter '%s'", decl_kind(d), d->name,
                             a->name);
            if (argv[i])
                fpo_error_at(a->loc, "parameter '%s' of '%s' is bound twice", a->name, d->name);
            argv[i] = a->lhs;
            continue;
        }
        if (named)
            fpo_error_at(a->loc, "a positional argument cannot follow a named one");
        if (pos >= d->nparams)
            fpo_error_at(n->loc, "%s '%s' takes %d argument%s, got %d", decl_kind(d), d->name,
                         d->nparams, d->nparams == 1 ? "" : "s", nargs);
        argv[pos++] = a;
    }
    for (int i = 0; i < d->nparams; i++)
        if (!argv[i])
            fpo_error_at(n->loc, "%s '%s' takes %d argument%s, got %d (missing '%s')",
                         decl_kind(d), d->name, d->nparams, d->nparams == 1 ? "" : "s", nargs,
                         d->params[i]->name);
    return argv;
}

static void check_expr(Ctx *cx, Node *n);

/* A scalar argument: an expression that converts to the parameter's dtype. */
static void scalar_arg(Ctx *cx, Node *a, Var *p, Decl *d) {
    check_expr(cx, a);
    coerce(a, p->dt, fpo_fmt("argument '%s' of '%s'", p->name, d->name));
}

/* A field argument: a bare field name whose type is the parameter's. */
static Var *field_arg(Ctx *cx, Node *a, Var *p, Decl *d) {
    if (a->kind != ND_ACCESS || a->nidx || a->at)
        fpo_error_at(a->loc, "parameter '%s' of '%s' is a field; pass a field name", p->name,
                     d->name);
    Var *v = resolve(cx, a);
    if (v->ax == AX_SCALAR)
        fpo_error_at(a->loc, "parameter '%s' of '%s' is a field; '%s' is a scalar", p->name,
                     d->name, v->name);
    if (v->dt != p->dt || v->ax != p->ax)
        fpo_error_at(a->loc, "'%s' is %s but parameter '%s' of '%s' is %s", v->name,
                     type_str(v->dt, v->ax), p->name, d->name, type_str(p->dt, p->ax));
    a->dt = v->dt;
    return v;
}

static void check_call_expr(Ctx *cx, Node *n) {
    int nargs = 0;
    for (Node *a = n->args; a; a = a->next)
        nargs++;
    int b = builtin_find(n->name);
    if (b) {
        check_builtin(cx, n, b, nargs);
        return;
    }
    Decl *d = find_decl(cx, n->name);
    if (!d)
        fpo_error_at(n->loc, "unknown function '%s'", n->name);
    if (d->kind != D_FUNCTION)
        fpo_error_at(n->loc, "'%s' is a %s; only functions and builtins are called in "
                             "expressions",
                     n->name, decl_kind(d));
    if (cx->kind == CX_PROGRAM)
        fpo_error_at(n->loc, "a program cannot call function '%s'; functions run in stencils",
                     n->name);
    n->decl = d;
    n->argv = bind_args(n, d);
    n->dt = d->ret;
    /* Keep args in parameter order for lowering. */
    Node head = {0}, *cur = &head;
    for (int i = 0; i < d->nparams; i++) {
        Node *a = n->argv[i];
        a->next = NULL;
        cur = cur->next = a;
    }
    n->args = head.next;
    for (int i = 0; i < d->nparams; i++) {
        Node *a = n->argv[i];
        Var *p = d->params[i];
        if (p->ax == AX_SCALAR) {
            scalar_arg(cx, a, p, d);
            continue;
        }
        Var *v = field_arg(cx, a, p, d);
        if (v->kind == VK_TEMP && cx->kind == CX_STENCIL && !v->written)
            fpo_error_at(a->loc, "temporary '%s' is read before it is written", v->name);
        check_parallel_read(cx, v, a->loc, field_use(d->body, p));
    }
}

static void check_expr(Ctx *cx, Node *n) {
    switch (n->kind) {
    case ND_NUM:
        return;
    case ND_ACCESS:
        check_access(cx, n, false);
        return;
    case ND_CAST:
        check_expr(cx, n->lhs);
        return;
    case ND_ARG:
        fpo_error_at(n->loc, "a named argument is only allowed in a call");
    case ND_CALL:
        check_call_expr(cx, n);
        return;
    case ND_UNARY:
        check_expr(cx, n->lhs);
        if (*n->op == '!') {
            need_bool(n->lhs, "the operand of '!'");
            n->dt = DT_BOOL;
        } else {
            need_number(n->lhs, fpo_fmt("unary '%s'", n->op));
            n->dt = n->lhs->dt;
            n->flex = n->lhs->flex;
        }
        return;
    case ND_COND:
        check_expr(cx, n->cond);
        need_bool(n->cond, "the condition of '?:'");
        check_expr(cx, n->then);
        check_expr(cx, n->els);
        if (n->then->dt == DT_BOOL || n->els->dt == DT_BOOL) {
            if (n->then->dt != n->els->dt)
                fpo_error_at(n->loc, "the branches of '?:' have types %s and %s",
                             dtype_name(n->then->dt), dtype_name(n->els->dt));
            n->dt = DT_BOOL;
            return;
        }
        n->dt = unify(n->then, n->els, "'?:'");
        n->flex = n->then->flex && n->els->flex;
        return;
    case ND_BINARY: {
        check_expr(cx, n->lhs);
        check_expr(cx, n->rhs);
        const char *op = n->op;
        const char *what = fpo_fmt("operator '%s'", op);
        if (!strcmp(op, "&&") || !strcmp(op, "||")) {
            need_bool(n->lhs, fpo_fmt("the left operand of '%s'", op));
            need_bool(n->rhs, fpo_fmt("the right operand of '%s'", op));
            n->dt = DT_BOOL;
        } else if ((!strcmp(op, "==") || !strcmp(op, "!=")) &&
                   (n->lhs->dt == DT_BOOL || n->rhs->dt == DT_BOOL)) {
            if (n->lhs->dt != n->rhs->dt)
                fpo_error_at(n->loc, "operator '%s' compares %s with %s", op,
                             dtype_name(n->lhs->dt), dtype_name(n->rhs->dt));
            n->dt = DT_BOOL;
        } else if (strchr("<>=!", op[0])) {
            unify(n->lhs, n->rhs, what);
            n->dt = DT_BOOL;
        } else if (*op == '%') {
            if (n->lhs->dt != DT_I32 || n->rhs->dt != DT_I32)
                fpo_error_at(n->loc, "operator '%%' needs i32 operands (use mod() for floats)");
            n->dt = DT_I32;
        } else {
            n->dt = unify(n->lhs, n->rhs, what);
            n->flex = n->lhs->flex && n->rhs->flex;
        }
        return;
    }
    default:
        fpo_error_at(n->loc, "expected an expression");
    }
}

/* ---- externals and -D ---- */

/* A stack of nodes for the walks that must not recurse. */
typedef struct NodeStack {
    Node **a;
    size_t n, cap;
} NodeStack;

static void node_push(NodeStack *st, Node *n) {
    if (!n)
        return;
    if (st->n == st->cap) {
        st->cap = st->cap ? 2 * st->cap : 64;
        Node **a = fpo_new(st->cap * sizeof *a);
        if (st->n)
            memcpy(a, st->a, st->n * sizeof *a);
        st->a = a;
    }
    st->a[st->n++] = n;
}

/* The externals the value of external d names (any depth: an explicit stack). */
static Decl **external_deps(Decl *d, int *ndeps) {
    NodeStack st = {0};
    Decl **deps = NULL;
    *ndeps = 0;
    node_push(&st, d->ext_init);
    while (st.n) {
        Node *x = st.a[--st.n];
        if (x->kind == ND_ACCESS && x->name) {
            Decl *o = strmap_get(&decl_map, x->name);
            if (o && o->kind == D_EXTERNAL && o != d && !o->ext->value)
                VPUSH(deps, *ndeps, o);
        }
        Node *kids[] = {x->lhs, x->rhs, x->cond, x->then, x->els,
                        x->args, x->next, x->idx[0], x->idx[1], x->idx[2]};
        for (size_t i = 0; i < sizeof kids / sizeof *kids; i++)
            node_push(&st, kids[i]);
    }
    return deps;
}

static void value_external(Ctx *cx, Decl *d);

/* Value external d, the externals its value names first (depth first, with an explicit stack:
 * a chain of externals may be as long as the file). */
static void eval_external(Ctx *cx, Decl *d) {
    typedef struct Frame {
        Decl *d, **deps;
        int ndeps, next;
    } Frame;
    if (d->ext->value)
        return;
    Frame *st = NULL;
    size_t ns = 0, cap = 0;
    d->visiting = 1;
    for (Decl *push = d; push || ns;) {
        if (push) {
            if (ns == cap) {
                cap = cap ? 2 * cap : 16;
                Frame *a = fpo_new(cap * sizeof *a);
                if (ns)
                    memcpy(a, st, ns * sizeof *a);
                st = a;
            }
            st[ns] = (Frame){push, NULL, 0, 0};
            st[ns].deps = external_deps(push, &st[ns].ndeps);
            ns++;
            push = NULL;
        }
        Frame *f = &st[ns - 1];
        if (f->next < f->ndeps) {
            Decl *o = f->deps[f->next++];
            if (o->ext->value)
                continue;
            if (o->visiting)
                fpo_error_at(o->loc, "external '%s' depends on itself", o->name);
            o->visiting = 1;
            push = o;
            continue;
        }
        value_external(cx, f->d);
        ns--;
    }
}

static void value_external(Ctx *cx, Decl *d) {
    Var *v = d->ext;
    Ctx c = {.kind = CX_CONST, .decls = cx->decls, .ndecls = cx->ndecls, .owner = d,
             .names = &(StrMap){0}};
    check_expr(&c, d->ext_init);
    coerce(d->ext_init, v->dt, fpo_fmt("external '%s'", d->name));
    Value val;
    if (!const_eval(d->ext_init, &val))
        fpo_error_at(d->ext_init->loc, "the value of external '%s' must be a constant",
                     d->name);
    if (val.dt != v->dt) {   /* widened */
        val.f = as_f(val);
        val.dt = v->dt;
    }
    if (v->dt == DT_F32)
        val.f = (float)val.f;
    v->value = value_node(val, d->ext_init->loc);
    d->visiting = 0;
}

static void apply_define(Ctx *cx, Define *def) {
    Decl *d = find_decl(cx, def->name);
    if (!d || d->kind != D_EXTERNAL)
        fpo_error("-D %s=%s: there is no external named '%s'", def->name, def->value,
                  def->name);
    Var *v = d->ext;
    const char *s = def->value;
    char *end = NULL;
    Value val = {v->dt, 0, 0};
    errno = 0;
    if (v->dt == DT_BOOL) {
        if (!strcmp(s, "true") || !strcmp(s, "1"))
            val.i = 1;
        else if (strcmp(s, "false") && strcmp(s, "0"))
            end = (char *)s;
    } else if (v->dt == DT_I32) {
        long long x = strtoll(s, &end, 10);
        if (!*s || *end || errno || x < INT32_MIN || x > INT32_MAX)
            end = (char *)s;
        val.i = x;
        val.f = (double)x;
    } else {
        val.f = strtod(s, &end);
        if (!*s || *end || errno || !isfinite(val.f))
            end = (char *)s;
        if (v->dt == DT_F32)
            val.f = (float)val.f;
    }
    if (end == s)
        fpo_error_at(d->loc, "-D %s=%s: '%s' is not a valid %s value", def->name, def->value,
                     def->value, dtype_name(v->dt));
    if (v->dt == DT_BOOL)
        val.f = (double)val.i;
    v->value = value_node(val, d->loc);
}

/* ---- stencils ---- */

static void check_stmts(Ctx *cx, Node *n);

static void collect_writes(Ctx *cx, Node *n) {
    for (; n; n = n->next) {
        if (n->kind == ND_ASSIGN)
            strmap_put(cx->written, n->lhs->name, n->lhs);
        if (n->kind == ND_VARDECL && n->rhs)
            strmap_put(cx->written, n->name, n);
        collect_writes(cx, n->then);
        collect_writes(cx, n->els);
        collect_writes(cx, n->body);
    }
}

static void check_write(Ctx *cx, Node *t) {
    Var *v = t->var;
    const char *name = v->name;
    switch (cx->kind) {
    case CX_FUNCTION:
        if (v->kind != VK_LOCAL)
            fpo_error_at(t->loc, "a function can only assign its own variables; '%s' is %s",
                         name, v->kind == VK_PARAM ? "a parameter" : "an external");
        return;
    case CX_PROGRAM:
        if (v->kind == VK_PARAM)
            fpo_error_at(t->loc, "cannot assign to parameter '%s' of a program", name);
        if (v->kind == VK_LOOP)
            fpo_error_at(t->loc, "cannot assign to loop variable '%s'", name);
        if (v->kind == VK_EXTERNAL)
            fpo_error_at(t->loc, "cannot assign to external '%s'", name);
        if (v->ax != AX_SCALAR)
            fpo_error_at(t->loc, "a program cannot assign field '%s'; stencils write fields",
                         name);
        return;
    default:
        break;
    }
    if (v->kind == VK_EXTERNAL)
        fpo_error_at(t->loc, "cannot assign to external '%s'", name);
    if (v->ax == AX_SCALAR)
        fpo_error_at(t->loc, "cannot assign to scalar parameter '%s'", name);
    if (t->off[0] || t->off[1])
        fpo_error_at(t->loc, "a write must be at offset 0 in I and J ('%s')", name);
    if (t->kmode != KM_CONST)
        fpo_error_at(t->loc, "a write needs a constant K offset ('%s')", name);
    if (t->off[2] && cx->comp->order == ORD_PARALLEL)
        fpo_error_at(t->loc,
                     "a write with a K offset is only allowed in FORWARD and BACKWARD "
                     "computations ('%s')",
                     name);
    if (v->ax == AX_K)
        fpo_error_at(t->loc, "1D (K) field '%s' cannot be written in a stencil", name);
    if (v->ax == AX_IJ &&
        !(cx->iv->lo.base == cx->iv->hi.base && cx->iv->hi.off - cx->iv->lo.off == 1))
        fpo_error_at(t->loc,
                     "2D (IJ) field '%s' can only be written in an interval one level thick",
                     name);
    if (v->kind == VK_PARAM)
        v->written = true;   /* temporaries: once the value is checked (rule 4) */
}

static int64_t region_off(Ctx *cx, Node *e, int sign) {
    if (!e)
        return 0;
    check_expr(cx, e);
    int64_t v = const_int(e, "a region offset");
    if (v < 0)
        fpo_error_at(e->loc, "a region offset is 'i_start + n' or 'i_start - n' with n >= 0");
    return sign * v;
}

/* A region axis: offsets folded; a point n becomes [n, n + 1); a range must not be empty. */
static void check_region_axis(Ctx *cx, Node *n, int ax) {
    RegionAxis *r = &n->reg[ax];
    if (r->all)
        return;
    r->lo = region_off(cx, r->lo_e, r->lo_sign);
    if (!r->range) {
        r->hi_base = r->lo_base;
        r->hi = r->lo + 1;
        return;
    }
    r->hi = region_off(cx, r->hi_e, r->hi_sign);
    if (r->lo_base == r->hi_base && r->lo >= r->hi)
        fpo_error_at(n->loc, "the region is empty on axis %c (a range 'lo .. hi' excludes hi)",
                     ax ? 'J' : 'I');
    if (r->lo_base == RB_END && r->hi_base == RB_START)
        fpo_error_at(n->loc, "the region range on axis %c goes from the end to the start",
                     ax ? 'J' : 'I');
}

static const char *halo_op_names[] = {"halo_update", "copy_corners", "fill_corners",
                                      "sync_edges"};

static void check_stmt(Ctx *cx, Node *n) {
    switch (n->kind) {
    case ND_VARDECL: {
        DType dt = n->vdt;
        Axes ax = n->has_type ? n->vax : AX_SCALAR;
        if (n->rhs) {
            check_expr(cx, n->rhs);
            if (!n->has_type)
                dt = n->rhs->dt;
            else
                coerce(n->rhs, dt, fpo_fmt("the value of '%s'", n->name));
        }
        VarKind kind = VK_LOCAL;
        if (cx->kind == CX_STENCIL) {
            if (ax != AX_SCALAR)
                fpo_error_at(n->loc, "a stencil temporary is declared with a dtype ('var %s: "
                                     "f64'); it is a 3D field",
                             n->name);
            kind = VK_TEMP;
            ax = AX_IJK;
        } else if (ax != AX_SCALAR) {
            if (cx->kind == CX_FUNCTION)
                fpo_error_at(n->loc, "a function variable is a scalar, not a field");
            if (n->rhs)
                fpo_error_at(n->rhs->loc, "a program temporary cannot have an initial value");
            kind = VK_TEMP;
        }
        Var *v = declare(cx, n->name, n->loc, kind, dt, ax);
        v->written = n->rhs != NULL;
        n->var = v;
        if (kind == VK_TEMP) {
            v->id = cx->owner->ntemps;
            VPUSH(cx->owner->temps, cx->owner->ntemps, v);
        } else {
            v->id = cx->owner->nlocals;
            VPUSH(cx->owner->locals, cx->owner->nlocals, v);
        }
        return;
    }
    case ND_ASSIGN: {
        Node *t = n->lhs;
        check_access(cx, t, true);
        check_write(cx, t);
        if (strcmp(n->op, "=")) {
            need_number(t, fpo_fmt("'%s'", n->op));
            if (t->var->kind == VK_TEMP && cx->kind == CX_STENCIL && !t->var->written)
                fpo_error_at(t->loc, "temporary '%s' is read before it is written",
                             t->var->name);
        }
        check_expr(cx, n->rhs);
        coerce(n->rhs, t->dt, fpo_fmt("the assignment to '%s'", t->var->name));
        if (t->var->kind == VK_TEMP)
            t->var->written = true;
        return;
    }
    case ND_IF:
        check_expr(cx, n->cond);
        need_bool(n->cond, "the condition of 'if'");
        check_stmts(cx, n->then);
        if (n->els)
            check_stmts(cx, n->els);
        return;
    case ND_WHILE:
        if (cx->kind == CX_PROGRAM)
            fpo_error_at(n->loc, "'while' is not allowed in a program (use 'for')");
        check_expr(cx, n->cond);
        need_bool(n->cond, "the condition of 'while'");
        check_stmts(cx, n->body);
        return;
    case ND_HALO:
        fpo_error_at(n->loc, "%s is a program statement", halo_op_names[n->halo.op]);
    case ND_REGION:
        if (cx->kind == CX_PROGRAM)
            fpo_error_at(n->loc, "a region is only allowed in a stencil or a function");
        for (int ax = 0; ax < 2; ax++)
            check_region_axis(cx, n, ax);
        check_stmts(cx, n->body);
        return;
    case ND_RETURN:
        if (cx->kind != CX_FUNCTION)
            fpo_error_at(n->loc, "'return' is only allowed in a function");
        if (n->next)
            fpo_error_at(n->loc, "'return' must be the last statement of a function");
        check_expr(cx, n->lhs);
        coerce(n->lhs, cx->owner->ret, fpo_fmt("the result of '%s'", cx->owner->name));
        return;
    case ND_FOR:
    case ND_CALL:
        fpo_error_at(n->loc, "%s is only allowed in a program",
                     n->kind == ND_FOR ? "'for'" : "a call statement");
    default:
        fpo_error_at(n->loc, "expected a statement");
    }
}

static void check_stmts(Ctx *cx, Node *n) {
    for (; n; n = n->next)
        check_stmt(cx, n);
}

static void check_params(Ctx *cx, Decl *d) {
    for (int i = 0; i < d->nparams; i++) {
        Var *p = d->params[i];
        check_name(p->name, p->loc);
        check_c_name(p->name, p->loc, false);
        if (find_var(cx, p->name) || find_decl(cx, p->name))
            fpo_error_at(p->loc, "'%s' is already defined", p->name);
        push_scope(cx, p);
    }
}

static int64_t bound_off(KBound *b) {
    if (!b->expr)
        return 0;
    int64_t n = const_int(b->expr, "an interval offset");
    if (n < 0)
        fpo_error_at(b->expr->loc, "an interval bound is 'bottom + n' or 'top - n' with n >= 0");
    return b->sign * n;
}

/* Bottom-relative bounds come before top-relative ones; compare (base, off). */
static int kcmp(KBound a, KBound b) {
    if (a.base != b.base)
        return a.base < b.base ? -1 : 1;
    return a.off < b.off ? -1 : a.off > b.off;
}

static void check_intervals(Ctx *cx, Comp *c) {
    for (int i = 0; i < c->nivs; i++) {
        Interval *iv = &c->ivs[i];
        if (iv->lo.expr)
            check_expr(cx, iv->lo.expr);
        if (iv->hi.expr)
            check_expr(cx, iv->hi.expr);
        if (iv->lo.base == B_BOTTOM && iv->lo.sign < 0)
            fpo_error_at(iv->loc, "an interval bound is 'bottom + n' or 'top - n'");
        if (iv->hi.base == B_TOP && iv->hi.sign > 0 && iv->hi.expr)
            fpo_error_at(iv->loc, "an interval bound is 'bottom + n' or 'top - n'");
        if ((iv->lo.base == B_TOP && iv->lo.sign > 0 && iv->lo.expr) ||
            (iv->hi.base == B_BOTTOM && iv->hi.sign < 0))
            fpo_error_at(iv->loc, "an interval bound is 'bottom + n' or 'top - n'");
        iv->lo.off = bound_off(&iv->lo);
        iv->hi.off = bound_off(&iv->hi);
        if (kcmp(iv->lo, iv->hi) >= 0)
            fpo_error_at(iv->loc, "the interval is empty (its start is not below its end)");
        if (i == 0)
            continue;
        Interval *pv = &c->ivs[i - 1];
        bool ok = c->order == ORD_BACKWARD ? kcmp(iv->hi, pv->lo) <= 0
                                           : kcmp(iv->lo, pv->hi) >= 0;
        if (!ok)
            fpo_error_at(iv->loc, "intervals of a %s computation must not overlap and must go %s",
                         c->order == ORD_BACKWARD ? "BACKWARD" : c->order == ORD_FORWARD
                                                                     ? "FORWARD"
                                                                     : "PARALLEL",
                         c->order == ORD_BACKWARD ? "downwards" : "upwards");
    }
}

static void check_stencil(Ctx *cx, Decl *d) {
    cx->kind = CX_STENCIL;
    cx->owner = d;
    check_params(cx, d);
    for (int i = 0; i < d->ncomps; i++) {
        Comp *c = &d->comps[i];
        cx->comp = NULL;      /* (interval bounds: outside any computation's body, and the */
        cx->written = NULL;   /* last one's writes, a map of the last turn, are gone) */
        check_intervals(cx, c);
        cx->comp = c;
        StrMap written = {0};
        cx->written = c->order == ORD_PARALLEL ? &written : NULL;
        if (c->order == ORD_PARALLEL)
            for (int j = 0; j < c->nivs; j++)
                collect_writes(cx, c->ivs[j].body);
        for (int j = 0; j < c->nivs; j++) {
            cx->iv = &c->ivs[j];
            check_stmts(cx, c->ivs[j].body);
        }
    }
    cx->comp = NULL;
    cx->written = NULL;
}

static void check_function(Ctx *cx, Decl *d) {
    cx->kind = CX_FUNCTION;
    cx->owner = d;
    check_params(cx, d);
    Node *last = d->body;
    while (last && last->next)
        last = last->next;
    for (Node *n = d->body; n; n = n->next)
        if (n->kind == ND_RETURN && n != last)
            fpo_error_at(n->loc, "'return' must be the last statement of a function");
    if (!last || last->kind != ND_RETURN)
        fpo_error_at(last ? last->loc : d->loc, "function '%s' must end with 'return'",
                     d->name);
    check_stmts(cx, d->body);
}

/* ---- programs ---- */

static DBound dom_bound(Node *e) {
    Value v;
    if (const_eval(e, &v) && v.dt == DT_I32)
        return (DBound){DB_ZERO, v.i};
    if (e->kind == ND_ACCESS && !e->nidx && !e->at) {
        const char *s = e->name;
        if (!strcmp(s, "nx") || !strcmp(s, "ny") || !strcmp(s, "nz"))
            return (DBound){s[1] == 'x' ? DB_NX : s[1] == 'y' ? DB_NY : DB_NZ, 0};
    }
    if (e->kind == ND_BINARY && (*e->op == '+' || *e->op == '-') && !e->op[1]) {
        DBound l = dom_bound(e->lhs);
        Value r;
        if (const_eval(e->rhs, &r) && r.dt == DT_I32)
            return (DBound){l.base, *e->op == '+' ? l.off + r.i : l.off - r.i};
        if (*e->op == '+' && l.base == DB_ZERO) {
            DBound rb = dom_bound(e->rhs);
            return (DBound){rb.base, rb.off + l.off};
        }
    }
    fpo_error_at(e->loc, "a domain bound is nx, ny, nz or an integer, plus or minus a constant");
}

static void check_domain(Ctx *cx, Node *n) {
    static const int defaults[3] = {DB_NX, DB_NY, DB_NZ};
    for (int ax = 0; ax < 3; ax++) {
        n->dom.lo[ax] = (DBound){DB_ZERO, 0};
        n->dom.hi[ax] = (DBound){defaults[ax], 0};
        if (!n->has_dom[ax])
            continue;
        for (int s = 0; s < 2; s++) {
            Node *e = n->dom_e[ax][s];
            /* Resolve externals; nx, ny, nz stay names. (A growable stack: the 32-entry one
             * skipped the names of deeper bounds.) */
            NodeStack st = {0};
            node_push(&st, e);
            while (st.n) {
                Node *x = st.a[--st.n];
                if (x->kind == ND_ACCESS && strcmp(x->name, "nx") && strcmp(x->name, "ny") &&
                    strcmp(x->name, "nz")) {
                    Var *v = resolve(cx, x);
                    if (v->kind != VK_EXTERNAL)
                        fpo_error_at(x->loc, "a domain bound is nx, ny, nz or an integer, plus "
                                             "or minus a constant");
                    x->dt = v->dt;
                } else {
                    node_push(&st, x->lhs);
                    node_push(&st, x->rhs);
                }
                if (x->kind == ND_BINARY || x->kind == ND_UNARY)
                    x->dt = DT_I32;
            }
            DBound b = dom_bound(e);
            if (s == 0)
                n->dom.lo[ax] = b;
            else
                n->dom.hi[ax] = b;
        }
        if (n->dom.lo[ax].base == n->dom.hi[ax].base && n->dom.lo[ax].off >= n->dom.hi[ax].off)
            fpo_error_at(n->dom_e[ax][0]->loc, "the domain on axis %c is empty", "ijk"[ax]);
    }
}

static void check_program_call(Ctx *cx, Node *n) {
    Decl *d = find_decl(cx, n->name);
    if (!d) {
        if (builtin_find(n->name))
            fpo_error_at(n->loc, "a program calls stencils and programs; '%s' is a builtin",
                         n->name);
        fpo_error_at(n->loc, "unknown stencil or program '%s'", n->name);
    }
    if (d->kind != D_STENCIL && d->kind != D_PROGRAM && d->kind != D_CALLBACK)
        fpo_error_at(n->loc, "a program calls stencils, programs and callbacks; '%s' is a %s",
                     n->name, decl_kind(d));
    if (d->kind != D_STENCIL && (n->has_dom[0] || n->has_dom[1] || n->has_dom[2]))
        fpo_error_at(n->loc, "a domain is given to stencil calls only; '%s' is a %s", n->name,
                     decl_kind(d));
    n->decl = d;
    n->argv = bind_args(n, d);
    /* Per field bound so far: the first parameter it is bound to, and the first written one
     * (hashed: a call may bind many fields). */
    typedef struct Bound {
        int first, written;
    } Bound;
    StrMap bound = {0};
    for (int i = 0; i < d->nparams; i++) {
        Node *a = n->argv[i];
        Var *p = d->params[i];
        if (p->ax == AX_SCALAR) {
            scalar_arg(cx, a, p, d);
            continue;
        }
        Var *v = field_arg(cx, a, p, d);
        Bound *b = strmap_get(&bound, v->name);
        if (b && (p->written || b->written >= 0)) {
            int j = p->written ? b->first : b->written;
            fpo_error_at(a->loc,
                         "field '%s' is bound to both '%s' and '%s' of '%s', and one "
                         "of them is written",
                         v->name, d->params[j]->name, p->name, d->name);
        }
        if (!b) {
            b = fpo_new(sizeof *b);
            *b = (Bound){i, -1};
            strmap_put(&bound, v->name, b);
        }
        if (p->written && b->written < 0)
            b->written = i;
    }
    check_domain(cx, n);
}

static void check_pstmts(Ctx *cx, Node *n);


/* A halo statement: its fields are program fields (IJK or IJ, f32 or f64), as many as the
 * statement takes; options folded. */
static void check_halo(Ctx *cx, Node *n) {
    const char *op = halo_op_names[n->halo.op];
    int nf = 0;
    StrMap named = {0};   /* the fields named so far */
    for (Node *a = n->args; a; a = a->next, nf++) {
        if (a->kind != ND_ACCESS || a->nidx || a->at)
            fpo_error_at(a->loc, "%s takes field names", op);
        Var *v = resolve(cx, a);
        if (v->ax != AX_IJK && v->ax != AX_IJ)
            fpo_error_at(a->loc, "%s: '%s' is %s; halos belong to IJK and IJ fields", op,
                         v->name, type_str(v->dt, v->ax));
        if (v->dt != DT_F32 && v->dt != DT_F64)
            fpo_error_at(a->loc, "%s: '%s' is %s; halo exchange moves f32 and f64 fields", op,
                         v->name, type_str(v->dt, v->ax));
        if (strmap_get(&named, v->name) == v)
            fpo_error_at(a->loc, "%s: '%s' is named twice", op, v->name);
        strmap_put(&named, v->name, v);
        a->dt = v->dt;
    }
    int vec = n->halo.vec;
    if (n->halo.at_given && (vec || n->halo.op == HO_FILL_CORNERS || n->halo.op == HO_SYNC_EDGES))
        fpo_error_at(n->loc, "%s: 'at:' places scalars; a vector's components sit where "
                             "'vector:' puts them", op);
    if (n->halo.op == HO_COPY_CORNERS) {
        if (vec)
            fpo_error_at(n->loc, "copy_corners fills a scalar; use fill_corners for vectors");
        if (nf != 1)
            fpo_error_at(n->loc, "copy_corners takes one field and a direction (X or Y)");
        if (n->halo.dir < 0)
            fpo_error_at(n->loc, "copy_corners needs a direction: X (before a sweep in x) or Y");
    } else if (n->halo.op == HO_UPDATE && !vec) {
        if (nf < 1)
            fpo_error_at(n->loc, "halo_update needs at least one field");
    } else {
        if (!vec)
            fpo_error_at(n->loc, "%s needs 'vector: A', 'B', 'C' or 'D'", op);
        if (n->halo.op == HO_SYNC_EDGES && vec != HV_C && vec != HV_D)
            fpo_error_at(n->loc, "sync_edges synchronises C- and D-grid vectors only");
        if (nf != 2)
            fpo_error_at(n->loc, "%s of a vector takes two fields (u, v)", op);
        if (n->args->var->dt != n->args->next->var->dt)
            fpo_error_at(n->loc, "%s: the components of a vector have one dtype", op);
    }
    if (n->cond) {
        if (n->halo.op == HO_SYNC_EDGES)
            fpo_error_at(n->cond->loc, "sync_edges has no depth");
        check_expr(cx, n->cond);
        n->halo.depth = const_int(n->cond, "a halo depth");
        if (n->halo.depth < 1)
            fpo_error_at(n->cond->loc, "a halo depth is 1 or more");
        n->cond = NULL;
    }
}

static void check_pstmt(Ctx *cx, Node *n) {
    switch (n->kind) {
    case ND_HALO:
        check_halo(cx, n);
        return;
    case ND_FOR: {
        check_expr(cx, n->lhs);
        check_expr(cx, n->rhs);
        coerce(n->lhs, DT_I32, "a loop bound");
        coerce(n->rhs, DT_I32, "a loop bound");
        int saved = cx->nscope;
        Var *v = declare(cx, n->name, n->loc, VK_LOOP, DT_I32, AX_SCALAR);
        v->id = cx->owner->nlocals;
        VPUSH(cx->owner->locals, cx->owner->nlocals, v);
        n->var = v;
        check_pstmts(cx, n->body);
        truncate_scope(cx, saved);
        return;
    }
    case ND_IF:
        check_expr(cx, n->cond);
        need_bool(n->cond, "the condition of 'if'");
        check_pstmts(cx, n->then);
        check_pstmts(cx, n->els);
        return;
    case ND_CALL:
        check_program_call(cx, n);
        return;
    default:
        check_stmt(cx, n);
    }
}

static void check_pstmts(Ctx *cx, Node *n) {
    for (; n; n = n->next)
        check_pstmt(cx, n);
}

static void check_program(Ctx *cx, Decl *d) {
    cx->kind = CX_PROGRAM;
    cx->owner = d;
    check_params(cx, d);
    check_pstmts(cx, d->body);
}

/* A callback's parameters: fields and scalars, named like any parameter. */
static void check_callback(Ctx *cx, Decl *d) {
    truncate_scope(cx, 0);
    check_params(cx, d);
    d->checked = true;
}

/* ---- recursion (rule 7) and the depth of calls ---- */

static int check_calls(Ctx *cx, Decl *d, Node *n, int depth);

/* Functions calling functions (programs calling programs) nest at most FPO_MAX_CALL_DEPTH
 * deep: the walks over calls (here, in field_use, in lowering) recurse once per level. The
 * longest chain from each declaration (its height) is kept, so each body is walked once. */
static int visit(Ctx *cx, Decl *d, int depth) {
    if (d->visiting == 2)
        return d->height;
    d->visiting = 1;
    d->height = 1 + check_calls(cx, d, d->body, depth);
    d->visiting = 2;
    return d->height;
}

/* The height of the tallest call in n (0 if none). */
static int check_calls(Ctx *cx, Decl *d, Node *n, int depth) {
    int h = 0;
    for (; n; n = n->next) {
        if (n->kind == ND_CALL) {
            Decl *c = find_decl(cx, n->name);
            if (c && c->kind == d->kind) {
                if (c->visiting == 1)
                    fpo_error_at(n->loc, "%s '%s' calls itself, directly or not (recursion is "
                                         "not allowed)",
                                 decl_kind(c), c->name);
                int ch = c->visiting == 2 || depth < FPO_MAX_CALL_DEPTH
                             ? visit(cx, c, depth + 1)
                             : FPO_MAX_CALL_DEPTH;   /* deeper than allowed: no need to look */
                if (depth + ch > FPO_MAX_CALL_DEPTH)
                    fpo_error_at(n->loc,
                                 "calls are nested too deeply: this call of %s '%s' makes a "
                                 "chain of more than %d %ss calling one another",
                                 decl_kind(c), c->name, FPO_MAX_CALL_DEPTH, decl_kind(c));
                if (ch > h)
                    h = ch;
            }
        }
        Node *kids[] = {n->lhs, n->rhs,  n->cond,   n->then,   n->els,
                        n->body, n->args, n->idx[0], n->idx[1], n->idx[2]};
        for (size_t i = 0; i < sizeof kids / sizeof *kids; i++) {
            int k = check_calls(cx, d, kids[i], depth);
            if (k > h)
                h = k;
        }
    }
    return h;
}

/* ---- entry ---- */

void fpo_sema(Decl **decls, int ndecls, Define *defs, int ndefs) {
    Ctx cx = {0};
    cx.decls = decls;
    cx.ndecls = ndecls;
    cx.names = &(StrMap){0};
    decl_map = (StrMap){0};
    for (int i = 0; i < ndecls; i++) {
        Decl *d = decls[i];
        if (d->kind == D_IMPORT)
            continue;
        check_name(d->name, d->loc);
        if (d->kind != D_EXTERNAL)
            check_c_name(d->name, d->loc, d->kind == D_PROGRAM || d->kind == D_CALLBACK);
        if (strmap_get(&decl_map, d->name))
            fpo_error_at(d->loc, "'%s' is already defined", d->name);
        strmap_put(&decl_map, d->name, d);
    }
    for (int i = 0; i < ndecls; i++)
        if (decls[i]->kind == D_FUNCTION || decls[i]->kind == D_PROGRAM)
            visit(&cx, decls[i], 1);
    for (int i = 0; i < ndecls; i++)
        decls[i]->visiting = 0;
    for (int i = 0; i < ndefs; i++)
        apply_define(&cx, &defs[i]);
    for (int i = 0; i < ndecls; i++)
        if (decls[i]->kind == D_EXTERNAL)
            eval_external(&cx, decls[i]);
    for (int i = 0; i < ndecls; i++)
        if (decls[i]->kind == D_CALLBACK)
            check_callback(&cx, decls[i]);
    static const DeclKind order[] = {D_FUNCTION, D_STENCIL, D_PROGRAM};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < ndecls; i++) {
            Decl *d = decls[i];
            if (d->kind != order[k])
                continue;
            truncate_scope(&cx, 0);
            if (d->kind == D_FUNCTION)
                check_function(&cx, d);
            else if (d->kind == D_STENCIL)
                check_stencil(&cx, d);
            else
                check_program(&cx, d);
            d->checked = true;
        }
}

/* The program's header is <name>.h on the include path: it must not hide a system header. */
static void check_header_name(Decl *d) {
    static const char *headers[] = {
        "assert", "complex", "ctype", "errno", "features", "fenv", "float", "inttypes",
        "iso646", "limits", "locale", "math", "setjmp", "signal", "stdalign", "stdarg",
        "stdatomic", "stdbool", "stddef", "stdint", "stdio", "stdlib", "stdnoreturn", "string",
        "tgmath", "threads", "time", "uchar", "wchar", "wctype", "unistd", "alloca", "endian",
        "omp", "mpi", "fpo_runtime", NULL};
    for (int i = 0; headers[i]; i++)
        if (!strcmp(d->name, headers[i]))
            fpo_error_at(d->loc,
                         "program '%s' would generate %s.h, which hides the system header "
                         "<%s.h>; rename the program",
                         d->name, d->name, d->name);
}

/* The generated API names its functions and types `<program>_...`: a callback (a C function
 * of the same file scope) must not be named so. */
static void check_api_names(Decl *p, Decl **decls, int ndecls) {
    size_t n = strlen(p->name);
    for (int i = 0; i < ndecls; i++)
        if (decls[i]->kind == D_CALLBACK && !strncmp(decls[i]->name, p->name, n) &&
            decls[i]->name[n] == '_')
            fpo_error_at(decls[i]->loc,
                         "callback '%s' starts with '%s_', the prefix of program '%s''s "
                         "generated functions and types",
                         decls[i]->name, p->name, p->name);
}

Decl *fpo_find_program(Decl **decls, int ndecls, const char *name) {
    Decl *found = NULL;
    int n = 0;
    for (int i = 0; i < ndecls; i++) {
        Decl *d = decls[i];
        if (d->kind != D_PROGRAM)
            continue;
        if (name && !strcmp(d->name, name)) {
            check_header_name(d);
            check_api_names(d, decls, ndecls);
            return d;
        }
        if (!name && d->from_cmdline) {
            found = d;
            n++;
        }
    }
    if (name)
        fpo_error("no program named '%s'", name);
    if (n == 1) {
        check_header_name(found);
        check_api_names(found, decls, ndecls);
    }
    if (n == 0)
        fpo_error("the files hold no program");
    if (n > 1)
        fpo_error("the files hold %d programs; choose one with -p NAME", n);
    return found;
}
