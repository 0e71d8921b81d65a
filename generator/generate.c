/* generate.c: the whole pipeline as library calls: the front end (parse, sema, lower) on
 * named sources, and a run of every stage on one in-memory source into memory (no file is
 * read or written), for the fuzz target and tests. main.c is the command line on top. */
#include "opt.h"

#include <string.h>

typedef struct FrontEnd {
    char **files;
    int nfiles;
    const char *program;
    Define *defs;
    int ndefs;
    Ir *ir;
} FrontEnd;

static void front_end(void *arg) {
    FrontEnd *fe = arg;
    Decl **decls = NULL;
    int ndecls = 0;
    long nodes = 0;
    for (int i = 0; i < fe->nfiles; i++)
        fpo_parse_file(fe->files[i], (Loc){0}, true, &decls, &ndecls, &nodes);
    fpo_sema(decls, ndecls, fe->defs, fe->ndefs);
    Decl *p = fpo_find_program(decls, ndecls, fe->program);
    fe->ir = fpo_lower(p);
    for (int i = 0; i < fe->ndefs; i++)
        VPUSH(fe->ir->defines, fe->ir->ndefines,
              fpo_fmt("%s=%s", fe->defs[i].name, fe->defs[i].value));
}

Ir *fpo_front_end(char **files, int nfiles, const char *program, Define *defs, int ndefs) {
    FrontEnd fe = {files, nfiles, program, defs, ndefs, NULL};
    return fpo_try(front_end, &fe) ? NULL : fe.ir;
}

int fpo_generate_memory(const char *path, const char *text, size_t len, Output **out,
                        int *nout) {
    *out = NULL;
    *nout = 0;
    fpo_sources_reset();
    bool no_disk = fpo_no_disk;
    fpo_no_disk = true;   /* imports find nothing on disk */
    fpo_source_from_memory(path, text, len);
    char *file = fpo_strdup(path);
    Ir *ir = fpo_front_end(&file, 1, NULL, NULL, 0);
    fpo_no_disk = no_disk;
    if (!ir)
        return 1;
    /* The IR's JSON reads back (lossless), then the program is emitted by both back ends:
     * unfused, fused and fused with every check; the fused form's CUDA kernels once more in
     * a shape of the --cuda-* options drawn from the text (FNV-1a), within fpo-gen's ranges. */
    char *json = fpo_ir_to_json(ir);
    Ir *back = fpo_ir_from_json(json, path);
    if (!back || strcmp(fpo_ir_to_json(back), json))
        return 3;
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)text[i]) * 1099511628211ull;
    for (int form = 0; form < 3; form++) {   /* unfused, fused, fused with every check */
        bool fused = form > 0;
        Build b = {0};
        b.version = "0";
        b.halo = 3;
        char *backends[] = {"c", "cuda"};
        b.backends = backends;
        b.nbackends = 2;
        fpo_cuda_defaults(&b);
        char *layouts[] = {"1x1", "any"};
        for (int i = 0; i < 2; i++) {
            fpo_layout_classes(&b, layouts[i]);
            VPUSH(b.layouts, b.nlayouts, layouts[i]);
        }
        Pipeline pipe = {0};
        pipe.fused = fused;
        pipe.halo = b.halo;
        pipe.dump_after = -1;
        if (form == 2)
            pipe.ins = (Instrument){.nan = true, .trace = true, .at = {1, 1, 1}, .progress = true,
                                    .timers = true, .bounds = true, .cuda_check = true};
        b.sched = fpo_optimize(ir, &pipe);
        int n;
        Output *o = fpo_emit_c(ir, &b, &n);
        int nc = n;   /* (the C outputs, and the variants fpo_emit_c planned into b) */
        o = fpo_emit_cuda(ir, &b, o, &n);
        if (form < 2)
            *out = o, *nout = n;
        if (form == 1) {   /* the same schedule's kernels in another shape */
            Build d = b;
            d.cuda_nests = 1 + (int)(h % 12);
            d.cuda_levels = 1 << (h >> 4) % 4;
            d.cuda_threads = 64 << (h >> 6) % 5;
            d.cuda_unroll = 1 << (h >> 9) % 3;
            d.cuda_rows = 1 << (h >> 11) % 6;
            d.cuda_shared = (int[]){16, 48, 96, 227}[(h >> 14) % 4];
            d.cuda_slack = (int[]){0, 1, 8, 32}[(h >> 16) % 4];
            d.cuda_fed = (h >> 18) % 2;
            d.cuda_blocks = (h >> 19) % 5;   /* (0: none; within a multiprocessor) */
            if (d.cuda_blocks * d.cuda_threads > FPO_CUDA_SM_THREADS)
                d.cuda_blocks = FPO_CUDA_SM_THREADS / d.cuda_threads;
            d.cuda_ahead = (int[]){0, 1, 8, 32}[(h >> 22) % 4];
            d.cuda_ring = (h >> 24) % 2;
            d.cuda_prefetch = (int[]){0, 1, 8, 64}[(h >> 25) % 4];
            d.cuda_ldg = (h >> 27) % 2;
            d.cuda_walk_rows = 1 << (h >> 28) % 6;
            d.cuda_walk_blocks = (int)((h >> 31) % 4) * 8;   /* (0: none) */
            if (d.cuda_walk_blocks * 32 * d.cuda_walk_rows > FPO_CUDA_SM_THREADS)
                d.cuda_walk_blocks = FPO_CUDA_SM_THREADS / (32 * d.cuda_walk_rows);
            d.cuda_chunks = (int[]){1, 2, 3, 16}[(h >> 33) % 4];
            d.cuda_rim = (int)((h >> 35) % 3);
            fpo_emit_cuda(ir, &d, o, &nc);
        }
    }
    return 0;
}
