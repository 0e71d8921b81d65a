/* main.c: opens each program of the trees project on a whole tile and prints its variant. */
#include <stdio.h>
#include <string.h>

#include "plain.h"
#include "regions.h"
#include "west_only.h"

int main(void) {
    enum { N = 4 };
    static double a[N * N], b[N * N], c[N * N], d[N * N];
    fpo_field f = fpo_field_3d(a, FPO_F64, 0, N, 0, N, 0, 1);
    fpo_domain dom = fpo_domain_local(N, N, 1);
    fpo_error err;
    plain *p;
    plain_fields pf = {.q = f, .out = fpo_field_3d(b, FPO_F64, 0, N, 0, N, 0, 1)};
    if (plain_open(&p, &dom, &pf, &err) || plain_run(p, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    west_only *w;
    west_only_fields wf = {.q = f, .out = fpo_field_3d(c, FPO_F64, 0, N, 0, N, 0, 1),
                           .edge = fpo_field_3d(d, FPO_F64, 0, N, 0, N, 0, 1)};
    if (west_only_open(&w, &dom, &wf, &err) || west_only_run(w, 2.0, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    printf("trees: plain %s, west_only %s, regions manifest of %zu bytes\n", plain_variant(p),
           west_only_variant(w), strlen(regions_manifest()));
    plain_close(p);
    west_only_close(w);
    return 0;
}
