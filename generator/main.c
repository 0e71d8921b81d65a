/* main.c: takes the command line, runs the stages (parse, sema, lower, or --from-ir; then emit,
 * plan or IR) and writes every output atomically: all are made in memory first, each is written
 * to a temporary name, and the names are switched only when every write succeeded. */
#include "opt.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FPO_VERSION
#define FPO_VERSION "0"
#endif

static const char usage_head[] =
    "usage: fpo-gen [options] FILE.fpo...\n"
    "  -p, --program NAME   the program to generate (needed when the files hold several)\n"
    "  -o, --out-dir DIR    where outputs go (default .)\n"
    "  -D NAME=VALUE        override an external\n"
    "  --backend c|cuda     back end (C; CUDA sources beside C's); may repeat\n"
    "  --frontdoor fortran|python  also write the program's Fortran module (NAME_fpo.f90) or\n"
    "                       Python module (NAME.py); may repeat\n"
    "  --layouts L,...      layouts to build variants for: NxM, or any (every n x m, n, m >= 2);\n"
    "                       default 1x1,any\n"
    "  --halo N             depth of halo statements without depth: (default 3)\n"
    ;

/* The --cuda-* options: the CUDA kernels' shape (docs/cuda.md, "Kernel shapes"), each value's
 * kind and range and the Build field that keeps it; --help lists them between usage_head
 * and usage_tail. */
typedef enum { CU_COUNT, CU_ON_OFF, CU_ROWS, CU_WORD } CudaKind;
static const struct CudaOption {
    const char *name, *arg;   /* --cuda-NAME ARG (CU_WORD: the words, an int their index) */
    CudaKind kind;
    long lo, hi, step;        /* a count's range, and what it is a multiple of */
    size_t at;                /* offsetof(Build, ...) */
    const char *help;         /* its lines after the first indented to the column */
} cuda_options[] = {
    {"nests", "N", CU_COUNT, 1, 1000, 1, offsetof(Build, cuda_nests),
     "the most loop nests of a fused group one CUDA kernel runs\n"
     "(default 8; 1: a kernel a nest)"},
    {"levels", "N", CU_COUNT, 1, 16, 1, offsetof(Build, cuda_levels),
     "levels a thread of a CUDA nest kernel computes, unrolled,\n"
     "and a block of a segment kernel in turn (default 1; 1 to 16)"},
    {"threads", "N", CU_COUNT, 64, 1024, 32, offsetof(Build, cuda_threads),
     "a CUDA segment kernel's threads a block (default 256; a multiple\n"
     "of 32 from 64 to 1024)"},
    {"unroll", "N", CU_COUNT, 1, 16, 1, offsetof(Build, cuda_unroll),
     "CUDA column walks and segment point loops unrolled N times\n"
     "(default 1; 1 to 16)"},
    {"rows", "N", CU_ROWS, 1, 32, 1, offsetof(Build, cuda_rows),
     "the most rows of a CUDA segment kernel's tile of 64 points a row\n"
     "(default 16; 1, 2, 4, 8, 16 or 32)"},
    {"shared", "KB", CU_COUNT, 16, 227, 1, offsetof(Build, cuda_shared),
     "the most shared memory a CUDA segment kernel's block takes, in KiB\n"
     "(default 96; 16 to 227: over 48 asks for it at launch)"},
    {"slack", "N", CU_COUNT, 0, 32, 1, offsetof(Build, cuda_slack),
     "the columns past 64 the last column of a CUDA segment kernel's tiles\n"
     "may take (default 8; 0 to 32)"},
    {"fed", "on|off", CU_ON_OFF, 0, 0, 0, offsetof(Build, cuda_fed),
     "a CUDA segment right before a column walk computed level by level\n"
     "inside the walk's kernel, where that gives the same bits (default off)"},
    {"blocks", "N", CU_COUNT, 1, 32, 1, offsetof(Build, cuda_blocks),
     "a CUDA segment kernel's registers held to what N blocks a\n"
     "multiprocessor leave (__launch_bounds__; default: none at 256 threads)"},
    {"ahead", "N", CU_COUNT, 0, 32, 1, offsetof(Build, cuda_ahead),
     "the levels a CUDA column walk loads a field it only reads ahead\n"
     "(default 8; 0 to 32, 0: none)"},
    {"ring", "on|off", CU_ON_OFF, 0, 0, 0, offsetof(Build, cuda_ring),
     "those registers a ring, the walk unrolled a turn of them at a time,\n"
     "instead of moved down a place a level (default on)"},
    {"prefetch", "N", CU_COUNT, 0, 64, 1, offsetof(Build, cuda_prefetch),
     "a CUDA column walk asks L2 for a field it reads ahead N levels past\n"
     "its registers, and a segment kernel for its first level's inputs\n"
     "(default 0: neither; 0 to 64)"},
    {"ldg", "on|off", CU_ON_OFF, 0, 0, 0, offsetof(Build, cuda_ldg),
     "a CUDA segment kernel reads the arrays it does not write through\n"
     "the read-only data cache (__ldg) (default off)"},
    {"walk-rows", "N", CU_ROWS, 1, 32, 1, offsetof(Build, cuda_walk_rows),
     "rows of 32 columns a CUDA column walk kernel's block (default 2;\n"
     "1, 2, 4, 8, 16 or 32)"},
    {"walk-blocks", "N", CU_COUNT, 1, 32, 1, offsetof(Build, cuda_walk_blocks),
     "a CUDA column walk kernel's registers held to what N blocks a\n"
     "multiprocessor leave (__launch_bounds__; default: none)"},
    {"chunks", "N", CU_COUNT, 1, 16, 1, offsetof(Build, cuda_chunks),
     "a CUDA segment and the column walks after it in N chunks of tile\n"
     "rows, each chunk's walks beside the next chunk's segment (default 1)"},
    {"rim", "off|nests|all", CU_WORD, 0, 0, 0, offsetof(Build, cuda_rim),
     "which CUDA segment loops a tile that holds no point of their edge\n"
     "regions runs without them: none (off, the default), those with a nest\n"
     "of edge regions only (nests), every one with edge regions (all)"},
};
enum { NCUDA = sizeof cuda_options / sizeof cuda_options[0] };

