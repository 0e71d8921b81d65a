/* cuda_check.c: the CUDA back end against the C back end, bit for bit: the chain step
 * (tests/bench/chain.fpo) and the example model's transport step (tp_step), fused (segment
 * kernels) and unfused (chain_ref, tp_ref: a kernel a loop nest), each variant built, forced in turn,
 * on fields of hash noise. Built twice: against the emulated CUDA build (kernels run
 * as loops on the host: CI checks the generated kernels' logic without a GPU) and, with
 * ON_GPU, against the real one (device memory; exits 77, skipped, where no device can be
 * used). Also checks what open refuses: fields in the wrong memory, no device; and runs on the
 * caller's stream (fpo_options.cuda_stream): ordered with the caller's work on it, captured
 * into the caller's graph, on the legacy default stream; a run after the caller's work on a
 * stream of its own (chain_step_after); with its pool kept in L2 (FPO_CUDA_L2_POOL); and
 * double buffering (bind before each run), each
 * binding's graph kept and replayed.
 * Usage: cuda_check [NX [NY [NZ]]]. */
#define _POSIX_C_SOURCE 200809L   /* setenv, nanosleep */
#include "chain_ref.h"
#include "chain_step.h"
#include "tp_ref.h"
#include "tp_step.h"

#include "arrays.h"

enum { H = 3 };

static int failures;

#define FAIL(...)                                                                              \
    do {                                                                                       \
        fprintf(stderr, "cuda_check: " __VA_ARGS__);                                           \
        fputc('\n', stderr);                                                                   \
        failures++;                                                                            \
    } while (0)

/* Compare the host and device arrays bit for bit; name the first difference. */
static long compare(const char *what, const char *variant, const Arr *a, int nx, int ny) {
    double *d = fetch(a);
    long bad = 0;
    for (size_t x = 0; x < a->n; x++)
        if (memcmp(&a->host[x], &d[x], sizeof(double))) {
            if (!bad) {
                int64_t w = nx + 2 * H, hh = ny + 2 * H;
                FAIL("%s, variant %s: first difference at i=%lld j=%lld k=%lld: C %.17g, CUDA "
                     "%.17g",
                     what, variant, (long long)((int64_t)x % w) - H,
                     (long long)((int64_t)x / w % hh) - H, (long long)((int64_t)x / (w * hh)),
                     a->host[x], d[x]);
            }
            bad++;
        }
    free(d);
    return bad;
}

static fpo_field f3(double *data, int nx, int ny, int nz, fpo_space space) {
    fpo_field f = fpo_field_3d(data, FPO_F64, -H, nx + H, -H, ny + H, 0, nz);
    f.space = space;
    return f;
}

static fpo_field f2(double *data, int nx, int ny, fpo_space space) {
    fpo_field f = fpo_field_2d(data, FPO_F64, -H, nx + H, -H, ny + H);
    f.space = space;
    return f;
}

/* The device pool holds arrays only for the temporaries its kernels keep in memory: the
 * chain's segment keeps cx, cy, fx, fy and qd in shared memory only, and its BACKWARD walk,
 * which runs the clip at each level, qv in registers only, so its pool (cp, dp; qn too where
 * the segment does not run inside the walk) is smaller than the unfused reference's, which
 * holds every temporary. */
static void check_pool(const chain_step *fused, const chain_ref *unfused) {
    fpo_memory f, u;
    if (chain_step_memory(fused, &f) || chain_ref_memory(unfused, &u)) {
        FAIL("chain: memory refused");
        return;
    }
    printf("chain device pool: fused %zu bytes (%d arrays, %d temporaries in shared memory or "
           "registers; every temporary: %zu bytes), unfused %zu bytes (%d arrays)\n",
           f.pool_bytes, f.arrays, f.scalars, f.unfused_bytes, u.pool_bytes, u.arrays);
    if (u.pool_bytes != u.unfused_bytes || u.arrays != 9 || u.scalars != 0)
        FAIL("chain unfused: the pool should hold all 9 temporaries as arrays");
    if (f.arrays + f.scalars != 9 || f.arrays > 3 || f.pool_bytes != f.array_bytes ||
        f.unfused_bytes != u.pool_bytes || f.pool_bytes * 9 > u.pool_bytes * 3 + 64 * 9)
        FAIL("chain fused: the pool should hold at most 3 of the 9 temporaries (%zu of %zu bytes)",
             f.pool_bytes, u.pool_bytes);
}

