/* checks_run.c: runs checks.fpo on an input that is 4 everywhere except at one point (argv[1]:
 * "nan" puts -1 at (3, 2, 1), "negative" 0.25 at (2, 1, 0), "clean" nothing) and prints what
 * run returned; argv[2] is what it must return ("ok" or the start of the message). With
 * FPO_BACKEND=cuda on the CUDA back end: emulated (fields marked device memory), or ON_GPU with
 * copies in device memory; there "wild" gives b a level stride far past its allocation, so the
 * first kernel writing level 1 faults (what --instrument cuda-check names). On a GPU the three
 * share one allocation, b last, so that its wild levels lie past the others (open refuses a
 * field the program writes sharing memory with another). */
#include "checks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef ON_GPU
#include <cuda_runtime_api.h>
#endif

/* a's, c's or b's data (`at`: 0, 1, 2 in that order) where the back end takes it: on a GPU
 * part `at` of one allocation of device memory */
static void *place(void *host, size_t bytes, int at) {
#ifdef ON_GPU
    static char *d = NULL;
    const char *be = getenv("FPO_BACKEND");
    if (be && !strcmp(be, "cuda")) {
        if ((!d && cudaMalloc((void **)&d, 3 * bytes) != cudaSuccess) ||
            cudaMemcpy(d + at * bytes, host, bytes, cudaMemcpyHostToDevice) != cudaSuccess) {
            printf("checks_run: the CUDA back end needs a CUDA device: no device memory here\n");
            exit(1);
        }
        return d + at * bytes;
    }
#else
    (void)bytes, (void)at;
#endif
    return host;
}

static fpo_field on(fpo_field f) {
    const char *be = getenv("FPO_BACKEND");
    return be && !strcmp(be, "cuda") ? fpo_field_on_device(f) : f;
}

enum { NX = 6, NY = 5, NZ = 3 };

int main(int argc, char **argv) {
    if (argc < 3)
        return 2;
    static double a[NZ][NY][NX], b[NZ][NY][NX], c[NZ][NY][NX];
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++)
                a[k][j][i] = 4.0;
    if (!strcmp(argv[1], "nan"))
        a[1][2][3] = -1.0;
    if (!strcmp(argv[1], "negative"))
        a[0][1][2] = 0.25;
    checks_fields f = {on(fpo_field_3d(place(a, sizeof a, 0), FPO_F64, 0, NX, 0, NY, 0, NZ)),
                       on(fpo_field_3d(place(b, sizeof b, 2), FPO_F64, 0, NX, 0, NY, 0, NZ)),
                       on(fpo_field_3d(place(c, sizeof c, 1), FPO_F64, 0, NX, 0, NY, 0, NZ))};
    if (!strcmp(argv[1], "wild"))
        f.b.stride[2] = (int64_t)1 << 40;   /* level 1 lies 8 TB past the allocation */
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    checks *p;
    if (checks_open(&p, &dom, &f, &err)) {
        fprintf(stderr, "open: %s\n", err.msg);
        return 1;
    }
    fpo_status st = checks_run(p, &err);
    const char *names[8];
    double secs[8];
    int n = checks_timers(p, names, secs, 8);
    for (int t = 0; t < n; t++)
        printf("timer %s: %.9f s\n", names[t], secs[t]);
    checks_close(p);
    printf("run: %s\n", st ? err.msg : "ok");
    if (!strcmp(argv[2], "ok"))
        return st != FPO_OK;
    return !(st == FPO_ECHECK && strstr(err.msg, argv[2]));
}
