/* opt.h: the optimizer's schedule of a flattened program (loop nests, fused groups, storage of
 * temporaries) and its passes; pipeline.c runs them, emit_fused.c turns the result into C. */
#ifndef FPO_OPT_H
#define FPO_OPT_H

#include "fpo.h"

/* How one loop nest touches one program field or temporary (a slot). */
typedef struct Acc {
    int slot;              /* emit_c's field slot: field parameters, program temps, stencil temps */
    bool read, write;
    bool kconst;           /* every access at a constant K offset */
    bool ij_only;          /* the field is 2D (IJ) or 1D (K): levels are not independent */
    bool plain_first;      /* its first touch is an unconditional `x = e` not reading x */
    int64_t lo[3], hi[3];  /* offsets touched, per axis */
    bool wplain;           /* some top-level statement is a plain `x = e` at offset 0 */
    bool woff;             /* some write is at a K offset other than 0 (or a variable one) */
    bool early, late;      /* read before (at) / after the first such statement */
    int64_t ek[2], lk[2];  /* the K offsets of those reads (lo, hi) */
} Acc;

/* A symbolic box: [lo, hi) per axis, each bound a base (DB_*) plus an offset. */
typedef struct SBox {
    DBound lo[3], hi[3];
} SBox;

/* One loop nest of the unfused form: a statement group of a PARALLEL interval, or a whole
 * FORWARD / BACKWARD interval. */
typedef struct Unit {
    Node *stage;           /* the ND_STAGE it comes from */
    int stage_no;          /* stage index in its block (scalar argument names) */
    Decl *st;
    StencilInfo *si;
    int comp, iv, grp;     /* grp -1: every group of a sequential interval */
    bool par;
    SBox box;              /* the points it computes (K: its interval) */
    Acc *acc;
    int nacc;
    int *by_slot;          /* acc's indices in slot order (fpo_unit_acc) */
    int loop;              /* its I-J loop within its fused group */
} Unit;

/* A 3D array whose rows a row pipeline fetches ahead (pass_prefetch): the J and K offsets,
 * from a step's row and level, of the row of it the step touches first. */
typedef struct Fetch {
    bool on;
    int dj, dk;
} Fetch;

/* Units [first, first + count) of a block, run as one schedule. */
typedef struct FGroup {
    int first, count;
    bool fused;            /* K outermost, level by level */
    bool column;           /* J rows outermost, K inside (pass_column) */
    int *lag;              /* pass_rows: per I-J loop, rows behind the first; NULL: loop by loop */
    bool join;             /* pass_rows: runs with the next group (a column group), rows outermost */
    int lagc;              /* joined: the column group's rows behind the first loop's */
    int *nlo, *nhi;        /* joined: per I-J loop, rows it computes below and above a thread's
                            * share of the column group's rows (nhi < nlo: none) */
    int *host;             /* pass_kcache: per nest, the index in the group of the first nest
                            * of the sweep whose K loops it runs inside, -1: its own loops
                            * (NULL: no nest runs inside a sweep; see fpo_nest_host) */
    bool *stream;          /* pass_stream: per slot, its rows written with streaming stores
                            * (NULL: none) */
    Fetch *fetch;          /* pass_prefetch: per slot, whether and which of its rows a row
                            * pipeline fetches ahead (NULL: none) */
} FGroup;

/* Consecutive ND_STAGES nodes of the program body (`stages`: the first). */
typedef struct Block {
    Node *stages;
    Unit *u;
    int nu;
    FGroup *g;
    int ng;
} Block;

/* A strip is one J row of every level, per thread (column groups). */
typedef enum { SK_ARRAY, SK_PLANE, SK_SCALAR, SK_STRIP } StoreKind;

enum { PASS_CORNERS, PASS_EXTENT, PASS_FUSE, PASS_COLUMN, PASS_MERGE, PASS_SHRINK, PASS_ROWS, PASS_JOIN,
       PASS_KCACHE, PASS_STREAM, PASS_PREFETCH, PASS_WIDTH, PASS_POOL, PASS_COUNT };

