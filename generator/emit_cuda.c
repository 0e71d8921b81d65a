/* emit_cuda.c: takes the schedule (opt.h) and the variants emit_c.c chose, gives the CUDA back
 * end's sources, one NAME.<class>.cu per distinct variant. A fused group of the schedule runs
 * as one kernel per segment (tiles of points in shared memory, each nest computing the part of
 * its box that later nests of the segment read, the tile widened by their offsets); any other
 * loop nest as a kernel of its own (a thread a point; a thread a column for a FORWARD or
 * BACKWARD interval whose columns do not read each other, and in fused builds one kernel, a
 * walk, for a call's consecutive such intervals, the values a level reads back from the
 * levels before it in registers; else level by level). With --cuda-fed on, a segment right
 * before walks that read what it computes only at their own point runs inside the first walk's
 * kernel, a block a tile computing it level by level, a thread a column walking it (a fed
 * kernel). Temporaries kept on the chip only have no array in the device pool (a table open
 * reads). Run's body (emit_c.c) launches them on the program's stream; it is captured as a
 * CUDA graph on the first run and replayed after. A kernel whose text an earlier variant's
 * file holds is declared and launched from there, not compiled again (kernel_made).
 * docs/cuda.md explains the mapping. */
#include "opt.h"

#include <stdlib.h>
#include <string.h>

/* A nest kernel's threads: 32 along I (a warp reads consecutive points of a row), 8 along J. */
enum { CU_BX = 32, CU_BY = 8 };
/* A segment kernel's threads a block, unless --cuda-threads says (FPO_TILE_THREADS). */
enum { CU_THREADS = 256 };
/* A segment kernel's tile: TX points along I, TY along J (at most CU_TY: --cuda-rows, 16 by
 * default), its shared memory within --cuda-shared (48 KiB by default), run by the block's
 * threads in turn. Shared tiles over CU_STATIC bytes, what a block has without asking, are
 * carved from dynamic shared memory that the launch asks for. A nest computes its part of the
 * tile widened by what later nests read of it: a segment is taken only while the points its
 * nests compute stay within CU_WORK times the tile's (each extra point is work the unfused
 * form does not do). The last column of a segment's tiles (not a fed kernel's, whose threads
 * are the tile's columns) takes up to --cuda-slack columns more (8 by default, at most
 * CU_SLACK_MAX) rather than leave them a column of tiles of their own: a box of faces, 193
 * wide at 192 cells, is 3 tiles, not 4. */
enum { CU_TX = 64, CU_TY = 32, CU_STATIC = 48 * 1024, CU_SLACK_MAX = 32 };
#define CU_WORK 1.5

typedef struct Cu {
    Ir *ir;
    Sched *s;
    const void *ctx;   /* emit_c's state for this variant's class (regions left out) */
    Buf kernels;       /* the kernels the body launches, in order */
    struct Made {
        const char *name;   /* its name in the variant */
        const char *as;     /* the name it is launched by (kernel_made) */
        KReads *kr;    /* the reads it checks (--instrument bounds) */
    } *made;           /* the nest kernels made */
    int nmade;
    int nseg;          /* segment kernels made */
    int nwalk;         /* walk kernels made */
    int nfed;          /* kernels of a segment inside a walk made */
    bool *array;       /* per slot: has an array on the device (plan_arrays) */
    int tile_row;      /* the widest row of a segment's shared tile, elements (plan_arrays) */
    int nests;         /* the most nests a segment holds (--cuda-nests) */
    int levels;        /* levels a thread of a nest kernel computes (--cuda-levels) */
    int threads;       /* a segment kernel's threads (--cuda-threads) */
    int rows;          /* the most rows of a segment kernel's tile (--cuda-rows) */
    int slack;         /* the columns past CU_TX its last column of tiles may take (--cuda-slack) */
    int shared;        /* the most shared memory of a segment kernel's block, bytes
                        * (--cuda-shared) */
    int dyn_shared;    /* the most dynamic shared memory a segment kernel asks for (plan_arrays) */
    int unroll;        /* a column kernel's walk (levels) and a segment nest's loop over its
                        * points, unrolled (--cuda-unroll) */
    bool fed;          /* a segment may run inside the walk after it (--cuda-fed) */
    int blocks;        /* a segment kernel's blocks a multiprocessor its registers leave room
                        * for (--cuda-blocks; 0: 1024 / threads, none at CU_THREADS) */
    int ahead;         /* the levels a walk reads a field ahead (--cuda-ahead; 0: none) */
    bool ring;         /* those registers a ring, a turn of levels at a time (--cuda-ring) */
    int prefetch;      /* the levels past them a walk asks L2 for; any: a segment asks for
                        * its first level's inputs at its top (--cuda-prefetch; 0: none) */
    bool ldg;          /* a segment reads what it does not write via __ldg (--cuda-ldg) */
    int walk_rows;     /* rows of CU_BX columns a walk kernel's block (--cuda-walk-rows) */
    int walk_blocks;   /* a walk kernel's blocks a multiprocessor its registers leave room for
                        * (--cuda-walk-blocks; 0: as the compiler chooses) */
    int chunks;        /* a segment and the walks after it in chunks of tile rows, each chunk's
                        * walks beside the next chunk's segment (--cuda-chunks; 1: none) */
    int rim;           /* the loops a tile holding none of their edge regions runs without
                        * them (--cuda-rim: FPO_RIM_*) */
    bool stretches;    /* a run with exchanges or callbacks: its blocks' kernels as graphs */
    int nstretch;      /* blocks made stretches */
    int nlaunch;       /* launches written to run's body */
    const char *cls;   /* the variant's class name (fpo_class_name) */
    StrMap *made_before;   /* the kernels of the program's variants so far, by their text less
                            * their name: their names and files (kernel_made; NULL where the
                            * program has one variant) */
} Cu;

/* ---- kernels the program's variants share ---- */

/* A kernel's name: for the program, the variant that makes it and its place there
 * (NAME__CLASS_seg1), with external linkage, so that a later variant may launch it. */
static const char *kernel_name(Cu *c, const char *place) {
    return fpo_fmt("%s__%s_%s", c->ir->name, c->cls, place);
}

/* A kernel of a variant whose text, less its name, an earlier variant of the program already
 * made is not compiled again: the variant declares that one and launches it (sw_step's 10
 * files hold 205 kernels, 129 distinct). The kernel `name` just written to c->kernels from
 * `at` (a comment, then "__global__ void [FPO_LAUNCH_BOUNDS(..) ]NAME(...) {") stays, or is
 * replaced by the declaration (its comment kept); gives the name its launches use. */
static const char *kernel_made(Cu *c, size_t at, const char *name) {
    if (!c->made_before)   /* (the program has one variant) */
        return name;
    Buf *kb = &c->kernels;
    size_t head = (size_t)(strstr(kb->s + at, "__global__ void ") - kb->s);
    size_t np = (size_t)(strstr(kb->s + head, fpo_fmt(" %s(", name)) - kb->s) + 1;
    const char *params = kb->s + np + strlen(name);   /* "(...) {" */
    Buf key = {0};   /* the text less the name */
    buf_addn(&key, kb->s + at, np - at);
    buf_add(&key, params);
    const char **had = strmap_get(c->made_before, key.s);   /* {name, file} */
    if (!had) {
        const char **made = fpo_new(2 * sizeof *made);
        made[0] = name, made[1] = fpo_fmt("%s.%s.cu", c->ir->name, c->cls);
        strmap_put(c->made_before, buf_fit(&key), (void *)made);
        return name;
    }
    buf_free(&key);
    const char *eol = strchr(params, '\n');
    Buf d = {0};
    buf_printf(&d, "/* (the same text as a kernel of %s, compiled there) */\n"
                   "extern __global__ void %s%.*s;\n",
               had[1], had[0], (int)(eol - params - 2), params);
    kb->len = head;   /* (the comment kept) */
    buf_addn(kb, d.s, d.len);
    buf_free(&d);
    return had[0];
}

/* ---- nest kernels: one loop nest of a stencil, over a box given at launch ---- */

/* A kernel's first line up to its parameters where a thread walks a column (a column kernel,
 * a walk kernel): its registers held to what --cuda-walk-blocks blocks of --cuda-walk-rows
 * rows a multiprocessor leave, where given. */
static void walk_kernel_open(Cu *c, Buf *k, const char *name) {
    if (c->walk_blocks > 0)
        buf_printf(k, "__global__ void FPO_LAUNCH_BOUNDS(%d, %d) %s(", CU_BX * c->walk_rows,
                   c->walk_blocks, name);
    else
        buf_printf(k, "__global__ void %s(", name);
}

/* Whether `n` reads, at a horizontal offset, a variable of `w` (the variables written). */
static bool reads_across(Node *n, Var **w, int nw) {
    for (; n; n = n->next) {
        if (n->kind == ND_ACCESS && (n->off[0] || n->off[1]))
            for (int i = 0; i < nw; i++)
                if (w[i] == n->var)
                    return true;
        if (reads_across(n->lhs, w, nw) || reads_across(n->rhs, w, nw) ||
            reads_across(n->cond, w, nw) || reads_across(n->then, w, nw) ||
            reads_across(n->els, w, nw) || reads_across(n->body, w, nw) ||
            reads_across(n->args, w, nw) || reads_across(n->kexpr, w, nw))
            return true;
    }
    return false;
}

static void written(Node *n, Var ***w, int *nw) {
    for (; n; n = n->next) {
        if (n->kind == ND_ASSIGN)
            VPUSH(*w, *nw, n->lhs->var);
        written(n->then, w, nw);
        written(n->els, w, nw);
        written(n->body, w, nw);
    }
}

/* A register of a kernel, as a scalar variable the statements can name. */
static Var *scalar_var(char *name, DType dt) {
    Var *s = fpo_new(sizeof *s);
    s->name = name;
    s->kind = VK_PARAM;
    s->dt = dt;
    s->ax = AX_SCALAR;
    return s;
}

/* A FORWARD or BACKWARD interval runs as one kernel, a thread walking each column's levels,
 * when it is one group whose points read nothing the interval writes at other columns (a
 * column's levels then depend on that column alone). */
static bool column_kernel(Unit *u) {
    Interval *iv = &u->st->comps[u->comp].ivs[u->iv];
    if (u->si->ngroups[u->comp][u->iv] != 1)
        return false;
    Var **w = NULL;
    int nw = 0;
    written(iv->body, &w, &nw);
    return !reads_across(iv->body, w, nw);
}

static Node *nth(Node *n, int i) {
    while (i-- > 0)
        n = n->next;
    return n;
}

/* The fields a kernel's statements use (`used`, per param and temp), as the C stencil
 * functions see them (emit_c.c's setup from the fpo_field passed by value). */
static void used_views(Buf *b, Decl *s, const unsigned char *used) {
    for (int i = 0; i < s->nparams + s->ntemps; i++) {
        Var *v = i < s->nparams ? s->params[i] : s->temps[i - s->nparams];
        if (v->ax == AX_SCALAR) {
            buf_printf(b, "    (void)%s;\n", fpo_c_name(v->name));
        } else if (used[i]) {
            buf_printf(b, "    const fpo_field *fpo_%s = &fpo__v_%s;\n", v->name, v->name);
            fpo_c_field_setup(b, s, v);
        } else {
            buf_printf(b, "    (void)fpo__v_%s;\n", v->name);
        }
    }
}

static void stencil_views(Cu *c, Buf *b, Decl *s, Node *body) {
    used_views(b, s, fpo_c_used(c->ctx, s, body));
}

/* The tile-position variables regions test, at the top of a kernel (none: the kernel's
 * statements hold no region). */
static void region_vars(Buf *b, bool regions) {
    if (regions)
        buf_add(b, "    const int64_t fpo_ti = fpo__dom.i0, fpo_tj = fpo__dom.j0, fpo_tni = "
                   "fpo__dom.tile_nx, fpo_tnj = fpo__dom.tile_ny;\n"
                   "    (void)fpo_ti, (void)fpo_tj, (void)fpo_tni, (void)fpo_tnj, (void)fpo_edges;\n");
    else
        buf_add(b, "    (void)fpo__dom, (void)fpo_edges;\n");
}

/* A thread's `kl` levels from fpo_ka + blockIdx.z * kl, within fpo_kz: a full block of levels
 * as an unrolled loop (their loads can be in flight together), the last levels as a plain one. */
static void levels_loop(Cu *c, Buf *b, Decl *s, Node *body, int kl) {
    buf_printf(b, "    const int64_t fpo_k0 = fpo_ka + (int64_t)blockIdx.z * %d;\n"
                  "    if (fpo_k0 + %d <= fpo_kz) {\n"
                  "        FPO_UNROLL(%d)\n"
                  "        for (int fpo_l = 0; fpo_l < %d; fpo_l++) {\n"
                  "            const int64_t k = fpo_k0 + fpo_l;\n"
                  "            (void)k;\n",
               kl, kl, kl, kl);
    fpo_c_point(b, s, body, 3, c->ctx, FPO_ONE_AT_A_TIME);
    buf_add(b, "        }\n    } else {   /* the last levels */\n"
               "        for (int64_t k = fpo_k0; k < fpo_kz; k++) {\n");
    fpo_c_point(b, s, body, 3, c->ctx, FPO_ONE_AT_A_TIME);
    buf_add(b, "        }\n    }\n");
}

/* A kernel's parameters for stencil s's arguments: its scalars by value, a field view for each
 * field parameter and temporary (fpo__v_NAME), each followed by ", ". */
static void stencil_params(Buf *b, Decl *s) {
    for (int i = 0; i < s->nparams; i++) {
        Var *v = s->params[i];
        if (v->ax == AX_SCALAR)
            buf_printf(b, "%s %s, ", fpo_c_type(v->dt), fpo_c_name(v->name));
        else
            buf_printf(b, "const fpo_field fpo__v_%s, ", v->name);
    }
    for (int i = 0; i < s->ntemps; i++)
        buf_printf(b, "const fpo_field fpo__v_%s, ", s->temps[i]->name);
}

/* nest_kernel's text, into c->kernels. */
static void nest_kernel_text(Cu *c, Unit *u, Node *body, bool column, int kl, const char *name) {
    Decl *s = u->st;
    Buf *b = &c->kernels;
    buf_printf(b, "\n/* stencil %s (%s:%d), computation %d, interval %d%s */\n", s->name,
               fpo_loc_path(s->loc), s->loc.line, u->comp + 1, u->iv + 1,
               column ? ": a thread a column" : "");
    if (column)
        walk_kernel_open(c, b, name);
    else
        buf_printf(b, "__global__ void %s(", name);
    stencil_params(b, s);
    if (c->s->ins.bounds)
        buf_add(b, "fpo_kbad_ *fpo_kout, int fpo_ks, ");
    buf_add(b, "const fpo_domain fpo__dom, unsigned fpo_edges, int64_t fpo_ib, int64_t fpo_ie, "
               "int64_t fpo_jb, int64_t fpo_je, int64_t fpo_ka, int64_t fpo_kz) {\n");
    if (c->s->ins.bounds)
        buf_add(b, "    (void)fpo_kout, (void)fpo_ks;\n");
    region_vars(b, fpo_c_has_region(s));
    stencil_views(c, b, s, body);
    buf_add(b, "    const int64_t i = fpo_ib + (int64_t)(blockIdx.x * blockDim.x + threadIdx.x);\n"
               "    const int64_t j = fpo_jb + (int64_t)(blockIdx.y * blockDim.y + threadIdx.y);\n"
               "    if (i >= fpo_ie || j >= fpo_je)\n        return;\n");
    if (kl > 1) {
        levels_loop(c, b, s, body, kl);
        buf_add(b, "}\n");
        return;
    }
    int depth = 1;
    if (!column) {
        buf_add(b, "    const int64_t k = fpo_ka + (int64_t)blockIdx.z;\n    (void)k, (void)fpo_kz;\n");
    } else {
        if (c->unroll > 1)
            buf_printf(b, "    FPO_UNROLL(%d)\n", c->unroll);
        if (s->comps[u->comp].order == ORD_FORWARD)
            buf_add(b, "    for (int64_t k = fpo_ka; k < fpo_kz; k++) {\n");
        else
            buf_add(b, "    for (int64_t k = fpo_kz - 1; k >= fpo_ka; k--) {\n");
        depth = 2;
    }
    /* points run one at a time: selects as plain conditionals, regions tested at each point */
    fpo_c_point(b, s, body, depth, c->ctx, FPO_ONE_AT_A_TIME);
    if (column)
        buf_add(b, "    }\n");
    buf_add(b, "}\n");
}

/* The kernel of unit u's statements `body` (its group, or its whole sequential interval),
 * made once per stencil nest (*kr: the reads it checks, --instrument bounds): a thread a point
 * of [fpo_ib, fpo_ie) x [fpo_jb, fpo_je) on `kl` levels from fpo_ka + blockIdx.z * kl, or
 * (`column`) a thread a column walking levels [fpo_ka, fpo_kz) in the interval's order. */
static const char *nest_kernel(Cu *c, Unit *u, Node *body, bool column, int kl, KReads **kr) {
    Decl *s = u->st;
    const char *place = u->grp < 0 || column
                            ? fpo_fmt("k_%s_%d_%d", s->name, u->comp + 1, u->iv + 1)
                            : fpo_fmt("k_%s_%d_%d_%d", s->name, u->comp + 1, u->iv + 1, u->grp + 1);
    const char *name = kernel_name(c, place);
    for (int i = 0; i < c->nmade; i++)
        if (!strcmp(c->made[i].name, name)) {
            *kr = c->made[i].kr;
            return c->made[i].as;
        }
    *kr = fpo_new(sizeof **kr);
    fpo_c_kreads(c->ctx, c->s->ins.bounds ? *kr : NULL);   /* the statements note its reads */
    size_t at = c->kernels.len;
    nest_kernel_text(c, u, body, column, kl, name);
    fpo_c_kreads(c->ctx, NULL);
    const char *as = kernel_made(c, at, name);
    VPUSH(c->made, c->nmade, ((struct Made){name, as, *kr}));
    return as;
}

/* The fpo_field of slot x in run's body. */
static const char *slot_field(Sched *s, int x) {
    return x < s->nfparams ? fpo_fmt("p->f.%s", s->slots[x]->name)
                           : fpo_fmt("p->tmp[%d]", x - s->nfparams);
}

/* A stencil call's arguments for unit u's kernel: its scalars, its fields by value. */
static void stencil_args(Cu *c, Buf *b, Unit *u) {
    Decl *s = u->st;
    for (int i = 0; i < s->nparams; i++) {
        Node *a = u->stage->argv[i];
        if (s->params[i]->ax == AX_SCALAR) {
            fpo_c_expr(b, a);
            buf_add(b, ", ");
        } else {
            buf_printf(b, "%s, ", slot_field(c->s, fpo_sched_slot(c->s, a->var)));
        }
    }
    for (int i = 0; i < s->ntemps; i++)
        buf_printf(b, "%s, ", slot_field(c->s, fpo_sched_slot(c->s, s->temps[i])));
}

static const char *what(Decl *s, Loc at) {
    return fpo_c_string(fpo_fmt("stencil %s (%s:%d)", s->name, fpo_loc_path(at),
                                at.line));
}

static void ind(Buf *b, int depth) {
    for (int i = 0; i < depth; i++)
        buf_add(b, "    ");
}

/* The launch of kernel `k` on points [ib, ie) x [jb, je), levels [ka, kz) (nk block layers; a
 * column kernel's blocks of --cuda-walk-rows rows, as a walk kernel's). */
static void launch_nest(Cu *c, Buf *b, Unit *u, const char *k, KReads *kr, SBox x,
                        const char *ka, const char *kz, const char *nk, bool column, int depth) {
    const char *ib = fpo_dbound_text(x.lo[0]), *ie = fpo_dbound_text(x.hi[0]);
    const char *jb = fpo_dbound_text(x.lo[1]), *je = fpo_dbound_text(x.hi[1]);
    ind(b, depth);
    c->nlaunch++;
    buf_printf(b, "FPO_LAUNCH(fpo__cu, %s, %s, (%s) - (%s), (%s) - (%s), %s, %d, %d, (",
               what(u->st, u->stage->loc), k, ie, ib, je, jb, nk, CU_BX,
               column ? c->walk_rows : CU_BY);
    stencil_args(c, b, u);
    if (c->s->ins.bounds) {
        /* the kernel's checked reads, as this call's: sites fpo_ks .. in the messages after
         * the group (fpo_emit_checks), as the C back end names them */
        Sched *s = c->s;
        buf_printf(b, "fpo_kout_d, %d, ", s->nksites + 1);
        for (int r = 0; r < kr->count; r++) {
            Node *n = kr->n[r];
            VPUSH(s->ksites, s->nksites,
                  fpo_fmt("'%s' by stencil '%s' at %s:%d:%d",
                          s->slots[fpo_call_slot(s, u, n->var)]->name, u->st->name,
                          fpo_loc_path(n->loc), n->loc.line, n->loc.col));
        }
    }
    buf_add(b, "p->dom, p->edges, ");
    buf_printf(b, "%s, %s, %s, %s, %s, %s));\n", ib, ie, jb, je, ka, kz);
}

/* One loop nest of the schedule on its own: its kernel(s) and launch(es). */
static void emit_nest(Cu *c, Buf *b, Unit *u, int depth) {
    Interval *iv = &u->st->comps[u->comp].ivs[u->iv];
    const char *ka = fpo_dbound_text(u->box.lo[2]), *kz = fpo_dbound_text(u->box.hi[2]);
    if (u->par) {
        Group *g = &u->si->groups[u->comp][u->iv][u->grp];
        Node *first = nth(iv->body, g->first), *last = nth(iv->body, g->first + g->count - 1);
        Node *after = last->next;
        last->next = NULL;
        /* a nest the variant left no statement (its regions lie elsewhere): no kernel, no
         * launch */
        if (!fpo_c_emits(c->ctx, first, FPO_ONE_AT_A_TIME)) {
            last->next = after;
            ind(b, depth);
            buf_printf(b, "/* stencil %s (%s:%d): nothing in this variant */\n", u->st->name,
                       fpo_loc_path(u->stage->loc), u->stage->loc.line);
            return;
        }
        KReads *kr;
        const char *k = nest_kernel(c, u, first, false, c->levels, &kr);
        last->next = after;
        const char *nk = c->levels > 1 ? fpo_fmt("((%s) - (%s) + %d) / %d", kz, ka, c->levels - 1,
                                                 c->levels)
                                       : fpo_fmt("(%s) - (%s)", kz, ka);
        launch_nest(c, b, u, k, kr, u->box, ka, kz, nk, false, depth);
        return;
    }
    if (column_kernel(u)) {
        KReads *kr;
        const char *k = nest_kernel(c, u, iv->body, true, 1, &kr);
        launch_nest(c, b, u, k, kr, fpo_group_box(u, &u->si->groups[u->comp][u->iv][0]), ka, kz,
                    "1", true, depth);
        return;
    }
    /* level by level, as the C loops run it: the points of a level read each other's */
    ind(b, depth);
    if (u->st->comps[u->comp].order == ORD_FORWARD)
        buf_printf(b, "for (int64_t fpo_k = %s; fpo_k < %s; fpo_k++) {\n", ka, kz);
    else
        buf_printf(b, "for (int64_t fpo_k = (%s) - 1; fpo_k >= %s; fpo_k--) {\n", kz, ka);
    for (int g = 0; g < u->si->ngroups[u->comp][u->iv]; g++) {
        Group *G = &u->si->groups[u->comp][u->iv][g];
        Node *first = nth(iv->body, G->first), *last = nth(iv->body, G->first + G->count - 1);
        Node *after = last->next;
        last->next = NULL;
        Unit ug = *u;
        ug.grp = g;
        KReads *kr;
        const char *k = nest_kernel(c, &ug, first, false, 1, &kr);
        last->next = after;
        launch_nest(c, b, u, k, kr, fpo_group_box(u, G), "fpo_k", "fpo_k + 1", "1", false,
                    depth + 1);
    }
    ind(b, depth);
    buf_add(b, "}\n");
}