#ifndef CUDA_SHAPE
/* The transport step's five PPM sweeps run as three segments (the default kernel shape) whose
 * shared tiles keep 12 of its 19 temporaries: the nest that writes a PPM's bl first reads only
 * what it wrote, so its segment need not start from bl's array and goes on; and a PPM's own
 * temporaries (dm, al, bl, br) start anew at each call, so the segment of one call does not
 * write them back for another call's. */
static void check_pool_tp(const tp_step *fused) {
    fpo_memory f;
    if (tp_step_memory(fused, &f)) {
        FAIL("tp_step: memory refused");
        return;
    }
    printf("tp_step device pool: fused %zu bytes (%d arrays, %d temporaries in shared memory "
           "or registers)\n", f.pool_bytes, f.arrays, f.scalars);
    if (f.arrays + f.scalars != 19 || f.arrays > 7)
        FAIL("tp_step fused: the pool should hold at most 7 of the 19 temporaries (%d of %d)",
             f.arrays, f.arrays + f.scalars);
}
#endif

/* The variants forced in turn: every one, or (CUDA_SHAPE: the other kernel shapes, built for
 * LAYOUTS 1x1 2x2) 'all' and the four corners, which hold every edge's code between them. */
static const char *variants[] = {"all", "sw", "se", "nw", "ne", "interior", "s", "n", "w", "e"};
#ifdef CUDA_SHAPE
enum { NVARIANTS = 5 };
#else
enum { NVARIANTS = 10 };
#endif

static int check_chain(int nx, int ny, int nz, int steps) {
    size_t n = (size_t)(nx + 2 * H) * (size_t)(ny + 2 * H) * (size_t)nz;
    for (size_t v = 0; v < NVARIANTS; v++) {
        Arr q = arr(n, 0, 0.5, 1.0), u = arr(n, 1, -1.0, 2.0), w = arr(n, 2, -1.0, 2.0),
            delp = arr(n, 3, 1.0, 1.0), out = arr(n, 4, 0.0, 1.0), out2 = arr(n, 4, 0.0, 1.0);
        chain_step_fields hf = {f3(q.host, nx, ny, nz, FPO_HOST), f3(u.host, nx, ny, nz, FPO_HOST),
                                f3(w.host, nx, ny, nz, FPO_HOST),
                                f3(delp.host, nx, ny, nz, FPO_HOST),
                                f3(out.host, nx, ny, nz, FPO_HOST)};
        chain_step_fields df = {f3(q.dev, nx, ny, nz, FPO_DEVICE), f3(u.dev, nx, ny, nz, FPO_DEVICE),
                                f3(w.dev, nx, ny, nz, FPO_DEVICE),
                                f3(delp.dev, nx, ny, nz, FPO_DEVICE),
                                f3(out.dev, nx, ny, nz, FPO_DEVICE)};
        chain_ref_fields du;   /* the unfused program: the same fields, its own output */
        memcpy(&du, &df, sizeof du);
        du.q_out = f3(out2.dev, nx, ny, nz, FPO_DEVICE);
        fpo_domain dom = fpo_domain_local(nx, ny, nz);
        fpo_options oc = {.variant = variants[v], .backend = "c"};
        fpo_options og = {.variant = variants[v], .backend = "cuda"};
        fpo_error err;
        chain_step *pc = NULL, *pg = NULL;
        chain_ref *pu = NULL;
        if (chain_step_open_with(&pc, &dom, &hf, &oc, &err) ||
            chain_step_open_with(&pg, &dom, &df, &og, &err) ||
            chain_ref_open_with(&pu, &dom, &du, &og, &err)) {
            FAIL("chain: open: %s", err.msg);
            return 1;
        }
        if (v == 0)
            check_pool(pg, pu);
        for (int s = 0; s < steps; s++) {
            /* the same scalars each step but one, so the graph is replayed and captured again */
            double dtdx = s == 2 ? 0.25 : 0.3;
            if (chain_step_run(pc, dtdx, 0.05, 0.1, &err) ||
                chain_step_run(pg, dtdx, 0.05, 0.1, &err) || chain_step_wait(pg, &err) ||
                chain_ref_run(pu, dtdx, 0.05, 0.1, &err) || chain_ref_wait(pu, &err)) {
                FAIL("chain: run: %s", err.msg);
                return 1;
            }
        }
        memcpy(out2.host, out.host, n * sizeof(double));   /* C's result */
        long bad = compare("chain q_out (fused)", variants[v], &out, nx, ny);
        long badu = compare("chain q_out (unfused)", variants[v], &out2, nx, ny);
        printf("chain, variant %-8s: %zu points of q_out, %ld differ fused, %ld unfused (%s)\n",
               variants[v], n, bad, badu, chain_step_variant(pg));
        chain_step_close(pc);
        chain_step_close(pg);
        chain_ref_close(pu);
        arr_free(&q), arr_free(&u), arr_free(&w), arr_free(&delp), arr_free(&out), arr_free(&out2);
    }
    return 0;
}

