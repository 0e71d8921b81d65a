/* cuda.cu: the CUDA back end's host side (fpo_cuda.h) on the CUDA runtime: a program's stream,
 * its device pool, the graph of its run, launch errors. Library fpo_runtime_cuda. */
#include "fpo_cuda.h"

#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

/* The graphs captured on one binding of a program's fields. */
typedef struct fpo_graphs {
    cudaGraphExec_t exec;      /* the last run, captured; NULL: none */
    unsigned char key[FPO_CUDA_KEY];   /* run's scalar arguments the graphs were captured for */
    size_t nkey;
    int keyed;                 /* stretches: key holds them (0: none yet, or too many bytes) */
    cudaGraphExec_t stretch[FPO_CUDA_STRETCHES];   /* a run's stretches, captured; NULL: none */
    unsigned char failed[FPO_CUDA_STRETCHES];      /* its capture failed: launched plainly */
} fpo_graphs;

struct fpo_cuda {
    cudaStream_t stream;
    int own;                   /* the stream is the program's (else the caller's) */
    int dev;                   /* the device current at open: the program's */
    void *pool;
    fpo_graphs set[FPO_CUDA_BINDINGS];    /* the graphs of each binding kept ... */
    fpo_cuda_slot slot[FPO_CUDA_BINDINGS];   /* ... of these fields */
    fpo_graphs *g;             /* the current binding's; NULL: none kept (launched plainly) */
    unsigned long long binds;  /* bind's clock */
    int capturing;             /* the stretch being captured, plus one (0: none) */
    int caller_captures;       /* this run's stretches: the caller captures the stream (or
                                * it cannot tell): launched plainly (fpo_cuda_stretches) */
    cudaError_t first;         /* the first failed launch since the last status */
    const char *what;
    unsigned long long *found; /* --instrument: fpo_cuda_find's answer on the device */
    void *record;              /* --instrument bounds: the kernels' record, the pool's end */
    cudaAccessPolicyWindow l2; /* FPO_CUDA_L2_POOL: the pool's lines kept in L2 (num_bytes 0:
                                * none), given to each kernel of a graph */
    int l2_raised;             /* open raised the device's persisting L2 to keep them ... */
    size_t l2_before;          /* ... from this, which close gives back */
    cudaEvent_t after;         /* step_after's, recorded on the caller's stream (made at its
                                * first call) */
    int64_t *key;              /* bind's key of the fields (made at the first bind, kept) */
    size_t nkey;               /* its entries */
    cudaStream_t side;         /* fpo_cuda_fork's second stream (made at open where the
                                * program asks for two; NULL: none) */
    cudaEvent_t forked, joined;   /* ... and its events */
    int on_side;               /* launches go to the second stream */
    int side_used;             /* it took launches since the last join */
};

/* Destroy the graphs of a binding. */
static void forget(fpo_graphs *g) {
    if (g->exec)
        cudaGraphExecDestroy(g->exec);
    g->exec = NULL;
    g->nkey = 0;
    for (int s = 0; s < FPO_CUDA_STRETCHES; s++) {
        if (g->stretch[s])
            cudaGraphExecDestroy(g->stretch[s]);
        g->stretch[s] = NULL;
        g->failed[s] = 0;
    }
    g->keyed = 0;
}

/* fpo_cuda_fork's second stream and events, made at open (not inside a run's capture) where
 * the program launches on two streams (--cuda-chunks); where they cannot be made, none: the
 * launches stay on the program's stream. */
static void make_side(fpo_cuda *c) {
    cudaStream_t s = NULL;
    cudaEvent_t f = NULL, j = NULL;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess ||
        cudaEventCreateWithFlags(&f, cudaEventDisableTiming) != cudaSuccess ||
        cudaEventCreateWithFlags(&j, cudaEventDisableTiming) != cudaSuccess) {
        if (s)
            cudaStreamDestroy(s);
        if (f)
            cudaEventDestroy(f);
        cudaGetLastError();
        return;
    }
    c->side = s, c->forked = f, c->joined = j;
}

static void drop_side(fpo_cuda *c) {
    if (!c->side)
        return;
    cudaStreamSynchronize(c->side);
    cudaStreamDestroy(c->side);
    cudaEventDestroy(c->forked);
    cudaEventDestroy(c->joined);
}