/* Instrumentation compiled into run on request (--instrument). */
typedef struct Instrument {
    bool nan;              /* every written field and temporary checked for NaN */
    char **negative;       /* fields checked for negative values */
    int nnegative;
    bool trace;            /* every written array at one point printed after each group */
    int64_t at[3];
    bool progress;         /* a line after each group */
    bool timers;           /* time per group, kept in the program (<program>_timers) */
    bool bounds;           /* the level of each variable-K read checked against its field's */
    bool cuda_check;       /* CUDA back end: every launch checked and waited for, naming its
                            * stencil (the C back end has nothing to check) */
} Instrument;

typedef struct Sched {
    Ir *ir;
    bool fused;            /* false: the unfused reference (one stencil function per call) */
    bool on[PASS_COUNT];
    Block *blocks;
    int nblocks;
    Var **slots;           /* every field slot, in emit_c's order */
    int nslots, nfparams;
    int *at, *at1;         /* sched.c: per slot, while a unit (and one statement) is scanned */
    struct UnitRef **users;   /* per slot: the nests touching it, in block and nest order */
    int *nusers;
    bool *outside;         /* per slot: the program gives it to a halo statement or a callback */
    StoreKind *store;      /* per slot (field parameters: SK_ARRAY) */
    bool *covered;         /* pass_extent: per slot, every read is written first in its group */
    int *share;            /* pass_pool: the slot whose pool space this array reuses, or itself */
    int *strip_nz;         /* pass_shrink: a strip is used when nz >= this (else an array) */
    int *ring;             /* pass_rows: a plane kept as a ring of this many rows (0: whole) */
    int *kring;            /* pass_kcache: a strip kept as a ring of this many levels (0: all) */
    const char **cnames;   /* emit_fused: per slot, its C name in inlined code (its .fpo name) */
    int **col_rows;        /* emit_fused: per block and group, its entry in p->col_rows (-1:
                            * none), and how many entries there are */
    int ncol_rows;
    bool narrow;           /* pass_width: run prefers half-width (256-bit) vectors */
    Instrument ins;
    char **ksites;         /* --instrument bounds: what each checked read is (site k + 1) */
    int nksites;
    int nfns;              /* emit_fused: the functions of I-J loops written for this variant */
} Sched;

/* How one I-J loop of a fused group touches a slot (sched.c). */
typedef struct FTouch {
    bool any, write;
    int64_t jlo, jhi;      /* J offsets */
} FTouch;

void fpo_touch_add(FTouch *t, Acc *a);   /* t grown by one nest's access */

enum { FPO_RING_MAX = 64 };   /* rings hold at most this many rows (else the whole plane) */

/* A nest of the schedule: block and index in it. */
typedef struct UnitRef {
    int block, unit;
} UnitRef;

/* sched.c */
Sched *fpo_sched_new(Ir *ir, bool fused);
/* The block of s whose stages start at node `stages` (NULL: a later node of a block, or
 * none), and in *gno the fused groups of the blocks before it. */
Block *fpo_sched_block(Sched *s, Node *stages, int *gno);
int fpo_sched_slot(Sched *s, Var *v);
int fpo_call_slot(Sched *s, Unit *u, Var *v);
Acc *fpo_unit_acc(Unit *u, int slot);
int fpo_group_of(Block *b, int unit);   /* the group of nest `unit` of block b */
int fpo_users_after(Sched *s, int slot, int block, int unit);   /* index of the first user
                                                                  * after (block, unit) */
/* The slots nests [first, first + count) of block b touch, each once, in slot order (*n of
 * them; s->at1 is clear before and after). */
int *fpo_nests_slots(Sched *s, Block *b, int first, int count, int *n);
/* The same of nests u[0 .. count) (consecutive nests of one block). */
int *fpo_units_slots(Sched *s, Unit *u, int count, int *n);
/* The users of `slot` that are nests of group G of block `block`: s->users[slot][*e0 .. *e1). */
void fpo_group_users(Sched *s, int block, FGroup *G, int slot, int *e0, int *e1);
bool fpo_dbound_eq(DBound a, DBound b);
/* The answers of a pass's walks over every nz (pass_shrink, pass_kcache) by what they look
 * at, as text: nests that many calls share (a stencil called for many fields) are checked
 * once. A key: fpo_memo_start, then fpo_memo_nest for each nest, with its access to the slot
 * (NULL: only its K bounds and order); fpo_memo_get gives the answer (>= 0) or -1. */
