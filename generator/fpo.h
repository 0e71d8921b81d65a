/* fpo.h: the generator's types (sources, tokens, AST, program IR) and each stage's entry. */
#ifndef FPO_H
#define FPO_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Node Node;
typedef struct Var Var;
typedef struct Decl Decl;

/* ---- alloc.c: one arena per run, and growable text ---- */

void *fpo_new(size_t bytes);               /* zeroed; lives until fpo_arena_free */
char *fpo_strndup(const char *s, size_t n);
char *fpo_strdup(const char *s);
char *fpo_fmt(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
void *fpo_vgrow(void *arr, int n, size_t elem); /* room for element n of an arena array */
#define VPUSH(arr, n, x) ((arr) = fpo_vgrow((arr), (n), sizeof *(arr)), (arr)[(n)++] = (x))
void fpo_arena_free(void);
void *fpo_heap_new(size_t bytes);          /* zeroed; outside the arena: the caller frees it */
typedef struct FpoMark {
    void *block;
    char *bump, *end;
} FpoMark;
void *fpo_scratch_new(size_t bytes);       /* zeroed; lives until released past, or the arena */
FpoMark fpo_scratch_mark(void);
void fpo_scratch_release(FpoMark m);       /* frees what was taken since m */

typedef struct Buf {
    char *s;
    size_t len, cap;
} Buf;
void buf_add(Buf *b, const char *s);
void buf_addn(Buf *b, const char *s, size_t n);
void buf_printf(Buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A buffer's text freed now rather than with the arena: a large text once copied elsewhere.
 * fpo_text_free takes the s of a Buf (or NULL). */
void buf_free(Buf *b);
void fpo_text_free(char *s);
char *buf_fit(Buf *b);   /* its text, the block cut to it (the doubling's slack given back) */
void buf_reserve(Buf *b, size_t n);   /* room for n more bytes (and a NUL) at once */

/* String maps (keys are not copied: they must live as long as the map). A key is removed by
 * putting NULL. */
typedef struct StrMap {
    char **keys;
    void **vals;
    size_t cap, n;
} StrMap;
void *strmap_get(const StrMap *m, const char *key);
void strmap_put(StrMap *m, const char *key, void *val);

/* ---- source.c: files and diagnostics ---- */

typedef struct FpoFile {
    char *path;    /* real path */
    char *text;    /* NUL-terminated contents */
    size_t len;    /* their length (a NUL byte inside is an error the lexer reports) */
    bool parsed;   /* parse.c: its declarations were read */
    struct FpoFile *next;
} FpoFile;

typedef struct Loc {
    FpoFile *file;
    int line, col;
} Loc;

/* Limits of the input (docs/design.md, "Limits"). */
enum {
    FPO_MAX_SOURCE = 16 << 20,   /* bytes of one source file */
    FPO_MAX_SOURCES = 64 << 20,  /* bytes of a run's source files, all together */
    FPO_MAX_NAME = 255,          /* characters of a name */
    FPO_MAX_EXPR_DEPTH = 1000,   /* levels of one expression as written (parentheses, unary
                                  * operators, calls, operands of a binary-operator chain) */
    FPO_MAX_STMT_DEPTH = 256,    /* levels of nested blocks (if, else if, while, for, region) */
    FPO_MAX_IMPORT_DEPTH = 64,   /* files importing one another in a chain */
    FPO_MAX_CALL_DEPTH = 256,    /* functions calling functions, programs calling programs */
    FPO_MAX_IR_DEPTH = 2000,     /* levels of one expression once functions are inlined */
    FPO_MAX_IR_NODES = 1000000,  /* expression and statement nodes of a lowered program */
    FPO_MAX_AST_NODES = 1000000, /* expression and statement nodes of a run's source files */
    FPO_SHOWN_COLS = 160,        /* columns of a source line an error shows */
    FPO_MAX_IR_JSON = 1 << 30,   /* bytes of an IR JSON file (--from-ir) */
    FPO_MAX_IR_VALUES = 24000000, /* JSON values of an IR (a program of FPO_MAX_IR_NODES
                                   * nodes has about 15 million) */
};

/* Load `path` (once per real path): a regular file of at most FPO_MAX_SOURCE bytes, opened
 * without blocking; NULL and a message in fpo_errmsg if it cannot be read. A source
 * registered with fpo_source_from_memory is found by its exact name first. */
FpoFile *fpo_load(const char *path);
/* The same, naming the file `shown` in messages (an import names it as written). */
FpoFile *fpo_load_as(const char *path, const char *shown);
/* The contents of `path`, a regular file of at most `max` bytes (named `shown` in messages);
 * NULL and a message in fpo_errmsg if it is not one or cannot be read. */
char *fpo_read_file(const char *path, const char *shown, size_t max, size_t *len);
/* Register `len` bytes of `text` as the source named `path` (copied). */
FpoFile *fpo_source_from_memory(const char *path, const char *text, size_t len);
/* When set, fpo_load finds only sources registered from memory (the fuzz target). */
extern bool fpo_no_disk;
/* Send diagnostics to `stream` (a FILE *; NULL: stderr). */
void fpo_set_diagnostics(void *stream);
/* A file known by name only (the IR names its inputs; no text). */
FpoFile *fpo_file_named(const char *path);
FpoFile *fpo_files(void);   /* every file loaded, in load order */
/* All of `f` as a NUL-terminated string; NULL on a read error. */
char *fpo_read_stream(void *f);
void fpo_sources_reset(void);
/* Paths as the outputs write them (--prefix-map OLD=NEW, as -ffile-prefix-map does for C
 * compilers): a path starting with OLD is written NEW and the rest; the last map given that
 * matches wins. Diagnostics and the depfile keep the real path. */
void fpo_add_prefix_map(const char *old, const char *new_);
const char *fpo_shown_path(const char *path);
/* The file of `loc` as the outputs write it ("?" for none). */
const char *fpo_loc_path(Loc loc);

/* Errors: print `file:line:col: error: msg`, the line and a caret (unless quiet), keep the
 * message in fpo_errmsg, and jump to the handler a stage entry set with FPO_TRY. */
extern char fpo_errmsg[1024];
extern bool fpo_quiet;
_Noreturn void fpo_error_at(Loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A warning: `file:line:col: warning: msg` and the caret line (unless quiet); goes on. */
void fpo_warning_at(Loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
_Noreturn void fpo_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Run fn(arg) with errors caught: 0 on success, -1 after an error was reported. */
int fpo_try(void (*fn)(void *), void *arg);

/* ---- lex.c ---- */

typedef enum { TK_IDENT, TK_INT, TK_FLOAT, TK_STR, TK_PUNCT, TK_EOF } TokKind;

typedef struct Token {
    TokKind kind;
    struct Token *next;
    const char *s;   /* the text in the file */
    int len;
    int64_t ival;
    double fval;
    char *str;       /* string literal contents */
    Loc loc;
} Token;

/* A file's tokens are made as the parser reaches them: fpo_lex_open makes the first (*first),
 * fpo_lex_ahead(lx, t, n) the n after t (fewer at TK_EOF) and gives t back, and tokens given
 * back with fpo_lex_recycle ([from, to) along next, none needed again) are made anew; all
 * live in scratch memory (fpo_scratch_mark before fpo_lex_open, release after the file). */
typedef struct Lexer Lexer;
Lexer *fpo_lex_open(FpoFile *file, Token **first);
Token *fpo_lex_ahead(Lexer *lx, Token *t, int n);
void fpo_lex_recycle(Lexer *lx, Token *from, Token *to);
Token *fpo_lex(FpoFile *file);   /* every token of the file at once (tests) */
bool tok_is(const Token *t, const char *s);

/* ---- types ---- */

typedef enum { DT_F32, DT_F64, DT_I32, DT_BOOL } DType;   /* same order as fpo_dtype */
typedef enum { AX_IJK, AX_IJ, AX_K, AX_SCALAR } Axes;     /* same order as fpo_axes */

const char *dtype_name(DType dt);
const char *axes_name(Axes ax);
bool dtype_parse(const char *s, int len, DType *dt);

/* ---- AST and IR ---- */

typedef enum {
    VK_PARAM,     /* a parameter (field or scalar, by `ax`) */
    VK_TEMP,      /* a stencil or program temporary field */
    VK_LOCAL,     /* a per-point scalar (function var) or a program scalar */
    VK_LOOP,      /* a program `for` variable */
    VK_EXTERNAL,  /* a compile-time constant */
} VarKind;

struct Var {
    char *name;
    Loc loc;
    VarKind kind;
    DType dt;
    Axes ax;
    Node *value;      /* external: its folded literal */
    bool written;     /* sema: written so far (rule 4); stencils: written somewhere */
    int use;          /* sema: a function's field parameter: how it is read, plus 1 (0: not
                       * known yet) */
    Var *lowered;     /* lower.c: the IR variable standing for this one */
    Node *subst;      /* lower.c: the expression an inlined scalar parameter stands for */
    int id;           /* index in its owner's list (an IR stencil's params, temps or locals) */
    int rows;         /* emit_fused.c: a plane kept as a ring of rows (row j at j & (rows - 1)) */
    int krows;        /* emit_fused.c: a strip kept as a ring of levels (k at k & (krows - 1)) */
    Var *slot_of;     /* emit_fused.c: the schedule slot's variable this alias stands for */
    int slot;         /* ... and its number (with slot_of only) */
    unsigned char mark; /* emit_c.c: what the walk in progress found it to be (0 between walks) */
    int sched_slot;   /* sched.c: its slot in a schedule of its IR, plus 1 (0: none) */
};

typedef enum {
    /* expressions */
    ND_NUM,      /* literal: dt, ival / fval */
    ND_ACCESS,   /* name or var, at offset off[] (kmode: constant, variable k offset, absolute k) */
    ND_UNARY,    /* op lhs */
    ND_BINARY,   /* lhs op rhs */
    ND_COND,     /* cond ? then : els */
    ND_CALL,     /* name(args): function, builtin, stencil or program */
    ND_CAST,     /* dt(lhs) */
    ND_ARG,      /* name = lhs, a named argument (parser) */
    /* statements */
    ND_VARDECL,  /* var name [: type] [= init] */
    ND_ASSIGN,   /* lhs op rhs, op one of = += -= *= /= */
    ND_IF,
    ND_WHILE,
    ND_FOR,      /* for (var in lhs .. rhs) body */
    ND_RETURN,
    ND_STAGES,   /* IR: stencil calls run in order (one per stage when unfused) */
    ND_STAGE,    /* IR: one stencil call: decl, argv, dom */
    ND_REGION,   /* region(I, J) { body }: runs only at points given relative to tile edges */
    ND_HALO,     /* a halo statement of a program: fields in args, what in `halo` */
    ND_HOSTCALL, /* IR: a host callback call: decl (the callback), argv in parameter order */
} NodeKind;

enum { KM_CONST, KM_VAR, KM_ABS };        /* how an access addresses K */
enum { B_BOTTOM, B_TOP };                 /* interval bound bases */
enum { DB_ZERO, DB_NX, DB_NY, DB_NZ };    /* domain bound bases */
enum { ORD_PARALLEL, ORD_FORWARD, ORD_BACKWARD };

typedef struct KBound {
    int base;        /* B_BOTTOM or B_TOP */
    int64_t off;     /* bottom + off, or top + off (off <= 0) */
    Node *expr;      /* parser: the offset expression, NULL for 0 */
    int sign;        /* parser: +1 or -1 */
} KBound;

typedef struct DBound {
    int base;        /* DB_* */
    int64_t off;
} DBound;

typedef struct Domain {
    DBound lo[3], hi[3];   /* I, J, K; half-open */
} Domain;

/* One axis of a region: every point, or tile indices [base + lo, base + hi) where base is
 * the axis's start (tile index 0) or end (tile index N - 1). A point `i_start + n` is
 * [start + n, start + n + 1). */
enum { RB_START, RB_END };
typedef struct RegionAxis {
    bool all;                  /* ':' */
    int lo_base, hi_base;      /* RB_START or RB_END */
    int64_t lo, hi;
    Node *lo_e, *hi_e;         /* parser: offset expressions (NULL for 0) */
    int lo_sign, hi_sign;      /* parser */
    bool range;                /* parser: written `lo .. hi` */
} RegionAxis;

/* Halo statements (program level, run through fpo_halo). */
enum { HO_UPDATE, HO_COPY_CORNERS, HO_FILL_CORNERS, HO_SYNC_EDGES };
enum { HV_NONE, HV_A, HV_B, HV_C, HV_D };   /* `vector:` (none: scalars, placed by `at:`) */
enum { HA_CELL, HA_VERTEX };                 /* `at:` of a scalar: cell centres or vertices */
typedef struct HaloStmt {
    int op;          /* HO_* */
    int vec;         /* HV_* */
    int dir;         /* copy_corners: 0 X, 1 Y */
    int at;          /* scalars of halo_update, copy_corners: HA_CELL or HA_VERTEX (`at:`) */
    bool at_given;   /* parser: `at:` was written */
    int64_t depth;   /* 0: the program's halo width (fpo-gen --halo) */
    int plan;        /* emit: the plan index (updates and edge syncs), -1 none */
} HaloStmt;

/* Tile edges a rank touches, as in fpo_halo (W 1, E 2, S 4, N 8). */
enum { EDGE_W = 1, EDGE_E = 2, EDGE_S = 4, EDGE_N = 8, EDGE_ALL = 15 };

struct Node {
    NodeKind kind;
    Loc loc;
    Node *next;
    DType dt;              /* expression type after sema */
    bool flex;             /* a float literal (or an expression of them) that adapts to f32 */
    const char *op;        /* operator text */
    char *name;
    Var *var;              /* ND_ACCESS, ND_VARDECL, ND_FOR */
    Decl *decl;            /* ND_CALL to a function/stencil/program; ND_STAGE */
    int builtin;           /* ND_CALL to a builtin: index + 1 */
    Node *lhs, *rhs, *cond, *then, *els, *body, *args;
    /* ND_VARDECL */
    bool has_type;
    DType vdt;
    Axes vax;
    /* ND_ACCESS */
    Node *idx[3];          /* parser: index expressions */
    int nidx;
    int depth;             /* parser: levels of the expression tree from this node down */
    bool at;               /* parser: `.at(K = e)` (e in idx[0]) */
    int64_t off[3];
    int kmode;
    Node *kexpr;           /* KM_VAR: offset; KM_ABS: index */
    /* ND_NUM */
    int64_t ival;
    double fval;
    /* What only some kinds hold, sharing one place (a node's kind is one of them for life;
     * pass_corners turns an ND_HALO into an ND_STAGES that keeps its `halo`) */
    union {
        struct {   /* ND_CALL, ND_STAGE; ND_HOSTCALL's argv */
            Node *dom_e[3][2];     /* parser: domain bound expressions */
            bool has_dom[3];
            Domain dom;
            Node **argv;           /* sema/IR: arguments in parameter order */
        };
        RegionAxis reg[2];         /* ND_REGION (body in `body`): I, J */
        HaloStmt halo;             /* ND_HALO (fields: ND_ACCESS nodes in `args`), ND_STAGES */
    };
};

typedef struct Interval {
    Loc loc;
    KBound lo, hi;
    Node *body;
} Interval;

typedef struct Comp {
    Loc loc;
    int order;
    Interval *ivs;
    int nivs;
} Comp;

typedef enum { D_IMPORT, D_EXTERNAL, D_FUNCTION, D_STENCIL, D_PROGRAM, D_CALLBACK } DeclKind;

struct Decl {
    DeclKind kind;
    char *name;
    Loc loc;
    bool from_cmdline;     /* declared in a file named on the command line */
    Var **params;
    int nparams;
    DType ret;             /* function */
    Node *body;            /* function, program */
    Comp *comps;           /* stencil */
    int ncomps;
    Var **temps;           /* stencil / program temporaries */
    int ntemps;
    Var **locals;          /* IR stencil: per-point scalars; program: scalars */
    int nlocals;
    Var *ext;              /* external */
    Node *ext_init;
    char *path;            /* import */
    bool checked;          /* sema done */
    int visiting;          /* sema: recursion check state */
    int height;            /* sema: the longest chain of calls from here (itself is 1) */
    Decl *lowered;         /* lower.c: the IR stencil */
    int64_t corners;       /* IR stencil pass_corners made for fills to this depth, of vector
                            * kind corners_vec (HV_NONE: copy_corners, direction corners_dir,
                            * of scalars at corners_at);
                            * the pass reuses it for the same fill (calls of it keep the
                            * statement: fill_node in emit_c.c) */
    int corners_dir, corners_vec, corners_at;
    struct StencilInfo *info;  /* extent.c: an IR stencil's extents, once computed */
    Decl *next;
};

/* The flattened program. */
typedef struct Ir {
    char *name;
    Loc loc;
    Var **params;          /* fields and scalars, in order */
    int nparams;
    Var **temps;           /* program temporaries (fields) */
    int ntemps;
    Var **scalars;         /* program scalars and loop variables */
    int nscalars;
    Decl **stencils;       /* the IR stencils called */
    int nstencils;
    Node *body;            /* ND_STAGES, ND_FOR, ND_IF, ND_ASSIGN */
    char **inputs;         /* every source read, real paths */
    int ninputs;
    char **defines;        /* the -D overrides it was built with, "NAME=VALUE" */
    int ndefines;
    Decl **callbacks;      /* host callbacks called (their params; no body) */
    int ncallbacks;
} Ir;

/* ---- parse.c ---- */

/* Parse `path` and, recursively, its imports (once each); declarations appended to *decls in
 * file order (imports before the importing file's declarations); *nodes counts the
 * expressions and statements parsed (0 before a run's first file; at most FPO_MAX_AST_NODES). */
void fpo_parse_file(const char *path, Loc from, bool cmdline, Decl ***decls, int *ndecls,
                    long *nodes);
Node *new_node(NodeKind kind, Loc loc);
Var *new_var(const char *name, Loc loc, VarKind kind, DType dt, Axes ax);

/* ---- sema.c ---- */

typedef struct Define {
    char *name, *value;
} Define;

/* Check every declaration; apply -D overrides. Errors jump. */
void fpo_sema(Decl **decls, int ndecls, Define *defs, int ndefs);
/* The program to generate: `name`, or the only program declared in command-line files. */
Decl *fpo_find_program(Decl **decls, int ndecls, const char *name);

/* Builtins. */
typedef enum { BK_SAME, BK_FLOAT, BK_MINMAX, BK_MOD, BK_PRED, BK_ROUND, BK_FLOAT2 } BuiltinKind;
typedef struct Builtin {
    const char *name;
    int nargs;
    BuiltinKind kind;
} Builtin;
extern const Builtin fpo_builtins[];
int builtin_find(const char *name);   /* index + 1, 0 if none */

/* Compile-time values. */
typedef struct Value {
    DType dt;
    int64_t i;
    double f;
} Value;
bool const_eval(Node *n, Value *v);

/* ---- lower.c ---- */

Ir *fpo_lower(Decl *program);
/* The limit of a lowered program's nodes: FPO_MAX_IR_NODES (the fuzz target sets less, so that
 * its largest inputs stay small and quick under the sanitizers). */
extern long fpo_max_ir_nodes;

/* ---- extent.c ---- */

/* A box of points one stencil access touches, relative to the call's domain:
 * I from i0 + ilo to i1 + ihi, J alike, K from kb(klo) to kb(khi). */
enum { KB_BOTTOM, KB_TOP, KB_ZERO, KB_NZ };
typedef struct Box {
    int64_t ilo, ihi, jlo, jhi;
    int klo_base, khi_base;
    int64_t klo, khi;
} Box;

typedef struct Extent {
    int64_t ilo, ihi, jlo, jhi;   /* how far past the call's domain: ilo <= 0 <= ihi */
} Extent;

/* Statements of an interval that run as one loop nest over one extent. */
typedef struct Group {
    int first, count;     /* statements [first, first + count) of the interval's body */
    Extent ext;
} Group;

typedef struct StencilInfo {
    Group ***groups;      /* per computation, per interval: its groups */
    int **ngroups;
    Box **boxes;          /* per variable (params then temps): boxes touched */
    int *nboxes;
    bool *written;        /* per variable (params then temps): a statement assigns it */
} StencilInfo;

/* A variable's slot in stencil s: its index among s's params, then temps, then locals; -1 for
 * a variable that is not s's. */
int fpo_slot(Decl *s, Var *v);

/* The extents, as GT4Py computes them inside one stencil: statements that write what later
 * statements read at horizontal offsets compute on a domain extended by those offsets.
 * Computed once per stencil (kept in Decl.info). */
StencilInfo *fpo_extent(Decl *stencil);

/* ---- ir_json.c ---- */

/* The IR as JSON text (deterministic). */
char *fpo_ir_to_json(Ir *ir);
/* Parse IR JSON; NULL with a message in fpo_errmsg on error. */
Ir *fpo_ir_from_json(const char *text, const char *path);

/* ---- emit_c.c ---- */

typedef struct Output {
    char *name;   /* file name, e.g. "step.h" */
    char *text;
} Output;

/* What one build of a program is: fpo-gen's options, and what emission found. */
/* Build.cuda_rim: the CUDA segment loops that run a second way, without their edge regions,
 * in tiles that hold no point of them: none (the default); those where a nest is edge regions
 * only; every one with edge regions. */
enum { FPO_RIM_OFF, FPO_RIM_NESTS, FPO_RIM_ALL };

typedef struct Build {
    const char *version;        /* the generator's */
    char **layouts;             /* LAYOUTS entries ("3x2", "any") */
    int nlayouts;
    unsigned *classes;          /* the edge classes they need (EDGE_* masks), each once */
    int nclasses;
    int halo;                   /* depth of halo statements without `depth:` */
    int cuda_nests;             /* the most loop nests of a fused group one CUDA kernel runs */
    int cuda_levels;            /* levels a thread of a CUDA nest kernel computes (1: one) */
    int cuda_threads;           /* a CUDA segment kernel's threads a block (256) */
    int cuda_unroll;            /* a CUDA column kernel's walk, levels unrolled (1: none) */
    int cuda_rows;              /* the most rows of a CUDA segment kernel's tile (16) */
    int cuda_shared;            /* the most shared memory of a CUDA segment kernel's block, KiB
                                 * (96; over 48, what a block has without asking, is asked
                                 * for at launch) */
    bool cuda_fed;              /* a CUDA segment may run inside the walk after it (false) */
    int cuda_slack;             /* the columns past 64 the last column of a CUDA segment's tiles
                                 * may take (8) */
    int cuda_blocks;            /* the blocks a multiprocessor a CUDA segment kernel's registers
                                 * leave room for (0: as the threads make: none at 256) */
    int cuda_ahead;             /* the levels a CUDA walk reads a field ahead (8; 0: none) */
    bool cuda_ring;             /* those registers a ring, not moved a place a level (true) */
    int cuda_prefetch;          /* the levels past those registers a CUDA walk asks L2 for; any:
                                 * a segment kernel asks for its first level's inputs (0: none) */
    bool cuda_ldg;              /* a CUDA segment reads the arrays it does not write via __ldg */
    int cuda_walk_rows;         /* rows of 32 columns a CUDA column kernel's block walks (2) */
    int cuda_walk_blocks;       /* the blocks a multiprocessor a CUDA column kernel's registers
                                 * leave room for (0: as the compiler chooses) */
    int cuda_chunks;            /* a CUDA segment and the walks after it in chunks of tile rows,
                                 * each chunk's walks beside the next chunk's segment (1: none) */
    int cuda_rim;               /* which CUDA segment loops a tile holding no point of their
                                 * edge regions runs without them: FPO_RIM_* (FPO_RIM_OFF) */
    char **backends;
    int nbackends;
    char **frontdoors;          /* languages besides C the program is called from: "fortran",
                                 * "python" */
    int nfrontdoors;
    struct Sched *sched;        /* the optimizer's schedule (opt.h); NULL: unfused */
    /* emission fills: */
    int *variant_of;            /* per class: its variant */
    unsigned *variants;         /* per distinct variant: its first class */
    int nvariants;
    int nhalo;                  /* halo statements */
} Build;

/* The program's outputs: NAME.h, NAME.impl.h, NAME.c, one NAME.<class>.c per distinct
 * variant, NAME.manifest.json. Fills b's variants. */
Output *fpo_emit_c(Ir *ir, Build *b, int *nout);

/* emit_python.c: out (nout outputs so far) and NAME.py, the program's Python module. */
Output *fpo_emit_python(Ir *ir, const Build *b, Output *out, int *nout);
/* emit_fortran.c: out (nout outputs so far) and NAME_fpo.f90, the program's Fortran module
 * NAME_fpo (bind(C) interfaces to the C functions). Errors jump (a name Fortran cannot take). */
Output *fpo_emit_fortran(Ir *ir, const Build *b, Output *out, int *nout);

/* ---- generate.c: the pipeline as library calls ---- */

/* Parse, check and lower `files` (paths, or sources registered with fpo_source_from_memory):
 * the IR of `program` (NULL: the only one), or NULL after an error was reported. */
Ir *fpo_front_end(char **files, int nfiles, const char *program, Define *defs, int ndefs);
/* Every stage on one in-memory source named `path` (imports find nothing on disk): the front
 * end, the IR's JSON and back, the unfused and fused schedules and a fused one with every
 * --instrument check, the C and CUDA outputs of each (those of the fused form in *out).
 * Nothing is written. 0 success, 1 an input error (reported as fpo-gen
 * reports it), 3 the IR's JSON did not read back the same. */
int fpo_generate_memory(const char *path, const char *text, size_t len, Output **out,
                        int *nout);

/* ---- variant.c: layouts and edge classes ---- */

/* Add the edge classes of the ranks of layout `layout` ("NxM", or "any": every n x m with
 * n, m >= 2) to b->classes, each once; false if `layout` is not one. */
bool fpo_layout_classes(Build *b, const char *layout);
/* A class's name: "interior", "all", or its edges ("sw", "n", "we", ...). */
const char *fpo_class_name(unsigned edges);

/* ---- manifest.c ---- */

/* The manifest (JSON) of a build, and its one-line report "NAME: N classes, M distinct
 * variants". */
char *fpo_manifest(Ir *ir, const Build *b);
/* FNV-1a over every input (its path and its text, read again) and the defines. */
char *fpo_source_hash(Ir *ir);
char *fpo_report(Ir *ir, const Build *b);
/* The variant sources (NAME.<variant>.c, and .cu where it names the cuda back end) that the
 * manifest `text` of program `name` says its build wrote; their number in *n. None where the
 * text is not such a manifest. */
char **fpo_manifest_sources(const char *text, const char *name, int *n);

/* ---- plan.c ---- */

/* The plan: outputs, inputs, the one-line build report, whether halo/ is needed. */
char *fpo_plan(Ir *ir, const char *outdir, char **names, int nnames, const Build *b);
char *fpo_depfile(const char *target, char **inputs, int ninputs);

/* ---- templates (generated from templates/ at build time) ---- */

extern const char fpo_tpl_program_h[];
extern const char fpo_tpl_program_c[];
extern const char fpo_tpl_program_impl_h[];
extern const char fpo_tpl_program_variant_c[];
extern const char fpo_tpl_program_py[];
extern const char fpo_tpl_program_f90[];
/* Expand @KEY@ in `tpl` from keys[i] -> vals[i]. */
char *fpo_expand(const char *tpl, const char **keys, const char **vals, int n);

#endif