extern "C" fpo_status fpo_cuda_open(fpo_cuda **out, const char *program, int shared,
                                     int streams, void *stream, fpo_error *err) {
    *out = NULL;
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        cudaGetLastError();
        return fpo_fail(err, FPO_EMISMATCH,
                        "%s: the CUDA back end needs a CUDA device, and none can be used here "
                        "(%s); run the C back end (fpo_options.backend \"c\", or FPO_BACKEND=c)",
                        program, e != cudaSuccess ? cudaGetErrorString(e) : "no device found");
    }
    int dev = 0, most = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) {
        e = cudaGetLastError();
        return fpo_fail(err, FPO_EMISMATCH, "%s: the CUDA back end needs a CUDA device: "
                        "cudaGetDevice: %s", program, cudaGetErrorString(e));
    }
    if (shared > 0) {
        if (cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) !=
            cudaSuccess)
            cudaGetLastError();   /* (most stays 0: refused) */
        fpo_status st = fpo_cuda_check_shared(program, shared, dev, most, err);
        if (st)
            return st;
    }
    fpo_cuda *c = (fpo_cuda *)calloc(1, sizeof *c);
    if (!c)
        return fpo_fail(err, FPO_ENOMEM, "%s_open: out of memory", program);
    c->dev = dev;
    if (streams > 1)
        make_side(c);
    if (stream) {   /* the caller's: its runs are ordered with the caller's work on it */
        c->stream = (cudaStream_t)stream;
        *out = c;
        return FPO_OK;
    }
    /* A blocking stream: work the caller queues on the legacy default stream (a plain
     * cudaMemcpy of a result) waits for the run. */
    c->own = 1;
    e = cudaStreamCreate(&c->stream);
    if (e != cudaSuccess) {
        drop_side(c);
        free(c);
        return fpo_fail(err, FPO_EMISMATCH, "%s_open: cudaStreamCreate: %s", program,
                        cudaGetErrorString(e));
    }
    *out = c;
    return FPO_OK;
}

extern "C" void fpo_cuda_close(fpo_cuda *c) {
    if (!c)
        return;
    int entered = fpo_cuda_enter(c);
    cudaStreamSynchronize(c->stream);
    if (c->l2_raised) {   /* the device's persisting L2 as it was, its lines normal again */
        cudaCtxResetPersistingL2Cache();
        cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, c->l2_before);
        cudaGetLastError();
    }
    for (int b = 0; b < FPO_CUDA_BINDINGS; b++)
        forget(&c->set[b]);
    fpo_cuda_bindings_free(c->slot, FPO_CUDA_BINDINGS);
    free(c->key);
    cudaFree(c->pool);
    cudaFree(c->found);
    if (c->after)
        cudaEventDestroy(c->after);
    drop_side(c);
    if (c->own)
        cudaStreamDestroy(c->stream);
    fpo_cuda_leave(c, entered);
    free(c);
}

/* FPO_CUDA_L2_POOL (MiB, or "max"): keep up to that much of the pool's `bytes` in L2 between
 * the kernels that write and read them (a walk's cp and dp, written going up and read coming
 * down): the device's persisting L2 raised to it (at most cudaDevAttrMaxPersistingL2CacheSize)
 * and the pool made an access policy window of that hit ratio for the kernels of the run's
 * graphs and, on a stream of the program's own, its plain launches. A hint for measuring
 * (fpo_cuda_bench): where the device declines, nothing is kept. */