/* ---- walks: a stencil call's FORWARD or BACKWARD intervals as one column kernel, the values
 * a level reads back from the levels before it held in registers ---- */

/* A walk keeps at most WIN_MAX levels of a value back; what holds for every nz up to NZ_CHECK
 * holds above (K bounds are 0 or nz plus small offsets). */
enum { WIN_MAX = 8, NZ_CHECK = 64 };

/* A value of the walk in registers: fpo_w_NAME_0 its value at the level walked, fpo_w_NAME_d
 * its value d levels back in the walk's order (d <= r), shifted at the end of each level. */
typedef struct Win {
    Var *v;
    int slot;
    int r;             /* levels back the walk reads (0: only the level walked) */
    bool drop;         /* a temporary only the walk touches: never stored, no array */
    Var **w;           /* w[0 .. r]: the registers, as scalar variables of the statements */
} Win;

/* A field the walk only reads, at its own point and level: the values of the next --cuda-ahead
 * levels (in the walk's order; AHEAD by default) are loaded ahead into fpo_q_NAME_0 .. , q_0
 * the level walked, so that a thread has that many loads in flight instead of one a level. */
enum { AHEAD = 8, AHEAD_FIELDS = 3 };
typedef struct Ahead {
    Var *v;
    Var **q;           /* q[0 .. the walk's depth): the registers, as scalar variables */
} Ahead;

typedef struct Walk {
    Unit *u;           /* units [u, u + n): intervals of one computation of one stencil call */
    int n;
    int nhost;         /* units [u + n, u + n + nhost): nests run inside it (walk_hosts) */
    Win *win;
    int nwin;
    Ahead *ahead;
    int nahead;
    int depth;         /* the levels each of them is read ahead (--cuda-ahead) */
    int peel;          /* levels walked first reading stored values back from memory (the
                        * registers of a kept value hold a level only once it was walked) */
} Walk;

static bool walk_forward(Unit *u) { return u->st->comps[u->comp].order == ORD_FORWARD; }

static Node *unit_body(Unit *u) { return u->st->comps[u->comp].ivs[u->iv].body; }

static SBox unit_cols(Unit *u) { return fpo_group_box(u, &u->si->groups[u->comp][u->iv][0]); }

/* Whether units [u, u + n) run as one kernel, a thread walking each column through all of
 * them: intervals of one computation of one call, each a column kernel over the same columns,
 * no point reading at another column what one of them writes. */
static bool walk_joins(Unit *u, int n) {
    Unit *w = &u[n - 1];
    if (w->par || w->stage != u->stage || w->comp != u->comp || !column_kernel(w))
        return false;
    SBox a = unit_cols(u), b = unit_cols(w);
    for (int d = 0; d < 2; d++)
        if (!fpo_dbound_eq(a.lo[d], b.lo[d]) || !fpo_dbound_eq(a.hi[d], b.hi[d]))
            return false;
    Var **wr = NULL;
    int nw = 0;
    for (int i = 0; i < n; i++)
        written(unit_body(&u[i]), &wr, &nw);
    for (int i = 0; i < n; i++)
        if (reads_across(unit_body(&u[i]), wr, nw))
            return false;
    return true;
}

/* Whether every write of v in n is `v = e` at its own point and level. */
static bool plain_writes(Node *n, Var *v) {
    for (; n; n = n->next) {
        if (n->kind == ND_ASSIGN && n->lhs->var == v &&
            (strcmp(n->op, "=") || n->lhs->kmode != KM_CONST || n->lhs->off[0] ||
             n->lhs->off[1] || n->lhs->off[2]))
            return false;
        if (!plain_writes(n->then, v) || !plain_writes(n->els, v) || !plain_writes(n->body, v))
            return false;
    }
    return true;
}

/* Whether temporary slot x may have no array on the device: the program is not instrumented
 * (its checks read every array), and no halo statement or callback gets it. */
static bool may_drop(Cu *c, int x) {
    return x >= c->s->nfparams && c->s->fused && !fpo_instrumented(&c->s->ins) &&
           !c->s->ins.cuda_check && !c->s->outside[x];
}

/* Whether every nest touching slot x is one of the walk's (or runs inside it). */
static bool walk_only(Cu *c, Walk *k, int x) {
    for (int e = 0; e < c->s->nusers[x]; e++) {
        Unit *v = &c->s->blocks[c->s->users[x][e].block].u[c->s->users[x][e].unit];
        if (v < k->u || v >= k->u + k->n + k->nhost)
            return false;
    }
    return true;
}

/* How many of the nests after the walk's n intervals run inside it, a thread running each at
 * every level it walks, after the walk's statements there: the PARALLEL nests pass_kcache
 * runs inside the sweep the walk is, the whole of it (FGroup.host: the sweep starts at the
 * walk's first interval, and the nest right after its last is one of them), as the C back
 * end does. Each must hold no region, lie within the walk's columns, and read what the walk
 * and the nests before it write only at its own point and level: the walk's threads do not
 * wait for each other. Not in instrumented builds (their checks name a kernel's stencil). */
static int walk_hosts(Cu *c, FGroup *G, Unit *g0, Unit *u, int n, int left) {
    Sched *s = c->s;
    if (!s->fused || !G->host || fpo_instrumented(&s->ins) || s->ins.cuda_check)
        return 0;
    int a = (int)(u - g0), h = 0;
    SBox cols = unit_cols(u);
    for (; n + h < left && fpo_nest_host(G, a + n + h) == a; h++) {
        Unit *H = &u[n + h];
        if (!H->par || fpo_c_has_region(H->st))
            break;
        bool ok = true;
        for (int d = 0; d < 2 && ok; d++)
            ok = fpo_dbound_inside(H->box.lo[d], H->box.hi[d], cols.lo[d], cols.hi[d]);
        for (int e = 0; e < H->nacc && ok; e++) {
            Acc *A = &H->acc[e];
            bool written = false;
            for (int m = 0; m < n + h && !written; m++) {
                Acc *w = fpo_unit_acc(&u[m], A->slot);
                written = w && w->write;
            }
            if (written)
                ok = A->kconst && !A->ij_only && !A->lo[0] && !A->hi[0] && !A->lo[1] &&
                     !A->hi[1] && !A->lo[2] && !A->hi[2];
        }
        if (!ok)
            break;
    }
    return h;
}

/* Whether, at every nz, each read of slot x by the walk finds its level in a register: the
 * level walked once written there, or the level d back at offset d back, walked d levels ago
 * (the levels of the walk, in its order, in `hist`). */
static bool walk_held(Walk *k, int x, int r) {
    bool fwd = walk_forward(k->u), held = true;
    for (int64_t nz = 1; nz <= NZ_CHECK && held; nz++) {
        int64_t levels = 0;   /* (the history's room: on the heap, freed each nz) */
        for (int m = 0; m < k->n; m++) {
            int64_t kb = fpo_dbound_at(k->u[m].box.lo[2], nz);
            int64_t ke = fpo_dbound_at(k->u[m].box.hi[2], nz);
            levels += ke > kb ? ke - kb : 0;
        }
        int64_t *hist = fpo_heap_new(sizeof(int64_t) * (size_t)(levels + 1));
        int nh = 0;
        for (int m = 0; m < k->n && held; m++) {
            Unit *u = &k->u[m];
            Acc *a = fpo_unit_acc(u, x);
            int64_t kb = fpo_dbound_at(u->box.lo[2], nz), ke = fpo_dbound_at(u->box.hi[2], nz);
            for (int64_t l = 0; l < ke - kb; l++) {
                int64_t lev = fwd ? kb + l : ke - 1 - l;
                for (int late = 0; late < 2; late++) {
                    int64_t *rk = late ? a->lk : a->ek;
                    for (int64_t dk = rk[0]; (late ? a->late : a->early) && dk <= rk[1]; dk++) {
                        int64_t d = fwd ? -dk : dk;
                        if (d < 0 || d > r || (d == 0 && !late) ||
                            (d > 0 && (nh < d || hist[nh - d] != lev + dk)))
                            held = false;
                    }
                }
                hist[nh++] = lev;
            }
        }
        free(hist);
    }
    return held;
}

/* The registers of stencil variable v in the walk, or false: each interval writes it with a
 * plain `v = e` at every point and level (so the registers always hold what memory would), at
 * constant K offsets only, and reads it back at most WIN_MAX levels; a value neither read
 * back nor dropped gains nothing. */
static bool walk_window(Cu *c, Walk *k, Var *v, Win *w) {
    if (v->ax != AX_IJK)
        return false;
    int x = fpo_call_slot(c->s, k->u, v);
    Decl *st = k->u->st;
    for (int i = 0; i < st->nparams + st->ntemps; i++) {   /* (one field under two names) */
        Var *o = i < st->nparams ? st->params[i] : st->temps[i - st->nparams];
        if (o != v && o->ax != AX_SCALAR && fpo_call_slot(c->s, k->u, o) == x)
            return false;
    }
    bool fwd = walk_forward(k->u), late0 = false;
    int r = 0;
    for (int m = 0; m < k->n; m++) {
        Acc *a = fpo_unit_acc(&k->u[m], x);
        if (!a || !a->write || !a->wplain || a->woff || !a->kconst || a->ij_only ||
            !plain_writes(unit_body(&k->u[m]), v))
            return false;
        int64_t back = fwd ? -a->lo[2] : a->hi[2];
        if (back > r)
            r = (int)(back < WIN_MAX + 1 ? back : WIN_MAX + 1);
        late0 |= a->late && a->lk[0] <= 0 && a->lk[1] >= 0;
    }
    if (r > WIN_MAX)
        return false;
    bool drop = may_drop(c, x) && walk_only(c, k, x) && walk_held(k, x, r);
    if (!r && !late0 && !drop)
        return false;
    *w = (Win){v, x, r, drop, fpo_new(sizeof(Var *) * (size_t)(r + 1))};
    for (int d = 0; d <= r; d++)
        w->w[d] = scalar_var(fpo_fmt("fpo_w_%s_%d", v->name, d), v->dt);
    return true;
}

/* Whether the walk reads field v only at its own point and level and no nest of it writes
 * v's slot (under any name): then the values ahead in memory stay what they are while the walk
 * runs, and loading them early gives the same bits. */
static bool walk_reads_only(Cu *c, Walk *k, Var *v) {
    if (v->ax != AX_IJK)
        return false;
    int x = fpo_call_slot(c->s, k->u, v);
    bool read = false;
    for (int m = 0; m < k->n; m++) {
        Acc *a = fpo_unit_acc(&k->u[m], x);
        if (!a)
            continue;
        if (a->write || !a->kconst || a->ij_only)
            return false;
        for (int d = 0; d < 3; d++)
            if (a->lo[d] || a->hi[d])
                return false;
        read |= a->read;
    }
    return read;
}

static void plan_ahead(Cu *c, Walk *k) {
    Decl *s = k->u->st;
    k->depth = c->ahead;
    for (int i = 0; i < s->nparams + s->ntemps && k->nahead < AHEAD_FIELDS && k->depth; i++) {
        Var *v = i < s->nparams ? s->params[i] : s->temps[i - s->nparams];
        if (!walk_reads_only(c, k, v))
            continue;
        Ahead a = {v, fpo_new(sizeof(Var *) * (size_t)k->depth)};
        for (int t = 0; t < k->depth; t++)
            a.q[t] = scalar_var(fpo_fmt("fpo_q_%s_%d", v->name, t), v->dt);
        VPUSH(k->ahead, k->nahead, a);
    }
}

/* The longest walk from nest u (of `left` nests of its group), with its registers; false
 * where u is no column kernel. Fused schedules only: the unfused reference keeps a kernel a
 * nest and every value in memory. */
static bool plan_walk(Cu *c, FGroup *G, Unit *g0, Unit *u, int left, Walk *k) {
    if (!c->s->fused || u->par || !column_kernel(u))
        return false;
    int n = 1;
    while (n < left && walk_joins(u, n + 1))
        n++;
    *k = (Walk){u, n, walk_hosts(c, G, g0, u, n, left), NULL, 0, NULL, 0, 0, 0};
    Decl *s = u->st;
    for (int i = 0; i < s->nparams + s->ntemps; i++) {
        Var *v = i < s->nparams ? s->params[i] : s->temps[i - s->nparams];
        Win w;
        if (walk_window(c, k, v, &w)) {
            VPUSH(k->win, k->nwin, w);
            if (!w.drop && w.r > k->peel)
                k->peel = w.r;
        }
    }
    plan_ahead(c, k);
    return true;
}

/* Whether the last of walks k[0 .. nk) of group G runs in the kernel of those before it, each
 * thread walking its column through them in turn (a tridiagonal solve's FORWARD elimination,
 * then its BACKWARD substitution): walks of one call over the same columns, in a column group
 * (pass_column: no slot its nests write is touched at another column, so a thread finds at
 * its column what the walks before wrote there, whatever the order of the threads). */
static bool walks_join(FGroup *G, Walk *k, int nk) {
    Walk *a = &k[0], *b = &k[nk - 1];
    if (!G->column || b->u->stage != a->u->stage)
        return false;
    SBox x = unit_cols(a->u), y = unit_cols(b->u);
    for (int d = 0; d < 2; d++)
        if (!fpo_dbound_eq(x.lo[d], y.lo[d]) || !fpo_dbound_eq(x.hi[d], y.hi[d]))
            return false;
    return true;
}

/* Statements rewritten for the registers: a write `v = e` as `fpo_w_v_0 = e; v = fpo_w_v_0;`
 * (the store left out for a dropped value), a read d levels back as fpo_w_v_d (`mem`: from
 * memory instead, for kept values), a read at the level walked after the first plain write
 * of the level as fpo_w_v_0. The same operations in the same order: the same bits. */
typedef struct Rw {
    Walk *k;
    bool mem, fwd;
    bool *after;       /* per register set: the level's first plain write is behind */
    int at;            /* the read-ahead register of the level walked (a ring's turn; 0) */
} Rw;

static Win *rw_win(Rw *r, Var *v, int *i) {
    for (*i = 0; *i < r->k->nwin; (*i)++)
        if (r->k->win[*i].v == v)
            return &r->k->win[*i];
    return NULL;
}

static Node *reg_access(Node *like, Var *w) {
    Node *m = fpo_scratch_new(sizeof *m);
    m->kind = ND_ACCESS;
    m->loc = like->loc;
    m->dt = w->dt;
    m->var = w;
    m->name = w->name;
    m->kmode = KM_CONST;
    return m;
}

static Node *rw_list(Rw *r, Node *n, bool top);

static Node *rw_node(Rw *r, Node *n, bool top) {
    Node *m = fpo_scratch_new(sizeof *m);
    *m = *n;
    m->next = NULL;
    int wi;
    Win *w;
    if (n->kind == ND_ACCESS) {
        m->kexpr = rw_list(r, n->kexpr, false);
        for (int a = 0; a < r->k->nahead; a++)
            if (r->k->ahead[a].v == n->var && n->kmode == KM_CONST && !n->off[0] &&
                !n->off[1] && !n->off[2])
                return reg_access(n, r->k->ahead[a].q[r->at]);
        if (!(w = rw_win(r, n->var, &wi)))
            return m;
        int64_t d = r->fwd ? -n->off[2] : n->off[2];
        if (d == 0 && r->after[wi])
            return reg_access(n, w->w[0]);
        if (d > 0 && (w->drop || !r->mem))
            return reg_access(n, w->w[d]);
        return m;   /* a kept value's level not in the registers: from memory */
    }
    if (n->kind == ND_ASSIGN) {
        m->rhs = rw_list(r, n->rhs, false);   /* (read before the write) */
        if (!(w = rw_win(r, n->lhs->var, &wi))) {
            m->lhs = rw_node(r, n->lhs, false);
            return m;
        }
        Node *set = fpo_scratch_new(sizeof *set);
        *set = *m;
        set->lhs = reg_access(n->lhs, w->w[0]);
        if (top)
            r->after[wi] = true;
        if (w->drop)
            return set;
        m->rhs = reg_access(n->rhs, w->w[0]);
        set->next = m;
        return set;
    }
    m->lhs = rw_list(r, n->lhs, false);
    m->rhs = rw_list(r, n->rhs, false);
    m->cond = rw_list(r, n->cond, false);
    m->then = rw_list(r, n->then, false);
    m->els = rw_list(r, n->els, false);
    m->body = rw_list(r, n->body, false);
    m->args = rw_list(r, n->args, false);
    return m;
}

static Node *rw_list(Rw *r, Node *n, bool top) {
    Node head = {0}, *t = &head;
    for (; n; n = n->next) {
        t->next = rw_node(r, n, top);
        while (t->next)
            t = t->next;
    }
    return head.next;
}

/* Unit u's statements for one level of the walk (`mem`: kept values read back from memory),
 * the level's read-ahead values in registers fpo_q_NAME_<at>. */
static Node *walk_body(Walk *k, Unit *u, bool mem, int at) {
    Rw r = {k, mem, walk_forward(k->u), fpo_scratch_new(sizeof(bool) * (size_t)(k->nwin + 1)),
            at};
    return rw_list(&r, unit_body(u), true);
}

/* Whether unit u reads a kept value back from a level before (then its first levels, until
 * the registers hold them, read memory). */
static bool unit_reads_back(Walk *k, Unit *u) {
    for (int i = 0; i < k->nwin; i++) {
        Acc *a = fpo_unit_acc(u, k->win[i].slot);
        if (!k->win[i].drop && a && (walk_forward(u) ? a->lo[2] < 0 : a->hi[2] > 0))
            return true;
    }
    return false;
}

/* The registers moved one level back, at the end of a level. */
static void walk_shift(Buf *b, Walk *k, int depth) {
    for (int i = 0; i < k->nwin; i++)
        for (int d = k->win[i].r; d >= 1; d--) {
            ind(b, depth);
            buf_printf(b, "fpo_w_%s_%d = fpo_w_%s_%d;\n", k->win[i].v->name, d,
                       k->win[i].v->name, d - 1);
        }
}

/* Read-ahead register `at` of field v loaded with the walk's level `lev`, 0 past the interval
 * (`kz`: its end, fwd; `ka`: its start). */
static void ahead_load(Buf *b, Var *v, int at, const char *lev, bool fwd, const char *ka,
                       const char *kz, int depth) {
    ind(b, depth);
    buf_printf(b, "fpo_q_%s_%d = %s %s %s ? %s[i + j * fpo_sj_%s + (%s) * fpo_sk_%s] : 0;\n",
               v->name, at, lev, fwd ? "<" : ">=", fwd ? kz : ka, fpo_c_name(v->name), v->name,
               lev, v->name);
}

/* --cuda-prefetch: L2 asked for field v's value at the walk's level `lev`, where that is in the
 * interval (the levels the walk reads it at: in the field). */
static void ahead_prefetch(Buf *b, Var *v, const char *lev, bool fwd, const char *ka,
                           const char *kz, int depth) {
    ind(b, depth);
    buf_printf(b, "if (%s %s %s)\n", lev, fwd ? "<" : ">=", fwd ? kz : ka);
    ind(b, depth + 1);
    buf_printf(b, "FPO_PREFETCH_L2_(&%s[i + j * fpo_sj_%s + (%s) * fpo_sk_%s]);\n",
               fpo_c_name(v->name), v->name, lev, v->name);
}

/* The level `d` levels on from k in the walk's order. */
static const char *walk_on(bool fwd, const char *d) {
    return fpo_fmt("k %s %s", fwd ? "+" : "-", d);
}

/* The read-ahead registers from level `k` on: all of them (`fill`, at an interval's start), or
 * moved one level on with the last loaded; with --cuda-prefetch P, L2 asked for the levels P
 * past the registers (at the start, each of them; then the one that comes into reach). */
static void walk_ahead(Cu *c, Buf *b, Walk *k, bool fwd, const char *ka, const char *kz,
                       bool fill, int depth) {
    for (int a = 0; a < k->nahead; a++) {
        Var *v = k->ahead[a].v;
        for (int t = fill ? 0 : 1; t <= k->depth; t++) {
            if (t == k->depth && fill)
                break;
            int at = fill ? t : t - 1;   /* the register set; level k + t (fwd) */
            if (!fill && t < k->depth) {
                ind(b, depth);
                buf_printf(b, "fpo_q_%s_%d = fpo_q_%s_%d;\n", v->name, at, v->name, t);
            } else {
                ahead_load(b, v, at, walk_on(fwd, fpo_fmt("%d", t)), fwd, ka, kz, depth);
            }
        }
        if (!c->prefetch)
            continue;
        if (fill) {
            ind(b, depth);   /* (a loop: unrolled, its addresses all made at once) */
            buf_add(b, "FPO_UNROLL(1)\n");
            ind(b, depth);
            buf_printf(b, "for (int fpo_p = %d; fpo_p < %d; fpo_p++)   /* toward L2 */\n",
                       k->depth, k->depth + c->prefetch);
            ahead_prefetch(b, v, walk_on(fwd, "fpo_p"), fwd, ka, kz, depth + 1);
        } else {
            ahead_prefetch(b, v, walk_on(fwd, fpo_fmt("%d", k->depth + c->prefetch)), fwd, ka,
                           kz, depth);
        }
    }
}

