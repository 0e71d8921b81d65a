/* cuda_bench.c: the CUDA back end's figures, printed in one run (never fails on speed): the
 * chain step and the example model's transport step on the GPU, fused (segment kernels) and
 * unfused (chain_ref, tp_ref: a kernel a loop nest), against the C back end (fused) on all of
 * this machine's cores (OpenMP); their bandwidth against the device's triad measured here;
 * the host time of one run (a replay of its CUDA graph); and the chain written by hand as one
 * kernel (chain_hand.cu) in a few block shapes, what one kernel of the whole step reaches on
 * this device; and each step again with its pool of temporaries kept in L2 as far as the
 * device allows (FPO_CUDA_L2_POOL). Fails only when the back ends (or the hand-written kernel)
 * give different bits. Usage: fpo_cuda_bench [N [NZ [RUNS [STEP]]]]; STEP `chain`, `tp_step`
 * or `hand` (the hand-written chain) runs that step only (a profiler's launches then all go
 * to it). */
#define _POSIX_C_SOURCE 200809L   /* setenv, clock_gettime */
#include "chain_hand.h"
#include "chain_ref.h"
#include "chain_step.h"
#include "tp_ref.h"
#include "tp_step.h"

#include "arrays.h"

#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

double fpo_bench_device_triad(size_t n, int reps);