static void keep_in_l2(fpo_cuda *c, size_t bytes) {
    const char *e = getenv("FPO_CUDA_L2_POOL");
    if (!e || !*e || !bytes)
        return;
    size_t asked = !strcmp(e, "max") ? bytes : (size_t)strtoull(e, NULL, 10) << 20;
    int most = 0, window = 0;
    size_t before = 0, kept = 0;
    if (!asked || cudaDeviceGetAttribute(&most, cudaDevAttrMaxPersistingL2CacheSize, c->dev) ||
        cudaDeviceGetAttribute(&window, cudaDevAttrMaxAccessPolicyWindowSize, c->dev) ||
        most <= 0 || window <= 0 ||
        cudaDeviceGetLimit(&before, cudaLimitPersistingL2CacheSize)) {
        cudaGetLastError();
        return;
    }
    size_t want = asked < bytes ? asked : bytes;
    if (want > (size_t)most)
        want = (size_t)most;
    if (want > before) {
        if (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, want) != cudaSuccess) {
            cudaGetLastError();
            return;
        }
        c->l2_raised = 1, c->l2_before = before;
    }
    if (cudaDeviceGetLimit(&kept, cudaLimitPersistingL2CacheSize) != cudaSuccess || !kept) {
        cudaGetLastError();
        return;
    }
    c->l2.base_ptr = c->pool;
    c->l2.num_bytes = bytes < (size_t)window ? bytes : (size_t)window;
    c->l2.hitRatio = kept >= c->l2.num_bytes ? 1.0f : (float)kept / (float)c->l2.num_bytes;
    c->l2.hitProp = cudaAccessPropertyPersisting;
    c->l2.missProp = cudaAccessPropertyStreaming;
    if (c->own) {
        cudaStreamAttrValue v;
        memset(&v, 0, sizeof v);
        v.accessPolicyWindow = c->l2;
        if (cudaStreamSetAttribute(c->stream, cudaStreamAttributeAccessPolicyWindow, &v))
            cudaGetLastError();
    }
}

/* A graph's kernels, each given the pool's window in L2 (keep_in_l2). */
static void window_kernels(const fpo_cuda *c, cudaGraph_t g) {
    size_t n = 0;
    if (!c->l2.num_bytes || cudaGraphGetNodes(g, NULL, &n) != cudaSuccess || !n)
        return;
    cudaGraphNode_t *nodes = (cudaGraphNode_t *)malloc(n * sizeof *nodes);
    cudaKernelNodeAttrValue v;
    memset(&v, 0, sizeof v);
    v.accessPolicyWindow = c->l2;
    cudaGraphNodeType t;
    const cudaKernelNodeAttrID id = cudaKernelNodeAttributeAccessPolicyWindow;
    if (nodes && cudaGraphGetNodes(g, nodes, &n) == cudaSuccess)
        for (size_t x = 0; x < n; x++)
            if (cudaGraphNodeGetType(nodes[x], &t) == cudaSuccess &&
                t == cudaGraphNodeTypeKernel)
                cudaGraphKernelNodeSetAttribute(nodes[x], id, &v);
    free(nodes);
    cudaGetLastError();   /* (a hint: a node that declines runs without it) */
}

extern "C" fpo_status fpo_cuda_pool(fpo_cuda *c, size_t bytes, void **pool, const char *program,
                                    fpo_error *err) {
    size_t at = (bytes + 255) / 256 * 256;   /* the record, after the temporaries */
    cudaError_t e = cudaMalloc(&c->pool, at + FPO_CUDA_RECORD);
    if (e == cudaSuccess)
        e = cudaMemset(c->pool, 0, at + FPO_CUDA_RECORD);
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        cudaGetLastError();
        return fpo_fail(err, FPO_ENOMEM, "%s_open: %zu bytes of device memory for the "
                        "temporaries: %s", program, bytes, cudaGetErrorString(e));
    }
    *pool = c->pool;
    c->record = (char *)c->pool + at;
    keep_in_l2(c, bytes);
    return FPO_OK;
}

extern "C" fpo_status fpo_cuda_check_field(const fpo_cuda *c, const fpo_field *f,
                                           const char *program, const char *name,
                                           fpo_error *err) {
    cudaPointerAttributes a;
    cudaError_t e = cudaPointerGetAttributes(&a, f->data);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return fpo_fail(err, FPO_EINVAL, "%s: field '%s': cudaPointerGetAttributes: %s",
                        program, name, cudaGetErrorString(e));
    }
    if (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged)
        return fpo_fail(err, FPO_EINVAL,
                        "%s: field '%s' is marked FPO_DEVICE but its data is host memory; the "
                        "CUDA back end takes fields in device memory (cudaMalloc or "
                        "cudaMallocManaged)",
                        program, name);
    if (a.type == cudaMemoryTypeDevice && a.device != c->dev)
        return fpo_fail(err, FPO_EINVAL,
                        "%s: field '%s' is in the memory of device %d, and the program was "
                        "opened on device %d (the current device at open: allocate its fields "
                        "and open it with the same device current, cudaSetDevice)",
                        program, name, a.device, c->dev);
    return FPO_OK;
}

