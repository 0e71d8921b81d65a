"""sw_against.py: the normalized errors of h in one shallow-water NetCDF file against a finer
run's file (either program's -f), Williamson et al. (1992)'s l1, l2 and linf, at the last
record of each (or at a given day), the finer file's cells averaged onto the coarser ones.
The equiangular grid nests: with N_fine = r N_coarse every coarse cell is r x r fine cells,
so the average (weighted by the fine cells' areas) is that cell's mean exactly.
usage: sw_against.py COARSE.nc FINE.nc [--day D] [--max-l2 X]
  prints: N_coarse N_fine day l1 l2 linf; with --max-l2, exits 1 when l2 is larger"""
import argparse
import sys

import numpy as np
import xarray


def record(ds, day):
    """Index of the record at `day` (the last one when day is None); its day."""
    days = ds.time.values / 86400.0   # seconds since the start (opened undecoded)
    if len(days) == 0:
        sys.exit(f"sw_against: {ds.encoding.get('source', 'a file')} has no records")
    k = len(days) - 1 if day is None else int(np.argmin(np.abs(days - day)))
    if day is not None and abs(days[k] - day) > 1e-6 * max(1.0, day):
        sys.exit(f"sw_against: no record at day {day} (nearest {days[k]:.6f})")
    return k, days[k]


def coarsen(field, area, r):
    """Area-weighted means of r x r blocks of [tile][y][x] arrays."""
    if r == 1:
        return field
    t, ny, nx = field.shape
    shape = (t, ny // r, r, nx // r, r)
    return (field * area).reshape(shape).sum(axis=(2, 4)) / area.reshape(shape).sum(axis=(2, 4))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("coarse")
    ap.add_argument("fine")
    ap.add_argument("--day", type=float)
    ap.add_argument("--max-l2", type=float)
    a = ap.parse_args()
    c = xarray.open_dataset(a.coarse, decode_times=False)
    f = xarray.open_dataset(a.fine, decode_times=False)
    nc, nf = c.sizes["x"], f.sizes["x"]
    if nf % nc:
        sys.exit(f"sw_against: N = {nf} is not a multiple of N = {nc}")
    kc, dc = record(c, a.day)
    kf, _ = record(f, dc)   # the finer file's record at the same day, or an exit
    w = c.area.values
    h = c.h.isel(time=kc).values
    ht = coarsen(f.h.isel(time=kf).values, f.area.values, nf // nc)
    l1 = (w * np.abs(h - ht)).sum() / (w * np.abs(ht)).sum()
    l2 = np.sqrt((w * (h - ht) ** 2).sum() / (w * ht**2).sum())
    linf = np.abs(h - ht).max() / np.abs(ht).max()
    print(f"N {nc} against N {nf}, day {dc:.3f}: h l1 {l1:.4e} l2 {l2:.4e} linf {linf:.4e}")
    if a.max_l2 is not None and not l2 <= a.max_l2:
        print(f"sw_against: l2 {l2:.4e} above {a.max_l2:.4e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
