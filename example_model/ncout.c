/* ncout.c: cell arrays to a CF-style NetCDF file: the grid and the levels' alphas once, then
 * one record of h on every level per call. Serially from global arrays (em_nc_create), or, with
 * parallel NetCDF-4 (EM_NC_PARALLEL), every MPI rank writing its own rectangle of the sphere
 * (em_nc_create_par); both define the same dims, variables and attributes. */
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef EM_NC_PARALLEL
#include <netcdf_par.h>
#endif

#include "em.h"

em_status em_nc_status(int rc, const char *what, em_error *err) {
    if (rc == NC_NOERR)
        return EM_OK;
    snprintf(err->msg, sizeof err->msg, "NetCDF: %s: %s", what, nc_strerror(rc));
    return EM_EIO;
}

#define EM_NC(call, what)                                      \
    do {                                                       \
        if (em_nc_status((call), what, err)) return EM_EIO;    \
    } while (0)

int em_nc_text_att(int ncid, int var, const char *name, const char *value) {
    return nc_put_att_text(ncid, var, name, strlen(value), value);
}

em_status em_nc_def_var(int ncid, const char *name, int ndims, const int *dims,
                        const char *units, const char *long_name, const char *standard_name,
                        int *var, em_error *err) {
    EM_NC(nc_def_var(ncid, name, NC_DOUBLE, ndims, dims, var), name);
    EM_NC(em_nc_text_att(ncid, *var, "units", units), name);
    EM_NC(em_nc_text_att(ncid, *var, "long_name", long_name), name);
    if (standard_name) EM_NC(em_nc_text_att(ncid, *var, "standard_name", standard_name), name);
    return EM_OK;
}

/* Define the dims, variables and attributes of the file (f->ncid, f->n, f->nz) and leave
 * define mode; the variables' ids in f->var. */
static em_status define(em_ncfile *f, const char *title, em_error *err) {
    int ncid = f->ncid, n = f->n, *v = f->var, d_time, d_lev, d_tile, d_y, d_x, d_yb, d_xb;
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
    if ((st = em_nc_def_var(ncid, "time", 1, &d_time, "seconds since 2000-01-01 00:00:00",
                      "simulated time", "time", &v[EM_NC_TIME], err)) ||
        (st = em_nc_def_var(ncid, "lev", 1, &d_lev, "1", "model level (one run of test case 1 each)",
                      NULL, &v[EM_NC_LEV], err)) ||
        (st = em_nc_def_var(ncid, "alpha", 1, &d_lev, "radian",
                      "test case 1's angle between the rotation axis and the polar axis", NULL,
                      &v[EM_NC_ALPHA], err)) ||
        (st = em_nc_def_var(ncid, "lon", 3, cell, "degrees_east", "longitude of the cell centre",
                      "longitude", &v[EM_NC_LON], err)) ||
        (st = em_nc_def_var(ncid, "lat", 3, cell, "degrees_north", "latitude of the cell centre",
                      "latitude", &v[EM_NC_LAT], err)) ||
        (st = em_nc_def_var(ncid, "area", 3, cell, "m2", "area of the cell", "cell_area",
                      &v[EM_NC_AREA], err)) ||
        (st = em_nc_def_var(ncid, "lon_b", 3, vert, "degrees_east", "longitude of the cell vertices",
                      NULL, &v[EM_NC_LONB], err)) ||
        (st = em_nc_def_var(ncid, "lat_b", 3, vert, "degrees_north", "latitude of the cell vertices",
                      NULL, &v[EM_NC_LATB], err)) ||
        (st = em_nc_def_var(ncid, "h", 5, rec, "m", "height of the advected tracer (cosine bell)",
                      NULL, &v[EM_NC_H], err)))
        return st;
    EM_NC(em_nc_text_att(ncid, v[EM_NC_H], "coordinates", "alpha lon lat"), "h");
    EM_NC(em_nc_text_att(ncid, v[EM_NC_H], "cell_measures", "area: area"), "h");
    EM_NC(em_nc_text_att(ncid, NC_GLOBAL, "Conventions", "CF-1.8"), "Conventions");
    EM_NC(em_nc_text_att(ncid, NC_GLOBAL, "title", title ? title : "FPO example model"), "title");
    EM_NC(em_nc_text_att(ncid, NC_GLOBAL, "grid",
                   "equiangular gnomonic cubed sphere, tiles 0..5, no longitude shift, "
                   "radius 6.37122e6 m"),
          "grid");
    if (f->parallel) {   /* one chunk of h: a level of a tile, what a reader takes at once */
        size_t chunk[5] = {1, 1, 1, (size_t)n, (size_t)n};
        EM_NC(nc_def_var_chunking(ncid, v[EM_NC_H], NC_CHUNKED, chunk), "h's chunks");
    }
    EM_NC(nc_enddef(ncid), "nc_enddef");
    return EM_OK;
}