static const char usage_tail[] =
    "  --plan FILE          write the outputs, inputs and build report (CMake syntax) and stop\n"
    "  --depfile FILE       write a Makefile-style depfile: the header depends on every input read\n"
    "  --prefix-map OLD=NEW write source paths that start with OLD as NEW and the rest (in #line,\n"
    "                       comments, messages, the manifest); the last match wins; may repeat\n"
    "  --emit-ir FILE       write the flattened program IR as JSON (\"-\" for stdout) and stop\n"
    "  --from-ir FILE       read the program IR from JSON instead of .fpo files\n"
    "  --mode fused|unfused fused (default): the optimizer's passes; unfused: the reference\n"
    "  --disable-pass NAME  switch a pass off (corners, extent, fuse, column, merge, shrink, rows,\n"
    "                       kcache, stream, prefetch, width, pool); may repeat\n"
    "  --enable-pass NAME   switch on a pass that is off by default (join); may repeat\n"
    "  --dump-ir-after NAME FILE  write the IR and the schedule as JSON after pass NAME\n"
    "  --dot FILE           write the fused schedule as a Graphviz picture\n"
    "  --report             print the schedule and memory summary (one line)\n"
    "  --instrument CHECK   compile a check into run: nan, negative:FIELD, trace:I,J,K,\n"
    "                       progress, timers, bounds, cuda-check; may repeat\n"
    "  -h, --help           usage\n"
    "  --version            version\n"
    "Exit status: 0 success, 1 an error in the input, 2 a usage or I/O error.\n";

typedef struct Options {
    const char *program, *outdir, *backend, *plan, *depfile, *emit_ir, *from_ir, *layouts, *halo;
    const char *cuda[NCUDA];   /* per cuda_options entry: its value (NULL: not given) */
    char **backends;
    int nbackends;
    const char *frontdoor;
    char **frontdoors;
    int nfrontdoors;
    const char *mode, *dump_file, *dot;
    Pipeline pipe;
    bool report;
    char **files;
    int nfiles;
    Define *defs;
    int ndefs;
} Options;

static int usage_error(const char *fmt, const char *arg) {
    fputs("fpo-gen: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(fpo-gen --help lists the options)\n", stderr);
    return 2;
}

/* The names of pipeline.c's passes, comma-separated: all, or only those off by default. */
static const char *pass_list(bool off_only) {
    Buf b = {0};
    for (int p = 0; p < PASS_COUNT; p++)
        if (!off_only || !fpo_pass_default[p])
            buf_printf(&b, "%s%s", b.s ? ", " : "", fpo_pass_names[p]);
    return b.s;
}

