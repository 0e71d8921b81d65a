/* halo_many.c: program `halo_many` (halo_many.fpo) on 6 L x L ranks. Its halo_update of 12
 * fields fills each field's halo to depth 2 as fpo_halo_locate says the owners hold it (open
 * builds the plan from exactly 12 items), the vector update fills the D-grid winds' halos, and
 * the stencil reads them all. Also the run guard's order: a domain whose size is not the
 * decomposition's is refused as such (not as an edge class that was not built). */
#include "halo_many.h"

#include "sphere.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 8, NZ = 2, H = 2, NF = 12 };

static double fval(int f, int t, int gi, int gj, int k) {
    return f * 10000.0 + t * 1000.0 + gi * 31.0 + gj + k * 0.5;
}

/* Field f's value a rank sees at local (i, j) after the exchange; NAN in a cube-corner block. */
static double seen(const fpo_halo_decomp *d, int f, int i, int j, int k) {
    fpo_halo_point pt;
    if (i >= 0 && i < d->nx && j >= 0 && j < d->ny)
        return fval(f, d->tile, d->i0 + i, d->j0 + j, k);
    if (!fpo_halo_locate(d, FPO_HALO_CENTER, i, j, &pt))
        return NAN;
    return fval(f, pt.tile, pt.gi, pt.gj, k);
}