static int check_tp(int nx, int ny, int nz) {
    size_t n = (size_t)(nx + 2 * H) * (size_t)(ny + 2 * H) * (size_t)nz;
    size_t n2 = (size_t)(nx + 2 * H) * (size_t)(ny + 2 * H);
    for (size_t v = 0; v < NVARIANTS; v++) {
        Arr a3[6], a2[4];
        for (int a = 0; a < 6; a++)   /* q, qy, crx, cry, xfx, yfx */
            a3[a] = a < 2 ? arr(n, 10 + a, 1.0, 1.0) : arr(n, 10 + a, -0.4, 0.8);
        Arr uq = arr(n, 10, 1.0, 1.0), uqy = arr(n, 11, 1.0, 1.0);   /* the unfused run's q, qy */
        for (int a = 0; a < 4; a++)   /* area, rarea, dxa, dya */
            a2[a] = arr(n2, 20 + a, 0.8, 0.4);
        fpo_field h3[6], d3[6], h2[4], d2[4];
        for (int a = 0; a < 6; a++)
            h3[a] = f3(a3[a].host, nx, ny, nz, FPO_HOST), d3[a] = f3(a3[a].dev, nx, ny, nz, FPO_DEVICE);
        for (int a = 0; a < 4; a++)
            h2[a] = f2(a2[a].host, nx, ny, FPO_HOST), d2[a] = f2(a2[a].dev, nx, ny, FPO_DEVICE);
        tp_step_fields hf = {h3[0], h3[1], h3[2], h3[3], h3[4], h3[5], h2[0], h2[1], h2[2], h2[3]};
        tp_step_fields df = {d3[0], d3[1], d3[2], d3[3], d3[4], d3[5], d2[0], d2[1], d2[2], d2[3]};
        fpo_domain dom = fpo_domain_local(nx, ny, nz);
        fpo_options oc = {.variant = variants[v], .backend = "c"};
        fpo_options og = {.variant = variants[v], .backend = "cuda"};
        fpo_error err;
        tp_ref_fields du;
        memcpy(&du, &df, sizeof du);
        du.q = f3(uq.dev, nx, ny, nz, FPO_DEVICE);
        du.qy = f3(uqy.dev, nx, ny, nz, FPO_DEVICE);
        tp_step *pc = NULL, *pg = NULL;
        tp_ref *pu = NULL;
        if (tp_step_open_with(&pc, &dom, &hf, &oc, &err) ||
            tp_step_open_with(&pg, &dom, &df, &og, &err) ||
            tp_ref_open_with(&pu, &dom, &du, &og, &err)) {
            FAIL("tp_step: open: %s", err.msg);
            return 1;
        }
#ifndef CUDA_SHAPE   /* (other kernel shapes make other segments) */
        if (v == 0)
            check_pool_tp(pg);
#endif
        if (tp_step_run(pc, &err) || tp_step_run(pg, &err) || tp_step_wait(pg, &err) ||
            tp_ref_run(pu, &err) || tp_ref_wait(pu, &err)) {
            FAIL("tp_step: run: %s", err.msg);
            return 1;
        }
        memcpy(uq.host, a3[0].host, n * sizeof(double));   /* C's result */
        long bad = compare("tp_step q (fused)", variants[v], &a3[0], nx, ny);
        long badu = compare("tp_step q (unfused)", variants[v], &uq, nx, ny);
        printf("tp_step, variant %-8s: %zu points of q, %ld differ fused, %ld unfused\n",
               variants[v], n, bad, badu);
        tp_step_close(pc);
        tp_step_close(pg);
        tp_ref_close(pu);
        arr_free(&uq), arr_free(&uqy);
        for (int a = 0; a < 6; a++)
            arr_free(&a3[a]);
        for (int a = 0; a < 4; a++)
            arr_free(&a2[a]);
    }
    return 0;
}

/* The widest row of a segment kernel's shared tiles (in the first variant's .cu). */
extern const int64_t chain_step__cuda_tile_row_;

