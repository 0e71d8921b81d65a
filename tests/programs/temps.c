/* temps.c: runs temps.fpo (temporaries read at horizontal offsets) on domains of several
 * sizes, from 1 x 1 x 1 (smaller than the halo) to 61 x 37 x 19 (many OpenMP chunks), and
 * compares with C loop nests that compute each temporary on the extended region it is read
 * on. */
#include <stdio.h>

#include "temps.h"
#include "testgrid.h"

enum { H = 3 };

static int check(int nx, int ny, int nz) {
    tg_array q = tg_new3(FPO_F64, H, nx, ny, nz);
    tg_fill(&q, tg_wave);
    tg_array lap = tg_new3(FPO_F64, H, nx, ny, nz), t1 = tg_new3(FPO_F64, H, nx, ny, nz),
             t2 = tg_new3(FPO_F64, H, nx, ny, nz);
    tg_array out[2], ref[2];
    tg_new_outputs(2, FPO_F64, H, nx, ny, nz, out, ref);
#define Q(i, j, k) TG_F64(&q, i, j, k)
#define L(i, j, k) TG_F64(&lap, i, j, k)
    for (int k = 0; k < nz; k++) {
        for (int j = -1; j < ny + 1; j++)
            for (int i = -1; i < nx + 1; i++)
                L(i, j, k) = Q(i - 1, j, k) + Q(i + 1, j, k) + Q(i, j - 1, k) +
                             Q(i, j + 1, k) - 4.0 * Q(i, j, k);
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                TG_F64(&ref[0], i, j, k) = L(i - 1, j, k) + L(i + 1, j, k) + L(i, j - 1, k) +
                                           L(i, j + 1, k) - 4.0 * L(i, j, k);
        /* out reads t2 on i in [0, nx + 1), j in [-1, ny); t2 reads t1 at (0, +1), (-1, 0). */
        for (int j = -1; j < ny + 1; j++)
            for (int i = -1; i < nx + 1; i++) TG_F64(&t1, i, j, k) = Q(i + 1, j, k) - Q(i, j, k);
        for (int j = -1; j < ny; j++)
            for (int i = 0; i < nx + 1; i++)
                TG_F64(&t2, i, j, k) = TG_F64(&t1, i, j + 1, k) * 2.0 + TG_F64(&t1, i - 1, j, k);
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                TG_F64(&ref[1], i, j, k) =
                    TG_F64(&t2, i, j - 1, k) + TG_F64(&t2, i + 1, j, k) + TG_F64(&t1, i, j, k);
    }

    temps_fields f = {.q = tg_field(&q), .lap_out = tg_field(&out[0]),
                      .chain_out = tg_field(&out[1])};
    fpo_domain dom = fpo_domain_local(nx, ny, nz);
    fpo_error err;
    temps *p;
    tg_ok(temps_open(&p, &dom, &f, &err), &err, "temps_open");
    tg_ok(temps_run(p, &err), &err, "temps_run");
    char what[2][80];
    snprintf(what[0], sizeof what[0], "%d x %d x %d: lap_out (lap of lap)", nx, ny, nz);
    snprintf(what[1], sizeof what[1], "%d x %d x %d: chain_out (t1 -> t2 -> out)", nx, ny, nz);
    int bad = tg_compare(what[0], &out[0], &ref[0], 0) + tg_compare(what[1], &out[1], &ref[1], 0);
    temps_close(p);
    tg_array *arrays[8] = {&q, &lap, &t1, &t2, &out[0], &out[1], &ref[0], &ref[1]};
    for (int a = 0; a < 8; a++) tg_free(arrays[a]);
    return bad;
}

int main(void) {
    static const int sizes[][3] = {{13, 7, 5}, {1, 1, 1}, {2, 5, 3}, {61, 37, 19}};
    int bad = 0;
    for (int s = 0; s < 4; s++) bad += check(sizes[s][0], sizes[s][1], sizes[s][2]);
    if (bad) return 1;
    printf("temps: ok on 4 domain sizes\n");
    return 0;
}
