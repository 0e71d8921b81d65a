/* kcheck_run.c: runs kcheck.fpo with q(i, j, k) = 100 k + 10 j + i on nz + 1 = 5 levels, lev
 * = nz - k (level nz, the interface field's last, at k = 0) and dk = 0, except at one point
 * (argv[1]: "abs" puts lev = 7 at (2, 1, 3); "var" dk = 1 at (1, 2, 3), level 4 that q has,
 * and dk = 2 at (3, 0, 3), level 5 that it lacks; "below" dk = -1 at (0, 0, 0); "clean"
 * nothing; "second" lev2 = 7 at (2, 1, 3), which the second call of pick reads from w, q
 * plus 1000 on 5 levels too; "column" lev3 = 7 there, which climb reads from q, a FORWARD
 * computation). argv[2] is what run must return: "ok" (then r, s, t and u are
 * checked against q and w) or the start of the message. With FPO_BACKEND=cuda on the CUDA back end: emulated (fields
 * marked device memory), or ON_GPU with copies in device memory. */
#include "kcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef ON_GPU
#include <cuda_runtime_api.h>
#endif

static int on_cuda(void) {
    const char *be = getenv("FPO_BACKEND");
    return be && !strcmp(be, "cuda");
}

/* A field over `host` where the back end takes it: marked device memory on the CUDA back end
 * (a copy in device memory on a GPU). */
static fpo_field place(void *host, size_t bytes, fpo_field f) {
    if (!on_cuda())
        return f;
#ifdef ON_GPU
    void *d = NULL;
    if (cudaMalloc(&d, bytes) != cudaSuccess ||
        cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice) != cudaSuccess) {
        printf("kcheck_run: the CUDA back end needs a CUDA device: no device memory here\n");
        exit(1);
    }
    f.data = d;
#else
    (void)host, (void)bytes;
#endif
    return fpo_field_on_device(f);
}

/* The results back where the host reads them. */
static void fetch(void *host, size_t bytes, const fpo_field *f) {
#ifdef ON_GPU
    if (on_cuda())
        cudaMemcpy(host, f->data, bytes, cudaMemcpyDeviceToHost);
#else
    (void)host, (void)bytes, (void)f;
#endif
}

enum { NX = 4, NY = 3, NZ = 4 };

int main(int argc, char **argv) {
    if (argc < 3)
        return 2;
    static double q[NZ + 1][NY][NX], r[NZ][NY][NX], s[NZ][NY][NX];
    static double w[NZ + 1][NY][NX], t[NZ][NY][NX], u[NZ][NY][NX], c[NZ][NY][NX];
    static int lev[NZ][NY][NX], lev2[NZ][NY][NX], lev3[NZ][NY][NX], dk[NZ][NY][NX];
    for (int k = 0; k <= NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                q[k][j][i] = 100.0 * k + 10.0 * j + i;
                w[k][j][i] = 1000.0 + q[k][j][i];
                if (k < NZ)
                    lev[k][j][i] = lev2[k][j][i] = lev3[k][j][i] = NZ - k, dk[k][j][i] = 0;
            }
    if (!strcmp(argv[1], "abs"))
        lev[3][1][2] = 7;
    if (!strcmp(argv[1], "var"))
        dk[3][2][1] = 1, dk[3][0][3] = 2;
    if (!strcmp(argv[1], "below"))
        dk[0][0][0] = -1;
    if (!strcmp(argv[1], "second"))
        lev2[3][1][2] = 7;
    if (!strcmp(argv[1], "column"))
        lev3[3][1][2] = 7;
    kcheck_fields f = {place(q, sizeof q, fpo_field_3d(q, FPO_F64, 0, NX, 0, NY, 0, NZ + 1)),
                       place(lev, sizeof lev, fpo_field_3d(lev, FPO_I32, 0, NX, 0, NY, 0, NZ)),
                       place(dk, sizeof dk, fpo_field_3d(dk, FPO_I32, 0, NX, 0, NY, 0, NZ)),
                       place(r, sizeof r, fpo_field_3d(r, FPO_F64, 0, NX, 0, NY, 0, NZ)),
                       place(s, sizeof s, fpo_field_3d(s, FPO_F64, 0, NX, 0, NY, 0, NZ)),
                       place(w, sizeof w, fpo_field_3d(w, FPO_F64, 0, NX, 0, NY, 0, NZ + 1)),
                       place(lev2, sizeof lev2, fpo_field_3d(lev2, FPO_I32, 0, NX, 0, NY, 0, NZ)),
                       place(t, sizeof t, fpo_field_3d(t, FPO_F64, 0, NX, 0, NY, 0, NZ)),
                       place(u, sizeof u, fpo_field_3d(u, FPO_F64, 0, NX, 0, NY, 0, NZ)),
                       place(lev3, sizeof lev3, fpo_field_3d(lev3, FPO_I32, 0, NX, 0, NY, 0, NZ)),
                       place(c, sizeof c, fpo_field_3d(c, FPO_F64, 0, NX, 0, NY, 0, NZ))};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    kcheck *p;
    if (kcheck_open(&p, &dom, &f, &err)) {
        fprintf(stderr, "open: %s\n", err.msg);
        return 1;
    }
    fpo_status st = kcheck_run(p, &err);
    kcheck_close(p);
    fetch(r, sizeof r, &f.r);
    fetch(s, sizeof s, &f.s);
    fetch(t, sizeof t, &f.t);
    fetch(u, sizeof u, &f.u);
    fetch(c, sizeof c, &f.c);
    printf("run: %s\n", st ? err.msg : "ok");
    if (strcmp(argv[2], "ok"))
        return !(st == FPO_ECHECK && strstr(err.msg, argv[2]) == err.msg);
    if (st)
        return 1;
    int bad = 0;
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++)
                bad += r[k][j][i] != q[lev[k][j][i]][j][i] ||
                       s[k][j][i] != 2.0 * q[k + dk[k][j][i]][j][i] ||
                       t[k][j][i] != w[lev2[k][j][i]][j][i] ||
                       u[k][j][i] != 2.0 * w[k + dk[k][j][i]][j][i] ||
                       c[k][j][i] != q[lev3[k][j][i]][j][i];
    printf("values: %d wrong\n", bad);
    return bad != 0;
}