/* Open refuses fields in the other back end's memory. */
static void check_refusals(void) {
    int nx = 8, ny = 8, nz = 4;
    size_t n = (size_t)(nx + 2 * H) * (size_t)(ny + 2 * H) * (size_t)nz;
    Arr a = arr(n, 0, 0.0, 1.0);
    fpo_domain dom = fpo_domain_local(nx, ny, nz);
    fpo_error err;
    chain_step *p = NULL;
    chain_step_fields host = {f3(a.host, nx, ny, nz, FPO_HOST), f3(a.host, nx, ny, nz, FPO_HOST),
                              f3(a.host, nx, ny, nz, FPO_HOST), f3(a.host, nx, ny, nz, FPO_HOST),
                              f3(a.host, nx, ny, nz, FPO_HOST)};
    chain_step_fields dev = host;
    dev.u = f3(a.dev, nx, ny, nz, FPO_DEVICE);
    fpo_options og = {.backend = "cuda"}, oc = {.backend = "c"};
    fpo_status st = chain_step_open_with(&p, &dom, &host, &og, &err);
    if (st != FPO_EINVAL || !strstr(err.msg, "field 'q' is in host memory but the CUDA back end"))
        FAIL("a host field given to the CUDA back end: status %d, '%s'", st, st ? err.msg : "");
    else
        printf("refused: %s\n", err.msg);
    st = chain_step_open_with(&p, &dom, &dev, &oc, &err);
    if (st != FPO_EINVAL || !strstr(err.msg, "field 'u' is in device memory but the C back end"))
        FAIL("a device field given to the C back end: status %d, '%s'", st, st ? err.msg : "");
    else
        printf("refused: %s\n", err.msg);
    /* q has rows of 14 elements, but open counts every field's rows as at least the widest
     * shared tile's (chain_step__cuda_tile_row_: 65 in the chain's fed kernel, 73 in a segment
     * kernel of its own, whose last column of tiles may be 8 wider): its farthest point, i =
     * nx + 2 on the last row, is (rows - 1) * 65 + nx + 2 elements from the level's origin. One
     * row more than the most that keep it within 2^31 - 1 is refused (open reads no data). The
     * other fields lie before q in one array (q_out, which the chain writes, shares memory
     * with no other field: open refuses that first). */
    Arr b = arr(5 * n, 0, 0.0, 1.0);
    chain_step_fields all = {f3(b.dev + 4 * n, nx, ny, nz, FPO_DEVICE),
                             f3(b.dev, nx, ny, nz, FPO_DEVICE),
                             f3(b.dev + n, nx, ny, nz, FPO_DEVICE),
                             f3(b.dev + 2 * n, nx, ny, nz, FPO_DEVICE),
                             f3(b.dev + 3 * n, nx, ny, nz, FPO_DEVICE)};
    int64_t row = chain_step__cuda_tile_row_ > nx + 2 * H ? chain_step__cuda_tile_row_ : nx + 2 * H;
    int64_t most = (INT32_MAX - (nx + H - 1)) / row + 1;   /* rows [-H, most) fit */
    for (int64_t rows = most + 1; rows >= most; rows--) {
        all.q = fpo_field_on_device(fpo_field_3d(b.dev + 4 * n, FPO_F64, -H, nx + H, -H, rows,
                                                 0, nz));
        st = chain_step_open_with(&p, &dom, &all, &og, &err);
        if (rows > most && (st != FPO_EINVAL || !strstr(err.msg, "32-bit offsets")))
            FAIL("q to j = %lld: status %d, '%s'", (long long)rows, st, st ? err.msg : "");
        else if (rows == most && st != FPO_OK)
            FAIL("q to j = %lld refused: '%s'", (long long)rows, err.msg);
        else
            printf("q to j = %lld: %s\n", (long long)rows, st ? err.msg : "taken");
        if (!st)
            chain_step_close(p);
    }
    arr_free(&a), arr_free(&b);
}

/* The chain's fields (hash noise) on the host and the device, and it opened on each: pc on the
 * C back end, run once (its q_out, which a run rewrites from the inputs alone, in out.host),
 * pg on the CUDA back end with options `og` on the fields df (the caller may change them
 * first). */
typedef struct Chain {
    size_t n;
    Arr q, u, w, delp, out;
    double *first;   /* q_out's first values, to set it back (its halo no run writes) */
    chain_step_fields hf, df;
    chain_step *pc, *pg;
} Chain;