extern "C" void *fpo_cuda_stream(const fpo_cuda *c) { return (void *)c->stream; }

extern "C" void *fpo_cuda_launch_stream(const fpo_cuda *c) {
    return (void *)(c->on_side ? c->side : c->stream);
}

extern "C" void fpo_cuda_fork(fpo_cuda *c) {
    if (!c->side)
        return;
    /* (an event recorded again is waited for as recorded last: one serves every fork; in a
     * capture, the second stream joins it here) */
    if (cudaEventRecord(c->forked, c->stream) != cudaSuccess ||
        cudaStreamWaitEvent(c->side, c->forked, 0) != cudaSuccess) {
        fpo_cuda_launched(c, "the fork to the program's second stream");   /* (the error) */
        return;
    }
    c->on_side = 1, c->side_used = 1;
}

extern "C" void fpo_cuda_back(fpo_cuda *c) { c->on_side = 0; }

extern "C" void fpo_cuda_join(fpo_cuda *c) {
    c->on_side = 0;
    if (!c->side_used)
        return;
    c->side_used = 0;
    if (cudaEventRecord(c->joined, c->side) != cudaSuccess ||
        cudaStreamWaitEvent(c->stream, c->joined, 0) != cudaSuccess)
        fpo_cuda_launched(c, "the join of the program's second stream");   /* (the error) */
}

extern "C" fpo_status fpo_cuda_after(fpo_cuda *c, void *stream, const char *program,
                                      fpo_error *err) {
    if ((cudaStream_t)stream == c->stream)
        return FPO_OK;
    int entered = fpo_cuda_enter(c);
    cudaError_t e = cudaSuccess;
    if (!c->after &&   /* (one event for every call: a wait takes what was recorded then) */
        (e = cudaEventCreateWithFlags(&c->after, cudaEventDisableTiming)) != cudaSuccess)
        c->after = NULL;
    if (e == cudaSuccess)
        e = cudaEventRecord(c->after, (cudaStream_t)stream);
    if (e == cudaSuccess)
        e = cudaStreamWaitEvent(c->stream, c->after, 0);
    fpo_cuda_leave(c, entered);
    if (e != cudaSuccess) {
        cudaGetLastError();   /* (not the next launch's error) */
        return fpo_fail(err, FPO_EINVAL,
                        "%s_after: cannot queue the program's runs after stream %p: %s", program,
                        stream, cudaGetErrorString(e));
    }
    return FPO_OK;
}

extern "C" int fpo_cuda_enter(const fpo_cuda *c) {
    int cur = c->dev;
    if (cudaGetDevice(&cur) != cudaSuccess)
        cudaGetLastError(), cur = c->dev;
    if (cur != c->dev)
        cudaSetDevice(c->dev);
    return cur;
}

extern "C" void fpo_cuda_leave(const fpo_cuda *c, int entered) {
    if (entered != c->dev)
        cudaSetDevice(entered);
}

/* Whether a run may replay or capture graphs on c's stream: not while the caller captures it
 * (the kernels then go into the caller's graph), nor where it cannot tell. */
static int capturable(const fpo_cuda *c) {
    cudaStreamCaptureStatus s = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(c->stream, &s) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return s == cudaStreamCaptureStatusNone;
}

extern "C" int fpo_cuda_device_memory(const fpo_cuda *c) {
    (void)c;
    return 1;
}

