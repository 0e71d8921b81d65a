/* ncout.c: global cell arrays to a CF-style NetCDF file: the grid and the levels' alphas once,
 * then one record of h on every level per call (serial: the caller gathers to one rank first). */
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em.h"

static em_status nc_fail(em_error *err, const char *what, int rc) {
    snprintf(err->msg, sizeof err->msg, "NetCDF: %s: %s", what, nc_strerror(rc));
    return EM_EIO;
}

#define EM_NC(call, what)                                  \
    do {                                                   \
        int rc_ = (call);                                  \
        if (rc_ != NC_NOERR) return nc_fail(err, what, rc_); \
    } while (0)

static int text_att(int ncid, int var, const char *name, const char *value) {
    return nc_put_att_text(ncid, var, name, strlen(value), value);
}

/* A variable with units, long_name and (when not NULL) standard_name. */
static em_status def_var(int ncid, const char *name, int ndims, const int *dims, const char *units,
                         const char *long_name, const char *standard_name, int *var,
                         em_error *err) {
    EM_NC(nc_def_var(ncid, name, NC_DOUBLE, ndims, dims, var), name);
    EM_NC(text_att(ncid, *var, "units", units), name);
    EM_NC(text_att(ncid, *var, "long_name", long_name), name);
    if (standard_name) EM_NC(text_att(ncid, *var, "standard_name", standard_name), name);
    return EM_OK;
}

/* Write the angle array `rad` (count values) in degrees. */
static em_status put_degrees(int ncid, int var, const double *rad, size_t count, em_error *err) {
    double *deg = malloc(count * sizeof *deg);
    if (!deg) {
        snprintf(err->msg, sizeof err->msg, "em_nc_create: out of memory");
        return EM_ENOMEM;
    }
    for (size_t k = 0; k < count; k++) deg[k] = rad[k] * (180.0 / EM_PI);
    int rc = nc_put_var_double(ncid, var, deg);
    free(deg);
    return rc == NC_NOERR ? EM_OK : nc_fail(err, "writing an angle", rc);
}

