#!/usr/bin/env python3
"""nc_xarray.py: runs the model command that writes FILE.nc (12 days, so the exact end state is
the start), then opens the file with xarray and checks it against what the model printed: dims,
h's shape and units, lev and alpha, each level's sum(area h) at start and end within 1e-12
relative, the start field against the cosine bell, and the end field's l1, l2, linf.

usage: nc_xarray.py N FILE.nc COMMAND...   (Debian's python3-xarray and python3-netcdf4)"""
import re
import subprocess
import sys

import numpy as np
import xarray as xr

RADIUS = 6.37122e6
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print(f"FAIL: {what}")


def bell(lon_deg, lat_deg):
    """Williamson's cosine bell: 1000 m, radius a/3, centred at (3 pi/2, 0)."""
    lon, lat = np.radians(lon_deg), np.radians(lat_deg)
    c = np.cos(lat) * np.cos(lon - 1.5 * np.pi)
    r = RADIUS * np.arccos(np.clip(c, -1.0, 1.0))
    return np.where(r < RADIUS / 3, 500.0 * (1.0 + np.cos(np.pi * r / (RADIUS / 3))), 0.0)


def rel(a, b):
    return abs(a - b) / abs(b)


def main(argv):
    n, path, cmd = int(argv[0]), argv[1], argv[2:]
    run = subprocess.run(cmd, capture_output=True, text=True)
    print(run.stdout, end="")
    if run.returncode != 0:
        print(run.stderr, file=sys.stderr)
        return 1
    norms = {int(k): (float(a), float(l1), float(l2), float(li)) for k, a, l1, l2, li in
             re.findall(r"level (\d+) alpha=([0-9.]+): l1 (\S+) l2 (\S+) linf (\S+)", run.stdout)}
    sums = {int(k): (float(s0), float(s1)) for k, s0, s1 in
            re.findall(r"level (\d+) sum\(area h\): start (\S+) end (\S+) m3", run.stdout)}
    nz = len(norms)
    check(nz >= 1 and sorted(norms) == list(range(nz)) == sorted(sums),
          f"the model printed norms of levels {sorted(norms)} and sums of {sorted(sums)}")

    ds = xr.open_dataset(path)
    print(ds)
    check(dict(ds.sizes) == {"time": 2, "lev": nz, "tile": 6, "y": n, "x": n, "yb": n + 1,
                             "xb": n + 1}, f"dims {dict(ds.sizes)}")
    h = ds["h"]
    check(h.dims == ("time", "lev", "tile", "y", "x") and h.shape == (2, nz, 6, n, n),
          f"h{h.dims} shape {h.shape}")
    check(h.attrs.get("units") == "m" and ds["area"].attrs.get("units") == "m2",
          f"units h {h.attrs.get('units')!r}, area {ds['area'].attrs.get('units')!r}")
    check("alpha" in h.coords and "lon" in h.coords and "lat" in h.coords,
          f"h's coordinates {list(h.coords)}")
    check(np.array_equal(ds["lev"].values, np.arange(nz)), f"lev {ds['lev'].values}")
    days = (ds["time"].values - ds["time"].values[0]) / np.timedelta64(86400, "s")
    check(np.allclose(days, [0.0, 12.0], rtol=0, atol=1e-9), f"time {days} days")
    area = ds["area"].values
    check(rel(area.sum(), 4 * np.pi * RADIUS**2) < 1e-13, f"total area {area.sum()}")
    start_bell = bell(ds["lon"].values, ds["lat"].values)
    for k in range(nz):
        a, l1, l2, linf = norms[k]
        hk = h.isel(lev=k)
        h0, h1 = hk.isel(time=0).values, hk.isel(time=1).values
        check(abs(float(ds["alpha"][k]) - a) < 5e-5, f"level {k}: alpha {float(ds['alpha'][k])} "
              f"printed {a}")
        s0, s1 = float((area * h0).sum()), float((area * h1).sum())
        check(rel(s0, sums[k][0]) < 1e-12 and rel(s1, sums[k][1]) < 1e-12,
              f"level {k}: sum(area h) {s0:.17e} {s1:.17e} printed {sums[k]}")
        err0 = np.abs(h0 - start_bell).max()
        check(err0 < 1e-6, f"level {k}: start differs from the bell by {err0} m")
        # after 12 days the exact solution is the start: the printed norms, from the file
        e = h1 - h0
        got = ((area * np.abs(e)).sum() / (area * np.abs(h0)).sum(),
               np.sqrt((area * e * e).sum() / (area * h0 * h0).sum()),
               np.abs(e).max() / np.abs(h0).max())
        check(all(rel(g, p) < 1e-3 for g, p in zip(got, (l1, l2, linf))) and 0 < got[1] < 1,
              f"level {k}: l1 l2 linf from the file {got}, printed {(l1, l2, linf)}")
    ds.close()
    if failures:
        print(f"nc_xarray: {len(failures)} checks failed")
        return 1
    print(f"nc_xarray: {path} read by xarray: dims, units, lev, alpha, sums, "
          f"start and end fields of {nz} levels agree with the model")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