typedef struct FpoMemo {
    StrMap map;
    Buf key;
} FpoMemo;
void fpo_memo_start(FpoMemo *m, const char *what);
void fpo_memo_nest(FpoMemo *m, Unit *u, const Acc *a);
int fpo_memo_get(FpoMemo *m);
int fpo_memo_put(FpoMemo *m, int answer);
/* Whether any check is compiled in (then run goes through the inlined schedule, groups apart). */
bool fpo_instrumented(const Instrument *n);
/* What a run of nests (a group or loop being built) does to each slot, gathered as nests
 * join, so that a nest is checked against the whole run at once: `ok` says which accesses
 * two nests may share when one of them writes (at the point, at the level). */
typedef bool FpoAccOk(Acc *a);
typedef struct NestRun {
    FpoAccOk *ok;
    unsigned char *seen;   /* per slot: NR_* */
    int *slots, nslots;    /* the slots seen, to clear them */
} NestRun;
enum { NR_TOUCHED = 1, NR_WRITTEN = 2, NR_NOT_OK = 4, NR_WRITTEN_NOT_OK = 8, NR_WRITTEN_OK = 16 };
NestRun fpo_run_new(Sched *s, FpoAccOk *ok);
void fpo_run_clear(NestRun *r);
void fpo_run_add(NestRun *r, Unit *u);
/* whether v touches a slot a nest of the run touches, one of them writing it, where either
 * access is not ok */
bool fpo_run_conflicts(NestRun *r, Unit *v);
int fpo_loop_first(Block *b, FGroup *G, int l);   /* the first nest of I-J loop l of G */
FTouch fpo_loop_touch(Block *b, FGroup *G, int l, int slot);
int64_t fpo_ring_need(Sched *s, Block *b, FGroup *G, const int *lag, int x, int lagc);
int fpo_ring_rows(int64_t need);
bool fpo_call_local(Sched *s, int slot);
SBox fpo_group_box(Unit *u, Group *G);
SBox fpo_unit_points(Unit *u);
bool fpo_dbound_inside(DBound rlo, DBound rhi, DBound wlo, DBound whi);
int fpo_nest_host(const FGroup *G, int i);
int64_t fpo_dbound_at(DBound d, int64_t nz);
const char *fpo_dbound_text(DBound d);   /* "0", "nx + 3", "nz - 1" */
/* Operations a point (operators, conditionals, builtin calls; a function call its body's)
 * group G computes per 3D array it touches in memory. A row pipeline of FPO_HEAVY or more is
 * heavy on arithmetic (pass_prefetch, pass_width): the chain of tests/bench computes 4 per
 * array, the example model's transport step 162 and its whole step 194. */
int fpo_group_intensity(Sched *s, Block *bl, FGroup *G);
enum { FPO_HEAVY = 32 };

/* The passes, in pipeline order (each file says its contract). pass_corners rewrites the IR
 * before the schedule is made from it; `halo`: the depth of fills without `depth:`. */
void fpo_pass_corners(Ir *ir, int halo);
/* Where field c of a halo statement sits (vec HV_*; scalars at `at`, HA_*): 0 centre, 1 x
 * face, 2 y face, 3 corner, as fpo_halo_pos. */
int fpo_corner_pos(int vec, int at, int c);
void fpo_pass_extent(Sched *s);
void fpo_pass_fuse(Sched *s);
void fpo_pass_column(Sched *s);
void fpo_pass_merge(Sched *s);
void fpo_pass_shrink(Sched *s);
void fpo_pass_rows(Sched *s);
void fpo_pass_join(Sched *s);
void fpo_pass_kcache(Sched *s);
void fpo_pass_stream(Sched *s);
void fpo_pass_prefetch(Sched *s);
void fpo_pass_width(Sched *s);
void fpo_pass_pool(Sched *s);

/* check_domains.c: warnings on program temporaries read where no call writes them */
void fpo_check_domains(Sched *s);

