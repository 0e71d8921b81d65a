/* layouts.c: runs temps.fpo on fields of other layouts than the compact ones of temps.c:
 * each field with its own index range (q with an uneven halo of 2 to 4, outputs without a
 * halo) and padded strides (rows and planes longer than the data). The results must equal
 * those of compact fields, and the padding and the points outside the domain stay untouched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "temps.h"
#include "testgrid.h"

enum { NX = 13, NY = 7, NZ = 5, H = 3 };

/* Run temps on q, writing lap_out and chain_out. */
static void run(const tg_array *q, tg_array *lap, tg_array *chain) {
    temps_fields f = {.q = tg_field(q), .lap_out = tg_field(lap), .chain_out = tg_field(chain)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    temps *p;
    tg_ok(temps_open(&p, &dom, &f, &err), &err, "temps_open");
    tg_ok(temps_run(p, &err), &err, "temps_run");
    temps_close(p);
}

/* Points of the domain that differ between `got` and `want`, and bytes of `got` outside the
 * domain that differ from `before`. */
static int check(const char *what, const tg_array *got, const tg_array *want,
                 const tg_array *before) {
    int bad = 0;
    unsigned char *mask = calloc(1, got->bytes);
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                double g = tg_get(got, i, j, k), w = tg_get(want, i, j, k);
                if (g != w && bad++ == 0)
                    fprintf(stderr, "FAIL %s: first mismatch at (i=%d, j=%d, k=%d): got %.17g, "
                                    "want %.17g\n", what, i, j, k, g, w);
                size_t at = (size_t)tg_index(got, i, j, k) * sizeof(double) +
                            (size_t)((char *)got->data - got->mem);
                memset(mask + at, 1, sizeof(double));
            }
    for (size_t b = 0; b < got->bytes; b++)
        if (!mask[b] && got->mem[b] != before->mem[b]) {
            fprintf(stderr, "FAIL %s: byte %zu outside the domain (padding or halo) changed\n",
                    what, b);
            bad++;
            break;
        }
    free(mask);
    return bad;
}

int main(void) {
    tg_array q = tg_new3(FPO_F64, H, NX, NY, NZ), lap = tg_new3(FPO_F64, H, NX, NY, NZ),
             chain = tg_new3(FPO_F64, H, NX, NY, NZ);
    tg_fill(&q, tg_wave);
    run(&q, &lap, &chain);

    /* q: i in [-2, nx + 4), j in [-2, ny + 2) (what lap2 and chain read), rows padded by 5,
     * planes by 11; outputs: the domain only, rows padded by 3, planes by 7. */
    tg_array q2 = tg_new_padded(FPO_F64, FPO_IJK, -2, NX + 4, -2, NY + 2, 0, NZ, 5, 11);
    tg_array lap2 = tg_new_padded(FPO_F64, FPO_IJK, 0, NX, 0, NY, 0, NZ, 3, 7);
    tg_array chain2 = tg_new_padded(FPO_F64, FPO_IJK, 0, NX, 0, NY, 0, NZ, 3, 7);
    memset(q2.mem, 0x5a, q2.bytes);
    memset(lap2.mem, 0x5a, lap2.bytes);
    memset(chain2.mem, 0x5a, chain2.bytes);
    tg_fill(&q2, tg_wave);
    tg_fill(&lap2, tg_junk);
    tg_fill(&chain2, tg_junk);
    tg_array lap_before = tg_clone(&lap2), chain_before = tg_clone(&chain2);
    run(&q2, &lap2, &chain2);

    int bad = check("lap_out (padded, no halo)", &lap2, &lap, &lap_before) +
              check("chain_out (padded, no halo)", &chain2, &chain, &chain_before);
    if (bad) return 1;
    printf("layouts: ok\n");
    return 0;
}