static em_status check_sizes(int n, int nz, em_error *err) {
    if (n >= 1 && nz >= 1) return EM_OK;
    snprintf(err->msg, sizeof err->msg, "em_nc_create: N = %d and %d levels", n, nz);
    return EM_EINVAL;
}

/* lev (0 .. nz-1) and alpha, all of them when `mine`, none otherwise (a collective call on
 * every rank of a parallel file). */
static em_status put_levels(em_ncfile *f, const double *alpha, int mine, em_error *err) {
    size_t start = 0, count = mine ? (size_t)f->nz : 0;
    double *lev = malloc((size_t)f->nz * sizeof *lev);
    if (!lev) {
        snprintf(err->msg, sizeof err->msg, "em_nc_create: out of memory");
        return EM_ENOMEM;
    }
    for (int k = 0; k < f->nz; k++) lev[k] = k;
    int rc = nc_put_vara_double(f->ncid, f->var[EM_NC_LEV], &start, &count, lev);
    free(lev);
    EM_NC(rc, "lev");
    EM_NC(nc_put_vara_double(f->ncid, f->var[EM_NC_ALPHA], &start, &count, alpha), "alpha");
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
    return em_nc_status(rc, "writing an angle", err);
}

static em_status put_global(em_ncfile *f, const double *alpha, const double *lon,
                            const double *lat, const double *area, const double *lon_b,
                            const double *lat_b, em_error *err) {
    size_t n = (size_t)f->n, nc = 6 * n * n, nv = 6 * (n + 1) * (n + 1);
    const int *v = f->var;
    em_status st;
    if ((st = put_degrees(f->ncid, v[EM_NC_LON], lon, nc, err)) ||
        (st = put_degrees(f->ncid, v[EM_NC_LAT], lat, nc, err)) ||
        (st = put_degrees(f->ncid, v[EM_NC_LONB], lon_b, nv, err)) ||
        (st = put_degrees(f->ncid, v[EM_NC_LATB], lat_b, nv, err)) ||
        (st = put_levels(f, alpha, 1, err)))
        return st;
    EM_NC(nc_put_var_double(f->ncid, v[EM_NC_AREA], area), "area");
    return EM_OK;
}

em_status em_nc_create(em_ncfile *f, const char *path, int n, int nz, const double *alpha,
                       const double *lon, const double *lat, const double *area,
                       const double *lon_b, const double *lat_b, const char *title,
                       em_error *err) {
    memset(f, 0, sizeof *f);
    f->n = n;
    f->nz = nz;
    em_status st = check_sizes(n, nz, err);
    if (st) return st;
    int rc = nc_create(path, NC_CLOBBER | NC_64BIT_OFFSET, &f->ncid);
    if (rc != NC_NOERR) {
        snprintf(err->msg, sizeof err->msg, "NetCDF: cannot create %s: %s", path, nc_strerror(rc));
        return EM_EIO;
    }
    if ((st = define(f, title, err)) ||
        (st = put_global(f, alpha, lon, lat, area, lon_b, lat_b, err))) {
        nc_close(f->ncid);
        remove(path);
    }
    return st;
}

em_status em_nc_write_h(em_ncfile *f, double time_s, const double *h, em_error *err) {
    size_t start[5] = {f->nt, 0, 0, 0, 0},
           count[5] = {1, (size_t)f->nz, 6, (size_t)f->n, (size_t)f->n};
    EM_NC(nc_put_var1_double(f->ncid, f->var[EM_NC_TIME], start, &time_s), "time");
    EM_NC(nc_put_vara_double(f->ncid, f->var[EM_NC_H], start, count, h), "h");
    f->nt++;
    return EM_OK;
}

em_status em_nc_close(em_ncfile *f, em_error *err) {
    EM_NC(nc_close(f->ncid), "nc_close");
    return EM_OK;
}

#ifdef EM_NC_PARALLEL
/* Every rank learns whether one failed: the status of the first failing rank, its message on
 * that rank. */
static em_status agree(MPI_Comm comm, em_status st, em_error *err) {
    int bad = st != EM_OK, any = 0;
    if (MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS) {
        snprintf(err->msg, sizeof err->msg, "em_nc: MPI_Allreduce failed");
        return EM_EMPI;
    }
    if (any && !bad) {
        snprintf(err->msg, sizeof err->msg, "em_nc: another rank failed");
        return EM_EIO;
    }
    return st;
}

/* Rows j0 .. j0+ny-1, columns i0 .. i0+nx-1 of g's array a, times `scale`, into out; with
 * `vert`, also the tile's last row and column of vertices where g owns the tile's edge. */