/* One --instrument CHECK; -1 if it is none of them. */
static int parse_instrument(const char *c, Instrument *ins) {
    long long at[3];
    if (!strcmp(c, "nan"))
        ins->nan = true;
    else if (!strcmp(c, "progress"))
        ins->progress = true;
    else if (!strcmp(c, "timers"))
        ins->timers = true;
    else if (!strcmp(c, "bounds"))
        ins->bounds = true;
    else if (!strcmp(c, "cuda-check"))
        ins->cuda_check = true;
    else if (!strncmp(c, "negative:", 9) && c[9])
        VPUSH(ins->negative, ins->nnegative, fpo_strdup(c + 9));
    else if (sscanf(c, "trace:%lld,%lld,%lld", &at[0], &at[1], &at[2]) == 3) {
        ins->trace = true;
        for (int d = 0; d < 3; d++)
            ins->at[d] = at[d];
    } else
        return -1;
    return 0;
}

/* --help: the options, the --cuda-* ones from their table. */
static void print_usage(void) {
    fputs(usage_head, stdout);
    for (int c = 0; c < NCUDA; c++) {
        const struct CudaOption *t = &cuda_options[c];
        int pad = 13 - (int)(strlen(t->name) + strlen(t->arg));   /* (a longer one: 2 spaces) */
        printf("  --cuda-%s %s%*s", t->name, t->arg, pad > 0 ? pad : 2, "");
        for (const char *l = t->help, *nl; l; l = nl ? nl + 1 : NULL) {
            nl = strchr(l, '\n');
            printf("%s%.*s\n", l == t->help ? "" : "                       ",
                   nl ? (int)(nl - l) : (int)strlen(l), l);
        }
    }
    fputs(usage_tail, stdout);
}

