/* inner.c: runs the program `inner` of programs.fpo, built on its own from a file that holds
 * several programs, and compares with a C loop nest. */
#include <stdio.h>

#include "inner.h"
#include "testgrid.h"

enum { NX = 13, NY = 7, NZ = 5, H = 3 };

int main(void) {
    tg_array a = tg_new3(FPO_F64, H, NX, NY, NZ), b = tg_new3(FPO_F64, H, NX, NY, NZ);
    tg_fill(&a, tg_wave);
    tg_fill(&b, tg_junk);
    tg_array ref = tg_clone(&b);
    const double s = -0.625;
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++)
                TG_F64(&ref, i, j, k) = TG_F64(&ref, i, j, k) + s * 2.0 * TG_F64(&a, i, j, k);
    inner_fields f = {.a = tg_field(&a), .b = tg_field(&b)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    inner *p;
    tg_ok(inner_open(&p, &dom, &f, &err), &err, "inner_open");
    tg_ok(inner_run(p, s, &err), &err, "inner_run");
    int bad = tg_compare("b", &b, &ref, 0);
    inner_close(p);
    if (bad) return 1;
    printf("inner: ok\n");
    return 0;
}