static Chain chain_arrays(int nx, int ny, int nz) {
    Chain c = {.n = (size_t)(nx + 2 * H) * (size_t)(ny + 2 * H) * (size_t)nz};
    c.q = arr(c.n, 0, 0.5, 1.0), c.u = arr(c.n, 1, -1.0, 2.0), c.w = arr(c.n, 2, -1.0, 2.0);
    c.delp = arr(c.n, 3, 1.0, 1.0), c.out = arr(c.n, 4, 0.0, 1.0);
    c.first = malloc(c.n * sizeof(double));
    memcpy(c.first, c.out.host, c.n * sizeof(double));
    c.hf = (chain_step_fields){f3(c.q.host, nx, ny, nz, FPO_HOST),
                               f3(c.u.host, nx, ny, nz, FPO_HOST),
                               f3(c.w.host, nx, ny, nz, FPO_HOST),
                               f3(c.delp.host, nx, ny, nz, FPO_HOST),
                               f3(c.out.host, nx, ny, nz, FPO_HOST)};
    c.df = (chain_step_fields){f3(c.q.dev, nx, ny, nz, FPO_DEVICE),
                               f3(c.u.dev, nx, ny, nz, FPO_DEVICE),
                               f3(c.w.dev, nx, ny, nz, FPO_DEVICE),
                               f3(c.delp.dev, nx, ny, nz, FPO_DEVICE),
                               f3(c.out.dev, nx, ny, nz, FPO_DEVICE)};
    return c;
}

static fpo_status chain_open(Chain *c, int nx, int ny, int nz, const fpo_options *og,
                             fpo_error *err) {
    fpo_domain dom = fpo_domain_local(nx, ny, nz);
    fpo_options oc = {.backend = "c"};
    fpo_status st = chain_step_open_with(&c->pc, &dom, &c->hf, &oc, err);
    if (!st)
        st = chain_step_run(c->pc, 0.3, 0.05, 0.1, err);
    return st ? st : chain_step_open_with(&c->pg, &dom, &c->df, og, err);
}

static void chain_free(Chain *c) {
    chain_step_close(c->pc);
    chain_step_close(c->pg);
    arr_free(&c->q), arr_free(&c->u), arr_free(&c->w), arr_free(&c->delp), arr_free(&c->out);
    free(c->first);
}

/* The chain run on the caller's stream `s` (NULL: the program's own) in each of three ways; its
 * q_out (which run rewrites from the inputs alone) against the C back end's each time. */
static void check_stream(int nx, int ny, int nz, void *s, const char *what) {
    Chain c = chain_arrays(nx, ny, nz);
    size_t n = c.n;
    Arr out = c.out;
    fpo_options og = {.backend = "cuda", .cuda_stream = s};
    fpo_error err;
    if (chain_open(&c, nx, ny, nz, &og, &err)) {
        FAIL("stream (%s): open: %s", what, err.msg);
        chain_free(&c);
        return;
    }
    chain_step *pc = c.pc, *pg = c.pg;
    if (chain_step_stream(pc) != NULL)
        FAIL("stream (%s): the C back end gives a stream", what);
#ifdef ON_GPU
    if (s && chain_step_stream(pg) != s)
        FAIL("stream (%s): the program runs on %p, not the caller's %p", what,
             chain_step_stream(pg), s);
#else
    if (chain_step_stream(pg) != NULL)   /* (emulated: kernels run when launched) */
        FAIL("stream (%s): the emulated back end gives a stream", what);
#endif
    /* 1: two runs, then a wait for the caller's stream alone. (Not a proof that the kernels
     * went on it: compare's cudaMemcpy waits for a blocking stream of the program's own too.
     * The stream given back is checked above, the kernels' stream by the capture below.) */
    for (int r = 0; r < 2; r++)
        if (chain_step_run(pg, 0.3, 0.05, 0.1, &err))
            FAIL("stream (%s): run: %s", what, err.msg);
#ifdef ON_GPU
    cudaStreamSynchronize((cudaStream_t)chain_step_stream(pg));
    if (chain_step_wait(pg, &err))   /* (reports a failed launch, if any) */
        FAIL("stream (%s): wait: %s", what, err.msg);
#endif
    long bad = compare("stream, runs", what, &out, nx, ny);
#ifdef ON_GPU
    /* 2: a run the caller captures on its stream is its graph's: launched after q_out is
     * set back to its first values (its halo, which no run writes, as the C back end's), that
     * graph writes it again (the legacy default stream cannot be captured) */
    cudaStream_t cs = (cudaStream_t)chain_step_stream(pg);
    cudaGraph_t g = NULL;
    cudaGraphExec_t x = NULL;
    size_t nodes = 0;
    if (s != (void *)cudaStreamLegacy) {
        if (cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal) != cudaSuccess ||
            chain_step_run(pg, 0.3, 0.05, 0.1, &err) ||
            cudaStreamEndCapture(cs, &g) != cudaSuccess ||
            cudaGraphGetNodes(g, NULL, &nodes) != cudaSuccess || nodes == 0 ||
            cudaGraphInstantiate(&x, g, 0) != cudaSuccess)
            FAIL("stream (%s): the caller's capture of a run: %zu nodes (%s)", what, nodes,
                 cudaGetErrorString(cudaGetLastError()));
        else {
            cudaMemcpyAsync(out.dev, c.first, n * sizeof(double), cudaMemcpyHostToDevice, cs);
            cudaGraphLaunch(x, cs);
            cudaStreamSynchronize(cs);
            bad += compare("stream, the caller's graph", what, &out, nx, ny);
        }
        if (x)
            cudaGraphExecDestroy(x);
        if (g)
            cudaGraphDestroy(g);
        /* 3: runs after it replay or capture the program's own graph again */
        cudaMemcpyAsync(out.dev, c.first, n * sizeof(double), cudaMemcpyHostToDevice, cs);
        if (chain_step_run(pg, 0.3, 0.05, 0.1, &err) || chain_step_wait(pg, &err))
            FAIL("stream (%s): run after the caller's capture: %s", what, err.msg);
        bad += compare("stream, a run after the capture", what, &out, nx, ny);
    }
    printf("chain on %s: %ld points of q_out differ from the C back end's (the caller's "
           "capture: %zu graph nodes)\n", what, bad, nodes);