static void pack(const em_grid *g, const double *a, double scale, int vert, size_t *count,
                 double *out) {
    int ny = g->ny + (vert && g->j0 + g->ny == g->n), nx = g->nx + (vert && g->i0 + g->nx == g->n);
    size_t k = 0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) out[k++] = a[EM_AT(g, i, j)] * scale;
    count[0] = 1, count[1] = (size_t)ny, count[2] = (size_t)nx;
}

/* This rank's cells of lon, lat, area and its vertices of lon_b, lat_b (collective). */
static em_status put_part_grid(em_ncfile *f, const em_grid *g, double *buf, em_error *err) {
    static const double deg = 180.0 / EM_PI;
    struct { int var; const double *a; double scale; int vert; } parts[5] = {
        {EM_NC_LON, g->clon, deg, 0}, {EM_NC_LAT, g->clat, deg, 0}, {EM_NC_AREA, g->area, 1, 0},
        {EM_NC_LONB, g->lon, deg, 1}, {EM_NC_LATB, g->lat, deg, 1}};
    size_t start[3] = {(size_t)g->tile, (size_t)g->j0, (size_t)g->i0}, count[3];
    for (int p = 0; p < 5; p++) {
        pack(g, parts[p].a, parts[p].scale, parts[p].vert, count, buf);
        EM_NC(nc_put_vara_double(f->ncid, f->var[parts[p].var], start, count, buf), "grid");
    }
    return EM_OK;
}

static em_status create_par(em_ncfile *f, const em_grid *g, const double *alpha, int rank,
                            const char *title, em_error *err) {
    em_status st = define(f, title, err);
    for (int v = 0; !st && v < EM_NC_NVARS; v++) {
        int rc = nc_var_par_access(f->ncid, f->var[v], NC_COLLECTIVE);
        if (rc != NC_NOERR) st = em_nc_status(rc, "nc_var_par_access", err);
    }
    if (st) return st;
    size_t nb = ((size_t)g->nx + 1) * ((size_t)g->ny + 1);
    double *buf = malloc(nb * sizeof *buf);
    if ((st = agree(f->comm, buf ? EM_OK : EM_ENOMEM, err))) {
        if (!buf) snprintf(err->msg, sizeof err->msg, "em_nc_create_par: out of memory");
        free(buf);
        return st;
    }
    st = put_part_grid(f, g, buf, err);
    free(buf);
    return st ? st : put_levels(f, alpha, rank == 0, err);
}

em_status em_nc_create_par(em_ncfile *f, const char *path, MPI_Comm comm, const em_grid *g,
                           int nz, const double *alpha, const char *title, em_error *err) {
    memset(f, 0, sizeof *f);
    f->n = g->n;
    f->nz = nz;
    f->parallel = 1;
    f->comm = comm;
    em_status st = check_sizes(g->n, nz, err);
    if (st) return st;
    int rank, rc = nc_create_par(path, NC_CLOBBER | NC_NETCDF4, comm, MPI_INFO_NULL, &f->ncid);
    MPI_Comm_rank(comm, &rank);
    if (rc != NC_NOERR) {
        snprintf(err->msg, sizeof err->msg, "NetCDF: cannot create %s: %s", path, nc_strerror(rc));
        return EM_EIO;
    }
    if ((st = create_par(f, g, alpha, rank, title, err))) {
        nc_close(f->ncid);
        if (rank == 0) remove(path);
    }
    return st;
}

em_status em_nc_write_part(em_ncfile *f, double time_s, const em_grid *g, const double *h,
                           size_t np, em_error *err) {
    size_t cells = (size_t)g->nx * (size_t)g->ny;
    double *buf = malloc((size_t)f->nz * cells * sizeof *buf);
    em_status st = agree(f->comm, buf ? EM_OK : EM_ENOMEM, err);
    if (st) {
        if (!buf) snprintf(err->msg, sizeof err->msg, "em_nc_write_part: out of memory");
        free(buf);
        return st;
    }
    size_t c[3];
    for (int k = 0; k < f->nz; k++) pack(g, h + (size_t)k * np, 1.0, 0, c, buf + k * cells);
    int rank;
    MPI_Comm_rank(f->comm, &rank);
    size_t start[5] = {f->nt, 0, (size_t)g->tile, (size_t)g->j0, (size_t)g->i0},
           count[5] = {1, (size_t)f->nz, 1, (size_t)g->ny, (size_t)g->nx}, one = rank == 0;
    int rc = nc_put_vara_double(f->ncid, f->var[EM_NC_TIME], start, &one, &time_s);
    if (rc == NC_NOERR) rc = nc_put_vara_double(f->ncid, f->var[EM_NC_H], start, count, buf);
    free(buf);
    EM_NC(rc, "h");
    f->nt++;
    return EM_OK;
}
#endif