/* 0 ok, 1 stop with success (help, version), 2 a usage error. */
static int parse_args(int argc, char **argv, Options *o) {
    o->outdir = ".";
    o->backend = "c";
    o->mode = "fused";
    o->pipe.dump_after = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            print_usage();
            return 1;
        }
        if (!strcmp(a, "--version")) {
            printf("fpo-gen %s\n", FPO_VERSION);
            return 1;
        }
        if (!strncmp(a, "-D", 2)) {
            const char *d = a[2] ? a + 2 : i + 1 < argc ? argv[++i] : NULL;
            if (!d)
                return usage_error("option '%s' needs NAME=VALUE", a);
            const char *eq = strchr(d, '=');
            if (!eq || eq == d)
                return usage_error("-D '%s': expected NAME=VALUE", d);
            Define def = {fpo_strndup(d, (size_t)(eq - d)), fpo_strdup(eq + 1)};
            VPUSH(o->defs, o->ndefs, def);
            continue;
        }
        if (!strcmp(a, "--report")) {
            o->report = true;
            continue;
        }
        if (!strcmp(a, "--enable-pass")) {
            int pass = i + 1 < argc ? fpo_pass_find(argv[i + 1]) : -1;
            if (pass < 0 || fpo_pass_default[pass])
                return usage_error(
                    fpo_fmt("option '%%s' needs a pass that is off by default: %s", pass_list(true)),
                    a);
            o->pipe.en[pass] = true;
            i++;
            continue;
        }
        if (!strcmp(a, "--disable-pass") || !strcmp(a, "--dump-ir-after")) {
            int pass = i + 1 < argc ? fpo_pass_find(argv[i + 1]) : -1;
            if (pass < 0)
                return usage_error(fpo_fmt("option '%%s' needs a pass: %s", pass_list(false)), a);
            i++;
            if (a[2] == 'd' && a[3] == 'i') {
                o->pipe.off[pass] = true;
                continue;
            }
            if (i + 1 >= argc)
                return usage_error("option '%s' needs a pass and a file", a);
            o->pipe.dump_after = pass;
            o->dump_file = argv[++i];
            continue;
        }
        if (!strcmp(a, "--prefix-map")) {
            const char *eq = i + 1 < argc ? strchr(argv[i + 1], '=') : NULL;
            if (!eq || eq == argv[i + 1])
                return usage_error("option '%s' needs OLD=NEW (OLD not empty)", a);
            fpo_add_prefix_map(fpo_strndup(argv[i + 1], (size_t)(eq - argv[i + 1])), eq + 1);
            i++;
            continue;
        }
        if (!strcmp(a, "--instrument")) {
            if (i + 1 >= argc || parse_instrument(argv[i + 1], &o->pipe.ins))
                return usage_error("option '%s' needs nan, negative:FIELD, trace:I,J,K, progress, "
                                   "timers, bounds or cuda-check", a);
            i++;
            continue;
        }
        if (!strcmp(a, "-p") || !strcmp(a, "--program"))
            slot = &o->program;
        else if (!strcmp(a, "-o") || !strcmp(a, "--out-dir"))
            slot = &o->outdir;
        else if (!strcmp(a, "--backend"))
            slot = &o->backend;
        else if (!strcmp(a, "--frontdoor"))
            slot = &o->frontdoor;
        else if (!strcmp(a, "--layouts"))
            slot = &o->layouts;
        else if (!strcmp(a, "--halo"))
            slot = &o->halo;
        else if (!strcmp(a, "--plan"))
            slot = &o->plan;
        else if (!strcmp(a, "--depfile"))
            slot = &o->depfile;
        else if (!strcmp(a, "--emit-ir"))
            slot = &o->emit_ir;
        else if (!strcmp(a, "--from-ir"))
            slot = &o->from_ir;
        else if (!strcmp(a, "--mode"))
            slot = &o->mode;
        else if (!strcmp(a, "--dot"))
            slot = &o->dot;
        for (int c = 0; !slot && c < NCUDA; c++)
            if (!strncmp(a, "--cuda-", 7) && !strcmp(a + 7, cuda_options[c].name))
                slot = &o->cuda[c];
        if (slot) {
            if (i + 1 >= argc)
                return usage_error("option '%s' needs a value", a);
            *slot = argv[++i];
            if (slot == &o->backend)
                VPUSH(o->backends, o->nbackends, (char *)o->backend);
            bool seen = false;   /* a front door given twice is written once */
            for (int k = 0; slot == &o->frontdoor && k < o->nfrontdoors; k++)
                seen |= !strcmp(o->frontdoors[k], o->frontdoor);
            if (slot == &o->frontdoor && !seen)
                VPUSH(o->frontdoors, o->nfrontdoors, (char *)o->frontdoor);
            continue;
        }
        if (a[0] == '-' && a[1])
            return usage_error("unknown option '%s'", a);
        VPUSH(o->files, o->nfiles, argv[i]);
    }
    for (int i = 0; i < o->nbackends; i++)
        if (strcmp(o->backends[i], "c") && strcmp(o->backends[i], "cuda"))
            return usage_error("unknown back end '%s' (this fpo-gen has: c, cuda)", o->backends[i]);
    for (int i = 0; i < o->nfrontdoors; i++)
        if (strcmp(o->frontdoors[i], "fortran") && strcmp(o->frontdoors[i], "python"))
            return usage_error("unknown front door '%s' (this fpo-gen has: fortran, python)",
                               o->frontdoors[i]);
    bool has_c = false;   /* the C back end is always built: CUDA's open and checks are C */
    for (int i = 0; i < o->nbackends; i++)
        has_c |= !strcmp(o->backends[i], "c");
    if (!has_c)
        VPUSH(o->backends, o->nbackends, "c");
    if (strcmp(o->mode, "fused") && strcmp(o->mode, "unfused"))
        return usage_error("unknown mode '%s' (fused or unfused)", o->mode);
    o->pipe.fused = !strcmp(o->mode, "fused");
    if (o->from_ir && o->nfiles)
        return usage_error("--from-ir reads no .fpo files (got '%s')", o->files[0]);
    if (!o->from_ir && !o->nfiles)
        return usage_error("%s", "no input file");
    return 0;
}

/* ---- stages ---- */

/* The IR JSON: standard input ("-"), or a regular file (not a FIFO nor a device). */
static char *read_all(const char *path) {
    if (!strcmp(path, "-"))
        return fpo_read_stream(stdin);
    size_t len;
    return fpo_read_file(path, path, FPO_MAX_IR_JSON, &len);
}

/* ---- atomic output ---- */

typedef struct Pending {
    const char *path, *text;
    char *tmp;
} Pending;

static int make_dirs(const char *dir) {
    char *p = fpo_strdup(dir);
    for (char *s = p + 1;; s++) {
        if (*s == '/' || !*s) {
            char c = *s;
            *s = 0;
            if (mkdir(p, 0777) && errno != EEXIST)
                return -1;
            *s = c;
            if (!c)
                return 0;
        }
    }
}