/* pipeline.c */
typedef struct Pipeline {
    bool fused;              /* false: the unfused reference, no pass runs */
    bool off[PASS_COUNT];    /* passes switched off (--disable-pass) */
    bool en[PASS_COUNT];     /* passes off by default switched on (--enable-pass) */
    int halo;                /* the build's halo width (fills without `depth:`) */
    int dump_after;          /* a pass, or -1 */
    char *dump;              /* out: the IR and schedule JSON after that pass */
    Instrument ins;
} Pipeline;
extern const char *const fpo_pass_names[PASS_COUNT];
extern const bool fpo_pass_default[PASS_COUNT];   /* on unless switched off */
int fpo_pass_find(const char *name);
Sched *fpo_optimize(Ir *ir, Pipeline *pl);
char *fpo_sched_json(Sched *s);

/* dot.c */
char *fpo_sched_dot(Sched *s);

/* emit_stmt.c: C text of IR pieces, for every back end (ctx: the state of emission, for region
 * pruning) */
void fpo_c_expr(Buf *b, Node *n);
/* v plus off as C text: "(v + off)", "(v - |off|)", or v. */
void fpo_c_offset(Buf *b, const char *v, int64_t off);
/* Where in a split loop points run (`where`, flags). FPO_DROP_WE (FPO_DROP_SN): regions
 * anchored at west/east (south/north) edges do not hold there.
 * FPO_ROW_S (FPO_ROW_N) | FPO_ROW(o): the row is j_start + o (j_end + o) of a tile too large
 * for the other edge's regions: the south/north regions holding there run without a test,
 * the others are left out (fpo_c_iloop). FPO_ONE_AT_A_TIME: the points run in a loop that
 * branches on regions and does not vectorize (a split loop's edge columns): selects are
 * written for scalar code (fpo_pick_*). FPO_AT_LEVEL: each field's view points at the level
 * being computed (a segment kernel's, emit_cuda.c), so an access is written with its K offset
 * from that level: `q[i + j * fpo_sj_q]`, `q[i + j * fpo_sj_q - 1 * fpo_sk_q]`. */
enum {
    FPO_DROP_WE = 1, FPO_DROP_SN = 2, FPO_ROW_S = 4, FPO_ROW_N = 8, FPO_ONE_AT_A_TIME = 16,
    FPO_AT_LEVEL = 32
};
#define FPO_ROW(o) ((unsigned)((o) + 128) << 8)
#define FPO_ROW_OFF(where) ((int)(((where) >> 8) & 255u) - 128)
void fpo_c_point(Buf *b, Decl *st, Node *body, int indent, const void *ctx, unsigned where);
/* Whether fpo_c_point would write a statement of `body` there: false where every one is a
 * region the class (or `where`) leaves out. */
bool fpo_c_emits(const void *ctx, Node *body, unsigned where);
/* Append to b (after *sep, which it sets to " || ") the test that box [box[0], box[1]) x
 * [box[2], box[3]) (generated expressions, tile indices) holds a point of a region of `body`
 * that FPO_DROP_WE | FPO_DROP_SN leave out; nothing where there is none. */
void fpo_c_rim(Buf *b, const void *ctx, Node *body, const char *const box[4], const char **sep);
/* Generated file `name`'s `text` (a Buf's, which it takes: grown in place), each line a #line
 * points at the .fpo followed by a #line back to the file, by its name (the bytes do not
 * depend on where the file is written). */
char *fpo_c_lines_back(char *text, const char *name);
/* Text [s, s + n), written at depth 0, into b `levels` levels in (4 spaces a level): each
 * line but blank ones and preprocessor lines (#line stays in the first column). */
void fpo_c_indented(Buf *b, const char *s, size_t n, int levels);
/* One point of an I loop: statements at `depth`, run where `where` says (leaving out the
 * regions it drops). */
typedef void FpoPointFn(Buf *b, int depth, unsigned where, void *arg);
/* `indep`: no point of the loop reads what another point writes (FPO_IVDEP, see there). */
void fpo_c_iloop(Buf *b, Node **bodies, int nbodies, const void *ctx, const char *ib,
                 const char *ie, int depth, bool indep, FpoPointFn *point, void *arg);
const char *fpo_c_type(DType dt);
char *fpo_c_string(const char *text);
/* Text from outside (paths) for the inside of a C string literal, of a printf format, of a
 * comment: nothing in it ends them or forms a directive. */