enum { H = 3 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static long differ(const Arr *a) {
    double *d = fetch(a);
    long bad = 0;
    for (size_t x = 0; x < a->n; x++)
        bad += memcmp(&d[x], &a->host[x], sizeof(double)) != 0;
    free(d);
    return bad;
}

static fpo_field f3(double *d, int n, int nz, fpo_space s) {
    fpo_field f = fpo_field_3d(d, FPO_F64, -H, n + H, -H, n + H, 0, nz);
    f.space = s;
    return f;
}

static fpo_field f2(double *d, int n, fpo_space s) {
    fpo_field f = fpo_field_2d(d, FPO_F64, -H, n + H, -H, n + H);
    f.space = s;
    return f;
}

/* The device's persisting L2 now, MB (FPO_CUDA_L2_POOL raises it while a program is open). */
static double persisting_mb(void) {
    size_t kept = 0;
    cudaDeviceGetLimit(&kept, cudaLimitPersistingL2CacheSize);
    return (double)kept / 1e6;
}

/* Seconds per run of `run` (best of 3 rounds of `runs`), the work waited for after each round. */
#define TIME_RUNS(result, runs, run, wait)                                                     \
    do {                                                                                       \
        double best_ = 1e30;                                                                   \
        for (int round_ = 0; round_ < 3; round_++) {                                           \
            double t0_ = now();                                                                \
            for (int r_ = 0; r_ < (runs); r_++)                                                \
                run;                                                                           \
            wait;                                                                              \
            double t_ = (now() - t0_) / (runs);                                                \
            best_ = t_ < best_ ? t_ : best_;                                                   \
        }                                                                                      \
        (result) = best_;                                                                      \
    } while (0)

/* The host time of one run, the device idle before it (the least of 200): a graph replay
 * queued. */
#define HOST_TIME(result, run, wait)                                                           \
    do {                                                                                       \
        (result) = 1e30;                                                                       \
        for (int r_ = 0; r_ < 200; r_++) {                                                     \
            wait;                                                                              \
            double t0_ = now();                                                                \
            run;                                                                               \
            double t_ = now() - t0_;                                                           \
            (result) = t_ < (result) ? t_ : (result);                                          \
        }                                                                                      \
    } while (0)

/* The chain written by hand as one kernel (chain_hand.cu), in the block shapes below: its time
 * against the generated fused run's (tg), and its bits against the C back end's q_out (in
 * out->host); 1 where they differ or a launch fails. A shape's rows, and the levels whose cp and dp its blocks
 * keep in shared memory: none, all (-1), or as many as let `blocks` blocks share a
 * multiprocessor (the rest of cp and dp in device memory). */
static int hand(int n, int nz, int runs, const Arr *q, const Arr *u, const Arr *v,
                const Arr *delp, const Arr *out, const struct cudaDeviceProp *prop, double bytes,
                double triad, double tg) {
    static const struct {
        int rows, keep, blocks;
    } shapes[] = {{8, 0, 0},  {4, 0, 0},  {2, 0, 0},  {4, -1, 0},
                  {1, -1, 0}, {8, 0, 1},  {8, 0, 2},  {4, 0, 3}};
    chain_hand_grid g = {n, n, nz, H};
    Arr hout = arr(out->n, 4, 0.0, 1.0);
    double *work = NULL;
    int bad = 0;
    if (cudaMalloc((void **)&work, chain_hand_work_doubles(&g) * sizeof(double)) != cudaSuccess) {
        printf("chain by hand: no memory for cp and dp\n");
        arr_free(&hout);
        return 0;
    }
    for (size_t x = 0; x < sizeof shapes / sizeof *shapes; x++) {
        int rows = shapes[x].rows, keep = shapes[x].keep < 0 ? nz : shapes[x].keep;
        if (shapes[x].blocks) {   /* (a block's share, less the 1 KB the device reserves) */
            size_t left = prop->sharedMemPerMultiprocessor / (size_t)shapes[x].blocks - 1024,
                   flux = chain_hand_shared(&g, rows, 0),
                   level = chain_hand_shared(&g, rows, 1) - flux;   /* a level kept */
            keep = left > flux ? (int)((left - flux) / level) : 0;
            keep = keep < nz ? keep : nz;
        }
        size_t shared = chain_hand_shared(&g, rows, keep);
        printf("chain by hand, one kernel, blocks of 32 x %d columns, cp and dp of %d of %d "
               "levels in shared memory (%zu bytes a block): ", rows, keep, nz, shared);
        if (shared > prop->sharedMemPerBlockOptin) {
            printf("more than the device gives a block (%zu)\n", prop->sharedMemPerBlockOptin);
            continue;
        }
        int e = chain_hand_step(&g, rows, keep, q->dev, u->dev, v->dev, delp->dev, hout.dev,
                                work, 0.3, 0.05, 0.1);
        if (e || cudaDeviceSynchronize() != cudaSuccess) {
            printf("the launch failed: %s\n",
                   cudaGetErrorString(e ? (cudaError_t)e : cudaGetLastError()));
            bad = 1;
            continue;
        }
        memcpy(hout.host, out->host, out->n * sizeof(double));
        long d = differ(&hout);
        bad |= d != 0;
        double th;
        TIME_RUNS(th, runs,
                  chain_hand_step(&g, rows, keep, q->dev, u->dev, v->dev, delp->dev, hout.dev,
                                  work, 0.3, 0.05, 0.1),
                  cudaDeviceSynchronize());
        printf("%8.3f ms, %6.0f GB/s = %5.1f %% of the device triad | ", th * 1e3,
               bytes / th / 1e9, 100.0 * bytes / th / triad);
        if (tg > 0.0)
            printf("FPO fused / hand %5.2fx | ", tg / th);
        printf("points differing from C: %ld\n", d);
    }
    cudaFree(work);
    arr_free(&hout);
    return bad;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 192, nz = argc > 2 ? atoi(argv[2]) : 80;
    int runs = argc > 3 ? atoi(argv[3]) : 20;
    const char *only = argc > 4 ? argv[4] : "";
    size_t n3 = (size_t)(n + 2 * H) * (size_t)(n + 2 * H) * (size_t)nz;
    size_t n2 = (size_t)(n + 2 * H) * (size_t)(n + 2 * H);
    struct cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    double triad = fpo_bench_device_triad((size_t)1 << 27, 20);
    printf("device: %s, %d multiprocessors; host: %d threads\n", prop.name,
           prop.multiProcessorCount, threads);
    printf("domain %d x %d x %d (halo %d), %d runs a round, best of 3 rounds\n", n, n, nz, H, runs);
    printf("device triad: %.0f GB/s\n", triad / 1e9);
    if (*only)
        printf("STEP: %s only\n", only);
    int bad = 0;
    fpo_domain dom = fpo_domain_local(n, n, nz);
    fpo_error err;
    fpo_options oc = {.backend = "c"}, og = {.backend = "cuda"};

    /* the chain step */
    if (!*only || !strcmp(only, "chain") || !strcmp(only, "hand")) {
        Arr q = arr(n3, 0, 0.5, 1.0), u = arr(n3, 1, -1.0, 2.0), v = arr(n3, 2, -1.0, 2.0),
            delp = arr(n3, 3, 1.0, 1.0), out = arr(n3, 4, 0.0, 1.0);
        chain_step_fields hf = {f3(q.host, n, nz, FPO_HOST), f3(u.host, n, nz, FPO_HOST),
                                f3(v.host, n, nz, FPO_HOST), f3(delp.host, n, nz, FPO_HOST),
                                f3(out.host, n, nz, FPO_HOST)};
        chain_step_fields df = {f3(q.dev, n, nz, FPO_DEVICE), f3(u.dev, n, nz, FPO_DEVICE),
                                f3(v.dev, n, nz, FPO_DEVICE), f3(delp.dev, n, nz, FPO_DEVICE),
                                f3(out.dev, n, nz, FPO_DEVICE)};
        Arr out2 = arr(n3, 4, 0.0, 1.0);
        chain_ref_fields du;
        memcpy(&du, &df, sizeof du);
        du.q_out = f3(out2.dev, n, nz, FPO_DEVICE);
        chain_step *pc, *pg;
        chain_ref *pu;
        if (chain_step_open_with(&pc, &dom, &hf, &oc, &err) ||
            chain_step_open_with(&pg, &dom, &df, &og, &err) ||
            chain_ref_open_with(&pu, &dom, &du, &og, &err)) {
            fprintf(stderr, "cuda_bench: chain: %s\n", err.msg);
            return 1;
        }
        double tc, tg = 0.0, tu, th;
        double bytes = 5.0 * 8.0 * (double)n * n * nz;   /* q, u, v, delp read; q_out written */
        TIME_RUNS(tc, runs, chain_step_run(pc, 0.3, 0.05, 0.1, &err), (void)0);
        if (strcmp(only, "hand")) {   /* (`hand`: the C back end's q_out only, for the kernel) */
            TIME_RUNS(tg, runs, chain_step_run(pg, 0.3, 0.05, 0.1, &err),
                      chain_step_wait(pg, &err));
            TIME_RUNS(tu, runs, chain_ref_run(pu, 0.3, 0.05, 0.1, &err),
                      chain_ref_wait(pu, &err));
            HOST_TIME(th, chain_step_run(pg, 0.3, 0.05, 0.1, &err), chain_step_wait(pg, &err));
            /* double buffering: a bind before each run, two bindings taking turns (each
             * replays its own graph) */
            Arr out3 = arr(n3, 4, 0.0, 1.0);
            chain_step_fields df2 = df;
            df2.q_out = f3(out3.dev, n, nz, FPO_DEVICE);
            double tb;
            HOST_TIME(tb, (chain_step_bind(pg, r_ & 1 ? &df2 : &df, &err),
                           chain_step_run(pg, 0.3, 0.05, 0.1, &err)), chain_step_wait(pg, &err));
            chain_step_bind(pg, &df, &err);
            chain_step_run(pg, 0.3, 0.05, 0.1, &err);
            chain_step_wait(pg, &err);
            fpo_memory gm;
            chain_step_memory(pg, &gm);
            arr_free(&out3);
            long d = differ(&out);
            memcpy(out2.host, out.host, n3 * sizeof(double));
            long du_ = differ(&out2);
            bad += d != 0 || du_ != 0;
            printf("chain:   CUDA fused %8.3f ms, unfused %8.3f ms: fused/unfused %5.2fx | fused "
                   "%6.0f GB/s = %5.1f %% of the device triad | C fused on the host (%d threads) "
                   "%8.3f ms: GPU/CPU %6.2fx | host time of a run %.1f us, of a bind and a run "
                   "(two bindings taking turns, %d graphs kept) %.1f us | points differing from "
                   "C: %ld fused, %ld unfused\n",
                   tg * 1e3, tu * 1e3, tu / tg, bytes / tg / 1e9, 100.0 * bytes / tg / triad,
                   threads, tc * 1e3, tc / tg, th * 1e6, gm.graphs, tb * 1e6, d, du_);
            /* the same, its pool (cp and dp) kept in L2 from the FORWARD walk to the BACKWARD
             * (FPO_CUDA_L2_POOL, runtime/cuda.cu keep_in_l2) */
            setenv("FPO_CUDA_L2_POOL", "max", 1);
            chain_step *pl;
            if (chain_step_open_with(&pl, &dom, &df, &og, &err)) {
                fprintf(stderr, "cuda_bench: chain, its pool in L2: %s\n", err.msg);
                bad++;
            } else {
                double tl, kept = persisting_mb();
                memset(&gm, 0, sizeof gm);
                chain_step_memory(pl, &gm);
                TIME_RUNS(tl, runs, chain_step_run(pl, 0.3, 0.05, 0.1, &err),
                          chain_step_wait(pl, &err));
                long dl = differ(&out);
                bad += dl != 0;
                printf("chain, its pool in L2: CUDA fused %8.3f ms, %5.2fx the run above | "
                       "%6.0f GB/s = %5.1f %% of the device triad | pool %.1f MB, persisting L2 "
                       "%.1f MB | points differing from C: %ld\n", tl * 1e3, tg / tl,
                       bytes / tl / 1e9, 100.0 * bytes / tl / triad,
                       (double)gm.pool_bytes / 1e6, kept, dl);
                chain_step_close(pl);
            }
            unsetenv("FPO_CUDA_L2_POOL");
        }
        bad += hand(n, nz, runs, &q, &u, &v, &delp, &out, &prop, bytes, triad, tg);
        chain_step_close(pc);
        chain_step_close(pg);
        chain_ref_close(pu);
    }
    /* the transport step */
    if (!*only || !strcmp(only, "tp_step")) {
        /* q, qy, crx, cry, xfx, yfx: field 10 + a's noise in [lo, lo + span) */
        static const double lo[6] = {1.0, 1.0, -0.4, -0.4, -0.4, -0.4},
                            span[6] = {1.0, 1.0, 0.8, 0.8, 0.8, 0.8};
        Arr a3[6], a2[4];
        for (int a = 0; a < 6; a++)
            a3[a] = arr(n3, 10 + a, lo[a], span[a]);
        for (int a = 0; a < 4; a++)
            a2[a] = arr(n2, 20 + a, 0.8, 0.4);
        tp_step_fields hf = {f3(a3[0].host, n, nz, FPO_HOST), f3(a3[1].host, n, nz, FPO_HOST),
                             f3(a3[2].host, n, nz, FPO_HOST), f3(a3[3].host, n, nz, FPO_HOST),
                             f3(a3[4].host, n, nz, FPO_HOST), f3(a3[5].host, n, nz, FPO_HOST),
                             f2(a2[0].host, n, FPO_HOST), f2(a2[1].host, n, FPO_HOST),
                             f2(a2[2].host, n, FPO_HOST), f2(a2[3].host, n, FPO_HOST)};
        tp_step_fields df = {f3(a3[0].dev, n, nz, FPO_DEVICE), f3(a3[1].dev, n, nz, FPO_DEVICE),
                             f3(a3[2].dev, n, nz, FPO_DEVICE), f3(a3[3].dev, n, nz, FPO_DEVICE),
                             f3(a3[4].dev, n, nz, FPO_DEVICE), f3(a3[5].dev, n, nz, FPO_DEVICE),
                             f2(a2[0].dev, n, FPO_DEVICE), f2(a2[1].dev, n, FPO_DEVICE),
                             f2(a2[2].dev, n, FPO_DEVICE), f2(a2[3].dev, n, FPO_DEVICE)};
        Arr uq = arr(n3, 10, 1.0, 1.0), uqy = arr(n3, 11, 1.0, 1.0);
        tp_ref_fields du;
        memcpy(&du, &df, sizeof du);
        du.q = f3(uq.dev, n, nz, FPO_DEVICE);
        du.qy = f3(uqy.dev, n, nz, FPO_DEVICE);
        tp_step *pc, *pg;
        tp_ref *pu;
        if (tp_step_open_with(&pc, &dom, &hf, &oc, &err) ||
            tp_step_open_with(&pg, &dom, &df, &og, &err) ||
            tp_ref_open_with(&pu, &dom, &du, &og, &err)) {
            fprintf(stderr, "cuda_bench: tp_step: %s\n", err.msg);
            return 1;
        }
        /* one step each from the same start: the bits agree */
        tp_step_run(pc, &err);
        tp_step_run(pg, &err);
        tp_step_wait(pg, &err);
        tp_ref_run(pu, &err);
        tp_ref_wait(pu, &err);
        long d = differ(&a3[0]);
        memcpy(uq.host, a3[0].host, n3 * sizeof(double));
        long du_ = differ(&uq);
        bad += d != 0 || du_ != 0;
        double tc, tg, tu, th;
        TIME_RUNS(tc, runs, tp_step_run(pc, &err), (void)0);
        TIME_RUNS(tg, runs, tp_step_run(pg, &err), tp_step_wait(pg, &err));
        TIME_RUNS(tu, runs, tp_ref_run(pu, &err), tp_ref_wait(pu, &err));
        HOST_TIME(th, tp_step_run(pg, &err), tp_step_wait(pg, &err));
        tp_step_wait(pg, &err);
        fpo_memory gm;   /* (no graph kept: the runs were plain launches, capture failed) */
        tp_step_memory(pg, &gm);
        /* q, qy, crx, cry, xfx, yfx read, q written (the 2D metrics left out) */
        double bytes = 7.0 * 8.0 * (double)n * n * nz;
        printf("tp_step: CUDA fused %8.3f ms, unfused %8.3f ms: fused/unfused %5.2fx | fused %6.0f "
               "GB/s = %5.1f %% of the device triad | C fused on the host (%d threads) %8.3f ms: "
               "GPU/CPU %6.2fx | host time of a run %.1f us (%d graphs kept) | points differing "
               "from C after one step: %ld fused, %ld unfused\n",
               tg * 1e3, tu * 1e3, tu / tg, bytes / tg / 1e9, 100.0 * bytes / tg / triad, threads,
               tc * 1e3, tc / tg, th * 1e6, gm.graphs, d, du_);
        /* the same, as much of its pool as L2 keeps persisting (FPO_CUDA_L2_POOL); a step
         * from the same start as above, against the C back end's step from it (the state the
         * timed runs leave is no start: from this noise q's largest value grows about 1e11
         * times every 10 steps, 1.4e209 after 200 on the C back end, so the 321 steps before
         * this at 192 x 192 x 80 and 20 runs overflow it to inf and NaN, whose bits the back
         * ends need not share) */
        setenv("FPO_CUDA_L2_POOL", "max", 1);
        tp_step *pl;
        if (tp_step_open_with(&pl, &dom, &df, &og, &err)) {
            fprintf(stderr, "cuda_bench: tp_step, its pool in L2: %s\n", err.msg);
            bad++;
        } else {
            double tl, kept = persisting_mb();
            fpo_memory lm;
            tp_step_memory(pl, &lm);
            TIME_RUNS(tl, runs, tp_step_run(pl, &err), tp_step_wait(pl, &err));
            for (int a = 0; a < 6; a++)   /* the start again, on the host and the device */
                arr_reset(&a3[a], 10 + a, lo[a], span[a]);
            tp_step_run(pc, &err);
            tp_step_run(pl, &err);
            tp_step_wait(pl, &err);
            long dl = differ(&a3[0]);
            bad += dl != 0;
            printf("tp_step, its pool in L2: CUDA fused %8.3f ms, %5.2fx the run above | %6.0f "
                   "GB/s = %5.1f %% of the device triad | pool %.1f MB, persisting L2 %.1f MB | "
                   "points differing from C after one step: %ld\n", tl * 1e3, tg / tl,
                   bytes / tl / 1e9, 100.0 * bytes / tl / triad, (double)lm.pool_bytes / 1e6,
                   kept, dl);
            tp_step_close(pl);
        }
        unsetenv("FPO_CUDA_L2_POOL");
        tp_step_close(pc);
        tp_step_close(pg);
        tp_ref_close(pu);
    }
    if (bad)
        fprintf(stderr, "cuda_bench: the back ends differ\n");
    return bad ? 1 : 0;
}