extern "C" void fpo_cuda_bind(fpo_cuda *c, const void *fields, size_t n) {
    /* a program's fields struct is its fields' descriptors in turn: compared member by member
     * (their padding left out), the same fields select the same set however the caller made
     * the struct */
    enum { M = 13 };   /* data, dtype, axes, space, lo[3], hi[3], stride[3] */
    size_t nf = n / sizeof(fpo_field);
    int whole = nf && nf * sizeof(fpo_field) == n;   /* (else the bytes compared as they are) */
    if (whole && nf * M > c->nkey) {   /* (one program: once) */
        int64_t *grown = (int64_t *)realloc(c->key, nf * M * 8);
        if (grown)
            c->key = grown, c->nkey = nf * M;
    }
    int64_t *key = whole && nf * M <= c->nkey ? c->key : NULL;
    for (size_t x = 0; key && x < nf; x++) {
        const fpo_field *f = (const fpo_field *)fields + x;
        int64_t *k = key + M * x;
        k[0] = (int64_t)(intptr_t)f->data, k[1] = f->dtype, k[2] = f->axes, k[3] = f->space;
        for (int d = 0; d < 3; d++)
            k[4 + d] = f->lo[d], k[7 + d] = f->hi[d], k[10 + d] = f->stride[d];
    }
    int evicted = 0;
    int b = fpo_cuda_binding(c->slot, FPO_CUDA_BINDINGS, key ? (const void *)key : fields,
                             key ? nf * M * 8 : n, ++c->binds, &evicted);
    if (evicted || !c->slot[b].fields)
        forget(&c->set[b]);   /* (its graphs hold another binding's fields) */
    c->g = c->slot[b].fields ? &c->set[b] : NULL;
}

extern "C" int fpo_cuda_graphs(const fpo_cuda *c) {
    int n = 0;
    for (int b = 0; b < FPO_CUDA_BINDINGS; b++) {
        n += c->set[b].exec != NULL;
        for (int s = 0; s < FPO_CUDA_STRETCHES; s++)
            n += c->set[b].stretch[s] != NULL;
    }
    return n;
}

extern "C" int fpo_cuda_replay(fpo_cuda *c, const void *key, size_t n) {
    fpo_graphs *g = c->g;
    if (!g || !g->exec || n != g->nkey || memcmp(key, g->key, n) || !capturable(c))
        return 0;
    cudaError_t e = cudaGraphLaunch(g->exec, c->stream);
    if (e != cudaSuccess && c->first == cudaSuccess)
        c->first = e, c->what = "the run's CUDA graph";
    return 1;
}