const char *fpo_c_str(const char *text);
const char *fpo_c_fmt(const char *text);
const char *fpo_c_comment(const char *text);
/* The fpo_field of array slot x in run: a field parameter (p->f.NAME) or a temporary kept as
 * an array (p->tmp[...]). */
const char *fpo_array_of(Sched *s, int x);

/* For emit_cuda.c: the state of emission for the variant of class `edges`, C names of .fpo
 * names, what statements use (regions the class leaves out do not count), a stencil field's
 * setup (its origin pointer and strides from its fpo_field). */
const void *fpo_c_ctx(Ir *ir, unsigned edges);
/* --instrument bounds in a CUDA kernel: the reads at a variable K offset or an absolute K index
 * of the statements written (fpo_c_point) while ctx has one, in the order they are written;
 * the kernel records read number n (from 0, again at each fpo_c_point) as site fpo_ks + n
 * (fpo_klev_d_) into its record fpo_kout. NULL: none. */
typedef struct KReads {
    Node **n;
    int count, at;
} KReads;
void fpo_c_kreads(const void *ctx, KReads *k);
/* The file-scope text before run where ctx's run may put functions it calls (NULL: none),
 * and the program's C name (the type of run's p). */
Buf *fpo_c_fns(const void *ctx);
const char *fpo_c_prog(const void *ctx);
const char *fpo_c_name(const char *name);
/* per param and temp slot of s (fpo_slot): whether body, as emitted in ctx, mentions it */
unsigned char *fpo_c_used(const void *ctx, Decl *s, Node *body);
bool fpo_c_has_region(Decl *s);
void fpo_c_field_setup(Buf *b, Decl *st, Var *v);

/* emit_c.c: run's body (program scalars, loops, ifs) for the variant of class `edges`, with
 * each block of stencil calls written by `block` (called for a block's first ND_STAGES node,
 * then for its later ones), and halo statements and host callbacks ordered with the work
 * queued on `stream` (a C expression; fields are device memory), for emit_cuda.c. */
typedef void FpoBlockFn(Buf *b, Node *stages, int indent, void *arg);
char *fpo_c_run_body(Ir *ir, const Build *bd, unsigned edges, FpoBlockFn *block, void *arg,
                     const char *stream);
bool fpo_build_has(const Build *bd, const char *backend);

/* emit_cuda.c: out (nout outputs of fpo_emit_c) and one NAME.<class>.cu per variant. */
Output *fpo_emit_cuda(Ir *ir, const Build *bd, Output *out, int *nout);
/* The CUDA kernels' shape that --cuda-* options (CUDA_* of fpo_add_program) change, into bd. */
void fpo_cuda_defaults(Build *bd);
/* The most threads a multiprocessor runs: --cuda-blocks times --cuda-threads at most. */
enum { FPO_CUDA_SM_THREADS = 2048 };
/* The build report's line for the CUDA back end (what its device pool holds), after
 * fpo_emit_cuda. */
char *fpo_cuda_summary(Ir *ir, const Build *bd);

/* emit_fused.c */
void fpo_emit_block(Buf *b, Sched *s, Node *stages, int indent, const void *ctx);
void fpo_emit_views(Buf *b, Sched *s);
void fpo_emit_decls(Buf *b, Sched *s);
/* --instrument: the checks after group gno of block bl (its variable-K reads are sites site0
 * + 1 ..), and a group's timer at its start or end; with `device` (emit_cuda.c) the arrays
 * are device memory, searched and read through the CUDA runtime once the stream is waited for. */
void fpo_emit_checks(Buf *b, Sched *s, Block *bl, FGroup *G, int gno, int site0, bool device);
void fpo_emit_timer(Buf *b, Sched *s, int gno, bool end, bool device, int depth);
/* Whether run's body comes from emit_fused.c (fused, or instrumented). */
bool fpo_sched_inline(Sched *s);
void fpo_emit_pool(Buf *b, Sched *s);
/* How many column groups take their J rows from p->col_rows (set at open). */
int fpo_ncol_rows(Sched *s);
char *fpo_memory_summary(Sched *s);

#endif
