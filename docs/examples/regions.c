/* regions.c: runs regions.fpo on a whole tile (every edge class at once), then on the
 * north-east rank of a tile split 2 x 2, where the west-edge region does not apply. */
#include <stdio.h>
#include <string.h>

#include "edges.h"

enum { N = 8, H = 1 };

/* The rank at (i0, j0) of n x n cells; q = 10 * (tile index in I). */
static int run(int i0, int j0, int n, const char *want_variant) {
    static double q[N * (N + 2 * H)], f[N * (N + 2 * H)];
    const int w = n + 2 * H;   /* a row: n cells and a halo of H on each side */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < w; i++)
            q[j * w + i] = 10.0 * (i0 + i - H), f[j * w + i] = -1.0;
    edges_fields fs = {.q = fpo_field_3d(q, FPO_F64, -H, n + H, 0, n, 0, 1),
                       .f = fpo_field_3d(f, FPO_F64, -H, n + H, 0, n, 0, 1)};
    fpo_domain dom = {.nx = n, .ny = n, .nz = 1, .i0 = i0, .j0 = j0, .tile_nx = N,
                      .tile_ny = N};
    fpo_error err;
    edges *p;
    if (edges_open(&p, &dom, &fs, &err) || edges_run(p, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    int bad = strcmp(edges_variant(p), want_variant) != 0;
    edges_close(p);
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= n; i++) {
            int gi = i0 + i;   /* the interface's tile index */
            double want = gi == 0 ? 10.0 * gi : gi == N ? 10.0 * (gi - 1) : 10.0 * gi - 5.0;
            bad |= f[j * w + i + H] != want;
        }
    return bad;
}

int main(void) {
    if (run(0, 0, N, "all") || run(N / 2, N / 2, N / 2, "ne")) {
        fprintf(stderr, "regions: wrong fluxes or variant\n");
        return 1;
    }
    printf("regions: one-sided fluxes at the tile edges, centred elsewhere\n");
    return 0;
}
