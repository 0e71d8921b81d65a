/* test_ncout.c: writes the grid and two records of h on two levels (the bell at day 0 and, for
 * alpha = 0, carried a quarter turn to day 3; level 1 holds twice level 0) to argv[1], reads the
 * file back with the C API and checks dims, values and attributes. */
#include <math.h>
#include <netcdf.h>
#include <stdlib.h>
#include <string.h>

#include "em.h"
#include "em_test.h"

enum { N = 12, NZ = 2 };

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "em_test_ncout.nc";
    size_t nc = 6 * N * N, nv = 6 * (N + 1) * (N + 1);
    double *lon = malloc(nc * sizeof(double)), *lat = malloc(nc * sizeof(double)), *area = malloc(nc * sizeof(double));
    double *lonb = malloc(nv * sizeof(double)), *latb = malloc(nv * sizeof(double));
    double *h0 = malloc(NZ * nc * sizeof(double)), *h1 = malloc(NZ * nc * sizeof(double));
    double *back = malloc(2 * NZ * nc * sizeof(double)), alpha[NZ] = {0.0, EM_PI / 4};
    em_error err;
    CHECK(em_global_grid(N, lon, lat, area, lonb, latb, &err) == 0, "%s", err.msg);
    double t1 = 3 * 86400.0, turn = EM_U0 / EM_RADIUS * t1;
    for (size_t k = 0; k < nc; k++) {
        h0[k] = em_tc1_bell(lon[k], lat[k]);
        h1[k] = em_tc1_bell(lon[k] - turn, lat[k]);
        h0[nc + k] = 2 * h0[k], h1[nc + k] = 2 * h1[k];
    }
    em_ncfile f;
    CHECK(em_nc_create(&f, path, N, NZ, alpha, lon, lat, area, lonb, latb, "em_test_ncout", &err) == 0, "%s", err.msg);
    CHECK(em_nc_write_h(&f, 0.0, h0, &err) == 0, "%s", err.msg);
    CHECK(em_nc_write_h(&f, t1, h1, &err) == 0, "%s", err.msg);
    CHECK(em_nc_close(&f, &err) == 0, "%s", err.msg);

    int ncid, var, ndims;
    CHECK(nc_open(path, NC_NOWRITE, &ncid) == NC_NOERR, "cannot reopen %s", path);
    CHECK(nc_inq_varid(ncid, "h", &var) == NC_NOERR, "no h");
    int dims[5];
    CHECK(nc_inq_var(ncid, var, NULL, NULL, &ndims, dims, NULL) == NC_NOERR && ndims == 5, "h has %d dims", ndims);
    const char *names[5] = {"time", "lev", "tile", "y", "x"};
    size_t lens[5] = {2, NZ, 6, N, N};
    for (int d = 0; d < 5 && ndims == 5; d++) {
        char name[NC_MAX_NAME + 1];
        size_t len;
        nc_inq_dim(ncid, dims[d], name, &len);
        CHECK(strcmp(name, names[d]) == 0 && len == lens[d], "dim %d is %s(%zu)", d, name, len);
    }
    CHECK(nc_get_var_double(ncid, var, back) == NC_NOERR, "reading h");
    CHECK(memcmp(back, h0, NZ * nc * sizeof(double)) == 0 &&
              memcmp(back + NZ * nc, h1, NZ * nc * sizeof(double)) == 0,
          "h differs");
    char units[32] = {0};
    CHECK(nc_get_att_text(ncid, var, "units", units) == NC_NOERR && strcmp(units, "m") == 0, "h units '%s'", units);
    double lev[NZ], al[NZ];
    CHECK(nc_inq_varid(ncid, "lev", &var) == NC_NOERR && nc_get_var_double(ncid, var, lev) == NC_NOERR &&
              lev[0] == 0 && lev[1] == 1,
          "lev");
    CHECK(nc_inq_varid(ncid, "alpha", &var) == NC_NOERR && nc_get_var_double(ncid, var, al) == NC_NOERR &&
              al[0] == alpha[0] && al[1] == alpha[1],
          "alpha %g %g", al[0], al[1]);
    CHECK(nc_inq_varid(ncid, "lon", &var) == NC_NOERR && nc_get_var_double(ncid, var, back) == NC_NOERR, "lon");
    double worst = 0;
    for (size_t k = 0; k < nc; k++) worst = fmax(worst, fabs(back[k] - lon[k] * 180 / EM_PI));
    CHECK(worst < 1e-12, "lon in degrees off by %g", worst);
    CHECK(nc_inq_varid(ncid, "area", &var) == NC_NOERR && nc_get_var_double(ncid, var, back) == NC_NOERR, "area");
    double total = 0;
    for (size_t k = 0; k < nc; k++) total += back[k];
    CHECK(fabs(total / (4 * EM_PI * EM_RADIUS * EM_RADIUS) - 1) < 1e-13, "area sum %g", total);
    nc_close(ncid);
    printf("wrote and read back %s: h(time=2, lev=%d, tile=6, y=%d, x=%d), lev, alpha, lon, lat, area, lon_b, lat_b\n",
           path, NZ, N, N);
    /* errors come back as messages */
    CHECK(em_nc_create(&f, "/nonexistent-dir/x.nc", N, NZ, alpha, lon, lat, area, lonb, latb, NULL, &err) == EM_EIO &&
              strstr(err.msg, "cannot create") != NULL,
          "bad path: %s", err.msg);
    CHECK(em_nc_create(&f, "/tmp/em_test_ncout_nolev.nc", N, 0, alpha, lon, lat, area, lonb, latb, NULL, &err) ==
                  EM_EINVAL &&
              strstr(err.msg, "0 levels") != NULL,
          "no levels: %s", err.msg);
    free(lon), free(lat), free(area), free(lonb), free(latb), free(h0), free(h1), free(back);
    if (em_failures) fprintf(stderr, "%d checks failed\n", em_failures);
    return em_failures != 0;
}