#else
    printf("chain on %s (emulated): %ld points of q_out differ from the C back end's\n", what,
           bad);
#endif
    chain_free(&c);
}

/* Double buffering: the chain bound to one of two outputs before each run, in turns, then to a
 * third and fourth; each output against the C back end's. On a GPU each binding keeps its
 * run's graph (the same scalars each run): two graphs after the turns, four after. */
static void check_bind(int nx, int ny, int nz) {
    size_t n = (size_t)(nx + 2 * H) * (size_t)(ny + 2 * H) * (size_t)nz;
    Arr q = arr(n, 0, 0.5, 1.0), u = arr(n, 1, -1.0, 2.0), w = arr(n, 2, -1.0, 2.0),
        delp = arr(n, 3, 1.0, 1.0), init = arr(n, 4, 0.0, 1.0), out[4];
    for (int b = 0; b < 4; b++)
        out[b] = arr(n, 4, 0.0, 1.0);
    chain_step_fields hf = {f3(q.host, nx, ny, nz, FPO_HOST), f3(u.host, nx, ny, nz, FPO_HOST),
                            f3(w.host, nx, ny, nz, FPO_HOST), f3(delp.host, nx, ny, nz, FPO_HOST),
                            f3(out[0].host, nx, ny, nz, FPO_HOST)};
    chain_step_fields df[4];
    for (int b = 0; b < 4; b++)
        df[b] = (chain_step_fields){f3(q.dev, nx, ny, nz, FPO_DEVICE),
                                    f3(u.dev, nx, ny, nz, FPO_DEVICE),
                                    f3(w.dev, nx, ny, nz, FPO_DEVICE),
                                    f3(delp.dev, nx, ny, nz, FPO_DEVICE),
                                    f3(out[b].dev, nx, ny, nz, FPO_DEVICE)};
    fpo_domain dom = fpo_domain_local(nx, ny, nz);
    fpo_options oc = {.backend = "c"}, og = {.backend = "cuda"};
    fpo_error err;
    chain_step *pc = NULL, *pg = NULL;
    if (chain_step_open_with(&pc, &dom, &hf, &oc, &err) ||
        chain_step_open_with(&pg, &dom, &df[0], &og, &err) ||
        chain_step_run(pc, 0.3, 0.05, 0.1, &err)) {
        FAIL("bind: %s", err.msg);
        return;
    }
    for (int b = 1; b < 4; b++)
        memcpy(out[b].host, out[0].host, n * sizeof(double));   /* C's q_out */
    long bad = 0;
    int graphs[2] = {-1, -1};
    static const int turns[] = {0, 1, 0, 1, 0, 1, 2, 3, 0};
    for (int t = 0; t < (int)(sizeof turns / sizeof *turns); t++) {
        int b = turns[t];
        fpo_memory m;
        /* its first values again: the run bound to it must write it (the legacy stream's
         * copy precedes the program's, a blocking stream) */
#ifdef ON_GPU
        cudaMemcpy(out[b].dev, init.host, n * sizeof(double), cudaMemcpyHostToDevice);
#else
        memcpy(out[b].dev, init.host, n * sizeof(double));
#endif
        if (chain_step_bind(pg, &df[b], &err) || chain_step_run(pg, 0.3, 0.05, 0.1, &err) ||
            chain_step_wait(pg, &err) || chain_step_memory(pg, &m)) {
            FAIL("bind: run %d: %s", t, err.msg);
            break;
        }
        bad += compare("bind, q_out", chain_step_variant(pg), &out[b], nx, ny);
        if (t == 5)
            graphs[0] = m.graphs;
        if (t == 8)
            graphs[1] = m.graphs;
    }
#ifdef ON_GPU
    int want[2] = {2, 4};
#else
    int want[2] = {0, 0};   /* (emulated: nothing captured) */
#endif
    if (graphs[0] != want[0] || graphs[1] != want[1])
        FAIL("bind: %d graphs kept after two bindings taking turns, %d after four; want %d "
             "and %d", graphs[0], graphs[1], want[0], want[1]);
    printf("chain, double buffering: %ld points differ from the C back end's; graphs kept: %d "
           "after two bindings taking turns, %d after four\n", bad, graphs[0], graphs[1]);
    chain_step_close(pc);
    chain_step_close(pg);
    arr_free(&q), arr_free(&u), arr_free(&w), arr_free(&delp), arr_free(&init);
    for (int b = 0; b < 4; b++)
        arr_free(&out[b]);
}

