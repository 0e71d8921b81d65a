"""sw_xarray.py: runs the shallow-water reference or model on test case 5 writing NetCDF (-f)
and reads the file with xarray: dims, units, the mass series against sum(area h) of every record
and the printed drift, and the first record's winds and vorticity against the case's analytic
flow; with --same REF.nc, also every variable of the file against REF.nc's, bit for bit.
usage: sw_xarray.py [--same REF.nc] N FILE.nc COMMAND... (COMMAND writes FILE.nc)"""
import subprocess
import sys

import numpy as np
import xarray

args = sys.argv[1:]
ref = None
if args[:1] == ["--same"]:
    ref, args = args[1], args[2:]
n, path, cmd = int(args[0]), args[1], args[2:]
out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
print(out)
ds = xarray.open_dataset(path)
fail = []


def check(ok, what):
    if not ok:
        fail.append(what)


check(dict(ds.sizes) == {"time": ds.sizes["time"], "tile": 6, "y": n, "x": n}, f"dims {dict(ds.sizes)}")
check(ds.sizes["time"] >= 2, "fewer than two records")
for name, units in [("h", "m"), ("u", "m s-1"), ("v", "m s-1"), ("vorticity", "s-1"), ("area", "m2"),
                    ("lon", "degrees_east"), ("lat", "degrees_north"), ("mass", "m3")]:
    check(ds[name].attrs.get("units") == units, f"{name} units {ds[name].attrs.get('units')}")
check(ds.attrs.get("Conventions") == "CF-1.8", "Conventions")
area = ds.area.values
check(abs(area.sum() / (4 * np.pi * 6.37122e6**2) - 1) < 1e-12, "the cells' area is not the sphere's")
# the mass series is sum(area h) of each record, and constant to round-off
for k in range(ds.sizes["time"]):
    m = float((ds.area * ds.h.isel(time=k)).sum())
    check(abs(m / float(ds.mass[k]) - 1) < 1e-12, f"record {k}: sum(area h) {m} against mass {float(ds.mass[k])}")
m0 = float(ds.mass[0])
check(float(abs(ds.mass - m0).max()) / m0 < 1e-13, "mass drifts")
# the first record: test case 5's zonal flow u = 20 cos(lat), v = 0, zeta = 40 sin(lat) / a
lat = np.radians(ds.lat.values)
u0 = ds.u.isel(time=0).values
v0 = ds.v.isel(time=0).values
z0 = ds.vorticity.isel(time=0).values
check(np.abs(u0 - 20 * np.cos(lat)).max() < 0.05 * 20, f"u against 20 cos(lat): {np.abs(u0 - 20 * np.cos(lat)).max()}")
check(np.abs(v0).max() < 0.05 * 20, f"v against 0: {np.abs(v0).max()}")
zx = 40 * np.sin(lat) / 6.37122e6
check(np.abs(z0 - zx).max() < 0.1 * np.abs(zx).max(), f"vorticity against 40 sin(lat) / a: {np.abs(z0 - zx).max()}")
check(np.isfinite(ds.h.values).all() and np.isfinite(ds.vorticity.values).all(), "non-finite values")
# the same variables as REF.nc, their attributes and their bits (a NaN equals only itself)
if ref is not None:
    with xarray.open_dataset(ref, decode_times=False) as r, xarray.open_dataset(path, decode_times=False) as f:
        check(sorted(r.variables) == sorted(f.variables), f"variables {sorted(f.variables)}, {ref}'s {sorted(r.variables)}")
        for name in r.variables:
            if name not in f.variables:
                continue
            a, b = r[name], f[name]
            check(a.dims == b.dims and a.attrs == b.attrs, f"{name}: dims or attributes differ from {ref}'s")
            same = a.shape == b.shape and np.array_equal(a.values.view(np.uint64), b.values.view(np.uint64))
            check(same, f"{name}: not bit for bit {ref}'s")
        if not fail:
            print(f"sw_xarray: {path}: every variable bit for bit {ref}'s")
if fail:
    print("sw_xarray: " + "; ".join(fail))
    sys.exit(1)
print(f"sw_xarray: {path}: {ds.sizes['time']} records, mass, winds and vorticity as expected")