extern "C" int fpo_cuda_capture(fpo_cuda *c) {
    if (!c->g || !capturable(c))
        return 0;
    if (cudaStreamBeginCapture(c->stream, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
        cudaGetLastError();   /* (the legacy default stream, say: launched plainly) */
        return 0;
    }
    return 1;
}

/* The end of a capture on c's stream: its graph, ready to launch; NULL where the capture or a
 * launch in it failed (then forgotten: the plain launches that follow say what fails). */
static cudaGraphExec_t end_capture(fpo_cuda *c) {
    cudaGraph_t g = NULL;
    cudaGraphExec_t exec = NULL;
    cudaError_t e = cudaStreamEndCapture(c->stream, &g);
    if (e == cudaSuccess && c->first == cudaSuccess) {
        window_kernels(c, g);
        e = cudaGraphInstantiate(&exec, g, 0);
    }
    if (g)
        cudaGraphDestroy(g);
    if (e == cudaSuccess && c->first == cudaSuccess && exec)
        return exec;
    if (exec)
        cudaGraphExecDestroy(exec);
    cudaGetLastError();
    c->first = cudaSuccess;
    return NULL;
}

extern "C" int fpo_cuda_captured(fpo_cuda *c, const void *key, size_t n) {
    cudaGraphExec_t exec = end_capture(c);
    if (!exec)
        return 0;
    fpo_graphs *g = c->g;   /* (not NULL: fpo_cuda_capture began the capture) */
    forget(g);
    g->exec = exec;
    if (n <= FPO_CUDA_KEY) {
        memcpy(g->key, key, n);
        g->nkey = n;
    }
    cudaError_t e = cudaGraphLaunch(g->exec, c->stream);
    if (e != cudaSuccess)
        c->first = e, c->what = "the run's CUDA graph";
    if (n > FPO_CUDA_KEY)
        forget(g);   /* too many arguments to compare: captured again each run */
    return 1;
}

extern "C" void fpo_cuda_stretches(fpo_cuda *c, const void *key, size_t n) {
    fpo_graphs *g = c->g;
    c->caller_captures = !capturable(c);   /* (once a run, not at each stretch) */
    if (!g || (g->keyed && n == g->nkey && !memcmp(key, g->key, n)))
        return;
    forget(g);   /* other scalars: the stretches are captured again */
    if (n <= FPO_CUDA_KEY) {
        memcpy(g->key, key, n);
        g->nkey = n;
        g->keyed = 1;
    }
}

static const char *const stretch_what = "a CUDA graph of the run's kernels between exchanges";

extern "C" int fpo_cuda_stretch(fpo_cuda *c, int s) {
    fpo_graphs *g = c->g;
    if (s < 0 || s >= FPO_CUDA_STRETCHES || !g || !g->keyed || g->failed[s] || c->caller_captures)
        return 0;
    if (g->stretch[s]) {
        cudaError_t e = cudaGraphLaunch(g->stretch[s], c->stream);
        if (e != cudaSuccess && c->first == cudaSuccess)
            c->first = e, c->what = stretch_what;
        return 1;
    }
    if (cudaStreamBeginCapture(c->stream, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
        cudaGetLastError();
        g->failed[s] = 1;
        return 0;
    }
    c->capturing = s + 1;
    return 0;
}

extern "C" int fpo_cuda_stretch_end(fpo_cuda *c, int s) {
    if (c->capturing != s + 1)
        return 1;   /* launched plainly */
    c->capturing = 0;
    cudaGraphExec_t exec = end_capture(c);
    if (!exec) {
        c->g->failed[s] = 1;
        return 0;
    }
    c->g->stretch[s] = exec;
    cudaError_t e = cudaGraphLaunch(exec, c->stream);
    if (e != cudaSuccess && c->first == cudaSuccess)
        c->first = e, c->what = stretch_what;
    return 1;
}

extern "C" void fpo_cuda_shared_limit(const fpo_cuda *c, const void *kern, int bytes,
                                      unsigned long long *raised) {
    unsigned long long bit = c->dev >= 0 && c->dev < 64 ? 1ull << c->dev : 0;
    if (bit && (__atomic_load_n(raised, __ATOMIC_RELAXED) & bit))
        return;
    if (cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) ==
            cudaSuccess &&
        bit)
        __atomic_fetch_or(raised, bit, __ATOMIC_RELAXED);
}

extern "C" void fpo_cuda_launched(fpo_cuda *c, const char *what) {
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess && c->first == cudaSuccess)
        c->first = e, c->what = what;
}

extern "C" fpo_status fpo_cuda_status(fpo_cuda *c, const char *program, fpo_error *err) {
    if (c->first == cudaSuccess)
        return FPO_OK;
    cudaError_t e = c->first;
    c->first = cudaSuccess;
    return fpo_fail(err, FPO_ECHECK, "%s_run: launching %s failed: %s", program, c->what,
                    cudaGetErrorString(e));
}

extern "C" fpo_status fpo_cuda_wait(fpo_cuda *c, const char *program, fpo_error *err) {
    fpo_status st = fpo_cuda_status(c, program, err);
    if (st)
        return st;
    int entered = fpo_cuda_enter(c);
    cudaError_t e = cudaStreamSynchronize(c->stream);
    fpo_cuda_leave(c, entered);
    if (e != cudaSuccess)
        return fpo_fail(err, FPO_ECHECK, "%s_wait: the run failed on the device: %s", program,
                        cudaGetErrorString(e));
    return FPO_OK;
}

/* ---- --instrument on device memory ---- */

/* The element of f at (i, j, k). */
static __host__ __device__ int64_t at_of(const fpo_field &f, int64_t i, int64_t j, int64_t k) {
    return (i - f.lo[0]) * f.stride[0] + (j - f.lo[1]) * f.stride[1] + (k - f.lo[2]) * f.stride[2];
}

/* Every point of the box tested, the lowest index (k, then j, then i: the C back end's search
 * order) of a failing one kept in *found. */