static em_status create(em_ncfile *f, int n, const double *alpha, const double *lon,
                        const double *lat, const double *area, const double *lon_b,
                        const double *lat_b, const char *title, em_error *err) {
    int ncid = f->ncid, d_time, d_lev, d_tile, d_y, d_x, d_yb, d_xb, v_lev, v_alpha, v_lon, v_lat,
        v_area, v_lonb, v_latb;
    EM_NC(nc_def_dim(ncid, "time", NC_UNLIMITED, &d_time), "time");
    EM_NC(nc_def_dim(ncid, "lev", (size_t)f->nz, &d_lev), "lev");
    EM_NC(nc_def_dim(ncid, "tile", 6, &d_tile), "tile");
    EM_NC(nc_def_dim(ncid, "y", (size_t)n, &d_y), "y");
    EM_NC(nc_def_dim(ncid, "x", (size_t)n, &d_x), "x");
    EM_NC(nc_def_dim(ncid, "yb", (size_t)n + 1, &d_yb), "yb");
    EM_NC(nc_def_dim(ncid, "xb", (size_t)n + 1, &d_xb), "xb");
    int cell[3] = {d_tile, d_y, d_x}, vert[3] = {d_tile, d_yb, d_xb};
    int rec[5] = {d_time, d_lev, d_tile, d_y, d_x};
    em_status st;
    if ((st = def_var(ncid, "time", 1, &d_time, "seconds since 2000-01-01 00:00:00",
                      "simulated time", "time", &f->time_var, err)) ||
        (st = def_var(ncid, "lev", 1, &d_lev, "1", "model level (one run of test case 1 each)",
                      NULL, &v_lev, err)) ||
        (st = def_var(ncid, "alpha", 1, &d_lev, "radian",
                      "test case 1's angle between the rotation axis and the polar axis", NULL,
                      &v_alpha, err)) ||
        (st = def_var(ncid, "lon", 3, cell, "degrees_east", "longitude of the cell centre",
                      "longitude", &v_lon, err)) ||
        (st = def_var(ncid, "lat", 3, cell, "degrees_north", "latitude of the cell centre",
                      "latitude", &v_lat, err)) ||
        (st = def_var(ncid, "area", 3, cell, "m2", "area of the cell", "cell_area", &v_area,
                      err)) ||
        (st = def_var(ncid, "lon_b", 3, vert, "degrees_east", "longitude of the cell vertices",
                      NULL, &v_lonb, err)) ||
        (st = def_var(ncid, "lat_b", 3, vert, "degrees_north", "latitude of the cell vertices",
                      NULL, &v_latb, err)) ||
        (st = def_var(ncid, "h", 5, rec, "m", "height of the advected tracer (cosine bell)",
                      NULL, &f->h_var, err)))
        return st;
    EM_NC(text_att(ncid, f->h_var, "coordinates", "alpha lon lat"), "h");
    EM_NC(text_att(ncid, f->h_var, "cell_measures", "area: area"), "h");
    EM_NC(text_att(ncid, NC_GLOBAL, "Conventions", "CF-1.8"), "Conventions");
    EM_NC(text_att(ncid, NC_GLOBAL, "title", title ? title : "FPO example model"), "title");
    EM_NC(text_att(ncid, NC_GLOBAL, "grid",
                   "equiangular gnomonic cubed sphere, tiles 0..5, no longitude shift, "
                   "radius 6.37122e6 m"),
          "grid");
    EM_NC(nc_enddef(ncid), "nc_enddef");
    size_t nc = 6 * (size_t)n * (size_t)n, nv = 6 * ((size_t)n + 1) * ((size_t)n + 1);
    if ((st = put_degrees(ncid, v_lon, lon, nc, err)) ||
        (st = put_degrees(ncid, v_lat, lat, nc, err)) ||
        (st = put_degrees(ncid, v_lonb, lon_b, nv, err)) ||
        (st = put_degrees(ncid, v_latb, lat_b, nv, err)))
        return st;
    EM_NC(nc_put_var_double(ncid, v_area, area), "area");
    EM_NC(nc_put_var_double(ncid, v_alpha, alpha), "alpha");
    for (size_t k = 0; k < (size_t)f->nz; k++) {
        double lev = (double)k;
        EM_NC(nc_put_var1_double(ncid, v_lev, &k, &lev), "lev");
    }
    return EM_OK;
}

em_status em_nc_create(em_ncfile *f, const char *path, int n, int nz, const double *alpha,
                       const double *lon, const double *lat, const double *area,
                       const double *lon_b, const double *lat_b, const char *title,
                       em_error *err) {
    memset(f, 0, sizeof *f);
    f->n = n;
    f->nz = nz;
    if (n < 1 || nz < 1) {
        snprintf(err->msg, sizeof err->msg, "em_nc_create: N = %d and %d levels", n, nz);
        return EM_EINVAL;
    }
    int rc = nc_create(path, NC_CLOBBER | NC_64BIT_OFFSET, &f->ncid);
    if (rc != NC_NOERR) {
        snprintf(err->msg, sizeof err->msg, "NetCDF: cannot create %s: %s", path, nc_strerror(rc));
        return EM_EIO;
    }
    em_status st = create(f, n, alpha, lon, lat, area, lon_b, lat_b, title, err);
    if (st) {
        nc_close(f->ncid);
        remove(path);
    }
    return st;
}

em_status em_nc_write_h(em_ncfile *f, double time_s, const double *h, em_error *err) {
    size_t start[5] = {f->nt, 0, 0, 0, 0},
           count[5] = {1, (size_t)f->nz, 6, (size_t)f->n, (size_t)f->n};
    EM_NC(nc_put_var1_double(f->ncid, f->time_var, start, &time_s), "time");
    EM_NC(nc_put_vara_double(f->ncid, f->h_var, start, count, h), "h");
    f->nt++;
    return EM_OK;
}

em_status em_nc_close(em_ncfile *f, em_error *err) {
    EM_NC(nc_close(f->ncid), "nc_close");
    return EM_OK;
}