/* Nest H's statements with each access of a slot that `regs` names a register (regs[slot],
 * NULL where none) made an access of that register: a nest run inside a walk reads the walk's
 * registers (at its own point and level: walk_hosts), a segment's merged nests hand values
 * over at the point in registers (seg_regs). */
/* Registers by slot: slot xs[e] (xs ascending) in reg[e], or none (NULL). */
typedef struct Regs {
    const int *xs;
    int nx;
    Var *const *reg;
} Regs;

/* Slot x's place in xs[0 .. n), ascending, or -1. */
static int slot_at(const int *xs, int n, int x) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (xs[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && xs[lo] == x ? lo : -1;
}

static Var *regs_at(const Regs *r, int x) {
    int e = slot_at(r->xs, r->nx, x);
    return e >= 0 ? r->reg[e] : NULL;
}

static Node *regs_list(Sched *s, Unit *H, const Regs *regs, Node *n);

static Node *regs_node(Sched *s, Unit *H, const Regs *regs, Node *n) {
    Node *m = fpo_new(sizeof *m);
    *m = *n;
    m->next = NULL;
    if (n->kind == ND_ACCESS && n->var->ax != AX_SCALAR) {
        Var *r = regs_at(regs, fpo_call_slot(s, H, n->var));
        if (r)
            return reg_access(n, r);
    }
    m->kexpr = regs_list(s, H, regs, n->kexpr);
    m->lhs = regs_list(s, H, regs, n->lhs);
    m->rhs = regs_list(s, H, regs, n->rhs);
    m->cond = regs_list(s, H, regs, n->cond);
    m->then = regs_list(s, H, regs, n->then);
    m->els = regs_list(s, H, regs, n->els);
    m->body = regs_list(s, H, regs, n->body);
    m->args = regs_list(s, H, regs, n->args);
    return m;
}

static Node *regs_list(Sched *s, Unit *H, const Regs *regs, Node *n) {
    Node head = {0}, *t = &head;
    for (; n; n = n->next)
        t = t->next = regs_node(s, H, regs, n);
    return head.next;
}

/* Statements [first, first + count) of nest H (its statement group), rewritten (regs_node). */
static Node *regs_group(Sched *s, Unit *H, const Regs *regs) {
    Group *g = &H->si->groups[H->comp][H->iv][H->grp];
    Node head = {0}, *t = &head, *n = nth(H->st->comps[H->comp].ivs[H->iv].body, g->first);
    for (int i = 0; i < g->count; i++, n = n->next)
        t = t->next = regs_node(s, H, regs, n);
    return head.next;
}

/* The statements of host h of walk k, reading the walk's registers of the level walked. */
static Node *host_body(Cu *c, Walk *k, int h) {
    int *xs = fpo_new(sizeof(int) * (size_t)(k->nwin + 1)), n = 0;
    Var **reg = fpo_new(sizeof(Var *) * (size_t)(k->nwin + 1));
    for (int i = 0; i < k->nwin; i++) {   /* by slot, ascending (a later window of a slot wins) */
        int e = n;
        while (e > 0 && xs[e - 1] > k->win[i].slot)
            e--;
        if (e > 0 && xs[e - 1] == k->win[i].slot) {
            reg[e - 1] = k->win[i].w[0];
            continue;
        }
        memmove(xs + e + 1, xs + e, sizeof(int) * (size_t)(n - e));
        memmove(reg + e + 1, reg + e, sizeof(Var *) * (size_t)(n - e));
        xs[e] = k->win[i].slot, reg[e] = k->win[i].w[0], n++;
    }
    return regs_group(c->s, &k->u[k->n + h], &(Regs){xs, n, reg});
}

/* The nests run inside the walk, at the level walked, each on the points of its box (their
 * names from fpo_h<h0>: the hosts of the kernel's walks before it come first). */
static void emit_hosts(Cu *c, Buf *kb, Walk *k, Node **hb, unsigned char **hu, int h0, int depth) {
    for (int h = 0; h < k->nhost; h++) {
        Unit *H = &k->u[k->n + h];
        Decl *hs = H->st;
        unsigned char *used = hu[h];
        int hn = h0 + h;
        ind(kb, depth);
        buf_printf(kb, "if (fpo_h%d_at && k >= fpo_h%d_ka && k < fpo_h%d_kz) {   /* %s (%s:%d), inside "
                       "the walk */\n",
                   hn, hn, hn, hs->name, fpo_c_comment(fpo_loc_path(H->stage->loc)),
                   H->stage->loc.line);
        Buf v = {0};
        for (int i = 0; i < hs->nparams + hs->ntemps; i++) {
            Var *x = i < hs->nparams ? hs->params[i] : hs->temps[i - hs->nparams];
            if (x->ax == AX_SCALAR) {
                buf_printf(&v, "    const %s %s = fpo_h%d_%s;\n    (void)%s;\n", fpo_c_type(x->dt),
                           fpo_c_name(x->name), hn, x->name, fpo_c_name(x->name));
            } else if (used[i]) {
                buf_printf(&v, "    const fpo_field *fpo_%s = &fpo__h%d_v_%s;\n", x->name, hn, x->name);
                fpo_c_field_setup(&v, hs, x);
            }
        }
        fpo_c_indented(kb, v.s, v.len, depth);   /* (the views, inside the block) */
        fpo_c_point(kb, hs, hb[h], depth + 1, c->ctx, FPO_ONE_AT_A_TIME);
        ind(kb, depth);
        buf_add(kb, "}\n");
    }
}

/* A walk's statements for a thread: with the registers (reg), and reading kept values back
 * from memory (mem, the first levels); the nests run inside it (hb, their views used hu). */
typedef struct WalkCode {
    Node **reg, **mem, **hb;
    unsigned char **hu;
    Node ***ring;      /* --cuda-ring: ring[m][t], reg[m] with the level's read-ahead values in
                        * fpo_q_NAME_t (NULL: no ring; ring[m] NULL: interval m too short for
                        * a turn) */
} WalkCode;

static WalkCode walk_code(Cu *c, Walk *k, unsigned char *used) {
    Unit *u = k->u;
    Decl *s = u->st;
    WalkCode w = {fpo_new(sizeof(Node *) * (size_t)k->n), fpo_new(sizeof(Node *) * (size_t)k->n),
                  fpo_new(sizeof(Node *) * (size_t)(k->nhost + 1)),
                  fpo_new(sizeof(unsigned char *) * (size_t)(k->nhost + 1)), NULL};
    if (c->ring && k->nahead && k->depth > 1)
        w.ring = fpo_new(sizeof(Node **) * (size_t)k->n);
    for (int m = 0; m < k->n; m++) {
        w.reg[m] = walk_body(k, &u[m], false, 0);
        w.mem[m] = walk_body(k, &u[m], true, 0);
        DBound lo = u[m].box.lo[2], hi = u[m].box.hi[2];   /* (a turn may fit: walk_ring) */
        if (w.ring && (lo.base != hi.base || hi.off - lo.off >= k->depth)) {   /* (same views) */
            w.ring[m] = fpo_new(sizeof(Node *) * (size_t)k->depth);
            for (int t = 0; t < k->depth; t++)   /* (register 0: the level walked, reg[m]) */
                w.ring[m][t] = t ? walk_body(k, &u[m], false, t) : w.reg[m];
        }
        unsigned char *a = fpo_c_used(c->ctx, s, w.reg[m]), *e = fpo_c_used(c->ctx, s, w.mem[m]);
        for (int i = 0; i < s->nparams + s->ntemps; i++)
            used[i] |= a[i] | e[i];
    }
    for (int i = 0; i < s->nparams + s->ntemps; i++)   /* the read-ahead loads use the views */
        for (int a = 0; a < k->nahead; a++)
            used[i] |= k->ahead[a].v == (i < s->nparams ? s->params[i] : s->temps[i - s->nparams]);
    for (int h = 0; h < k->nhost; h++) {   /* each nest run inside: its statements, its views */
        w.hb[h] = host_body(c, k, h);
        w.hu[h] = fpo_c_used(c->ctx, u[k->n + h].st, w.hb[h]);
    }
    return w;
}

/* The walk's line of the kernel's comment. */
static void walk_comment(Buf *kb, Walk *k) {
    Unit *u = k->u;
    buf_printf(kb, "computation %d, interval%s %d", u->comp + 1, k->n > 1 ? "s" : "", u->iv + 1);
    if (k->n > 1)
        buf_printf(kb, "-%d", u[k->n - 1].iv + 1);
    buf_printf(kb, ": a thread a column, walking its levels %s",
               walk_forward(u) ? "upwards" : "downwards");
    for (int i = 0; i < k->nwin; i++)
        buf_printf(kb, "%s %s (%d level%s back%s)", i ? "," : "; in registers:", k->win[i].v->name,
                   k->win[i].r, k->win[i].r == 1 ? "" : "s", k->win[i].drop ? ", never stored" : "");
    for (int a = 0; a < k->nahead; a++)
        buf_printf(kb, "%s %s", a ? "," : "; read ahead:", k->ahead[a].v->name);
    if (k->nahead)
        buf_printf(kb, " (%d levels)", k->depth);
    for (int h = 0; h < k->nhost; h++)
        buf_printf(kb, "%s %s", h ? "," : "; inside it, at each level:", u[k->n + h].st->name);
}

/* One level of the walk at `depth`: statements `body`, the nests run inside it, the kept
 * values' registers moved on. */
static void walk_level(Cu *c, Buf *kb, Walk *k, WalkCode *w, Node *body, int h0, int depth) {
    fpo_c_point(kb, k->u->st, body, depth, c->ctx, FPO_ONE_AT_A_TIME);
    emit_hosts(c, kb, k, w->hb, w->hu, h0, depth);
    walk_shift(kb, k, depth);
}

/* --cuda-ring: interval m's levels a whole turn of the read-ahead registers at a time (while
 * as many are left): each level reads its values from register t of the turn and loads
 * register t with the level `depth` on, so no register moves. A move of a register whose load
 * is in flight waits for it: moved down a place a level, the registers made each level wait
 * for the load issued a level before. The loop after it walks the rest as before: a whole
 * turn leaves register t holding the level t on, as it found them. */
static void walk_ring(Cu *c, Buf *kb, Walk *k, WalkCode *w, int m, int h0, bool fwd,
                      const char *ka, const char *kz) {
    int n = k->depth;
    const char *lev = walk_on(fwd, fpo_fmt("%d", n));
    buf_printf(kb, "        for (; %s; ) {   /* %d levels a turn of the read-ahead registers */\n",
               fwd ? fpo_fmt("k + %d <= %s", n, kz) : fpo_fmt("k - %d >= %s", n - 1, ka), n);
    for (int t = 0; t < n; t++) {   /* (a block a level: the statements' own variables) */
        buf_printf(kb, "            {   /* register %d */\n", t);
        walk_level(c, kb, k, w, w->ring[m][t], h0, 4);
        for (int a = 0; a < k->nahead; a++) {
            ahead_load(kb, k->ahead[a].v, t, lev, fwd, ka, kz, 4);
            if (c->prefetch)
                ahead_prefetch(kb, k->ahead[a].v, walk_on(fwd, fpo_fmt("%d", n + c->prefetch)),
                               fwd, ka, kz, 4);
        }
        buf_printf(kb, "                %s;\n            }\n", fwd ? "k++" : "k--");
    }
    buf_add(kb, "        }\n");
}

/* A walk's part of its kernel, a thread's (one level in: the kernel's body): its registers,
 * then its intervals in turn (their bounds fpo_ka<m0 + m>, fpo_kz<m0 + m>). */
static void walk_part(Cu *c, Buf *kb, Walk *k, WalkCode *w, int h0, int m0) {
    Unit *u = k->u;
    bool fwd = walk_forward(u);
    for (int i = 0; i < k->nwin; i++)
        for (int d = 0; d <= k->win[i].r; d++)
            buf_printf(kb, "    %s fpo_w_%s_%d = 0;\n    (void)fpo_w_%s_%d;\n",
                       fpo_c_type(k->win[i].v->dt), k->win[i].v->name, d, k->win[i].v->name, d);
    for (int a = 0; a < k->nahead; a++)
        for (int t = 0; t < k->depth; t++)
            buf_printf(kb, "    %s fpo_q_%s_%d = 0;\n", fpo_c_type(k->ahead[a].v->dt),
                       k->ahead[a].v->name, t);
    if (k->peel)
        buf_add(kb, "    int fpo_n = 0;   /* levels walked in a row: the registers hold that many */\n");
    if (k->peel && k->n > 1)
        buf_add(kb, "    int64_t fpo_last = 0;   /* the level walked last */\n");
    for (int m = 0; m < k->n; m++) {
        int mn = m0 + m;
        buf_printf(kb, "    if (fpo_ka%d < fpo_kz%d) {   /* interval %d */\n", mn, mn, u[m].iv + 1);
        if (k->peel && m > 0)   /* levels of the intervals before not next to its first */
            buf_printf(kb, "        if (%s != fpo_last)\n            fpo_n = 0;\n",
                       fwd ? fpo_fmt("fpo_ka%d - 1", mn) : fpo_fmt("fpo_kz%d", mn));
        buf_printf(kb, "        int64_t k = %s;\n", fwd ? fpo_fmt("fpo_ka%d", mn) : fpo_fmt("fpo_kz%d - 1", mn));
        const char *ka = fpo_fmt("fpo_ka%d", mn), *kz = fpo_fmt("fpo_kz%d", mn);
        walk_ahead(c, kb, k, fwd, ka, kz, true, 2);
        const char *more = fwd ? fpo_fmt("k < fpo_kz%d", mn) : fpo_fmt("k >= fpo_ka%d", mn);
        const char *step = fwd ? "k++" : "k--";
        bool peel = k->peel && unit_reads_back(k, &u[m]);
        if (k->peel && !peel)   /* (nothing read back here: the levels only counted) */
            buf_printf(kb, "        fpo_n = fpo_kz%d - fpo_ka%d < %d - fpo_n ? fpo_n + (int)(fpo_kz%d - "
                           "fpo_ka%d) : %d;\n", mn, mn, k->peel, mn, mn, k->peel);
        if (peel) {
            buf_printf(kb, "        for (; %s && fpo_n < %d; %s, fpo_n++) {   /* the first levels: "
                           "read back from memory */\n", more, k->peel, step);
            walk_level(c, kb, k, w, w->mem[m], h0, 3);
            walk_ahead(c, kb, k, fwd, ka, kz, false, 3);
            buf_add(kb, "        }\n");
        }
        if (w->ring && w->ring[m])
            walk_ring(c, kb, k, w, m, h0, fwd, ka, kz);
        if (c->unroll > 1)
            buf_printf(kb, "        FPO_UNROLL(%d)\n", c->unroll);
        buf_printf(kb, "        for (; %s; %s) {\n", more, step);
        walk_level(c, kb, k, w, w->reg[m], h0, 3);
        walk_ahead(c, kb, k, fwd, ka, kz, false, 3);
        buf_add(kb, "        }\n");
        if (k->peel && k->n > 1)
            buf_printf(kb, "        fpo_last = %s;\n", fwd ? fpo_fmt("fpo_kz%d - 1", mn) : fpo_fmt("fpo_ka%d", mn));
        buf_add(kb, "    }\n");
    }
}

/* The code of walks k[0 .. nk) of one call for one kernel (walks_code): each walk's, the
 * views their statements use (of the call's stencil), and the nests run inside them, in turn
 * (fpo_h0, fpo_h1, ...), with the views each uses. */
typedef struct WalksCode {
    WalkCode *w;
    unsigned char *used;
    Unit **hosts;
    unsigned char **hu;
    int nh;
} WalksCode;

static WalksCode walks_code(Cu *c, Walk *k, int nk) {
    Decl *s = k[0].u->st;
    WalksCode t = {fpo_new(sizeof(WalkCode) * (size_t)nk),
                   fpo_new((size_t)(s->nparams + s->ntemps + 1)), NULL, NULL, 0};
    for (int q = 0; q < nk; q++) {
        t.w[q] = walk_code(c, &k[q], t.used);
        t.nh += k[q].nhost;
    }
    t.hosts = fpo_new(sizeof(Unit *) * (size_t)(t.nh + 1));
    t.hu = fpo_new(sizeof(unsigned char *) * (size_t)(t.nh + 1));
    for (int q = 0, hn = 0; q < nk; q++)
        for (int h = 0; h < k[q].nhost; h++, hn++)
            t.hosts[hn] = &k[q].u[k[q].n + h], t.hu[hn] = t.w[q].hu[h];
    return t;
}

/* The kernel's comment line of the walks (after its opening). */
static void walks_comment(Buf *kb, Walk *k, int nk) {
    for (int q = 0; q < nk; q++) {
        if (q)
            buf_add(kb, ";\n * then, in the same thread, ");
        walk_comment(kb, &k[q]);
    }
    buf_add(kb, " */\n");
}

/* The parameters of the nests run inside the walks (each followed by ", "). */
static void walks_host_params(Buf *kb, WalksCode *t) {
    for (int h = 0; h < t->nh; h++) {
        Decl *hs = t->hosts[h]->st;
        for (int i = 0; i < hs->nparams + hs->ntemps; i++) {
            Var *x = i < hs->nparams ? hs->params[i] : hs->temps[i - hs->nparams];
            if (x->ax == AX_SCALAR)
                buf_printf(kb, "%s fpo_h%d_%s, ", fpo_c_type(x->dt), h, x->name);
            else
                buf_printf(kb, "const fpo_field fpo__h%d_v_%s, ", h, x->name);
        }
    }
}

/* The walks' bounds as parameters: their columns, their intervals' levels, the boxes of the
 * nests run inside them (then the parameters end). */
static void walks_bound_params(Buf *kb, Walk *k, int nk, WalksCode *t) {
    buf_add(kb, "int64_t fpo_ib, int64_t fpo_ie, int64_t fpo_jb, int64_t fpo_je");
    for (int q = 0, mn = 0; q < nk; q++)
        for (int m = 0; m < k[q].n; m++, mn++)
            buf_printf(kb, ", int64_t fpo_ka%d, int64_t fpo_kz%d", mn, mn);
    for (int h = 0; h < t->nh; h++)
        buf_printf(kb, ", int64_t fpo_h%d_ib, int64_t fpo_h%d_ie, int64_t fpo_h%d_jb, "
                       "int64_t fpo_h%d_je, int64_t fpo_h%d_ka, int64_t fpo_h%d_kz",
                   h, h, h, h, h, h);
    buf_add(kb, ") {\n");
}

/* The views the nests run inside do not use, unused (a host's views are made inside its
 * block). */
static void walks_unused_host_views(Buf *kb, WalksCode *t) {
    for (int h = 0; h < t->nh; h++) {
        Decl *hs = t->hosts[h]->st;
        for (int i = 0; i < hs->nparams + hs->ntemps; i++) {
            Var *x = i < hs->nparams ? hs->params[i] : hs->temps[i - hs->nparams];
            if (x->ax != AX_SCALAR && !t->hu[h][i])
                buf_printf(kb, "    (void)fpo__h%d_v_%s;\n", h, x->name);
        }
    }
}

/* The launch's arguments of the walks' stencil call and of the nests run inside them (each
 * followed by ", "). */
static void walks_args(Cu *c, Buf *b, Walk *k, WalksCode *t) {
    stencil_args(c, b, k[0].u);
    for (int h = 0; h < t->nh; h++)
        stencil_args(c, b, t->hosts[h]);
}

/* ... and of their bounds (walks_bound_params; their columns' J bounds jb and je), then the
 * launch's end. */
static void walks_bound_args(Buf *b, Walk *k, int nk, WalksCode *t, const char *jb,
                             const char *je) {
    SBox x = unit_cols(k[0].u);
    buf_printf(b, "%s, %s, %s, %s", fpo_dbound_text(x.lo[0]), fpo_dbound_text(x.hi[0]), jb, je);
    for (int q = 0; q < nk; q++)
        for (int m = 0; m < k[q].n; m++)
            buf_printf(b, ", %s, %s", fpo_dbound_text(k[q].u[m].box.lo[2]),
                       fpo_dbound_text(k[q].u[m].box.hi[2]));
    for (int h = 0; h < t->nh; h++)
        for (int d = 0; d < 3; d++)
            buf_printf(b, ", %s, %s", fpo_dbound_text(t->hosts[h]->box.lo[d]),
                       fpo_dbound_text(t->hosts[h]->box.hi[d]));
    buf_add(b, "));\n");
}

/* Walks k[q0 .. nk) one after another (walk_part), `levels` levels in: each in a block of its
 * own (its registers' names may be another walk's), unless it is the kernel's only one. */
static void walks_parts(Cu *c, Buf *kb, Walk *k, int q0, int nk, WalksCode *t, int levels) {
    int h0 = 0, m0 = 0;   /* (the nests run inside, and the intervals, of the walks before) */
    for (int q = 0; q < q0; q++)
        h0 += k[q].nhost, m0 += k[q].n;
    for (int q = q0; q < nk; q++) {
        Buf part = {0};
        walk_part(c, &part, &k[q], &t->w[q], h0, m0);
        if (nk == 1) {
            fpo_c_indented(kb, part.s, part.len, levels - 1);
        } else {
            ind(kb, levels);
            buf_printf(kb, "{   /* computation %d */\n", k[q].u->comp + 1);
            fpo_c_indented(kb, part.s, part.len, levels);
            ind(kb, levels);
            buf_add(kb, "}\n");
        }
        buf_free(&part);
        h0 += k[q].nhost, m0 += k[q].n;
    }
}

/* The kernel of walks k[0 .. nk) of one call (appended to c->kernels), a thread walking its
 * column through each in turn, and its launch (to b; `chunked`, PC_CHUNK: over the columns of
 * a chunk, [fpo_cj0, fpo_cj1), emit_segment). */
static void emit_walks(Cu *c, Buf *b, Walk *k, int nk, bool chunked, int depth) {
    Unit *u = k[0].u;
    Decl *s = u->st;
    const char *name = kernel_name(c, fpo_fmt("walk%d", ++c->nwalk));
    Buf *kb = &c->kernels;
    size_t at = kb->len;
    FpoMark rewritten = fpo_scratch_mark();   /* (the walks' statements, released at the end) */
    WalksCode t = walks_code(c, k, nk);
    buf_printf(kb, "\n/* stencil %s (%s:%d), ", s->name, fpo_loc_path(s->loc), s->loc.line);
    walks_comment(kb, k, nk);
    walk_kernel_open(c, kb, name);
    stencil_params(kb, s);
    walks_host_params(kb, &t);
    buf_add(kb, "const fpo_domain fpo__dom, unsigned fpo_edges, ");
    walks_bound_params(kb, k, nk, &t);
    region_vars(kb, fpo_c_has_region(s));
    used_views(kb, s, t.used);
    walks_unused_host_views(kb, &t);
    buf_add(kb, "    const int64_t i = fpo_ib + (int64_t)(blockIdx.x * blockDim.x + threadIdx.x);\n"
                "    const int64_t j = fpo_jb + (int64_t)(blockIdx.y * blockDim.y + threadIdx.y);\n"
                "    if (i >= fpo_ie || j >= fpo_je)\n        return;\n");
    for (int h = 0; h < t.nh; h++)   /* the column is in the box of the nest run inside */
        buf_printf(kb, "    const bool fpo_h%d_at = i >= fpo_h%d_ib && i < fpo_h%d_ie && j >= "
                       "fpo_h%d_jb && j < fpo_h%d_je;\n",
                   h, h, h, h, h);
    walks_parts(c, kb, k, 0, nk, &t, 1);
    buf_add(kb, "}\n");
    name = kernel_made(c, at, name);

    SBox x = unit_cols(u);
    const char *ib = fpo_dbound_text(x.lo[0]), *ie = fpo_dbound_text(x.hi[0]);
    const char *jb = fpo_dbound_text(x.lo[1]), *je = fpo_dbound_text(x.hi[1]);
    if (chunked)
        jb = fpo_fmt("((%s) > fpo_cj0 ? (%s) : fpo_cj0)", jb, jb),
        je = fpo_fmt("((%s) < fpo_cj1 ? (%s) : fpo_cj1)", je, je);
    ind(b, depth);
    c->nlaunch++;
    buf_printf(b, "FPO_LAUNCH(fpo__cu, %s, %s, (%s) - (%s), (%s) - (%s), 1, %d, %d, (",
               what(s, u->stage->loc), name, ie, ib, je, jb, CU_BX, c->walk_rows);
    walks_args(c, b, k, &t);
    buf_add(b, "p->dom, p->edges, ");
    walks_bound_args(b, k, nk, &t, jb, je);
    fpo_scratch_release(rewritten);
}

/* ---- segment kernels: consecutive nests of a fused group in one kernel ---- */

/* How far past the tile a nest of a segment computes, below and above on I and J. */
typedef struct Margin {
    int64_t lo[2], hi[2];
} Margin;

typedef struct Seg {
    Unit *u;            /* its nests */
    int n;
    Margin *m;          /* per nest */
    int *xs, nx;        /* the slots its nests (and the walks run inside it) touch, ascending;
                         * the arrays "per slot" below are per one of these (seg_x), and a slot
                         * not among them is in none (so a segment's plan is the size of its
                         * nests, not of the program) */
    bool *shared;       /* per slot: kept in shared memory (written, then read by a later nest) */
    Margin *sm;         /* per slot: the shared tile's margins */
    int *first_w;       /* per slot: the first nest writing it (-1: none) */
    bool *global_w;     /* per slot: written back to its array (used outside the segment) */
    int ty;             /* the tile's rows */
    int bytes;          /* its shared tiles' bytes (each rounded up to 16) */
    int *item;          /* per nest: the first nest of its item, the nests that share one loop
                         * over the points (pass_merge's I-J loop), each point running them in
                         * turn */
    Var **reg;          /* per slot: the register its item's nests hand it over in (a scalar
                         * temporary of pass_shrink whose every nest is of one item), or NULL */
    bool two;           /* each shared tile twice, one a level of even k, one of odd (a fed
                         * kernel's: a level's nests write the other while a thread may still
                         * read the level before's) */
    bool *handed;       /* (two) per slot: a value the walks run inside read at their point */
    int slack;          /* the columns the last column of tiles may take past CU_TX: Cu's
                         * slack, or 0 (a fed kernel's) */
    bool *ro;           /* per slot: read through the read-only data cache (--cuda-ldg: no nest
                         * of a plain segment's kernel writes it; NULL: none) */
} Seg;

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Slot x's place among g->xs, or -1. */
static int seg_x(const Seg *g, int x) { return slot_at(g->xs, g->nx, x); }

/* The registers its merged nests hand values over in, by slot (regs_group). */
static Regs seg_regs_by_slot(const Seg *g) { return (Regs){g->xs, g->nx, g->reg}; }

/* Seg's per-slot values of slot x (those of a slot no nest of it touches: false, -1, NULL,
 * no margins). */
static bool seg_shared(const Seg *g, int x) {
    int e = seg_x(g, x);
    return e >= 0 && g->shared[e];
}

static bool seg_global_w(const Seg *g, int x) {
    int e = seg_x(g, x);
    return e >= 0 && g->global_w[e];
}

static int seg_first_w(const Seg *g, int x) {
    int e = seg_x(g, x);
    return e >= 0 ? g->first_w[e] : -1;
}

static Var *seg_reg(const Seg *g, int x) {
    int e = seg_x(g, x);
    return e >= 0 ? g->reg[e] : NULL;
}

static bool seg_handed(const Seg *g, int x) {
    int e = seg_x(g, x);
    return e >= 0 && g->handed[e];
}

static bool seg_ro(const Seg *g, int x) {
    int e = seg_x(g, x);
    return g->ro && e >= 0 && g->ro[e];
}

static Margin seg_sm(const Seg *g, int x) {
    int e = seg_x(g, x);
    return e >= 0 ? g->sm[e] : (Margin){{0, 0}, {0, 0}};
}

/* Whether a nest of the schedule outside units [u, u + n) may read what they write of slot x. */
static bool used_outside(Sched *s, Unit *u, int n, int x) {
    if (x < s->nfparams)
        return true;   /* a field of the caller */
    /* a covered stencil's own temporary starts anew at each call (pass_extent): only the
     * nests of the calls that write it here can read what they wrote (in an instrumented
     * build, the checks after each group read its array too) */
    bool own = s->covered[x] && fpo_call_local(s, x) && !fpo_instrumented(&s->ins);
    for (int q = 0; q < s->nusers[x]; q++) {   /* the nests touching x */
        Unit *v = &s->blocks[s->users[x][q].block].u[s->users[x][q].unit];
        if (v >= u && v < u + n)
            continue;
        bool same_call = !own;
        for (int e = 0; e < n && !same_call; e++)
            same_call = u[e].stage == v->stage && fpo_unit_acc(&u[e], x);
        if (same_call)
            return true;
    }
    return false;
}

/* Whether [lo, hi) on axis d lies inside box w (bounds from the same bases). */
static bool inside(SBox r, int64_t lo, int64_t hi, SBox w, int d) {
    return fpo_dbound_inside((DBound){r.lo[d].base, r.lo[d].off + lo},
                             (DBound){r.hi[d].base, r.hi[d].off + hi}, w.lo[d], w.hi[d]);
}

/* Whether a nest that writes a slot (its access a) needs the slot's old value at a point: its
 * first touch of it is not a plain `x = e` (a region, an `if`, a read before it), or it reads
 * it at another point. A nest whose first touch is `x = e` and that reads x only at its own
 * point after that (PPM's `e = bl; bl = pert_bl(bl, br)`) reads only what it wrote. */
static bool reads_old(Acc *a) {
    if (!a->plain_first)
        return true;
    for (int d = 0; d < 3; d++)
        if (a->read && (a->lo[d] || a->hi[d]))
            return true;
    return false;
}

/* The bytes of slot x's shared tile in a tile of ty rows, rounded up to 16 (the tiles of a
 * kernel's dynamic shared memory start at 16-byte offsets); tile_bytes: all its tiles' (two
 * where g->two). */
static size_t tile_one(Seg *g, int x, int ty, DType dt) {
    Margin sm = seg_sm(g, x);
    size_t b = (size_t)((CU_TX + g->slack + sm.lo[0] + sm.hi[0]) * (ty + sm.lo[1] + sm.hi[1])) *
               (dt == DT_F64 ? 8u : 4u);
    return (b + 15) / 16 * 16;
}

static size_t tile_bytes(Seg *g, int x, int ty, DType dt) {
    return tile_one(g, x, ty, dt) * (g->two ? 2 : 1);
}

/* The slots segment g's items hand over in registers (g->reg): a temporary pass_shrink made a
 * scalar (used at the point only, within one I-J loop, every point read written before), all
 * of whose nests are one item of this segment, where the program is not instrumented and no
 * halo statement or callback gets it (may_drop): no shared tile, no array. */
static void seg_regs(Cu *c, Seg *g) {
    Sched *s = c->s;
    for (int e0 = 0; e0 < g->nx; e0++) {
        int x = g->xs[e0];
        if (x < s->nfparams || s->store[x] != SK_SCALAR || !may_drop(c, x) || !s->nusers[x])
            continue;
        int item = -1;
        for (int e = 0; e < s->nusers[x] && item != -2; e++) {
            Unit *v = &s->blocks[s->users[x][e].block].u[s->users[x][e].unit];
            if (v < g->u || v >= g->u + g->n)
                item = -2;   /* a nest outside the segment */
            else
                item = item >= 0 && g->item[v - g->u] != item ? -2 : g->item[v - g->u];
        }
        if (item >= 0)
            g->reg[e0] = scalar_var(fpo_fmt("fpo_r%d_%s", x, s->slots[x]->name), s->slots[x]->dt);
    }
}

/* Plan units [u, u + n) of a fused group as one kernel; false where they cannot be one: a
 * value read at a point another block would write in the same launch, a value read that no
 * nest of the segment computed before, K ranges that differ, or too little shared memory.
 * With nw > 0, as the segment the walks of the nw nests after it run inside, level by level
 * (plan_fed): those nests are no users outside it, the values they read of it are handed over
 * in shared tiles, and the tile has a row of 64 columns for each 64 of its threads (a thread
 * a column of the walks). */
static bool plan_segment(Cu *c, Unit *u, int n, Seg *g, int nw) {
    Sched *s = c->s;
    int nx;
    int *xs = fpo_units_slots(s, u, n + nw, &nx);
    *g = (Seg){.u = u, .n = n, .m = fpo_new(sizeof(Margin) * (size_t)n), .xs = xs, .nx = nx,
               .shared = fpo_new(sizeof(bool) * (size_t)(nx + 1)),
               .sm = fpo_new(sizeof(Margin) * (size_t)(nx + 1)),
               .first_w = fpo_new(sizeof(int) * (size_t)(nx + 1)),
               .global_w = fpo_new(sizeof(bool) * (size_t)(nx + 1)), .ty = CU_TY,
               .item = fpo_new(sizeof(int) * (size_t)n),
               .reg = fpo_new(sizeof(Var *) * (size_t)(nx + 1)), .two = nw > 0,
               .handed = fpo_new(sizeof(bool) * (size_t)(nx + 1)), .slack = nw > 0 ? 0 : c->slack};
    for (int i = 1; i < n; i++)
        if (!fpo_dbound_eq(u[i].box.lo[2], u[0].box.lo[2]) ||
            !fpo_dbound_eq(u[i].box.hi[2], u[0].box.hi[2]))
            return false;
    for (int i = 0; i < n; i++)
        g->item[i] = i && u[i].loop == u[i - 1].loop ? g->item[i - 1] : i;
    seg_regs(c, g);
    for (int e = 0; e < nx; e++) {
        int x = xs[e];
        g->first_w[e] = -1;
        for (int i = 0; i < n && g->first_w[e] < 0; i++) {
            Acc *a = fpo_unit_acc(&u[i], x);
            if (a && a->write)
                g->first_w[e] = i;
        }
    }
    /* margins, from the last nest back: a nest computes what later ones read of it */
    for (int i = n - 1; i >= 0; i--)
        for (int v = i + 1; v < n; v++)
            for (int k = 0; k < u[v].nacc; k++) {
                Acc *r = &u[v].acc[k], *w = fpo_unit_acc(&u[i], r->slot);
                if (!w || !w->write || !r->read)
                    continue;
                for (int d = 0; d < 2; d++) {
                    g->m[i].lo[d] = max64(g->m[i].lo[d], g->m[v].lo[d] - r->lo[d]);
                    g->m[i].hi[d] = max64(g->m[i].hi[d], g->m[v].hi[d] + r->hi[d]);
                }
            }
    for (int e = 0; e < nx; e++) {
        int x = xs[e], w0 = g->first_w[e];
        if (w0 < 0 || g->reg[e])
            continue;
        /* a value computed past the tile (for another value a later nest reads) goes through
         * a shared tile too: only the tile's own points are written to its array */
        for (int i = 0; i < n; i++) {
            Acc *a = fpo_unit_acc(&u[i], x);
            if (a && a->write && (g->m[i].lo[0] || g->m[i].hi[0] || g->m[i].lo[1] || g->m[i].hi[1]))
                g->shared[e] = true;
        }
        for (int v = 0; v < n; v++) {
            Acc *r = fpo_unit_acc(&u[v], x);
            if (!r || !r->read)
                continue;
            if (v < w0) {
                /* read before the segment writes it: only at the block's own points */
                if (r->lo[0] || r->hi[0] || r->lo[1] || r->hi[1] || g->m[v].lo[0] ||
                    g->m[v].hi[0] || g->m[v].lo[1] || g->m[v].hi[1])
                    return false;
                continue;
            }
            if (v == w0)
                continue;   /* its own point (rule 2), loaded before it is written */
            g->shared[e] = true;
            /* every point read was computed by a nest of the segment: a covered temporary
             * (pass_extent), or the first writer's plain box holds the reads */
            Acc *w = fpo_unit_acc(&u[w0], x);
            if (!s->covered[x] &&
                !(w->plain_first && inside(u[v].box, r->lo[0], r->hi[0], u[w0].box, 0) &&
                  inside(u[v].box, r->lo[1], r->hi[1], u[w0].box, 1)))
                return false;
        }
        for (int v = n; v < n + nw; v++)   /* read by a walk run inside (plan_fed) */
            g->handed[e] |= fpo_unit_acc(&u[v], x) != NULL;
        g->shared[e] |= g->handed[e];
        if (g->shared[e])
            for (int i = 0; i < n; i++) {
                Acc *a = fpo_unit_acc(&u[i], x);
                if (a && a->write)
                    for (int d = 0; d < 2; d++) {
                        g->sm[e].lo[d] = max64(g->sm[e].lo[d], g->m[i].lo[d]);
                        g->sm[e].hi[d] = max64(g->sm[e].hi[d], g->m[i].hi[d]);
                    }
            }
        g->global_w[e] = used_outside(s, u, n + nw, x);
        /* a first writer that starts from the array's values where it computes past its tile
         * would read what other blocks write back in the same launch */
        Acc *w = fpo_unit_acc(&u[w0], x);
        if (g->shared[e] && g->global_w[e] && reads_old(w) &&
            (g->m[w0].lo[0] || g->m[w0].hi[0] || g->m[w0].lo[1] || g->m[w0].hi[1]))
            return false;
    }
    /* the kernel's parameters: a field a slot, the nests' scalars and boxes (CUDA takes 4 KB) */
    size_t pbytes = 64;
    for (int e = 0; e < nx; e++)
        for (int i = 0; i < n; i++)
            if (fpo_unit_acc(&u[i], xs[e])) {
                pbytes += sizeof(int64_t) * 12;
                break;
            }
    for (int i = 0; i < n; i++)
        pbytes += sizeof(int64_t) * (size_t)(4 + u[i].st->nparams);
    if (pbytes > 4000)
        return false;
    /* the tile's rows: the least work among those whose shared tiles fit (a walk's: as many
     * rows of 64 columns as threads) */
    double best = 0;
    int fed_ty = c->threads / CU_TX;
    for (int ty = nw ? fed_ty : c->rows; ty >= 1; ty = nw ? 0 : ty / 2) {
        size_t bytes = 0;
        for (int e = 0; e < nx; e++)
            if (g->shared[e])
                bytes += tile_bytes(g, xs[e], ty, s->slots[xs[e]]->dt);
        double work = 0;
        for (int i = 0; i < n; i++)
            work += (double)((CU_TX + g->m[i].lo[0] + g->m[i].hi[0]) *
                             (ty + g->m[i].lo[1] + g->m[i].hi[1])) /
                    (double)(CU_TX * ty * n);
        if (bytes <= (size_t)c->shared && (!best || work < best))
            best = work, g->ty = ty, g->bytes = (int)bytes;
    }
    return best && best <= CU_WORK;
}

/* The view a stencil variable v of nest i has in the segment kernel: its slot's shared tile
 * once a nest before it (or it) wrote it there, else the slot's array. */
static void seg_view(Cu *c, Buf *b, Seg *g, int i, Var *v, int depth) {
    int x = fpo_call_slot(c->s, &g->u[i], v);
    const char *t = fpo_c_type(v->dt), *n = fpo_c_name(v->name);
    ind(b, depth);
    /* restrict, as the C back end's views (a nest's views are distinct arrays); an array the
     * kernel only reads, through the read-only data cache (--cuda-ldg) */
    if (seg_shared(g, x) && seg_first_w(g, x) <= i)
        buf_printf(b, "%s *restrict const %s = fpo_sv%d;\n", t, n, x);
    else if (seg_ro(g, x))
        buf_printf(b, "FPO_READ_ONLY_(%s, %s, fpo_g%d);\n", t, n, x);
    else
        buf_printf(b, "%s *restrict const %s = fpo_g%d;\n", t, n, x);
    ind(b, depth);
    if (seg_shared(g, x) && seg_first_w(g, x) <= i)
        buf_printf(b, "const int fpo_sj_%s = fpo_ssj%d, fpo_sk_%s = 0;\n", v->name, x, v->name);
    else
        buf_printf(b, "const int fpo_sj_%s = fpo_gsj%d;\n%*sconst int64_t fpo_sk_%s = fpo_gsk%d;\n",
                   v->name, x, 4 * depth, "", v->name, x);
    ind(b, depth);
    buf_printf(b, "(void)%s, (void)fpo_sj_%s, (void)fpo_sk_%s;\n", n, v->name, v->name);
}

static bool seg_regions(Seg *g) {
    for (int i = 0; i < g->n; i++)
        if (fpo_c_has_region(g->u[i].st))
            return true;
    return false;
}

/* Whether nest i of the segment writes slot x's shared tile back to its array (at the tile's
 * own points: the value is used outside the segment). */
static bool writes_back(Seg *g, int i, int x) {
    Acc *a = fpo_unit_acc(&g->u[i], x);
    return seg_shared(g, x) && seg_global_w(g, x) && a && a->write;
}

/* Whether slot x lives in the segment's shared tiles only: a temporary no nest outside the
 * segment uses, whose first writer starts from nothing in its array (a plain first write, no
 * read of it there), read by no nest before that one. */
static bool seg_only(Cu *c, Seg *g, int x) {
    if (!may_drop(c, x) || !seg_shared(g, x) || seg_global_w(g, x))
        return false;
    int w0 = seg_first_w(g, x);
    Acc *a = fpo_unit_acc(&g->u[w0], x);
    if (reads_old(a))
        return false;
    for (int i = 0; i < w0; i++)
        if (fpo_unit_acc(&g->u[i], x))
            return false;
    return true;
}

/* Slot x's shared tile in the segment's kernel, where it has one: its storage and row (into k),
 * its view (fpo_sv: into k, or where its tiles are two, g->two, into `level`, the one of level
 * k's parity). */
static void shared_tile(Buf *k, Buf *level, Seg *g, int x, DType dt, int *off) {
    const char *t = fpo_c_type(dt);
    if (!seg_shared(g, x))
        return;
    Margin m = seg_sm(g, x);
    int64_t w = CU_TX + g->slack + m.lo[0] + m.hi[0], h = g->ty + m.lo[1] + m.hi[1];
    int64_t one = (int64_t)tile_one(g, x, g->ty, dt) / (dt == DT_F64 ? 8 : 4);
    int64_t all = g->two ? 2 * one : w * h;   /* elements (two tiles: each 16-byte aligned) */
    if (g->bytes > CU_STATIC) {   /* carved from the block's dynamic shared memory */
        buf_printf(k, "    %s *const fpo_sh%d = (%s *)(fpo_dsh_ + %d);   /* %lld elements */\n",
                   t, x, t, *off, (long long)all);
        *off += (int)tile_bytes(g, x, g->ty, dt);
    } else {
        buf_printf(k, "    __shared__ %s fpo_sh%d[%lld];\n", t, x, (long long)all);
    }
    buf_printf(k, "    const int fpo_ssj%d = %lld;\n", x, (long long)w);
    if (g->two)
        buf_printf(level, "    %s *const fpo_sv%d = fpo_sh%d + (k & 1) * %lld - ((fpo_ti0 - %lld) + "
                          "(fpo_tj0 - %lld) * fpo_ssj%d);   /* level k's tile */\n",
                   t, x, x, (long long)one, (long long)m.lo[0], (long long)m.lo[1], x);
    else
        buf_printf(k, "    %s *const fpo_sv%d = fpo_sh%d - ((fpo_ti0 - %lld) + (fpo_tj0 - %lld) * "
                      "fpo_ssj%d);\n",
                   t, x, x, (long long)m.lo[0], (long long)m.lo[1], x);
}

/* Whether nest i of the segment starts each point of slot x's shared tile from its array: it
 * writes x there first, and reads it or may leave points unwritten (a region, an if). */
static bool loads_first(Seg *g, int i, int x) {
    Acc *a = fpo_unit_acc(&g->u[i], x);
    return seg_shared(g, x) && seg_first_w(g, x) == i && a && reads_old(a);
}

/* Whether nest i of the segment reads slot x (in its shared tile or its array). */
static bool seg_reads(Seg *g, int i, int x) {
    Acc *a = fpo_unit_acc(&g->u[i], x);
    return a && (a->read || loads_first(g, i, x));
}

/* Whether nest i of the segment must run after nest j's points are all done (j < i): one of
 * them writes a slot the other reads or writes, and another thread may compute the point. */
static bool depends(Seg *g, int i, int j) {
    for (int q = 0; q < g->u[i].nacc; q++) {
        int x = g->u[i].acc[q].slot;
        Acc *a = &g->u[i].acc[q], *b = fpo_unit_acc(&g->u[j], x);
        if (a && b && (a->write || (b->write && seg_reads(g, i, x))))
            return true;
    }
    return false;
}


/* The end of the item that starts at nest i. */
static int item_end(Seg *g, int i) {
    int e = i + 1;
    while (e < g->n && g->item[e] == i)
        e++;
    return e;
}

/* Whether a nest of the item that starts at nest i runs (runs[n]: nest n does). */
static bool item_runs(Seg *g, int i, const bool *runs) {
    for (int n = i; n < item_end(g, i); n++)
        if (runs[n])
            return true;
    return false;
}

/* Whether item i of the segment must run after item j's points are all done (j < i): a nest
 * of one depends on a nest of the other (depends). */
static bool item_depends(Seg *g, int i, int j) {
    for (int a = i; a < item_end(g, i); a++)
        for (int b = j; b < item_end(g, j); b++)
            if (depends(g, a, b))
                return true;
    return false;
}

/* The items that run, in phases: an item's phase is one past the latest of the items before
 * it that it depends on (0 where none), and a barrier (__syncthreads) separates the phases.
 * The threads of a phase run its items together (FPO_PHASE_: in the emulated build one thread
 * after another, so a barrier missing changes the bits). A nest the variant left nothing to
 * do (runs[n] false) is left out, an item none of whose nests runs too. The phase of each
 * item in phase[] (at its first nest; zeroed by the caller), the last phase returned (-1:
 * none). */
static int item_phases(Seg *g, const bool *runs, int *phase) {
    int last = -1;
    for (int i = 0; i < g->n; i = item_end(g, i)) {
        if (!item_runs(g, i, runs))
            continue;
        for (int j = 0; j < i; j = item_end(g, j))
            if (item_runs(g, j, runs) && phase[j] >= phase[i] && item_depends(g, i, j))
                phase[i] = phase[j] + 1;
        last = phase[i] > last ? phase[i] : last;
    }
    return last;
}

/* The phases' text: each phase the items in it (`phase`, `last`: item_phases), a barrier
 * between two; with `open`, the last phase's block left open (a fed kernel's walk runs in it,
 * seg_own). */
static void emit_phases(Buf *k, Seg *g, Buf *nests, const bool *runs, const int *phase,
                        int last, bool open) {
    for (int n = 0; n < g->n; n++)
        if (!runs[n]) {
            Decl *st = g->u[n].st;
            buf_printf(k, "    /* %s: nothing in this variant */\n    (void)fpo_ib%d, (void)fpo_ie%d, "
                          "(void)fpo_jb%d, (void)fpo_je%d;\n",
                       st->name, n, n, n, n);
            for (int a = 0; a < st->nparams; a++)
                if (st->params[a]->ax == AX_SCALAR)
                    buf_printf(k, "    (void)fpo__s%d_%s;\n", n, st->params[a]->name);
        }
    for (int p = 0; p <= last; p++) {
        buf_printf(k, "%s    FPO_PHASE_(fpo_nt) {   /* phase %d:", p ? "    __syncthreads();\n" : "",
                   p + 1);
        for (int i = 0; i < g->n; i = item_end(g, i))
            for (int n = i; phase[i] == p && n < item_end(g, i); n++)
                if (runs[n])
                    buf_printf(k, " %s", g->u[n].st->name);
        buf_add(k, " */\n");
        for (int i = 0; i < g->n; i = item_end(g, i))
            if (item_runs(g, i, runs) && phase[i] == p)
                fpo_c_indented(k, nests[i].s, nests[i].len, 1);
        if (p < last || !open)
            buf_add(k, "    }\n");
    }
}

/* The loop of a segment nest over a thread's points (`point`: what each runs, at i and j, for
 * rows of fpo_ni points, fpo_np in all; w: the widened tile's row).
 * - A row of the tile's 64 (everywhere but at a domain's edge, for a nest that computes no
 *   column past the tile) where the threads are a multiple of 64: a thread keeps its column
 *   and steps nt / 64 rows, so an access's offset grows by a constant.
 * - Else blockDim.x apart in the nest's rows: the first point found by one division (by a
 *   constant where the row is w), each next by adding (fpo_di, fpo_dj) with a carry into the
 *   next row; no division a point (a tile's points fit an int). */
static void emit_points(Cu *c, Buf *nb, int64_t w, Buf *point) {
    Buf any = {0};
    bool columns = w == CU_TX && c->threads % CU_TX == 0;
    buf_add(&any, "        const int fpo_row = fpo_ni > 0 ? fpo_ni : 1;\n"
                  "        int fpo_di, fpo_dj, fpo_pi, fpo_pj;\n");
    if (!columns)
        buf_printf(&any, "        if (fpo_row == %lld) {   /* the widened tile's whole row: "
                         "divisions by a constant */\n"
                         "            fpo_di = fpo_nt %% %lld, fpo_dj = fpo_nt / %lld;\n"
                         "            fpo_pi = (int)threadIdx.x %% %lld, fpo_pj = (int)threadIdx.x / "
                         "%lld;\n"
                         "        } else {\n",
                   (long long)w, (long long)w, (long long)w, (long long)w, (long long)w);
    buf_printf(&any, "%s        fpo_di = fpo_nt %% fpo_row, fpo_dj = fpo_nt / fpo_row;\n"
                     "%s        fpo_pi = (int)threadIdx.x %% fpo_row, fpo_pj = (int)threadIdx.x / "
                     "fpo_row;\n%s",
               columns ? "" : "    ", columns ? "" : "    ", columns ? "" : "        }\n");
    if (c->unroll > 1)   /* several points in flight */
        buf_printf(&any, "        FPO_UNROLL(%d)\n", c->unroll);
    buf_add(&any, "        for (int fpo_t = (int)threadIdx.x; fpo_t < fpo_np; fpo_t += fpo_nt,\n"
                  "                 fpo_pi += fpo_di, fpo_pj += fpo_dj + (fpo_pi >= fpo_row),\n"
                  "                 fpo_pi -= fpo_pi >= fpo_row ? fpo_row : 0) {\n"
                  "            const int i = fpo_a + fpo_pi, j = fpo_c + fpo_pj;\n"
                  "            (void)i, (void)j;\n");
    buf_addn(&any, point->s, point->len);
    buf_add(&any, "        }\n");
    if (!columns) {
        buf_addn(nb, any.s, any.len);
        return;
    }
    buf_printf(nb, "        if (fpo_ni == %d) {   /* the tile's whole row: a thread keeps its column, "
                   "%d rows a step */\n"
                   "            const int i = fpo_a + (int)threadIdx.x %% %d;\n"
                   "            (void)i;\n",
               CU_TX, c->threads / CU_TX, CU_TX);
    if (c->unroll > 1)
        buf_printf(nb, "            FPO_UNROLL(%d)\n", c->unroll);
    buf_printf(nb, "            for (int j = fpo_c + (int)threadIdx.x / %d; j < fpo_d; j += %d) {\n",
               CU_TX, c->threads / CU_TX);
    fpo_c_indented(nb, point->s, point->len, 1);
    buf_add(nb, "            }\n        } else {\n");
    fpo_c_indented(nb, any.s, any.len, 1);
    buf_add(nb, "        }\n");
}

/* The points nest i computes in the tile, [fpo_a, fpo_b) x [fpo_c, fpo_d) (each name followed
 * by `sfx`): its box, cut to the tile widened by its margins. */
/* The column `past` columns past the block's tile in I, as generated code: from fpo_ti1 (the
 * tile's end, seg_tile_origin) where the last column of tiles may be wider, else from
 * fpo_ti0. */
static const char *tile_end(Seg *g, int64_t past) {
    return g->slack ? fpo_fmt("fpo_ti1 + %lld", (long long)past)
                    : fpo_fmt("fpo_ti0 + %lld", (long long)(CU_TX + past));
}

static void unit_range(Buf *nb, Seg *g, int i, const char *sfx) {
    Margin *m = &g->m[i];
    const char *end = tile_end(g, m->hi[0]);
    buf_printf(nb, "        const int fpo_a%s = fpo_ti0 - %lld > fpo_ib%d ? fpo_ti0 - %lld : fpo_ib%d;\n",
               sfx, (long long)m->lo[0], i, (long long)m->lo[0], i);
    buf_printf(nb, "        const int fpo_b%s = %s < fpo_ie%d ? %s : fpo_ie%d;\n", sfx, end, i, end,
               i);
    buf_printf(nb, "        const int fpo_c%s = fpo_tj0 - %lld > fpo_jb%d ? fpo_tj0 - %lld : fpo_jb%d;\n",
               sfx, (long long)m->lo[1], i, (long long)m->lo[1], i);
    buf_printf(nb, "        const int fpo_d%s = fpo_tj0 + %lld < fpo_je%d ? fpo_tj0 + %lld : fpo_je%d;\n",
               sfx, (long long)(g->ty + m->hi[1]), i, (long long)(g->ty + m->hi[1]), i);
}

/* Nest i's part of a point: its statements at i and j (`point`, three levels in), the values
 * its item hands over in registers read and written there; and what they need set up before
 * (its scalar arguments and views, `setup`, two levels in); `drop`: FPO_DROP_* where the
 * tile holds no point of the edge regions they leave out. Whether the variant left it
 * anything to do: a nest with no statement here (its regions lie elsewhere) and that starts
 * no point from an array does not run (what it would write back, the nests before it wrote
 * back already). */
static bool unit_point(Cu *c, Seg *g, int i, Buf *setup, Buf *point, unsigned drop) {
    Sched *s = c->s;
    Unit *u = &g->u[i];
    Decl *st = u->st;
    Regs regs = seg_regs_by_slot(g);
    Node *body = regs_group(s, u, &regs);
    for (int a = 0; a < st->nparams; a++)
        if (st->params[a]->ax == AX_SCALAR)
            buf_printf(setup, "        const %s %s = fpo__s%d_%s;\n        (void)%s;\n",
                       fpo_c_type(st->params[a]->dt), fpo_c_name(st->params[a]->name), i,
                       st->params[a]->name, fpo_c_name(st->params[a]->name));
    unsigned char *used = fpo_c_used(c->ctx, st, body);
    for (int a = 0; a < st->nparams + st->ntemps; a++) {
        Var *v = a < st->nparams ? st->params[a] : st->temps[a - st->nparams];
        if (v->ax != AX_SCALAR && used[a])
            seg_view(c, setup, g, i, v, 2);
    }
    /* the first writer of a shared slot that needs its old value (reads_old) starts from the
     * array's value there */
    bool runs = fpo_c_emits(c->ctx, body, FPO_ONE_AT_A_TIME | FPO_AT_LEVEL | drop);
    for (int q = 0; q < g->nx; q++) {
        int x = g->xs[q];
        if (loads_first(g, i, x)) {
            buf_printf(point, "            fpo_sv%d[i + j * fpo_ssj%d] = fpo_g%d[i + j * "
                              "fpo_gsj%d];\n",
                       x, x, x, x);
            runs = true;
        }
    }
    fpo_c_point(point, st, body, 3, c->ctx, FPO_ONE_AT_A_TIME | FPO_AT_LEVEL | drop);
    /* what it wrote to shared tiles, back to the arrays at the tile's own points */
    Buf back = {0};
    for (int q = 0; q < g->nx; q++) {
        int x = g->xs[q];
        if (writes_back(g, i, x))
            buf_printf(&back, "                fpo_g%d[i + j * fpo_gsj%d] = fpo_sv%d[i + j * "
                              "fpo_ssj%d];\n",
                       x, x, x, x);
    }
    if (back.len)
        buf_printf(point, "            if (i >= fpo_ti0 && i < %s && j >= fpo_tj0 && "
                          "j < fpo_tj0 + %d) {   /* the tile's own point */\n%s            }\n",
                   g->slack ? "fpo_ti1" : fpo_fmt("fpo_ti0 + %d", CU_TX), g->ty, back.s);
    return runs;
}

/* Nest i's point (unit_point) and, where the build splits loops at edge regions (--cuda-rim),
 * its point without the regions FPO_DROP_WE | FPO_DROP_SN leave out (`inner`; the same text
 * where the nest has no region): whether it runs, and in *here whether it runs without them
 * (false where no loop is split: `inner` is not read then). */
static bool unit_points(Cu *c, Seg *g, int i, Buf *setup, Buf *point, Buf *inner, bool *here) {
    size_t at = point->len;   /* (what it held before) */
    bool runs = unit_point(c, g, i, setup, point, 0);
    *here = false;
    if (c->rim == FPO_RIM_OFF)
        return runs;
    if (!fpo_c_has_region(g->u[i].st)) {
        buf_addn(inner, point->s ? point->s + at : "", point->len - at);
        *here = runs;
        return runs;
    }
    Buf again = {0};   /* (the same set-up) */
    *here = unit_point(c, g, i, &again, inner, FPO_DROP_WE | FPO_DROP_SN);
    return runs;
}

/* Whether nest a of a segment reaches at least as far as nest b on side `side` of the tile
 * (0, 1: I below, above; 2, 3: J), in every tile: as wide a margin there, and its box's bound
 * as far out (from the same base). */
static bool reaches(Seg *g, int a, int b, int side) {
    int d = side / 2;
    DBound x = side % 2 ? g->u[a].box.hi[d] : g->u[a].box.lo[d];
    DBound y = side % 2 ? g->u[b].box.hi[d] : g->u[b].box.lo[d];
    if (x.base != y.base)
        return false;
    if (side % 2)
        return g->m[a].hi[d] >= g->m[b].hi[d] && x.off >= y.off;
    return g->m[a].lo[d] >= g->m[b].lo[d] && x.off <= y.off;
}

/* The loop of the item that starts at nest i (into nb; emit_item): its points (`point`, rows
 * `w` wide at most), or where `split`, the tile's points tested once against the edge regions
 * of its nests (fpo_c_rim), the loop over `point` where they hold some and over `inner` (the
 * points without those regions; `inside`: a nest runs there) where they hold none. Where a
 * nest is edge regions only (the chain's edges_x), a tile that holds none of them (most, in a
 * variant of edges) so runs no test of it a point (--cuda-rim nests); nests with other
 * statements keep their tests unless --cuda-rim all: a loop without them, the kernel's other
 * path, may take the kernel more registers than its tests cost (the transport step's
 * xppm_mono 86 instead of 76, sm_90). Off by default: on an H200 the chain's split loop was
 * slower at the same occupancy (docs/cuda.md, "Edge regions split off, measured"). */
static void item_loop(Cu *c, Seg *g, int i, Buf *nb, const bool *runs, bool split, bool inside,
                      Buf *point, Buf *inner, int64_t w) {
    Buf rim = {0};   /* whether the tile's points hold an edge region's */
    const char *sep = "", *const box[4] = {"fpo_a", "fpo_b", "fpo_c", "fpo_d"};
    Regs regs = seg_regs_by_slot(g);
    if (split)
        for (int n = i; n < item_end(g, i); n++)
            if (runs[n])
                fpo_c_rim(&rim, c->ctx, regs_group(c->s, &g->u[n], &regs), box, &sep);
    if (!rim.len) {
        emit_points(c, nb, w, point);
        return;
    }
    Buf all = {0}, in = {0};
    emit_points(c, &all, w, point);
    buf_printf(nb, "        if (%s) {   /* the tile holds points of edge regions */\n", rim.s);
    fpo_c_indented(nb, all.s, all.len, 1);
    buf_add(nb, "        } else {   /* none */\n");
    if (inside) {
        emit_points(c, &in, w, inner);
        fpo_c_indented(nb, in.s, in.len, 1);
    }
    buf_add(nb, "        }\n");
}

/* The item of nests [i, item_end) as one loop over its points (into nb; runs[n]: whether nest
 * n runs). One nest: its range and set-up, then its loop. Several:
 * each nest's range (fpo_a<n>, ...), the loop over their union, and at each point the
 * registers the nests hand values over in (g->reg: zero at each point, as the C back end's
 * scalars), then each nest in a block of its own (its set-up there: the nests' names may
 * clash), behind a test of each side where another nest of the item may reach further. */
static void emit_item(Cu *c, Seg *g, int i, Buf *nb, bool *runs, bool own) {
    Sched *s = c->s;
    int e = item_end(g, i);
    int64_t mlo = 0, mhi = 0;
    for (int n = i; n < e; n++) {
        mlo = max64(mlo, g->m[n].lo[0]);
        mhi = max64(mhi, g->m[n].hi[0]);
    }
    buf_add(nb, "    {   /* ");
    for (int n = i; n < e; n++)
        buf_printf(nb, "%s%s (%s:%d)", n > i ? ", " : "", g->u[n].st->name,
                   fpo_loc_path(g->u[n].stage->loc), g->u[n].stage->loc.line);
    if (e - i > 1)
        buf_add(nb, ": one loop over their points, each");
    for (int n = i; n < e; n++) {
        Margin *m = &g->m[n];
        if (n == i || memcmp(m, &g->m[n - 1], sizeof *m))
            buf_printf(nb, "%s the tile widened by i -%lld..+%lld, j -%lld..+%lld",
                       n > i ? ";" : ":", (long long)m->lo[0], (long long)m->hi[0],
                       (long long)m->lo[1], (long long)m->hi[1]);
    }
    buf_add(nb, " */\n");
    Buf point = {0}, inner = {0};   /* a point; one where no edge region holds */
    for (int q = 0; q < g->nx; q++) {   /* the registers its nests hand values over in */
        int x = g->xs[q];
        for (int n = i; n < e && g->reg[q]; n++)
            if (fpo_unit_acc(&g->u[n], x)) {
                buf_printf(&point, "            %s %s = 0;\n            (void)%s;\n",
                           fpo_c_type(s->slots[x]->dt), g->reg[q]->name, g->reg[q]->name);
                break;
            }
    }
    buf_addn(&inner, point.s ? point.s : "", point.len);
    if (e - i == 1) {
        unit_range(nb, g, i, "");
    } else {
        for (int n = i; n < e; n++)
            unit_range(nb, g, n, fpo_fmt("%d", n));
        buf_printf(nb, "        int fpo_a = fpo_a%d, fpo_b = fpo_b%d, fpo_c = fpo_c%d, fpo_d = "
                       "fpo_d%d;   /* their union */\n",
                   i, i, i, i);
        for (int n = i + 1; n < e; n++)
            buf_printf(nb, "        fpo_a = fpo_a%d < fpo_a ? fpo_a%d : fpo_a, fpo_b = fpo_b%d > fpo_b "
                           "? fpo_b%d : fpo_b;\n        fpo_c = fpo_c%d < fpo_c ? fpo_c%d : fpo_c, "
                           "fpo_d = fpo_d%d > fpo_d ? fpo_d%d : fpo_d;\n",
                       n, n, n, n, n, n, n, n);
    }
    buf_add(nb, "        const int fpo_ni = fpo_b - fpo_a, fpo_np = fpo_ni > 0 && fpo_d > fpo_c ? "
                "fpo_ni * (fpo_d - fpo_c) : 0;\n");
    if (own)   /* (the same for every thread of the block) */
        buf_add(nb, "        fpo_own = fpo_ni == 64 && fpo_c == fpo_tj0;   /* a thread computes "
                    "the points of its column */\n");
    bool inside = false, gone = false;   /* a nest runs, a nest that runs does not, where no
                                          * edge region holds */
    if (e - i == 1) {   /* its set-up before its loop */
        runs[i] = unit_points(c, g, i, nb, &point, &inner, &inside);
        gone = runs[i] && !inside;
    } else {
        for (int n = i; n < e; n++) {
            Buf setup = {0}, pt = {0}, in = {0};
            bool here;
            runs[n] = unit_points(c, g, n, &setup, &pt, &in, &here);
            inside |= here;
            gone |= runs[n] && !here;
            if (!runs[n])
                continue;
            static const char *test[] = {"i >= fpo_a", "i < fpo_b", "j >= fpo_c", "j < fpo_d"};
            Buf guard = {0};
            for (int side = 0; side < 4; side++) {   /* (a nest that reaches furthest: none) */
                bool widest = true;
                for (int o = i; o < e; o++)
                    widest &= reaches(g, n, o, side);
                if (!widest)
                    buf_printf(&guard, "%s%s%d", guard.len ? " && " : "", test[side], n);
            }
            for (int v = 0; v < 1 + here; v++) {
                Buf *to = v ? &inner : &point, *body = v ? &in : &pt;
                if (guard.len)
                    buf_printf(to, "            if (%s) {   /* %s, at its points */\n", guard.s,
                               g->u[n].st->name);
                else
                    buf_printf(to, "            {   /* %s */\n", g->u[n].st->name);
                fpo_c_indented(to, setup.s ? setup.s : "", setup.len, 2);
                fpo_c_indented(to, body->s ? body->s : "", body->len, 1);
                buf_add(to, "            }\n");
            }
        }
    }
    bool split = c->rim == FPO_RIM_ALL || (c->rim == FPO_RIM_NESTS && gone);
    if (item_runs(g, i, runs))
        item_loop(c, g, i, nb, runs, split, inside, &point, &inner, CU_TX + mlo + mhi);
    buf_add(nb, "    }\n");
}

/* The item after whose points, in the same phase, a fed kernel's walk can run at each
 * thread's column without a barrier between (-1: none): the one item of the last phase that
 * writes values the walk reads (the others are written before that phase's barrier), whose
 * loop can give thread t the tile's point (t % 64, t / 64) as the walk does (no margin past
 * the tile's row: emit_points' column loop, one row a thread); at run time that holds where
 * its rows begin at the tile's (fpo_own). Only where a level keeps a barrier besides (two
 * phases at least): a thread may then run ahead into the next level's first phase, which
 * writes the other of each shared tile's two, but no further. */
static int seg_own(Cu *c, Seg *g, const bool *runs, const int *phase, int last) {
    if (!g->two || last < 1 || c->threads % CU_TX || c->threads / CU_TX != g->ty)
        return -1;
    int own = -1;
    for (int i = 0; i < g->n; i = item_end(g, i)) {
        if (!item_runs(g, i, runs) || phase[i] != last)
            continue;
        bool hands = false;
        for (int n = i; n < item_end(g, i); n++)
            for (int a = 0; a < g->u[n].nacc; a++)
                hands |= g->u[n].acc[a].write && seg_handed(g, g->u[n].acc[a].slot);
        if (!hands)
            continue;
        if (own >= 0)
            return -1;   /* two items of the phase hand values over */
        own = i;
    }
    for (int n = own; n >= 0 && n < item_end(g, own); n++)
        if (g->m[n].lo[0] || g->m[n].hi[0] || g->m[n].lo[1] || g->m[n].hi[1])
            return -1;
    return own;
}

/* A segment kernel's text (seg_text): its parameters (each followed by ", "); what its
 * arrays and shared tiles need set up (`slots`, after the tile's origin and fpo_nt); each
 * array's view at level k where a block computes several levels in turn (`level`,
 * `perlevel`); a level's phases; whether a nest of it runs in this variant. For the segment's
 * own kernel (emit_segment) or a walk's that runs it at each level walked (emit_fed). */
typedef struct SegText {
    Buf params, slots, level, phases;
    bool own;        /* the last phase left open: a fed kernel's walk runs in it where the item
                      * that computes what the walk reads gives each thread its column's points
                      * (fpo_own, seg_own) */
    Buf tiles;       /* (g->two) the shared tiles' views at level k, for the level and the walk */
    bool *touched;   /* per slot: a nest of the segment uses it (a field parameter, seg_args) */
    bool any;
} SegText;

static SegText seg_text(Cu *c, Seg *g, bool perlevel) {
    Sched *s = c->s;
    SegText t = {0};
    bool *touched = t.touched = fpo_new(sizeof(bool) * (size_t)(g->nx + 1));   /* per g->xs */
    for (int i = 0; i < g->n; i++)
        for (int a = 0; a < g->u[i].nacc; a++)
            touched[seg_x(g, g->u[i].acc[a].slot)] = true;
    for (int q = 0; q < g->nx; q++)
        if (touched[q])
            buf_printf(&t.params, "const fpo_field fpo__f%d, ", g->xs[q]);
    for (int i = 0; i < g->n; i++) {
        Decl *st = g->u[i].st;
        for (int a = 0; a < st->nparams; a++)
            if (st->params[a]->ax == AX_SCALAR)
                buf_printf(&t.params, "%s fpo__s%d_%s, ", fpo_c_type(st->params[a]->dt), i,
                           st->params[a]->name);
        buf_printf(&t.params, "int fpo_ib%d, int fpo_ie%d, int fpo_jb%d, int fpo_je%d, ",
                   i, i, i, i);
    }
    Buf *k = &t.slots;
    int off = 0;   /* the next shared tile's offset in the dynamic shared memory */
    if (g->bytes > CU_STATIC)
        buf_printf(k, "    FPO_DYNAMIC_SHARED_(fpo_dsh_, %d);   /* the shared tiles, %d bytes "
                      "(asked for at launch) */\n",
                   g->bytes, g->bytes);
    for (int q = 0; q < g->nx; q++) {
        int x = g->xs[q];
        if (!touched[q])
            continue;
        Var *v = s->slots[x];
        const char *ty = fpo_c_type(v->dt);
        buf_printf(k, "    /* slot %d: %s%s */\n", x, v->name,
                   seg_reg(g, x)      ? ", in registers only"
                   : seg_shared(g, x) ? (seg_global_w(g, x) ? ", in shared memory and written back"
                                                    : ", in shared memory only")
                                  : "");
        if (!c->array[x]) {   /* (its fpo_field has no data) */
            buf_printf(k, "    (void)fpo__f%d;   /* no array on the device */\n", x);
            shared_tile(k, &t.tiles, g, x, v->dt, &off);
            continue;
        }
        /* a level's offsets in 32 bits (open checks they fit: fpo_field_check_offsets32), from
         * the origin of level k (of the field's one level where it has no K axis), a pointer
         * the compiler cannot take apart: each access is one wide multiply-add of its offset
         * into it, not 64-bit sums of the parts the origin was made of */
        buf_printf(k, "    const int fpo_gsj%d = (int)fpo__f%d.stride[1];\n", x, x);
        buf_printf(k, "    const int64_t fpo_gsk%d = fpo__f%d.stride[2];\n", x, x);
        if (perlevel && v->ax != AX_IJ) {   /* the origin of level 0 here, of level k at each */
            buf_printf(k, "    %s *const fpo_o%d = (%s *)fpo__f%d.data - (fpo__f%d.lo[0] + "
                          "fpo__f%d.lo[1] * fpo_gsj%d + fpo__f%d.lo[2] * fpo_gsk%d);\n",
                       ty, x, ty, x, x, x, x, x, x);
            buf_printf(&t.level, "        %s *fpo_g%d = fpo_o%d + k * fpo_gsk%d;\n"
                                 "        FPO_OPAQUE_GLOBAL(fpo_g%d);\n",
                       ty, x, x, x, x);
        } else {
            buf_printf(k, "    %s *fpo_g%d = (%s *)fpo__f%d.data - (fpo__f%d.lo[0] + "
                          "fpo__f%d.lo[1] * fpo_gsj%d + fpo__f%d.lo[2] * fpo_gsk%d)%s;\n",
                       ty, x, ty, x, x, x, x, x, x,
                       v->ax == AX_IJ ? "" : fpo_fmt(" + k * fpo_gsk%d", x));
            buf_printf(k, "    FPO_OPAQUE_GLOBAL(fpo_g%d);\n", x);
        }
        shared_tile(k, &t.tiles, g, x, v->dt, &off);
    }
    buf_add(&t.level, "");
    buf_add(&t.tiles, "");
    /* each item's text (the nests that share a loop over the points), then the phases they
     * run in */
    Buf *nests = fpo_new(sizeof(Buf) * (size_t)g->n);
    bool *runs = fpo_new(sizeof(bool) * (size_t)g->n);
    for (int i = 0; i < g->n; i = item_end(g, i))
        emit_item(c, g, i, &nests[i], runs, false);
    int *phase = fpo_new(sizeof(int) * (size_t)g->n);
    int last = item_phases(g, runs, phase);
    int own = seg_own(c, g, runs, phase, last);
    if (own >= 0) {   /* (the same text, setting fpo_own) */
        nests[own] = (Buf){0};
        emit_item(c, g, own, &nests[own], runs, true);
    }
    t.own = own >= 0;
    emit_phases(&t.phases, g, nests, runs, phase, last, t.own);
    for (int i = 0; i < g->n; i++)
        t.any |= runs[i];
    return t;
}

/* The launch's tiles (fpo_i0, fpo_i1, fpo_j0, fpo_j1 at `depth`): the fewest whose points,
 * each widened by the nest's margins, cover every nest's box (a nest's own box where it writes
 * a shared tile back: only at the tile's own points); no tile for margins alone. */
static void seg_cover(Buf *b, Seg *g, int depth) {
    ind(b, depth);
    buf_add(b, "int64_t fpo_i0 = INT64_MAX, fpo_i1 = INT64_MIN, fpo_j0 = INT64_MAX, fpo_j1 = INT64_MIN;\n");
    for (int i = 0; i < g->n; i++) {
        SBox x = g->u[i].box;
        bool back = false;
        for (int q = 0; q < g->nx; q++)
            back |= writes_back(g, i, g->xs[q]);
        Margin m = back ? (Margin){{0, 0}, {0, 0}} : g->m[i];
        ind(b, depth);
        buf_printf(b, "fpo_cover_(&fpo_i0, &fpo_i1, %s, %s, %lld, %lld), fpo_cover_(&fpo_j0, &fpo_j1, "
                      "%s, %s, %lld, %lld);\n",
                   fpo_dbound_text(x.lo[0]), fpo_dbound_text(x.hi[0]), (long long)m.lo[0],
                   (long long)m.hi[0], fpo_dbound_text(x.lo[1]), fpo_dbound_text(x.hi[1]),
                   (long long)m.lo[1], (long long)m.hi[1]);
    }
}

/* A segment kernel's launch (its tiles by seg_cover, nk block layers), up to its arguments. */
static void seg_launch(Cu *c, Buf *b, Seg *g, const char *name, const char *nk) {
    c->nlaunch++;
    const char *form = g->bytes > CU_STATIC ? "_SHARED" : c->threads != CU_THREADS ? "_N" : "";
    const char *ntx = g->slack ? fpo_fmt("fpo_tiles_slack_(fpo_i0, fpo_i1, %d, %d)", CU_TX, g->slack)
                               : fpo_fmt("fpo_tiles_(fpo_i0, fpo_i1, %d)", CU_TX);
    buf_printf(b, "FPO_LAUNCH_TILES%s(fpo__cu, %s, %s, %s, fpo_tiles_(fpo_j0, fpo_j1, %d), %s, %s(",
               form, what(g->u[0].st, g->u[0].stage->loc), name, ntx, g->ty, nk,
               g->bytes > CU_STATIC ? fpo_fmt("%d, %d, ", c->threads, g->bytes)
               : c->threads != CU_THREADS ? fpo_fmt("%d, ", c->threads)
                                          : "");
}

/* The segment's arguments for its parameters (seg_text), each followed by ", ". */
static void seg_args(Cu *c, Buf *b, Seg *g, const bool *touched) {
    Sched *s = c->s;
    for (int q = 0; q < g->nx; q++)
        if (touched[q])
            buf_printf(b, "%s, ", slot_field(s, g->xs[q]));
    for (int i = 0; i < g->n; i++) {
        Unit *u = &g->u[i];
        for (int a = 0; a < u->st->nparams; a++)
            if (u->st->params[a]->ax == AX_SCALAR) {
                fpo_c_expr(b, u->stage->argv[a]);
                buf_add(b, ", ");
            }
        buf_printf(b, "%s, %s, %s, %s, ", fpo_dbound_text(u->box.lo[0]), fpo_dbound_text(u->box.hi[0]),
                   fpo_dbound_text(u->box.lo[1]), fpo_dbound_text(u->box.hi[1]));
    }
}

/* A tile kernel's first line up to its parameters: its registers held to what --cuda-blocks
 * blocks a multiprocessor leave (65536 / (blocks x threads) a thread); without it, other
 * thread counts than CU_THREADS keep to those of 1024 threads a multiprocessor (64 each). */
static void seg_kernel_open(Cu *c, Buf *k, const char *name) {
    if (c->blocks > 0)
        buf_printf(k, "__global__ void FPO_LAUNCH_BOUNDS(%d, %d) %s(", c->threads,
                   c->blocks, name);
    else if (c->threads != CU_THREADS)
        buf_printf(k, "__global__ void FPO_LAUNCH_BOUNDS(%d, %d) %s(", c->threads,
                   c->threads < 1024 ? 1024 / c->threads : 1, name);
    else
        buf_printf(k, "__global__ void %s(", name);
}

/* The block's tile of ty rows: its bounds and points in int (a level's offsets fit one:
 * fpo_field_check_offsets32); with `slack`, its end fpo_ti1 too, fpo_sx columns further in
 * the last column of tiles (the launch's fpo_slack_). */
static void seg_tile_origin(Buf *k, int ty, int slack) {
    buf_printf(k, "    const int fpo_ti0 = fpo_i0 + (int)blockIdx.x * %d, fpo_tj0 = fpo_j0 + "
                  "(int)blockIdx.y * %d;\n",
               CU_TX, ty);
    if (slack)
        buf_printf(k, "    const int fpo_ti1 = fpo_ti0 + %d + ((int)blockIdx.x + 1 == (int)gridDim.x ? "
                      "fpo_sx : 0);   /* the tile's end */\n",
                   CU_TX);
}

/* The segment's inputs at level `kp` (an expression of k), toward L2: each array a nest
 * reads (not a shared tile), over the tile widened by the nest's margins and its offsets, a
 * line of it a thread (fpo_prefetch_point_: `setup`, at the kernel's top, the thread's point;
 * `level`, at each level, at `depth`, the ask, where `when` holds). A block that computes its
 * levels in turn (a fed kernel's, or a segment's of CUDA_LEVELS > 1) asks for a level's inputs
 * before it computes it, so that its loads do not wait for memory each level in turn; with
 * --cuda-prefetch, any segment asks for its first level's at its top, so that the loads of its
 * nests after the first, and of a thread's points after its first, find them in L2. A kp of
 * "k" at one level a block (`here`) is the level of the views' origins, fpo_g<slot>. */
static void seg_prefetch(Cu *c, Seg *g, const char *kp, bool here, const char *when, int depth,
                         Buf *setup, Buf *level) {
    Sched *s = c->s;
    for (int q = 0; q < g->nx; q++) {
        int x = g->xs[q];
        Var *v = s->slots[x];
        if (!c->array[x] || v->ax != AX_IJK)
            continue;
        int64_t lo[2] = {0}, hi[2] = {0};
        bool read = false;
        for (int i = 0; i < g->n; i++) {
            Acc *a = fpo_unit_acc(&g->u[i], x);
            if (!a || (!a->read && !loads_first(g, i, x)) ||
                (seg_shared(g, x) && seg_first_w(g, x) < i))
                continue;
            for (int d = 0; d < 2; d++) {
                int64_t l = g->m[i].lo[d] - a->lo[d], h = g->m[i].hi[d] + a->hi[d];
                lo[d] = !read || l > lo[d] ? l : lo[d];
                hi[d] = !read || h > hi[d] ? h : hi[d];
            }
            read = true;
        }
        if (!read)
            continue;
        buf_printf(setup, "    const int fpo_pf%d = fpo_prefetch_point_(&fpo__f%d, %d, fpo_ti0 - %lld, "
                          "%s, fpo_tj0 - %lld, fpo_tj0 + %lld, (int)threadIdx.x);   "
                          "/* %s */\n",
                   x, x, v->dt == DT_F64 ? 8 : 4, (long long)lo[0], tile_end(g, hi[0]),
                   (long long)lo[1], (long long)(g->ty + hi[1]), v->name);
        ind(level, depth);
        buf_printf(level, "if (%sfpo_pf%d != INT_MIN && %s >= fpo__f%d.lo[2] && %s < "
                          "fpo__f%d.hi[2])\n",
                   when, x, kp, x, kp, x);
        ind(level, depth + 1);
        if (here)
            buf_printf(level, "FPO_PREFETCH_L2_(fpo_g%d + fpo_pf%d);\n", x, x);
        else
            buf_printf(level, "FPO_PREFETCH_L2_(fpo_o%d + (%s) * fpo_gsk%d + fpo_pf%d);\n", x,
                       kp, x, x);
    }
}

/* --cuda-ldg: the slots of segment g no nest writes (bool excepted: no __ldg of it), read
 * through the read-only data cache. Its kernel runs alone on the program's stream, and a
 * program's fields are distinct arrays (as the C back end's restrict views take them), so
 * nothing writes them while it runs. */
static void seg_read_only(Cu *c, Seg *g) {
    Sched *s = c->s;
    g->ro = fpo_new(sizeof(bool) * (size_t)(g->nx + 1));
    for (int q = 0; q < g->nx; q++) {
        int x = g->xs[q];
        bool read = false, written = false;
        for (int i = 0; i < g->n; i++) {
            Acc *a = fpo_unit_acc(&g->u[i], x);
            read |= a && a->read, written |= a && a->write;
        }
        g->ro[q] = read && !written && c->array[x] && s->slots[x]->dt != DT_BOOL;
    }
}

/* PC_CHUNK's walks' launch (`walks`) over all their columns, in a block opened by `open`
 * (`why`: the comment's start). */
static void walks_whole(Buf *b, const Buf *walks, const char *open, const char *why, int depth) {
    ind(b, depth);
    buf_printf(b, "%s   /* %sthe walks over all their columns */\n", open, why);
    ind(b, depth + 1);
    buf_add(b, "const int64_t fpo_cj0 = INT64_MIN, fpo_cj1 = INT64_MAX;\n");
    fpo_c_indented(b, walks->s, walks->len, depth + 1);
    ind(b, depth);
    buf_add(b, "}\n");
}

/* The segment's kernel (appended to c->kernels) and its launch (to b); with `walks` (PC_CHUNK:
 * the launch of the walks after it, emit_walks' chunked one), the launch in chunks of its tile
 * rows, each followed by the walks' launch over the chunk's columns on the program's second
 * stream. */
static void emit_segment(Cu *c, Buf *b, Seg *g, const Buf *walks, int depth) {
    const char *name = kernel_name(c, fpo_fmt("seg%d", ++c->nseg));
    if (c->ldg)
        seg_read_only(c, g);
    Buf kernel = {0}, *k = &kernel;   /* (appended to c->kernels where a nest runs) */
    int L = c->levels;   /* levels a block computes, in turn (--cuda-levels) */
    SegText t = seg_text(c, g, L > 1);
    buf_printf(k, "\n/* %d nests of a fused group, tiles of %d x %d points%s:", g->n, CU_TX, g->ty,
               g->slack ? fpo_fmt(" (the last column's up to %d wide)", CU_TX + g->slack) : "");
    for (int i = 0; i < g->n; i++)
        buf_printf(k, "%s %s", i ? "," : "", g->u[i].st->name);
    buf_add(k, " */\n");
    seg_kernel_open(c, k, name);
    buf_addn(k, t.params.s, t.params.len);
    buf_printf(k, "const fpo_domain fpo__dom, unsigned fpo_edges, int fpo_i0, int fpo_j0, "
                  "%sint64_t fpo_ka%s) {\n", g->slack ? "int fpo_sx, " : "",
               L > 1 ? ", int64_t fpo_kz" : "");
    region_vars(k, seg_regions(g));
    seg_tile_origin(k, g->ty, g->slack);
    if (L > 1)   /* the block's levels: L, or what is left of [fpo_ka, fpo_kz) */
        buf_printf(k, "    const int64_t fpo_k0 = fpo_ka + (int64_t)blockIdx.z * %d;\n"
                      "    const int fpo_nl = fpo_kz - fpo_k0 < %d ? (int)(fpo_kz - fpo_k0) : %d;\n",
                   L, L, L);
    else
        buf_add(k, "    const int64_t k = fpo_ka + (int64_t)blockIdx.z;\n    (void)k;\n");
    buf_printf(k, "    const int fpo_nt = FPO_TILE_THREADS_(%d);   /* blockDim.x */\n", c->threads);
    buf_addn(k, t.slots.s, t.slots.len);
    /* toward L2: with --cuda-prefetch the (first) level's inputs at the top; a block of several
     * levels, each next level's (the points each thread asks for, pfs, written once) */
    Buf pfs = {0}, top = {0}, pfl = {0};
    if (c->prefetch)
        seg_prefetch(c, g, L > 1 ? "fpo_k0" : "k", L == 1, "", 1, &pfs, &top);
    if (L > 1)
        seg_prefetch(c, g, "k + 1", false, "fpo_l + 1 < fpo_nl && ", 2, pfs.len ? &(Buf){0} : &pfs,
                     &pfl);
    buf_addn(k, pfs.s ? pfs.s : "", pfs.len);
    buf_addn(k, top.s ? top.s : "", top.len);
    if (L > 1) {
        buf_add(k, "    for (int fpo_l = 0; fpo_l < fpo_nl; fpo_l++) {   /* the block's levels, in "
                   "turn */\n        const int64_t k = fpo_k0 + fpo_l;\n        (void)k;\n");
        buf_addn(k, t.level.s, t.level.len);
        buf_addn(k, pfl.s ? pfl.s : "", pfl.len);
        fpo_c_indented(k, t.phases.s, t.phases.len, 1);
        buf_add(k, "        __syncthreads();   /* the next level writes the shared tiles again */\n"
                   "    }\n");
    } else {
        buf_addn(k, t.phases.s, t.phases.len);
    }
    buf_add(k, "}\n");
    buf_free(&t.params), buf_free(&t.slots), buf_free(&t.level), buf_free(&t.phases);
    if (!t.any) {   /* the variant left none of its nests a statement: no kernel, no launch */
        buf_free(&kernel);
        ind(b, depth);
        buf_printf(b, "/* fpo_seg%d (%d nests from stencil %s, %s:%d): nothing in this variant */\n",
                   c->nseg, g->n, g->u[0].st->name, fpo_loc_path(g->u[0].stage->loc),
                   g->u[0].stage->loc.line);
        if (walks)
            walks_whole(b, walks, "{", "", depth);
        return;
    }
    size_t at = c->kernels.len;
    buf_addn(&c->kernels, kernel.s, kernel.len);
    buf_free(&kernel);
    name = kernel_made(c, at, name);

    /* the launch: the fewest tiles whose points, each widened by the nest's margins, cover
     * every nest's box (a nest's own box where it writes a shared tile back: only at the
     * tile's own points); no tile for margins alone */
    ind(b, depth);
    buf_add(b, "{\n");
    seg_cover(b, g, depth + 1);
    int d = depth + 1;
    if (walks) {   /* PC_CHUNK: its tile rows in chunks, each chunk's walks after its tiles */
        ind(b, d);
        buf_printf(b, "const int64_t fpo_ja = fpo_j0, fpo_jz = fpo_j1, fpo_nr = fpo_ja < fpo_jz ? "
                      "fpo_tiles_(fpo_ja, fpo_jz, %d) : 0;\n", g->ty);
        ind(b, d);
        buf_printf(b, "const int fpo_nc = fpo_nr < %d ? (int)fpo_nr : %d;   /* chunks: at most one "
                      "a tile row */\n", c->chunks, c->chunks);
        walks_whole(b, walks, "if (fpo_nc == 0) {", "no tile: ", d);
        ind(b, d);
        buf_add(b, "for (int fpo_ch = 0; fpo_ch < fpo_nc; fpo_ch++) {   /* a chunk's tile rows, "
                   "then its columns' walks on the program's second stream, beside the next "
                   "chunk's tiles */\n");
        d++;
        ind(b, d);
        buf_printf(b, "fpo_j0 = fpo_ja + fpo_nr * fpo_ch / fpo_nc * %d;\n", g->ty);
        ind(b, d);
        buf_printf(b, "fpo_j1 = fpo_ch + 1 < fpo_nc ? fpo_ja + fpo_nr * (fpo_ch + 1) / fpo_nc * %d "
                      ": fpo_jz;\n", g->ty);
    }
    const char *ka = fpo_dbound_text(g->u[0].box.lo[2]), *kz = fpo_dbound_text(g->u[0].box.hi[2]);
    ind(b, d);
    const char *nk = L > 1 ? fpo_fmt("((%s) - (%s) + %d) / %d", kz, ka, L - 1, L)
                           : fpo_fmt("(%s) - (%s)", kz, ka);
    seg_launch(c, b, g, name, nk);
    seg_args(c, b, g, t.touched);
    buf_printf(b, "p->dom, p->edges, fpo_i0, fpo_j0, %s%s%s));\n",
               g->slack ? fpo_fmt("fpo_slack_(fpo_i0, fpo_i1, %d, %d), ", CU_TX, g->slack) : "",
               ka, L > 1 ? fpo_fmt(", %s", kz) : "");
    if (walks) {
        ind(b, d);
        buf_add(b, "const int64_t fpo_cj0 = fpo_ch ? fpo_j0 : INT64_MIN, fpo_cj1 = fpo_ch + 1 < "
                   "fpo_nc ? fpo_j1 : INT64_MAX;\n");
        ind(b, d);
        buf_add(b, "fpo_cuda_fork(fpo__cu);\n");
        fpo_c_indented(b, walks->s, walks->len, d);
        ind(b, d);
        buf_add(b, "fpo_cuda_back(fpo__cu);\n");
        ind(b, d - 1);
        buf_add(b, "}\n");
        ind(b, d - 1);
        buf_add(b, "fpo_cuda_join(fpo__cu);   /* the program's stream waits for the walks */\n");
    }
    ind(b, depth);
    buf_add(b, "}\n");
}

/* PC_CHUNK: segment g and the walks k[0 .. nk) after it (plan_chunked), the walks' kernel
 * made first and its launch run in the segment's loop over its chunks (emit_segment). */
static void emit_chunked(Cu *c, Buf *b, Seg *g, Walk *k, int nk, int depth) {
    Buf walks = {0};
    emit_walks(c, &walks, k, nk, true, 0);
    emit_segment(c, b, g, &walks, depth);
}

/* The most walks one kernel runs in turn. */
enum { WALKS_MAX = 4 };

/* PC_FED: a segment, and walks that run it inside the first of them (plan_fed); PC_CHUNK: a
 * segment and the walks after it, two kernels launched chunk by chunk (plan_chunked). */
enum { PC_NEST, PC_SEG, PC_WALK, PC_FED, PC_CHUNK };
typedef struct Piece {
    int kind, n;
    Seg seg;                /* PC_SEG, PC_FED, PC_CHUNK */
    Walk walk[WALKS_MAX];   /* PC_WALK, PC_FED, PC_CHUNK: walks_join */
    int nwalk;
} Piece;

/* The walks from nest u on that one kernel runs (into p); false where that would be the plain
 * column kernel (one walk of one interval, nothing in registers), unless `plain`. */
static bool plan_walks(Cu *c, FGroup *G, Unit *g0, Unit *u, int left, Piece *p, bool plain) {
    Walk *k = p->walk;
    if (!plan_walk(c, G, g0, u, left, &k[0]))
        return false;
    int n = k[0].n + k[0].nhost, nk = 1;
    while (nk < WALKS_MAX && n < left && plan_walk(c, G, g0, u + n, left - n, &k[nk]) &&
           walks_join(G, k, nk + 1))
        n += k[nk].n + k[nk].nhost, nk++;
    if (!plain && nk == 1 && k[0].n == 1 && !k[0].nhost && !k[0].nwin && !k[0].nahead)
        return false;
    p->kind = PC_WALK, p->n = n, p->nwalk = nk;
    return true;
}

/* Whether the walks of units [v, v + n) (the first, k0) need of segment g only its values at
 * their own columns: no nest of g touches a slot the walks write, and the walks read what g
 * writes at their own column, inside the box of that value's first writer (which has no
 * region: it runs in every variant), from memory (g keeps no such value in registers only).
 * `fed`: besides, only k0's intervals read it, at their own level. */
static bool walks_own_columns(Seg *g, Unit *v, int n, Walk *k0, bool fed) {
    SBox cols = unit_cols(k0->u);
    for (int e = 0; e < n; e++) {
        Unit *U = &v[e];
        for (int a = 0; a < U->nacc; a++) {
            Acc *A = &U->acc[a];
            int x = A->slot, w0 = seg_first_w(g, x);
            bool touched = false;
            for (int i = 0; i < g->n; i++)
                touched |= fpo_unit_acc(&g->u[i], x) != NULL;
            if (A->write && touched)
                return false;
            if (w0 < 0)
                continue;
            if (A->write || seg_reg(g, x) || fpo_c_has_region(g->u[w0].st) ||
                (fed && (U < k0->u || U >= k0->u + k0->n || !A->kconst || A->ij_only ||
                         A->lo[2] || A->hi[2])))
                return false;
            for (int d = 0; d < 2; d++)
                if (A->lo[d] || A->hi[d] ||
                    !fpo_dbound_inside(cols.lo[d], cols.hi[d], g->u[w0].box.lo[d],
                                       g->u[w0].box.hi[d]))
                    return false;
        }
    }
    return true;
}

/* Whether the walks of units [v, v + n) meet the segment of p (its n nests before them) as
 * one kernel, the segment computing each level the first walk walks just before the walk
 * does (emit_fed): they need of it only its values at their own column and level
 * (walks_own_columns), so the segment's levels computed later give what they gave before;
 * and the first walk's intervals follow each other over the segment's levels, so it walks
 * each of them once. */
static bool fed_meets(Piece *p, Unit *v, int n, Walk *k0) {
    Seg *g = &p->seg;   /* (p's walks: v ..) */
    if (!walks_own_columns(g, v, n, k0, true))
        return false;
    bool fwd = walk_forward(k0->u);
    DBound lo = g->u[0].box.lo[2], hi = g->u[0].box.hi[2];
    for (int m = 0; m < k0->n; m++) {
        SBox b = k0->u[m].box;
        if (!fpo_dbound_eq(fwd ? b.lo[2] : b.hi[2], fwd ? lo : hi))
            return false;
        if (fwd)
            lo = b.hi[2];
        else
            hi = b.lo[2];
    }
    return fpo_dbound_eq(lo, hi);
}

/* The n nests from u (the last of their fused group) and the walks that begin group G1 after
 * it (their first nest v) as one kernel (PC_FED, into p): fused, uninstrumented builds (their
 * checks run after each stencil's kernels) that put more than one nest in a kernel
 * (CUDA_NESTS) and do not say --cuda-fed off, where the segment planned for the walks fits
 * (plan_segment) and they meet it (fed_meets). The first walk reads nothing ahead: the
 * segment computes its values level by level. */
static void plan_fed(Cu *c, Unit *u, int n, FGroup *G1, Unit *v, Piece *p) {
    Sched *s = c->s;
    Piece f;
    if (!c->fed || !s->fused || fpo_instrumented(&s->ins) || s->ins.cuda_check || c->nests < 2 ||
        v != u + n || !plan_walks(c, G1, v, v, G1->count, &f, true) ||
        !plan_segment(c, u, n, &f.seg, f.n) || !fed_meets(&f, v, f.n, &f.walk[0]))
        return;
    f.walk[0].nahead = 0;
    f.kind = PC_FED, f.n += n;
    *p = f;
}

/* Segment p (the n nests from u, the last of their fused group) and the walks that begin
 * group G1 after it (their first nest v) as PC_CHUNK: the segment's tile rows in --cuda-chunks
 * chunks, each chunk's walks launched on a second stream after its tiles, beside the next
 * chunk's (emit_segment). Uninstrumented builds (their checks run after each stencil's
 * kernels, on one stream), where the walks need of the segment only its values at their own
 * columns (walks_own_columns): a column's walk needs the tiles of its own chunk only (all
 * their levels), and runs the same whatever the other chunks' tiles do. */
static void plan_chunked(Cu *c, Unit *u, int n, FGroup *G1, Unit *v, Piece *p) {
    Sched *s = c->s;
    Piece w;
    if (c->chunks < 2 || p->kind != PC_SEG || !s->fused || fpo_instrumented(&s->ins) ||
        s->ins.cuda_check || v != u + n || !plan_walks(c, G1, v, v, G1->count, &w, false))
        return;
    if (!walks_own_columns(&p->seg, v, w.n, &w.walk[0], false))
        return;
    w.seg = p->seg;
    w.kind = PC_CHUNK, w.n += n;
    *p = w;
}

/* What runs nests i .. of group gi of block bl: a segment of a fused group (as many nests as
 * can be one kernel), with the walks that begin the next group where they can run it
 * (plan_fed: then the piece goes on into that group); walks (plan_walks); or the nest on its
 * own. */
static Piece next_piece(Cu *c, Block *bl, int gi, int i) {
    FGroup *G = &bl->g[gi];
    Unit *g0 = &bl->u[G->first], *u = g0 + i;
    int left = G->count - i;
    Piece p = {PC_NEST, 1, {0}, {{0}}, 0};
    if (c->s->ins.bounds)   /* the checked reads' levels come from the views of nest kernels */
        return p;
    Seg seg;
    for (int len = 2; G->fused && len <= left && len <= c->nests; len++) {
        if (!plan_segment(c, u, len, &seg, 0))
            break;
        p.kind = PC_SEG, p.n = len, p.seg = seg;
    }
    /* the segment, or a nest on its own, that ends a fused group: inside the walks after it? */
    if (G->fused && u->par && p.n == left && gi + 1 < bl->ng)
        plan_fed(c, u, p.n, &bl->g[gi + 1], &bl->u[bl->g[gi + 1].first], &p);
    if (G->fused && u->par && p.n == left && gi + 1 < bl->ng)   /* (not fed: in chunks?) */
        plan_chunked(c, u, p.n, &bl->g[gi + 1], &bl->u[bl->g[gi + 1].first], &p);
    if (p.kind == PC_NEST)
        plan_walks(c, G, g0, u, left, &p, false);
    return p;
}

/* A piece of a block, from nest `at` of its group `g`. */
typedef struct Placed {
    Piece p;
    int g, at;
} Placed;

/* Block bl's pieces in order (np of them); a group's first nests may be the walks of a piece
 * of the group before (PC_FED). */
static Placed *block_pieces(Cu *c, Block *bl, int *np) {
    Placed *pl = NULL;
    int n = 0;
    for (int gi = 0, skip = 0; gi < bl->ng; gi++) {
        FGroup *G = &bl->g[gi];
        int i = skip;
        skip = 0;
        while (i < G->count) {
            Placed x = {next_piece(c, bl, gi, i), gi, i};
            VPUSH(pl, n, x);
            if (i + x.p.n > G->count)   /* (its walks begin the next group) */
                skip = i + x.p.n - G->count;
            i += x.p.n;
        }
    }
    *np = n;
    return pl;
}

/* Which temporaries have an array on the device (c->array): all but those that every kernel
 * touching them keeps in shared memory only (seg_only) or in registers only (a walk's dropped
 * values); a stencil's own temporary may be held so by one call's kernel and not another's.
 * The plan does not depend on the variant (regions do not change it). */
static void plan_arrays(Cu *c) {
    Sched *s = c->s;
    c->array = fpo_new(sizeof(bool) * (size_t)(s->nslots + 1));
    bool *held = fpo_new(sizeof(bool) * (size_t)(s->nslots + 1));   /* by a piece touching it */
    bool *kept = fpo_new(sizeof(bool) * (size_t)(s->nslots + 1));   /* by every such piece */
    for (int x = 0; x < s->nslots; x++)
        kept[x] = true;
    for (int k = 0; k < s->nblocks; k++) {
        Block *bl = &s->blocks[k];
        int np;
        Placed *pl = block_pieces(c, bl, &np);
        for (int q = 0; q < np; q++) {
            Piece *pc = &pl[q].p;
            Unit *u = &bl->u[bl->g[pl[q].g].first + pl[q].at];
            bool seg = pc->kind == PC_SEG || pc->kind == PC_FED || pc->kind == PC_CHUNK;
            if (seg && pc->seg.bytes > CU_STATIC && pc->seg.bytes > c->dyn_shared)
                c->dyn_shared = pc->seg.bytes;
            /* the slots its nests touch, its segment plans or its walks keep (no other is held,
             * touched or tiled by it; a slot looked at twice changes nothing) */
            int nt = 0, nw = 0;
            int *touched = fpo_units_slots(s, u, pc->n, &nt);
            for (int w = 0; pc->kind >= PC_WALK && w < pc->nwalk; w++)   /* (WALK, FED, CHUNK) */
                nw += pc->walk[w].nwin;
            int nxs = nt, *xs = fpo_new(sizeof(int) *
                                        (size_t)(nt + nw + (seg ? pc->seg.nx : 0) + 1));
            for (int e = 0; e < nt; e++)
                xs[e] = touched[e];
            for (int e = 0; seg && e < pc->seg.nx; e++)
                xs[nxs++] = pc->seg.xs[e];
            for (int w = 0; pc->kind >= PC_WALK && w < pc->nwalk; w++)
                for (int r = 0; r < pc->walk[w].nwin; r++)
                    xs[nxs++] = pc->walk[w].win[r].slot;
            for (int e = 0; e < nxs; e++) {
                int x = xs[e];
                bool touches = slot_at(touched, nt, x) >= 0;
                bool hold = seg && (seg_only(c, &pc->seg, x) || seg_reg(&pc->seg, x));
                for (int w = 0; pc->kind >= PC_WALK && w < pc->nwalk; w++)   /* (WALK, FED, CHUNK) */
                    for (int r = 0; r < pc->walk[w].nwin; r++)
                        hold |= pc->walk[w].win[r].drop && pc->walk[w].win[r].slot == x;
                held[x] |= hold;
                kept[x] &= hold || !touches;
                Margin sm = seg ? seg_sm(&pc->seg, x) : (Margin){{0, 0}, {0, 0}};
                Margin *m = seg && seg_shared(&pc->seg, x) ? &sm : NULL;
                int slack = seg ? pc->seg.slack : 0;
                if (m && CU_TX + slack + m->lo[0] + m->hi[0] > c->tile_row)
                    c->tile_row = (int)(CU_TX + slack + m->lo[0] + m->hi[0]);
            }
        }
    }
    for (int x = 0; x < s->nslots; x++)
        c->array[x] = !(held[x] && kept[x]);
}

/* ---- a segment inside a walk (PC_FED): one kernel, a block a tile of the segment, its
 * threads a column of the tile each ---- */

/* A thread's column of the tile, in a phase (at `depth`): the walks' i and j, and the test that
 * it is a column of theirs (its block opened; the caller closes it), with the hosts' tests of
 * walks k[q0 .. q1) (numbered from h0). */
static void fed_column(Buf *kb, int ty, Walk *k, int q0, int q1, int h0, int depth) {
    ind(kb, depth);
    buf_printf(kb, "const int64_t i = fpo_ti0 + (int)threadIdx.x %% %d, j = fpo_tj0 + (int)threadIdx.x / "
                   "%d;\n", CU_TX, CU_TX);
    ind(kb, depth);
    buf_printf(kb, "if ((int)threadIdx.x < %d && i >= fpo_ib && i < fpo_ie && j >= fpo_jb && j < "
                   "fpo_je) {\n", CU_TX * ty);
    for (int q = q0; q < q1; q++)
        for (int h = 0; h < k[q].nhost; h++, h0++) {
            ind(kb, depth + 1);
            buf_printf(kb, "const bool fpo_h%d_at = i >= fpo_h%d_ib && i < fpo_h%d_ie && j >= "
                           "fpo_h%d_jb && j < fpo_h%d_je;\n",
                       h0, h0, h0, h0, h0);
        }
}

/* Levels ahead of the one walked whose inputs a fed kernel asks L2 for. */
enum { FED_AHEAD = 2 };

/* The fed walk k (the kernel's first), walked by the whole block: its registers each
 * thread's (FPO_THREAD_REG_: in the emulated build, whose threads run one after another in
 * each phase, an array of them); its intervals in turn (fpo_m; their bounds fpo_ka<m>,
 * fpo_kz<m>), each level of them: the segment's nests at level k (their views there, their
 * phases: the values the walk reads left in shared tiles), a barrier, a phase of the walk's
 * statements of interval fpo_m at each thread's column (read back from memory for the first
 * levels, as walk_part), the nests run inside it, the registers moved on. No barrier before the
 * next level: its nests write the other of each shared tile's two (g->two), and they are the
 * ones of this level again only past the next level's barriers, which every thread reaches
 * after its walk's phase here. The segment's text once, its levels' loop one. */
static void fed_part(Cu *c, Buf *kb, Walk *k, WalkCode *w, SegText *t, Buf *pf, Buf *hv, int ty) {
    Unit *u = k->u;
    bool fwd = walk_forward(u);
    Buf undef = {0}, ka = {0}, kz = {0};
    for (int i = 0; i < k->nwin; i++)
        for (int d = 0; d <= k->win[i].r; d++) {
            const char *n = fpo_fmt("fpo_w_%s_%d", k->win[i].v->name, d);
            buf_printf(kb, "    FPO_THREAD_REG_(%s, %s, %d);\n#ifdef FPO_CUDA_EMULATE\n#define %s "
                           "%s_t_[threadIdx.x]\n#endif\n    (void)%s;\n",
                       fpo_c_type(k->win[i].v->dt), n, c->threads, n, n, n);
            buf_printf(&undef, "#ifdef FPO_CUDA_EMULATE\n#undef %s\n#endif\n", n);
        }
    for (int m = 0; m < k->n; m++) {   /* interval fpo_m's bounds */
        buf_printf(&ka, m < k->n - 1 ? "fpo_m == %d ? fpo_ka%d : " : "fpo_ka%d", m, m);
        buf_printf(&kz, m < k->n - 1 ? "fpo_m == %d ? fpo_kz%d : " : "fpo_kz%d", m, m);
    }
    bool *back = fpo_new(sizeof(bool) * (size_t)k->n), any_back = false;
    for (int m = 0; m < k->n; m++)   /* intervals that read kept values back (walk_part) */
        any_back |= back[m] = k->peel && unit_reads_back(k, &u[m]);
    if (k->peel)
        buf_add(kb, "    int fpo_n = 0;   /* levels walked in a row: the registers hold that many */\n");
    if (k->peel && k->n > 1)
        buf_add(kb, "    int64_t fpo_last = 0;   /* the level walked last */\n");
    buf_printf(kb, "    for (int fpo_m = 0; fpo_m < %d; fpo_m++) {   /* its intervals */\n"
                   "        const int64_t fpo_wa = %s, fpo_wz = %s;\n"
                   "        if (fpo_wa >= fpo_wz)\n            continue;\n",
               k->n, ka.s, kz.s);
    if (k->peel) {   /* levels of the intervals before not next to its first; an interval that
                      * reads nothing back only counts its levels */
        if (k->n > 1)
            buf_printf(kb, "        if (fpo_m > 0 && %s != fpo_last)\n            fpo_n = 0;\n",
                       fwd ? "fpo_wa - 1" : "fpo_wz");
        for (int m = 0; m < k->n; m++)
            if (!back[m])
                buf_printf(kb, "        if (fpo_m == %d)\n            fpo_n = fpo_wz - fpo_wa < %d - fpo_n ? "
                               "fpo_n + (int)(fpo_wz - fpo_wa) : %d;\n", m, k->peel, k->peel);
    }
    buf_printf(kb, "        for (int64_t k = %s; %s; %s) {\n", fwd ? "fpo_wa" : "fpo_wz - 1",
               fwd ? "k < fpo_wz" : "k >= fpo_wa", fwd ? "k++" : "k--");
    fpo_c_indented(kb, t->tiles.s, t->tiles.len, 2);
    if (t->own)
        buf_add(kb, "            bool fpo_own = false;   /* the walk's values at a thread's column "
                    "computed by that thread (seg_own) */\n");
    buf_add(kb, "            {   /* the segment's nests at level k */\n");
    if (pf->len)
        buf_printf(kb, "                /* its inputs %d levels on, toward L2 */\n%s", FED_AHEAD, pf->s);
    fpo_c_indented(kb, t->level.s, t->level.len, 2);
    fpo_c_indented(kb, t->phases.s, t->phases.len, 3);
    /* the walk's step at level k, at a thread's column (at depth 4) */
    Buf wb = {0};
    fed_column(&wb, ty, k, 0, 1, 0, 4);
    fpo_c_indented(&wb, hv->s ? hv->s : "", hv->len, 4);
    for (int m = 0; m < k->n; m++) {
        buf_printf(&wb, "                    %sif (fpo_m == %d) {   /* interval %d */\n",
                   m ? "} else " : "", m, u[m].iv + 1);
        if (back[m]) {
            buf_printf(&wb, "                        if (fpo_n < %d) {   /* read back from memory */\n",
                       k->peel);
            fpo_c_point(&wb, u->st, w->mem[m], 7, c->ctx, FPO_ONE_AT_A_TIME);
            buf_add(&wb, "                        } else {\n");
            fpo_c_point(&wb, u->st, w->reg[m], 7, c->ctx, FPO_ONE_AT_A_TIME);
            buf_add(&wb, "                        }\n");
        } else {
            fpo_c_point(&wb, u->st, w->reg[m], 6, c->ctx, FPO_ONE_AT_A_TIME);
        }
    }
    buf_add(&wb, "                    }\n");
    emit_hosts(c, &wb, k, w->hb, w->hu, 0, 5);
    walk_shift(&wb, k, 5);
    buf_add(&wb, "                }\n");
    if (t->own) {   /* in the last phase, after its points (its block is open) */
        buf_add(kb, "                    if (fpo_own) {   /* the walk at level k, at each "
                    "thread's column: no barrier */\n");
        fpo_c_indented(kb, wb.s, wb.len, 2);
        buf_add(kb, "                    }\n                }\n            }\n"
                    "            if (!fpo_own) {   /* elsewhere after a barrier */\n"
                    "                __syncthreads();\n"
                    "                FPO_PHASE_(fpo_nt) {   /* the walk at level k, a thread a "
                    "column */\n");
        fpo_c_indented(kb, wb.s, wb.len, 1);
        buf_add(kb, "                }\n            }\n");
    } else {
        buf_add(kb, "            }\n            __syncthreads();\n"
                    "            FPO_PHASE_(fpo_nt) {   /* the walk at level k, a thread a column */\n");
        buf_addn(kb, wb.s, wb.len);
        buf_add(kb, "            }\n");
    }
    buf_add(kb, "            FPO_TILES_SWAP_();   /* the next level writes the other tiles: no barrier */\n");
    if (any_back) {   /* (an interval that reads back: its levels counted here) */
        buf_add(kb, "            if (");
        for (int m = 0, first = 1; m < k->n; m++)
            if (back[m])
                buf_printf(kb, "%sfpo_m == %d", first ? "" : " || ", m), first = 0;
        buf_printf(kb, ")\n                fpo_n += fpo_n < %d;\n", k->peel);
    }
    buf_add(kb, "        }\n");
    if (k->peel && k->n > 1)
        buf_printf(kb, "        fpo_last = %s;\n", fwd ? "fpo_wz - 1" : "fpo_wa");
    buf_add(kb, "    }\n");
    buf_addn(kb, undef.s ? undef.s : "", undef.len);
}

/* The views of the walks' stencil s in a fed kernel: as a walk kernel's (used_views), but a
 * value the segment hands over (written by it, read by the walk at its point and level) is its
 * shared tile at the level walked (into `handed`, for the walk's phase at each level). */
static void fed_views(Cu *c, Buf *kb, Seg *g, Walk *k0, const unsigned char *used, Buf *handed) {
    Decl *s = k0->u->st;
    for (int i = 0; i < s->nparams + s->ntemps; i++) {
        Var *v = i < s->nparams ? s->params[i] : s->temps[i - s->nparams];
        int x = v->ax == AX_SCALAR ? -1 : fpo_call_slot(c->s, k0->u, v);
        if (v->ax == AX_SCALAR) {
            buf_printf(kb, "    (void)%s;\n", fpo_c_name(v->name));
        } else if (used[i] && seg_first_w(g, x) >= 0) {
            buf_printf(kb, "    (void)fpo__v_%s;   /* the segment's, in its shared tile */\n", v->name);
            buf_printf(handed, "    const %s *restrict %s = fpo_sv%d;   /* the segment's, level k */\n"
                               "    const int64_t fpo_sj_%s = fpo_ssj%d, fpo_sk_%s = 0;\n",
                       fpo_c_type(v->dt), fpo_c_name(v->name), x, v->name, x, v->name);
        } else if (used[i]) {
            buf_printf(kb, "    const fpo_field *fpo_%s = &fpo__v_%s;\n", v->name, v->name);
            fpo_c_field_setup(kb, s, v);
        } else {
            buf_printf(kb, "    (void)fpo__v_%s;\n", v->name);
        }
    }
}

/* The kernel of piece p (PC_FED: a segment, then walks whose first runs it at each level it
 * walks) and its launch: a block a tile of the segment, with as many rows of 64 columns as
 * its threads (plan_segment), each thread a column; the fed walk level by level (fed_part),
 * then the walks after it, each thread its column in turn (in one phase). */
static void emit_fed(Cu *c, Buf *b, Piece *p, int depth) {
    Seg *g = &p->seg;
    Walk *k = p->walk;
    int nk = p->nwalk, ty = g->ty;
    Unit *u = k[0].u;
    Decl *ws = u->st;
    const char *name = kernel_name(c, fpo_fmt("fed%d", ++c->nfed));
    Buf *kb = &c->kernels;
    size_t at = kb->len;
    SegText t = seg_text(c, g, true);
    FpoMark rewritten = fpo_scratch_mark();   /* (the walks' statements, released at the end) */
    WalksCode wc = walks_code(c, k, nk);
    buf_printf(kb, "\n/* %d nests of a fused group (", g->n);
    for (int i = 0; i < g->n; i++)
        buf_printf(kb, "%s%s", i ? ", " : "", g->u[i].st->name);
    buf_printf(kb, "), tiles of %d x %d points, computed level by level inside the walk of stencil "
                   "%s (%s:%d), a thread a column of the tile: ",
               CU_TX, ty, ws->name, fpo_loc_path(ws->loc), ws->loc.line);
    walks_comment(kb, k, nk);
    /* at most 128 registers a thread (two blocks of 256 threads a multiprocessor: the 144
     * tiles of 192 x 192 in one wave); the compiler, free to, keeps more of a level's loads
     * in flight than that allows */
    buf_printf(kb, "__global__ void FPO_LAUNCH_BOUNDS(%d, %d) %s(", c->threads,
               c->threads < 512 ? 512 / c->threads : 1, name);
    buf_addn(kb, t.params.s, t.params.len);
    stencil_params(kb, ws);
    walks_host_params(kb, &wc);
    buf_add(kb, "const fpo_domain fpo__dom, unsigned fpo_edges, int fpo_i0, int fpo_j0, ");
    walks_bound_params(kb, k, nk, &wc);
    region_vars(kb, seg_regions(g) || fpo_c_has_region(ws));
    seg_tile_origin(kb, ty, 0);
    buf_printf(kb, "    const int fpo_nt = FPO_TILE_THREADS_(%d);   /* blockDim.x */\n", c->threads);
    buf_addn(kb, t.slots.s, t.slots.len);
    Buf hv = {0};   /* the values handed over, at each level */
    fed_views(c, kb, g, &k[0], wc.used, &hv);
    walks_unused_host_views(kb, &wc);
    Buf pfs = {0}, pfl = {0};   /* the segment's inputs ahead, toward L2 */
    seg_prefetch(c, g, fpo_fmt("k %s %d", walk_forward(u) ? "+" : "-", FED_AHEAD), false, "", 4, &pfs,
                 &pfl);
    buf_addn(kb, pfs.s ? pfs.s : "", pfs.len);
    fed_part(c, kb, &k[0], &wc.w[0], &t, &pfl, &hv, ty);
    if (nk > 1) {
        buf_add(kb, "    FPO_PHASE_(fpo_nt) {   /* the walks after it, a thread its column */\n");
        fed_column(kb, ty, k, 1, nk, k[0].nhost, 2);
        walks_parts(c, kb, k, 1, nk, &wc, 3);
        buf_add(kb, "        }\n    }\n");
    }
    buf_add(kb, "}\n");
    name = kernel_made(c, at, name);

    /* the launch: the segment's tiles, covering the walks' columns too */
    SBox x = unit_cols(u);
    ind(b, depth);
    buf_add(b, "{\n");
    seg_cover(b, g, depth + 1);
    ind(b, depth + 1);
    buf_printf(b, "fpo_cover_(&fpo_i0, &fpo_i1, %s, %s, 0, 0), fpo_cover_(&fpo_j0, &fpo_j1, %s, %s, "
                  "0, 0);   /* the walks' columns */\n",
               fpo_dbound_text(x.lo[0]), fpo_dbound_text(x.hi[0]), fpo_dbound_text(x.lo[1]),
               fpo_dbound_text(x.hi[1]));
    ind(b, depth + 1);
    seg_launch(c, b, g, name, "1");
    seg_args(c, b, g, t.touched);
    walks_args(c, b, k, &wc);
    buf_add(b, "p->dom, p->edges, fpo_i0, fpo_j0, ");
    SBox cols = unit_cols(k[0].u);
    walks_bound_args(b, k, nk, &wc, fpo_dbound_text(cols.lo[1]), fpo_dbound_text(cols.hi[1]));
    ind(b, depth);
    buf_add(b, "}\n");
    fpo_scratch_release(rewritten);
}

/* The kernels of block bl's fused groups (gno: the groups before it). */
static void emit_groups(Cu *c, Buf *b, Block *bl, int gno, int depth) {
    Sched *s = c->s;
    int np;
    Placed *pl = block_pieces(c, bl, &np);
    for (int gi = 0, q = 0; gi < bl->ng; gi++, gno++) {
        FGroup *G = &bl->g[gi];
        const int site0 = s->nksites;   /* the reads this group's bounds check covers */
        fpo_emit_timer(b, s, gno, false, true, depth);
        for (; q < np && pl[q].g == gi; q++) {
            Piece *pc = &pl[q].p;
            if (pc->kind == PC_SEG)
                emit_segment(c, b, &pc->seg, NULL, depth);
            else if (pc->kind == PC_WALK)
                emit_walks(c, b, pc->walk, pc->nwalk, false, depth);
            else if (pc->kind == PC_FED)
                emit_fed(c, b, pc, depth);
            else if (pc->kind == PC_CHUNK)
                emit_chunked(c, b, &pc->seg, pc->walk, pc->nwalk, depth);
            else
                emit_nest(c, b, &bl->u[G->first + pl[q].at], depth);
        }
        fpo_emit_timer(b, s, gno, true, true, depth);
        fpo_emit_checks(b, s, bl, G, gno, site0, true);
    }
}

/* A block of stencil calls: each fused group in segments (as long as each can be one kernel),
 * every other nest on its own. */
static void emit_block(Buf *b, Node *stages, int depth, void *arg) {
    Cu *c = arg;
    Sched *s = c->s;
    int gno;   /* groups before this block (--instrument names them by number) */
    Block *bl = fpo_sched_block(s, stages, &gno);
    if (!bl)
        return;   /* a later node of a block: emitted with the first */
    /* a run that exchanges halos or calls the host between its blocks: a block that launches
     * a kernel outside any loop or `if` (depth 1, run's own: the run's scalar arguments
     * decide its kernels) is a stretch, captured as a graph of its own at the first run and
     * replayed after (fpo_cuda.h) */
    Buf gb = {0};
    int launched = c->nlaunch;
    emit_groups(c, &gb, bl, gno, depth);
    if (c->stretches && depth == 1 && c->nlaunch > launched) {
        int n = c->nstretch++;
        ind(b, depth);
        buf_printf(b, "if (!fpo_cuda_stretch(fpo__cu, %d)) {   /* stretch %d: its graph "
                      "replayed, else launched and captured */\n",
                   n, n);
        ind(b, depth + 1);
        buf_add(b, "do {\n");
        fpo_c_indented(b, gb.s, gb.len, 2);
        ind(b, depth + 1);
        buf_printf(b, "} while (!fpo_cuda_stretch_end(fpo__cu, %d));   /* (capture failed: "
                      "plain launches) */\n",
                   n);
        ind(b, depth);
        buf_add(b, "}\n");
        return;
    }
    if (gb.len)
        buf_addn(b, gb.s, gb.len);
}

void fpo_cuda_defaults(Build *bd) {
    bd->cuda_nests = 8;
    bd->cuda_levels = 1;
    bd->cuda_threads = CU_THREADS;
    bd->cuda_unroll = 1;
    bd->cuda_rows = 16;
    bd->cuda_shared = 96;   /* (the transport step 1.27x faster than at 48 on an H200) */
    bd->cuda_slack = 8;
    bd->cuda_fed = false;   /* (on: the chain 2.3x slower on an H200, docs/cuda.md) */
    bd->cuda_blocks = 0;
    bd->cuda_ahead = AHEAD;
    bd->cuda_ring = true;   /* (the chain 1.05x faster on an H200, docs/cuda.md) */
    bd->cuda_prefetch = 0;
    bd->cuda_ldg = false;
    bd->cuda_walk_rows = 2;   /* (the chain 2 % faster than at 8 on an H200, docs/cuda.md) */
    bd->cuda_walk_blocks = 0;
    bd->cuda_chunks = 1;
    bd->cuda_rim = FPO_RIM_OFF;   /* (nests: the chain 1.08x slower on an H200, docs/cuda.md) */
}

/* The state of emission for the variant of class `edges`, its arrays planned. */
static Cu cu_new(Ir *ir, const Build *bd, unsigned edges, StrMap *made_before) {
    /* (bd's values are in range: fpo_cuda_defaults, then main.c's checks of each option) */
    Cu c = {.ir = ir, .s = bd->sched, .ctx = fpo_c_ctx(ir, edges), .nests = bd->cuda_nests,
            .levels = bd->cuda_levels, .threads = bd->cuda_threads, .rows = bd->cuda_rows,
            .shared = bd->cuda_shared * 1024, .unroll = bd->cuda_unroll, .fed = bd->cuda_fed,
            .blocks = bd->cuda_blocks, .ahead = bd->cuda_ahead, .ring = bd->cuda_ring,
            .prefetch = bd->cuda_prefetch, .ldg = bd->cuda_ldg, .slack = bd->cuda_slack,
            .walk_rows = bd->cuda_walk_rows, .walk_blocks = bd->cuda_walk_blocks,
            .chunks = bd->cuda_chunks, .rim = bd->cuda_rim, .cls = fpo_class_name(edges),
            .made_before = made_before};
    plan_arrays(&c);
    return c;
}

/* The tables open reads (templates/program.c.in): per temporary, in slot order, whether the
 * device pool holds an array of it (one more entry ends it); the widest row of a shared tile,
 * whose offsets (i + j * row, 32-bit, absolute i and j) open checks as a field's; the most
 * dynamic shared memory a block asks for, which open checks the device has; the streams a
 * run may launch on (2 where the build asks for chunks: open makes the second). */
static void arrays_table(Buf *b, Ir *ir, Cu *c) {
    Sched *s = c->s;
    buf_printf(b, "\n/* The widest row of a segment's shared tile, elements (0: no shared tile). */\n"
                  "#ifdef __cplusplus\nextern \"C\"\n#endif\n"
                  "const int64_t %s__cuda_tile_row_ = %d;\n",
               ir->name, c->tile_row);
    buf_printf(b, "\n/* The most dynamic shared memory a segment kernel's block asks for, bytes (0: "
                  "none; --cuda-shared);\n * open refuses a device that has less. */\n"
                  "#ifdef __cplusplus\nextern \"C\"\n#endif\n"
                  "const int %s__cuda_shared_ = %d;\n",
               ir->name, c->dyn_shared);
    buf_printf(b, "\n/* The streams a run may launch on (2: a segment's walks beside its next chunk's "
                  "tiles,\n * --cuda-chunks); open makes the second. */\n"
                  "#ifdef __cplusplus\nextern \"C\"\n#endif\n"
                  "const int %s__cuda_streams_ = %d;\n",
               ir->name, c->chunks > 1 ? 2 : 1);
    buf_printf(b, "\n/* The temporaries with an array in the device pool (1), and those the kernels "
                  "keep in shared\n * memory or registers only (0), in slot order; open reads it. */\n"
                  "#ifdef __cplusplus\nextern \"C\"\n#endif\n"
                  "const unsigned char %s__cuda_arrays_[%d] = {",
               ir->name, s->nslots - s->nfparams + 1);
    for (int x = s->nfparams; x < s->nslots; x++)
        buf_printf(b, "%d, ", c->array[x]);
    buf_add(b, "1};\n");
}

/* The build report's line for the CUDA back end: what the device pool holds. */
char *fpo_cuda_summary(Ir *ir, const Build *bd) {
    Cu c = cu_new(ir, bd, bd->nvariants ? bd->variants[0] : 0, NULL);
    Sched *s = c.s;
    static const int size[] = {4, 8, 4, 1};
    int arrays = 0, bytes = 0, all = 0, walks = 0, kernels = 0, regs = 0, fed = 0;
    for (int x = s->nfparams; x < s->nslots; x++) {
        arrays += c.array[x];
        bytes += c.array[x] ? size[s->slots[x]->dt] : 0;
        all += size[s->slots[x]->dt];
    }
    for (int k = 0; k < s->nblocks; k++) {
        int np;
        Placed *pl = block_pieces(&c, &s->blocks[k], &np);
        for (int q = 0; q < np; q++) {
            Piece *pc = &pl[q].p;
            bool walk = pc->kind >= PC_WALK;   /* (WALK, FED, CHUNK) */
            kernels += walk, fed += pc->kind == PC_FED;
            for (int w = 0; walk && w < pc->nwalk; w++)
                walks++, regs += pc->walk[w].nwin;
        }
    }
    return fpo_fmt("fpo-gen: %s (%s, cuda): %d temporaries: %d arrays in the device pool (%d B per "
                   "point; every temporary: %d B), %d in shared memory or registers only; %d column "
                   "walk%s%s%s, %d value%s kept in registers from level to level\n",
                   ir->name, s->fused ? "fused" : "unfused", s->nslots - s->nfparams, arrays,
                   bytes, all, s->nslots - s->nfparams - arrays, walks, walks == 1 ? "" : "s",
                   walks ? fpo_fmt(" in %d kernel%s", kernels, kernels == 1 ? "" : "s") : "",
                   fed ? fpo_fmt(" (%d computing a segment's nests at each level walked)", fed) : "",
                   regs, regs == 1 ? "" : "s");
}

/* One variant's .cu source; with `table`, the arrays' table (arrays_table) at its end, from
 * the same plan. */
static char *emit_variant(Ir *ir, const Build *bd, unsigned edges, const char *classes,
                          bool table, StrMap *made_before) {
    const char *name = fpo_class_name(edges);
    const char *src = ir->loc.file ? strrchr(ir->loc.file->path, '/') : NULL;
    src = src ? src + 1 : ir->loc.file ? ir->loc.file->path : "IR";
    Cu c = cu_new(ir, bd, edges, made_before);
    c.s->nksites = 0;   /* each variant numbers its checked reads from 1 */
    bool checked = fpo_instrumented(&c.s->ins) || c.s->ins.cuda_check;
    c.stretches = (bd->nhalo || ir->ncallbacks) && !checked;

    /* the file's head, then its kernels as run's body makes them: the file's text */
    Buf *h = &c.kernels;
    buf_printf(h, "/* %s.%s.cu: variant '%s' of FPO program '%s' on the CUDA back end, run by "
                  "ranks of the edge\n * classes %s. Generated by fpo-gen from %s. Do not "
                  "edit: edit the .fpo source instead. */\n",
               ir->name, name, name, ir->name, classes, src);
    buf_printf(h, "#include \"%s.impl.h\"\n", ir->name);
    if (c.s->ins.cuda_check)
        buf_printf(h, "/* --instrument cuda-check: each launch waited for; a failure ends run, "
                       "naming its stencil */\n#define FPO_AFTER_LAUNCH_(c, what) \\\n"
                       "    if (fpo_cuda_check((c), (what))) \\\n"
                       "    return fpo_cuda_status((c), \"%s\", err)\n",
                   ir->name);
    buf_add(h, "#include \"fpo_cuda_kernels.h\"\n");
    char *body = fpo_c_run_body(ir, bd, edges, emit_block, &c, "fpo_cuda_stream(fpo__cu)");
    Buf b = c.kernels;
    c.kernels = (Buf){0};

    /* run: its body as a function of its own, so it can be captured or launched plainly */
    Buf params = {0}, args = {0}, key = {0};
    int nkey = 0;
    for (int i = 0; i < ir->nparams; i++) {
        Var *v = ir->params[i];
        if (v->ax != AX_SCALAR)
            continue;
        const char *n = fpo_c_name(v->name);
        buf_printf(&params, ", %s %s", fpo_c_type(v->dt), n);
        buf_printf(&args, ", %s", n);
        buf_printf(&key, "    memcpy(fpo_key + fpo_n, &%s, sizeof %s);\n    fpo_n += sizeof %s;\n",
                   n, n, n);
        nkey++;
    }
    buf_add(&params, "");
    buf_add(&args, "");
    buf_add(&key, "");
    buf_printf(&b, "\n/* The work of one run, launched on the program's stream. */\n"
                   "static fpo_status fpo_body_(%s *p, fpo_cuda *fpo__cu%s, fpo_error *err) {\n"
                   "    const int64_t nx = p->dom.nx, ny = p->dom.ny, nz = p->dom.nz;\n"
                   "    (void)nx, (void)ny, (void)nz, (void)err;\n",
               ir->name, params.s);
    if (c.s->ins.bounds)
        buf_printf(&b, "    /* --instrument bounds: the first read of a level outside its field's, "
                       "recorded by the kernels\n     * (fpo_klev_d_) */\n"
                       "    fpo_kbad_ fpo_kout = {0}, *fpo_kout_d = (fpo_kbad_ *)fpo_cuda_record("
                       "fpo__cu, sizeof fpo_kout);\n"
                       "    if (!fpo_kout_d)\n"
                       "        return fpo_fail(err, FPO_EINVAL, \"%s: no record for --instrument "
                       "bounds in the device pool\");\n",
                   ir->name);
    buf_add(&b, body);
    fpo_text_free(body);
    buf_add(&b, "    return FPO_OK;\n}\n");
    if (bd->nhalo || ir->ncallbacks || checked) {
        /* MPI or the host takes part in a run: not one graph; its stretches of kernels between
         * them are (c.nstretch), kept while run's scalar arguments stay the same */
        const char *why = bd->nhalo        ? "halo exchanges (MPI) between kernels"
                          : ir->ncallbacks ? "host callbacks between kernels"
                                           : "--instrument checks between kernels";
        buf_printf(&b, "\nfpo_status %s__cuda_%s(%s *p%s, fpo_error *err) {\n"
                       "    fpo_cuda *fpo__cu = (fpo_cuda *)p->cuda_;\n",
                   ir->name, name, ir->name, params.s);
        if (c.nstretch)
            buf_printf(&b, "    /* %s, the kernels between them in %d graph%s, each\n"
                           "     * replayed while run's scalar arguments stay the same */\n"
                           "    unsigned char fpo_key[%d] = {0};\n    size_t fpo_n = 0;\n%s"
                           "    fpo_cuda_stretches(fpo__cu, fpo_key, fpo_n);\n",
                       why, c.nstretch, c.nstretch > 1 ? "s" : "", nkey ? 8 * nkey : 1, key.s);
        else
            buf_printf(&b, "    /* %s: launched plainly, not captured as a graph */\n", why);
        buf_printf(&b, "    fpo_status st = fpo_body_(p, fpo__cu%s, err);\n"
                       "    fpo_error fpo_later;   /* a failed launch, after the failure in err */\n"
                       "    fpo_status launched = fpo_cuda_status(fpo__cu, \"%s\", st ? &fpo_later : err);\n"
                       "    return st ? st : launched;\n}\n",
                   args.s, ir->name);
        if (table)
            arrays_table(&b, ir, &c);
        return buf_fit(&b);
    }
    buf_printf(&b, "\nfpo_status %s__cuda_%s(%s *p%s, fpo_error *err) {\n", ir->name, name,
               ir->name, params.s);
    buf_add(&b, "    fpo_cuda *fpo__cu = (fpo_cuda *)p->cuda_;\n");
    buf_printf(&b, "    /* run's scalar arguments: the graph of the last run is replayed while "
                   "they stay the same */\n    unsigned char fpo_key[%d] = {0};\n    size_t fpo_n = 0;\n",
               nkey ? 8 * nkey : 1);
    buf_add(&b, key.s);
    buf_printf(&b, "    if (fpo_cuda_replay(fpo__cu, fpo_key, fpo_n))\n"
                   "        return fpo_cuda_status(fpo__cu, \"%s\", err);\n"
                   "    if (fpo_cuda_capture(fpo__cu)) {\n"
                   "        (void)fpo_body_(p, fpo__cu%s, err);   /* (nothing in it fails on the host) */\n"
                   "        if (fpo_cuda_captured(fpo__cu, fpo_key, fpo_n))\n"
                   "            return fpo_cuda_status(fpo__cu, \"%s\", err);\n"
                   "    }\n"
                   "    (void)fpo_body_(p, fpo__cu%s, err);   /* plain launches where capture failed */\n"
                   "    return fpo_cuda_status(fpo__cu, \"%s\", err);\n}\n",
               ir->name, args.s, ir->name, args.s, ir->name);
    if (table)
        arrays_table(&b, ir, &c);
    return buf_fit(&b);
}

Output *fpo_emit_cuda(Ir *ir, const Build *bd, Output *out, int *nout) {
    Output *all = fpo_new(sizeof(Output) * (size_t)(*nout + bd->nvariants + 1));
    memcpy(all, out, sizeof(Output) * (size_t)*nout);
    StrMap made = {0};   /* the kernels made so far, their texts less their names (kernel_made) */
    StrMap *share = bd->nvariants > 1 ? &made : NULL;
    for (int v = 0; v < bd->nvariants; v++) {
        Buf cls = {0};
        for (int c = 0; c < bd->nclasses; c++)
            if (bd->variant_of[c] == v)
                buf_printf(&cls, "%s%s", cls.len ? ", " : "", fpo_class_name(bd->classes[c]));
        /* (the first variant's file ends with the arrays' table) */
        char *text = emit_variant(ir, bd, bd->variants[v], cls.s, v == 0, share);
        char *file = fpo_fmt("%s.%s.cu", ir->name, fpo_class_name(bd->variants[v]));
        all[(*nout)++] = (Output){file, fpo_c_lines_back(text, file)};
    }
    for (size_t i = 0; i < made.cap; i++)
        fpo_text_free(made.keys[i]);
    return all;
}