/* Whether the file at `path` holds exactly `text` (then it is left alone: its time stays, and
 * the build, which reads outputs' times after each step, compiles nothing from it again). */
static bool holds(const char *path, const char *text) {
    struct stat st;
    size_t len = strlen(text);
    if (stat(path, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size != len)
        return false;
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char buf[65536];
    size_t at = 0, got;
    bool same = true;
    while (same && (got = fread(buf, 1, sizeof buf, f)) > 0) {
        same = at + got <= len && !memcmp(buf, text + at, got);
        at += got;
    }
    same = same && !ferror(f) && at == len;
    fclose(f);
    return same;
}

/* Write every file under a temporary name, then rename all; on failure nothing is left. A file
 * that already holds its text is not written. */
static int write_all(Pending *w, int n) {
    mode_t mask = umask(0);
    umask(mask);
    int i;
    for (i = 0; i < n; i++) {
        if (holds(w[i].path, w[i].text)) {
            w[i].tmp = NULL;
            continue;
        }
        w[i].tmp = fpo_fmt("%s.tmpXXXXXX", w[i].path);
        int fd = mkstemp(w[i].tmp);
        if (fd < 0) {
            fprintf(stderr, "fpo-gen: error: cannot write '%s': %s\n", w[i].path, strerror(errno));
            break;
        }
        fchmod(fd, 0666 & ~mask);   /* as open() would have made it */
        FILE *f = fdopen(fd, "wb");
        size_t len = strlen(w[i].text);
        bool ok = f && fwrite(w[i].text, 1, len, f) == len;
        ok = f && !fclose(f) && ok;
        if (!ok) {
            fprintf(stderr, "fpo-gen: error: cannot write '%s': %s\n", w[i].path, strerror(errno));
            unlink(w[i].tmp);
            break;
        }
    }
    if (i < n) {
        while (i-- > 0)
            if (w[i].tmp)
                unlink(w[i].tmp);
        return -1;
    }
    for (i = 0; i < n; i++)
        if (w[i].tmp && rename(w[i].tmp, w[i].path)) {
            fprintf(stderr, "fpo-gen: error: cannot write '%s': %s\n", w[i].path, strerror(errno));
            for (int j = i; j < n; j++)
                if (w[j].tmp)
                    unlink(w[j].tmp);
            return -1;
        }
    return 0;
}

/* An on / off option (as CMake spells them too) into *v; 0, or 2 after saying what is wrong. */
static int on_off(const char *a, const char *opt, bool *v) {
    if (!a)
        return 0;
    if (strcasecmp(a, "on") && strcasecmp(a, "off"))
        return usage_error(fpo_fmt("%s '%%s': expected on or off", opt), a);
    *v = !strcasecmp(a, "on");
    return 0;
}

/* A count option's value `a` (NULL: not given, *n stays), from lo to hi, a multiple of step. */
static int count_option(const char *a, const char *opt, long lo, long hi, long step, int *n) {
    if (!a)
        return 0;
    char *end;
    long v = strtol(a, &end, 10);
    if (!*end && v >= lo && v <= hi && v % step == 0) {
        *n = (int)v;
        return 0;
    }
    if (step > 1)
        return usage_error(fpo_fmt("%s '%%s': expected a multiple of %ld from %ld to %ld", opt, step,
                                   lo, hi),
                           a);
    return usage_error(fpo_fmt("%s '%%s': expected a count from %ld to %ld", opt, lo, hi), a);
}

/* A word option's value `a` (NULL: not given, *n stays): the index of one of `words`
 * ("off|nests|all"). */
static int word_option(const char *a, const char *opt, const char *words, int *n) {
    if (!a)
        return 0;
    int i = 0;
    for (const char *w = words; *w; i++) {
        size_t len = strcspn(w, "|");
        if (strlen(a) == len && !strncasecmp(a, w, len)) {
            *n = i;
            return 0;
        }
        w += len + (w[len] == '|');
    }
    Buf list = {0};   /* "off, nests or all" */
    for (const char *w = words; *w;) {
        size_t len = strcspn(w, "|");
        const char *next = w + len + (w[len] == '|');
        buf_printf(&list, "%s%.*s", w == words ? "" : *next ? ", " : " or ", (int)len, w);
        w = next;
    }
    return usage_error(fpo_fmt("%s '%%s': expected %s", opt, list.s), a);
}

/* A count of rows `a` (NULL: not given, *n stays): a power of two from 1 to 32 (a segment's
 * tile halves its rows from the most, emit_cuda's plan_segment; a walk's block is 32 x n). */
static int rows_option(const char *a, const char *opt, int *n) {
    if (!a)
        return 0;
    char *end;
    long r = strtol(a, &end, 10);
    if (*end || r < 1 || r > 32 || (r & (r - 1)))
        return usage_error(fpo_fmt("%s '%%s': expected 1, 2, 4, 8, 16 or 32", opt), a);
    *n = (int)r;
    return 0;
}

/* The build's layouts, back ends and halo width, from the options. */
static int build_options(Options *o, Build *b) {
    b->version = FPO_VERSION;
    b->backends = o->backends;
    b->nbackends = o->nbackends;
    b->frontdoors = o->frontdoors;
    b->nfrontdoors = o->nfrontdoors;
    b->halo = 3;
    fpo_cuda_defaults(b);
    for (int c = 0; c < NCUDA; c++) {
        const struct CudaOption *t = &cuda_options[c];
        const char *opt = fpo_fmt("--cuda-%s", t->name);
        void *at = (char *)b + t->at;
        if (t->kind == CU_ON_OFF ? on_off(o->cuda[c], opt, at)
            : t->kind == CU_ROWS ? rows_option(o->cuda[c], opt, at)
            : t->kind == CU_WORD ? word_option(o->cuda[c], opt, t->arg, at)
                                 : count_option(o->cuda[c], opt, t->lo, t->hi, t->step, at))
            return 2;
    }
    if (b->cuda_blocks * b->cuda_threads > FPO_CUDA_SM_THREADS)
        return usage_error(fpo_fmt("--cuda-blocks %d: blocks of --cuda-threads make more than "
                                   "the %%s threads a multiprocessor runs", b->cuda_blocks),
                           fpo_fmt("%d", FPO_CUDA_SM_THREADS));
    if (b->cuda_walk_blocks * 32 * b->cuda_walk_rows > FPO_CUDA_SM_THREADS)
        return usage_error(fpo_fmt("--cuda-walk-blocks %d: blocks of --cuda-walk-rows make more "
                                   "than the %%s threads a multiprocessor runs",
                                   b->cuda_walk_blocks),
                           fpo_fmt("%d", FPO_CUDA_SM_THREADS));
    if (o->halo) {
        char *end;
        long h = strtol(o->halo, &end, 10);
        if (*end || h < 1 || h > 64)
            return usage_error("--halo '%s': expected a depth from 1 to 64", o->halo);
        b->halo = (int)h;
    }
    char *list = fpo_strdup(o->layouts ? o->layouts : "1x1,any");
    for (char *save = NULL, *l = strtok_r(list, ", ", &save); l; l = strtok_r(NULL, ", ", &save)) {
        if (!fpo_layout_classes(b, l))
            return usage_error("--layouts: '%s' is not a layout (NxM, or any)", l);
        VPUSH(b->layouts, b->nlayouts, l);
    }
    if (!b->nlayouts)
        return usage_error("%s", "--layouts: no layout given");
    return 0;
}

typedef struct Emission {
    Ir *ir;
    Build *b;
    Output *out;
    int nout;
} Emission;

/* The back ends' outputs: C's, then CUDA's where the build has it, then the front doors'. */
static void emit_all(void *arg) {
    Emission *em = arg;
    em->out = fpo_emit_c(em->ir, em->b, &em->nout);
    if (fpo_build_has(em->b, "cuda"))
        em->out = fpo_emit_cuda(em->ir, em->b, em->out, &em->nout);
    for (int i = 0; i < em->b->nfrontdoors; i++) {
        if (!strcmp(em->b->frontdoors[i], "python"))
            em->out = fpo_emit_python(em->ir, em->b, em->out, &em->nout);
        else
            em->out = fpo_emit_fortran(em->ir, em->b, em->out, &em->nout);
    }
}

static int generate(Options *o) {
    Ir *ir = NULL;
    if (o->from_ir) {
        char *text = read_all(o->from_ir);
        if (!text) {
            if (strcmp(o->from_ir, "-"))
                fprintf(stderr, "fpo-gen: error: %s\n", fpo_errmsg);
            else
                fprintf(stderr, "fpo-gen: error: cannot read '-': %s\n", strerror(errno));
            return 2;
        }
        ir = fpo_ir_from_json(text, o->from_ir);
        if (!ir) {
            fprintf(stderr, "%s: error: %s\n", o->from_ir, fpo_errmsg);
            return 1;
        }
        if (o->program && strcmp(o->program, ir->name)) {
            fprintf(stderr, "fpo-gen: error: the IR holds program '%s', not '%s'\n", ir->name,
                    o->program);
            return 1;
        }
    } else if (!(ir = fpo_front_end(o->files, o->nfiles, o->program, o->defs, o->ndefs))) {
        return 1;
    }
    char **inputs = ir->inputs;
    int ninputs = ir->ninputs;
    if (o->from_ir) {
        char *in = fpo_strdup(o->from_ir);
        inputs = &in;
        ninputs = 1;
    }
    if (o->emit_ir) {
        char *json = fpo_ir_to_json(ir);
        if (!strcmp(o->emit_ir, "-")) {
            fputs(json, stdout);
            return 0;
        }
        Pending w = {o->emit_ir, json, NULL};
        return write_all(&w, 1) ? 2 : 0;
    }
    Build b = {0};
    if (build_options(o, &b))
        return 2;
    Pending w[8];
    int nw = 0;
    o->pipe.halo = b.halo;
    b.sched = fpo_optimize(ir, &o->pipe);
    if (!o->plan) {
        if (o->report)
            fputs(fpo_memory_summary(b.sched), stdout);
        if (o->dump_file)
            w[nw++] = (Pending){o->dump_file, o->pipe.dump, NULL};
        if (o->dot)
            w[nw++] = (Pending){o->dot, fpo_sched_dot(b.sched), NULL};
    }
    Emission em = {ir, &b, NULL, 0};
    if (fpo_try(emit_all, &em))
        return 1;
    if (o->report && !o->plan && fpo_build_has(&b, "cuda"))
        fputs(fpo_cuda_summary(ir, &b), stdout);
    int nout = em.nout;
    Output *out = em.out;
    char **names = fpo_new(sizeof(char *) * (size_t)nout);
    for (int i = 0; i < nout; i++)
        names[i] = out[i].name;
    Pending *all = fpo_new(sizeof(Pending) * (size_t)(nw + nout + 2));
    memcpy(all, w, sizeof(Pending) * (size_t)nw);
    char **stale = NULL;
    int nstale = 0;
    if (o->plan) {
        all[nw++] = (Pending){o->plan, fpo_plan(ir, o->outdir, names, nout, &b), NULL};
    } else {
        char *dep = NULL;
        if (o->depfile && !(dep = fpo_depfile(fpo_fmt("%s/%s.h", o->outdir, ir->name), inputs, ninputs))) {
            fprintf(stderr, "fpo-gen: error: --depfile: %s\n", fpo_errmsg);
            return 2;
        }
        if (make_dirs(o->outdir)) {
            fprintf(stderr, "fpo-gen: error: cannot make '%s': %s\n", o->outdir, strerror(errno));
            return 2;
        }
        for (int i = 0; i < nout; i++)
            all[nw++] = (Pending){fpo_fmt("%s/%s", o->outdir, out[i].name), out[i].text, NULL};
        if (o->depfile)
            all[nw++] = (Pending){o->depfile, dep, NULL};
        /* The variant sources the build before wrote here (its manifest names them) that this
         * one does not (LAYOUTS or BACKENDS changed): removed once every output is written,
         * so the folder holds this build's sources; nothing the manifest does not name. */
        size_t len;
        char *before = fpo_read_file(fpo_fmt("%s/%s.manifest.json", o->outdir, ir->name), "",
                                     1 << 20, &len);
        stale = before ? fpo_manifest_sources(before, ir->name, &nstale) : NULL;
    }
    if (write_all(all, nw))
        return 2;
    for (int i = 0; i < nstale; i++) {
        bool kept = false;
        for (int k = 0; k < nout && !kept; k++)
            kept = !strcmp(stale[i], names[k]);
        if (!kept)
            unlink(fpo_fmt("%s/%s", o->outdir, stale[i]));   /* (gone already: fine) */
    }
    return 0;
}

int main(int argc, char **argv) {
    Options o = {0};
    int rc = parse_args(argc, argv, &o);
    if (rc == 0)
        rc = generate(&o);
    else if (rc == 1)
        rc = 0;
    fpo_arena_free();
    return rc;
}
