/* chain_hand_check.c: the hand-written CUDA chain step (chain_hand.cu, emulated: hand_emu.h)
 * against the C back end's chain_step, bit for bit, for blocks of 1, 3 and 8 rows, with cp and
 * dp in memory, those of the top 2 levels kept in shared memory, and all of them kept.
 * Usage: chain_hand_check NX NY NZ. */
#include "chain_hand.h"
#include "chain_step.h"

#include "arrays.h"

enum { H = 3 };

static fpo_field f3(double *data, int nx, int ny, int nz) {
    return fpo_field_3d(data, FPO_F64, -H, nx + H, -H, ny + H, 0, nz);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: chain_hand_check NX NY NZ\n");
        return 2;
    }
    int nx = atoi(argv[1]), ny = atoi(argv[2]), nz = atoi(argv[3]);
    size_t n = (size_t)(nx + 2 * H) * (size_t)(ny + 2 * H) * (size_t)nz;
    Arr q = arr(n, 0, 0.5, 1.0), u = arr(n, 1, -1.0, 2.0), v = arr(n, 2, -1.0, 2.0),
        delp = arr(n, 3, 1.0, 1.0), out = arr(n, 4, 0.0, 1.0);
    chain_step_fields f = {f3(q.host, nx, ny, nz), f3(u.host, nx, ny, nz), f3(v.host, nx, ny, nz),
                           f3(delp.host, nx, ny, nz), f3(out.host, nx, ny, nz)};
    fpo_domain dom = fpo_domain_local(nx, ny, nz);
    fpo_options o = {.backend = "c"};
    fpo_error err;
    chain_step *p;
    if (chain_step_open_with(&p, &dom, &f, &o, &err) || chain_step_run(p, 0.3, 0.05, 0.1, &err)) {
        fprintf(stderr, "chain_hand_check: %s\n", err.msg);
        return 1;
    }
    chain_step_close(p);
    chain_hand_grid g = {nx, ny, nz, H};
    double *work = malloc(chain_hand_work_doubles(&g) * sizeof(double));
    double *hand = malloc(n * sizeof(double));
    int failures = 0;
    const int rows[] = {1, 3, 8};
    for (int r = 0; r < 3; r++)
        for (int kx = 0; kx < 3; kx++) {
            int keep = kx == 0 ? 0 : kx == 1 ? 2 : nz;
            memcpy(hand, out.dev, n * sizeof(double));   /* the halo as it was */
            if (chain_hand_step(&g, rows[r], keep, q.host, u.host, v.host, delp.host, hand,
                                work, 0.3, 0.05, 0.1)) {
                fprintf(stderr, "chain_hand_check: the emulated launch failed (OpenMP team or "
                        "memory short)\n");
                return 1;
            }
            long bad = 0, first = -1;
            for (size_t x = 0; x < n; x++)
                if (memcmp(&hand[x], &out.host[x], sizeof(double)) && bad++ == 0)
                    first = (long)x;
            printf("rows %d, cp and dp of the top %d of %d levels in shared memory: %ld points "
                   "differ\n", rows[r], keep, nz, bad);
            if (bad) {
                int64_t w = nx + 2 * H, hh = ny + 2 * H;
                fprintf(stderr, "chain_hand_check: first difference at i=%lld j=%lld k=%lld: C "
                        "%.17g, hand %.17g\n", (long long)(first % w) - H,
                        (long long)(first / w % hh) - H, (long long)(first / (w * hh)),
                        out.host[first], hand[first]);
                failures++;
            }
        }
    free(work);
    free(hand);
    Arr *all[] = {&q, &u, &v, &delp, &out};
    for (int a = 0; a < 5; a++)
        arr_free(all[a]);
    if (failures)
        return 1;
    printf("the hand-written kernel equals the C back end bit for bit\n");
    return 0;
}