int main(int argc, char **argv) {
    int rank, size, layout;
    fpo_halo_decomp d = cp_sphere(&argc, &argv, N, &rank, &size, &layout);
    int ni = d.nx + 2 * H, nj = d.ny + 2 * H;
    size_t plane = (size_t)ni * (size_t)nj, npts = plane * NZ;
#define AT(a, i, j, k) (a)[(size_t)(k) * plane + (size_t)((j) + H) * (size_t)ni + (size_t)((i) + H)]
    double *fld[NF], *out = calloc(npts, sizeof *out);
    double *u = calloc((size_t)ni * (size_t)(nj + 1) * NZ, sizeof *u);
    double *v = calloc((size_t)(ni + 1) * (size_t)nj * NZ, sizeof *v);
    for (int f = 0; f < NF; f++) {
        fld[f] = malloc(npts * sizeof *fld[f]);
        for (int k = 0; k < NZ; k++)
            for (int j = -H; j < d.ny + H; j++)
                for (int i = -H; i < d.nx + H; i++)
                    AT(fld[f], i, j, k) = i >= 0 && i < d.nx && j >= 0 && j < d.ny
                                              ? fval(f, d.tile, d.i0 + i, d.j0 + j, k) : NAN;
    }
    /* D-grid winds: u on y faces (u = 1 everywhere it is computed), v on x faces (v = 2). */
    const int unj = nj + 1, vni = ni + 1;
#define UAT(i, j, k) u[((size_t)(k) * (size_t)unj + (size_t)((j) + H)) * (size_t)ni + (size_t)((i) + H)]
#define VAT(i, j, k) v[((size_t)(k) * (size_t)nj + (size_t)((j) + H)) * (size_t)vni + (size_t)((i) + H)]
    for (int k = 0; k < NZ; k++) {
        for (int j = 0; j <= d.ny; j++)
            for (int i = 0; i < d.nx; i++)
                UAT(i, j, k) = 1.0;
        for (int j = 0; j < d.ny; j++)
            for (int i = 0; i <= d.nx; i++)
                VAT(i, j, k) = 2.0;
    }
    halo_many_fields fs;
    fpo_field *slot[NF] = {&fs.f0, &fs.f1, &fs.f2, &fs.f3, &fs.f4,  &fs.f5,
                           &fs.f6, &fs.f7, &fs.f8, &fs.f9, &fs.f10, &fs.f11};
    for (int f = 0; f < NF; f++)
        *slot[f] = fpo_field_3d(fld[f], FPO_F64, -H, d.nx + H, -H, d.ny + H, 0, NZ);
    fs.u = fpo_field_3d(u, FPO_F64, -H, d.nx + H, -H, d.ny + 1 + H, 0, NZ);
    fs.v = fpo_field_3d(v, FPO_F64, -H, d.nx + 1 + H, -H, d.ny + H, 0, NZ);
    fs.out = fpo_field_3d(out, FPO_F64, -H, d.nx + H, -H, d.ny + H, 0, NZ);
    fpo_options opt = {.halo = &d};
    fpo_error err;
    halo_many *p = NULL;
    int bad = 0;

    /* A domain one column narrower than the decomposition's: refused for that, on every rank
     * (on 6 ranks it would fall in class 'snw', which the build has not). */
    fpo_domain narrow = fpo_halo_domain(&d, NZ);
    narrow.nx -= 1;
    if (halo_many_open_with(&p, &narrow, &fs, &opt, &err) != FPO_EMISMATCH ||
        !strstr(err.msg, "halo_many: the domain (nx ") ||
        !strstr(err.msg, "is not the decomposition's")) {
        fprintf(stderr, "rank %d: a domain not the decomposition's gave: %s\n", rank, err.msg);
        bad++;
    } else if (rank == 0) {
        printf("refused: %s\n", err.msg);
    }

    fpo_domain dom = fpo_halo_domain(&d, NZ);
    if (halo_many_open_with(&p, &dom, &fs, &opt, &err) || halo_many_run(p, &err)) {
        fprintf(stderr, "rank %d: %s\n", rank, err.msg);
        bad++;
    } else {
        /* Every field's halo, both rows deep, outside the cube-corner blocks. */
        long checked = 0;
        for (int f = 0; f < NF; f++)
            for (int k = 0; k < NZ; k++)
                for (int j = -H; j < d.ny + H; j++)
                    for (int i = -H; i < d.nx + H; i++) {
                        double w = seen(&d, f, i, j, k);
                        if (isnan(w))
                            continue;
                        checked++;
                        if (AT(fld[f], i, j, k) != w && bad++ < 5)
                            fprintf(stderr, "rank %d: f%d(%d, %d, %d) = %g, want %g\n", rank, f, i,
                                    j, k, AT(fld[f], i, j, k), w);
                    }
        /* The stencil read them. */
        static const int off[NF][2] = {{-2, 0}, {2, 0}, {0, -2}, {0, 2}, {-1, 0}, {1, 0},
                                       {0, -1}, {0, 1}, {-2, 0}, {2, 0}, {0, -2}, {0, 2}};
        for (int k = 0; k < NZ; k++)
            for (int j = 0; j < d.ny; j++)
                for (int i = 0; i < d.nx; i++) {
                    double w = 0;
                    for (int f = 0; f < NF; f++)
                        w += seen(&d, f, i + off[f][0], j + off[f][1], k);
                    if (AT(out, i, j, k) != w && bad++ < 5)
                        fprintf(stderr, "rank %d: out(%d, %d, %d) = %g, want %g\n", rank, i, j,
                                k, AT(out, i, j, k), w);
                }
        /* The winds' halo rows: a D-grid pair turns into (+-v, +-u) across a turned edge, so
         * each halo component is 1 or 2 in size. */
        for (int k = 0; k < NZ; k++) {
            for (int i = 0; i < d.nx; i++)
                if (fabs(UAT(i, -1, k)) != 1.0 && fabs(UAT(i, -1, k)) != 2.0 && bad++ < 5)
                    fprintf(stderr, "rank %d: u(%d, -1, %d) = %g\n", rank, i, k, UAT(i, -1, k));
            for (int j = 0; j < d.ny; j++)
                if (fabs(VAT(-1, j, k)) != 1.0 && fabs(VAT(-1, j, k)) != 2.0 && bad++ < 5)
                    fprintf(stderr, "rank %d: v(-1, %d, %d) = %g\n", rank, j, k, VAT(-1, j, k));
        }
        if (!checked) {
            fprintf(stderr, "rank %d: no halo point checked\n", rank);
            bad++;
        }
    }
    int total = 0;
    MPI_Reduce(&bad, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("halo_many: %d ranks (layout %dx%d): %s\n", size, layout, layout,
               total ? "MISMATCH" : "12 fields and a vector agree with the owners");
    halo_many_close(p);
    for (int f = 0; f < NF; f++)
        free(fld[f]);
    free(out), free(u), free(v);
    fpo_halo_decomp_free(&d);
    MPI_Finalize();
    return total != 0;
}