template <typename T>
__global__ void fpo_find_k(const T *a, fpo_field f, int64_t i0, int64_t ni, int64_t j0, int64_t nj,
                           int64_t k0, int64_t n, int test, unsigned long long *found) {
    for (int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; x < n;
         x += (int64_t)gridDim.x * blockDim.x) {
        T v = a[at_of(f, i0 + x % ni, j0 + x / ni % nj, k0 + x / ni / nj)];
        if (test ? v < 0 : v != v)
            atomicMin(found, (unsigned long long)x);
    }
}

extern "C" int fpo_cuda_find(fpo_cuda *c, int test, const fpo_field *f, int64_t i0, int64_t i1,
                             int64_t j0, int64_t j1, int64_t k0, int64_t k1, int64_t at[3]) {
    int64_t ni = i1 - i0, nj = j1 - j0, nk = f->axes == FPO_IJ ? 1 : k1 - k0;
    unsigned long long none = ~0ull, x = none;
    if (ni <= 0 || nj <= 0 || nk <= 0)
        return 0;
    if (!c->found && cudaMalloc((void **)&c->found, sizeof *c->found) != cudaSuccess)
        return 0;
    int64_t n = ni * nj * nk;
    unsigned blocks = (unsigned)(n / 256 + 1 < 4096 ? n / 256 + 1 : 4096);
    cudaMemcpyAsync(c->found, &none, sizeof none, cudaMemcpyHostToDevice, c->stream);
    if (f->dtype == FPO_F64)
        fpo_find_k<double><<<blocks, 256, 0, c->stream>>>((const double *)f->data, *f, i0, ni, j0, nj, k0, n, test, c->found);
    else if (f->dtype == FPO_F32)
        fpo_find_k<float><<<blocks, 256, 0, c->stream>>>((const float *)f->data, *f, i0, ni, j0, nj, k0, n, test, c->found);
    else if (f->dtype == FPO_I32)
        fpo_find_k<int32_t><<<blocks, 256, 0, c->stream>>>((const int32_t *)f->data, *f, i0, ni, j0, nj, k0, n, test, c->found);
    else
        return 0;
    fpo_cuda_launched(c, "an --instrument search");
    cudaMemcpyAsync(&x, c->found, sizeof x, cudaMemcpyDeviceToHost, c->stream);
    cudaStreamSynchronize(c->stream);
    if (x == none)
        return 0;
    at[0] = i0 + (int64_t)(x % (unsigned long long)ni);
    at[1] = j0 + (int64_t)(x / (unsigned long long)ni % (unsigned long long)nj);
    at[2] = k0 + (int64_t)(x / (unsigned long long)ni / (unsigned long long)nj);
    return 1;
}

extern "C" double fpo_cuda_value(fpo_cuda *c, const fpo_field *f, int64_t i, int64_t j, int64_t k) {
    size_t es = fpo_dtype_size(f->dtype);
    union {
        double d;
        float f;
        int32_t i;
        unsigned char b;
    } v = {0};
    cudaMemcpyAsync(&v, (const char *)f->data + at_of(*f, i, j, f->axes == FPO_IJ ? f->lo[2] : k) * (int64_t)es,
                    es, cudaMemcpyDeviceToHost, c->stream);
    cudaStreamSynchronize(c->stream);
    return f->dtype == FPO_F64 ? v.d : f->dtype == FPO_F32 ? (double)v.f
                                     : f->dtype == FPO_I32 ? (double)v.i : (double)v.b;
}

extern "C" int fpo_cuda_check(fpo_cuda *c, const char *what) {
    cudaError_t e = cudaStreamSynchronize(c->stream);
    if (e != cudaSuccess && c->first == cudaSuccess)
        c->first = e, c->what = what;
    return c->first != cudaSuccess;
}

extern "C" void *fpo_cuda_record(fpo_cuda *c, size_t bytes) {
    return bytes <= FPO_CUDA_RECORD ? c->record : NULL;
}

extern "C" int fpo_cuda_record_take(fpo_cuda *c, void *out, size_t bytes) {
    if (!c->record || bytes > FPO_CUDA_RECORD)
        return 0;
    cudaMemcpyAsync(out, c->record, bytes, cudaMemcpyDeviceToHost, c->stream);
    cudaMemsetAsync(c->record, 0, bytes, c->stream);
    return cudaStreamSynchronize(c->stream) == cudaSuccess;
}