#ifdef ON_GPU
#include <time.h>

static void CUDART_CB sleep_a_while(void *ms) {
    struct timespec t = {0, (long)*(int *)ms * 1000000L};
    nanosleep(&t, NULL);
}
#endif

/* A run after the caller's work on a stream of its own (chain_step_after): the caller queues
 * a copy of q there, behind a host function that sleeps 100 ms (emulated: a copy done at
 * once); the run must read the copy, and q_out equal the C back end's. The program's own
 * stream does not wait for a non-blocking stream by itself: without the after, the run reads
 * q before the copy. After on the program's own stream, and on the C back end, is nothing. */
static void check_after(int nx, int ny, int nz) {
    Chain c = chain_arrays(nx, ny, nz);
    size_t n = c.n;
    Arr q = c.q, out = c.out, stale = arr(n, 5, 0.5, 1.0);
    c.df.q = f3(stale.dev, nx, ny, nz, FPO_DEVICE);   /* stale until the caller's copy lands */
    fpo_options og = {.backend = "cuda"};
    fpo_error err;
    if (chain_open(&c, nx, ny, nz, &og, &err)) {
        FAIL("after: %s", err.msg);
        chain_free(&c), arr_free(&stale);
        return;
    }
    chain_step *pc = c.pc, *pg = c.pg;
    void *mine = NULL;
#ifdef ON_GPU
    static int ms = 100;
    cudaStream_t ps;
    if (cudaStreamCreateWithFlags(&ps, cudaStreamNonBlocking) != cudaSuccess ||
        cudaLaunchHostFunc(ps, sleep_a_while, &ms) != cudaSuccess ||
        cudaMemcpyAsync(stale.dev, q.dev, n * sizeof(double), cudaMemcpyDeviceToDevice, ps) !=
            cudaSuccess) {
        FAIL("after: the caller's copy: %s", cudaGetErrorString(cudaGetLastError()));
        return;
    }
    mine = ps;
#else
    memcpy(stale.dev, q.dev, n * sizeof(double));
#endif
    if (chain_step_after(pg, mine, &err) || chain_step_run(pg, 0.3, 0.05, 0.1, &err) ||
        chain_step_wait(pg, &err))
        FAIL("after: run: %s", err.msg);
    long bad = compare("after, q_out", chain_step_variant(pg), &out, nx, ny);
    if (chain_step_after(pg, chain_step_stream(pg), &err) || chain_step_after(pc, mine, &err))
        FAIL("after: the program's own stream, or the C back end: %s", err.msg);
#ifdef ON_GPU
    cudaStreamSynchronize(ps);
    cudaStreamDestroy(ps);
#endif
    printf("chain after the caller's copy on its own stream: %ld points of q_out differ from "
           "the C back end's\n", bad);
    chain_free(&c), arr_free(&stale);
}

/* FPO_CUDA_L2_POOL: the chain with its pool kept in L2 (a graph's kernels given the window),
 * the same bits; the device's persisting L2 raised while it is open and as before after close.
 * On a GPU the check lowers the limit to 0 first (a device may start with some: 11 MiB on an
 * H200), so that open has to raise it, and sets it back after. (Emulated: the variable
 * changes nothing.) */
