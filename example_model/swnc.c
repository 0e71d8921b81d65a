/* swnc.c: the shallow-water state on the whole sphere to a CF-style NetCDF file: the grid once,
 * then per record h, the eastward and northward wind and the relative vorticity at the cell
 * centres, and the time series of total mass, energy and potential enstrophy. */
#include <netcdf.h>
#include <stdio.h>
#include <string.h>

#include "sw.h"

#define SW_NC(call, what)                                      \
    do {                                                       \
        if (em_nc_status((call), what, err)) return EM_EIO;    \
    } while (0)

/* A double variable (ncout.c's), with its coordinates and cell measure when it is a record of
 * cells (4 dims). */
static em_status def(int ncid, const char *name, int nd, const int *dims, const char *units,
                     const char *long_name, const char *std, int *var, em_error *err) {
    em_status st = em_nc_def_var(ncid, name, nd, dims, units, long_name, std, var, err);
    if (st)
        return st;
    if (nd == 4) {
        SW_NC(em_nc_text_att(ncid, *var, "coordinates", "lon lat"), name);
        SW_NC(em_nc_text_att(ncid, *var, "cell_measures", "area: area"), name);
    }
    return EM_OK;
}

em_status em_sw_nc_create(em_sw_nc *f, const char *path, int n, const double *lon,
                          const double *lat, const double *area, const char *title,
                          em_error *err) {
    memset(f, 0, sizeof *f);
    f->n = n;
    int ncid, d_t, d_tile, d_y, d_x, *v = f->var;
    SW_NC(nc_create(path, NC_CLOBBER | NC_64BIT_OFFSET, &ncid), path);
    f->ncid = ncid;
    SW_NC(nc_def_dim(ncid, "time", NC_UNLIMITED, &d_t), "time");
    SW_NC(nc_def_dim(ncid, "tile", 6, &d_tile), "tile");
    SW_NC(nc_def_dim(ncid, "y", (size_t)n, &d_y), "y");
    SW_NC(nc_def_dim(ncid, "x", (size_t)n, &d_x), "x");
    int cell[3] = {d_tile, d_y, d_x}, rec[4] = {d_t, d_tile, d_y, d_x};
    em_status st;
    if ((st = def(ncid, "time", 1, &d_t, "seconds since 2000-01-01 00:00:00", "simulated time", "time",
                  &v[EM_SW_NC_TIME], err)) ||
        (st = def(ncid, "lon", 3, cell, "degrees_east", "longitude of the cell centre", "longitude",
                  &v[EM_SW_NC_LON], err)) ||
        (st = def(ncid, "lat", 3, cell, "degrees_north", "latitude of the cell centre", "latitude",
                  &v[EM_SW_NC_LAT], err)) ||
        (st = def(ncid, "area", 3, cell, "m2", "cell area", "cell_area", &v[EM_SW_NC_AREA], err)) ||
        (st = def(ncid, "h", 4, rec, "m", "fluid depth", NULL, &v[EM_SW_NC_H], err)) ||
        (st = def(ncid, "u", 4, rec, "m s-1", "eastward wind at the cell centre", "eastward_wind",
                  &v[EM_SW_NC_U], err)) ||
        (st = def(ncid, "v", 4, rec, "m s-1", "northward wind at the cell centre", "northward_wind",
                  &v[EM_SW_NC_V], err)) ||
        (st = def(ncid, "vorticity", 4, rec, "s-1", "relative vorticity of the cell",
                  "atmosphere_relative_vorticity", &v[EM_SW_NC_VORT], err)) ||
        (st = def(ncid, "mass", 1, &d_t, "m3", "total volume of fluid, sum of area h", NULL,
                  &v[EM_SW_NC_MASS], err)) ||
        (st = def(ncid, "energy", 1, &d_t, "m5 s-2", "total energy, sum of area (h |V|^2 / 2 + g h (h / 2 + hs))",
                  NULL, &v[EM_SW_NC_ENERGY], err)) ||
        (st = def(ncid, "enstrophy", 1, &d_t, "m s-2", "potential enstrophy, sum of area (zeta + f)^2 / (2 h)",
                  NULL, &v[EM_SW_NC_ENSTROPHY], err)))
        return st;
    SW_NC(em_nc_text_att(ncid, NC_GLOBAL, "Conventions", "CF-1.8"), "Conventions");
    SW_NC(em_nc_text_att(ncid, NC_GLOBAL, "title", title), "title");
    SW_NC(nc_enddef(ncid), "enddef");
    SW_NC(nc_put_var_double(ncid, v[EM_SW_NC_LON], lon), "lon");
    SW_NC(nc_put_var_double(ncid, v[EM_SW_NC_LAT], lat), "lat");
    SW_NC(nc_put_var_double(ncid, v[EM_SW_NC_AREA], area), "area");
    return EM_OK;
}

em_status em_sw_nc_write(em_sw_nc *f, double time_s, const double *const field[4],
                         const double inv[EM_SW_NINV], em_error *err) {
    size_t t = f->nt, n = (size_t)f->n, start[4] = {t, 0, 0, 0}, count[4] = {1, 6, n, n};
    static const int ids[4] = {EM_SW_NC_H, EM_SW_NC_U, EM_SW_NC_V, EM_SW_NC_VORT};
    SW_NC(nc_put_var1_double(f->ncid, f->var[EM_SW_NC_TIME], &t, &time_s), "time");
    for (int k = 0; k < 4; k++)
        SW_NC(nc_put_vara_double(f->ncid, f->var[ids[k]], start, count, field[k]), "field");
    static const int iv[EM_SW_NINV] = {EM_SW_NC_MASS, EM_SW_NC_ENERGY, EM_SW_NC_ENSTROPHY};
    for (int k = 0; k < EM_SW_NINV; k++)
        SW_NC(nc_put_var1_double(f->ncid, f->var[iv[k]], &t, &inv[k]), "invariant");
    f->nt++;
    return EM_OK;
}

em_status em_sw_nc_close(em_sw_nc *f, em_error *err) {
    SW_NC(nc_close(f->ncid), "close");
    return EM_OK;
}