static void check_l2(int nx, int ny, int nz) {
    Chain c = chain_arrays(nx, ny, nz);
    fpo_options og = {.backend = "cuda"};
    fpo_error err;
    size_t before = 0, open = 0, after = 0;
#ifdef ON_GPU
    size_t start = 0;
    cudaDeviceGetLimit(&start, cudaLimitPersistingL2CacheSize);
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    cudaDeviceGetLimit(&before, cudaLimitPersistingL2CacheSize);
#endif
    setenv("FPO_CUDA_L2_POOL", "max", 1);
    fpo_status st = chain_open(&c, nx, ny, nz, &og, &err);
    unsetenv("FPO_CUDA_L2_POOL");
    if (st) {
        FAIL("L2: %s", err.msg);
        chain_free(&c);
#ifdef ON_GPU
        cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, start);
#endif
        return;
    }
    chain_step *pg = c.pg;
#ifdef ON_GPU
    cudaDeviceGetLimit(&open, cudaLimitPersistingL2CacheSize);
#endif
    long bad = 0;
    for (int r = 0; r < 2; r++) {   /* captured, then replayed */
        if (chain_step_run(pg, 0.3, 0.05, 0.1, &err) || chain_step_wait(pg, &err))
            FAIL("L2: run %d: %s", r, err.msg);
        bad += compare("L2, q_out", chain_step_variant(pg), &c.out, nx, ny);
    }
    chain_free(&c);   /* (closes both: the device's setting given back) */
#ifdef ON_GPU
    cudaDeviceGetLimit(&after, cudaLimitPersistingL2CacheSize);
    int most = 0;
    cudaDeviceGetAttribute(&most, cudaDevAttrMaxPersistingL2CacheSize, 0);
    if (most > 0 && open <= before)
        FAIL("L2: the persisting L2 not raised at open (%zu bytes before, %zu open)", before,
             open);
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, start);
#endif
    if (after != before)
        FAIL("L2: the persisting L2 is %zu bytes after close, %zu before open", after, before);
    printf("chain, its pool kept in L2: %ld points of q_out differ from the C back end's; "
           "persisting L2 %zu bytes before open, %zu open, %zu after close\n", bad, before,
           open, after);
}

static void check_streams(int nx, int ny, int nz) {
#ifdef ON_GPU
    cudaStream_t s;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) {
        FAIL("cudaStreamCreateWithFlags failed");
        return;
    }
    check_stream(nx, ny, nz, s, "the caller's non-blocking stream");
    check_stream(nx, ny, nz, NULL, "the program's own stream");
    check_stream(nx, ny, nz, (void *)cudaStreamLegacy, "the legacy default stream");
    cudaStreamDestroy(s);
#else
    int token = 0;   /* (the emulated back end takes any stream, and orders nothing by it) */
    check_stream(nx, ny, nz, &token, "the caller's stream");
#endif
}

int main(int argc, char **argv) {
    int nx = argc > 1 ? atoi(argv[1]) : 12, ny = argc > 2 ? atoi(argv[2]) : 15;
    int nz = argc > 3 ? atoi(argv[3]) : 5;
#ifdef ON_GPU
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        /* no device: open must refuse the CUDA back end, saying why */
        Arr a = {NULL, NULL, 0};
        double x = 0;
        fpo_field f = fpo_field_on_device(fpo_field_3d(&x, FPO_F64, -H, 1 + H, -H, 1 + H, 0, 1));
        chain_step_fields df = {f, f, f, f, f};
        fpo_domain dom = fpo_domain_local(1, 1, 1);
        fpo_options og = {.backend = "cuda"};
        fpo_error err;
        chain_step *p = NULL;
        fpo_status st = chain_step_open_with(&p, &dom, &df, &og, &err);
        (void)a;
        if (st != FPO_EMISMATCH || !strstr(err.msg, "needs a CUDA device")) {
            fprintf(stderr, "cuda_check: no device, but open said %d '%s'\n", st,
                    st ? err.msg : "");
            return 1;
        }
        printf("no CUDA device: open refused the CUDA back end: %s\nskipped\n", err.msg);
        return 77;
    }
#endif
    check_refusals();
    check_chain(nx, ny, nz, 4);
    check_chain(1, 2, 3, 1);   /* a domain smaller than the regions' reach */
    check_tp(nx, ny, nz);
    check_streams(nx, ny, nz);
    check_after(nx, ny, nz);
    check_l2(nx, ny, nz);
    check_bind(nx, ny, nz);
    if (failures) {
        fprintf(stderr, "cuda_check: %d failures\n", failures);
        return 1;
    }
    printf("cuda_check: the CUDA back end equals the C back end bit for bit\n");
    return 0;
}
