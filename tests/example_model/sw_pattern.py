"""sw_pattern.py: a shallow-water NetCDF file (fpo_sw_reference or fpo_sw_model -f) to the
measures of its pattern at every record, and a check of the last record against bounds.
  rh:  Williamson 6 (Rossby-Haurwitz wave 4): the area-weighted correlation of h with the
       analytic initial h turned eastward by the wave's angular speed nu t,
       nu = (R (3 + R) w - 2 Omega) / ((1 + R) (2 + R)); and the phase error, the turn (mod 90
       degrees, within 45 of nu t) of best correlation less nu t, in degrees.
  jet: the Galewsky jet unperturbed: l2 of h against the first record, max |v| / max |u|
       (northward against eastward wind) over the records so far, and the amplitudes of zonal
       wavenumbers 4 and 8 of v along the jet (35 to 55 N).
usage: sw_pattern.py rh|jet FILE.nc [--min-corr C] [--max-phase DEG] [--max-l2 X]
                     [--max-ratio X] [-- COMMAND...]   (COMMAND, when given, writes FILE.nc)"""
import argparse
import subprocess
import sys

import numpy as np
import xarray

A, OMEGA, G = 6.37122e6, 7.292e-5, 9.80616   # sw.h's (em.h's) constants
W = K = 7.848e-6                              # Williamson et al. (1992), test case 6
R, H0 = 4, 8000.0
NU = (R * (3 + R) * W - 2 * OMEGA) / ((1 + R) * (2 + R))


def rh_height(lon, lat):
    """Test case 6's initial depth (m), lon and lat in radians (swgrid.c's formula)."""
    ct, c2 = np.cos(lat), np.cos(lat) ** 2
    cr = ct**R
    a = 0.5 * W * (2 * OMEGA + W) * c2 + 0.25 * K * K * cr * cr * ((R + 1) * c2 + (2 * R * R - R - 2) - 2 * R * R / c2)
    b = 2 * (OMEGA + W) * K / ((R + 1) * (R + 2)) * cr * ((R * R + 2 * R + 2) - (R + 1) ** 2 * c2)
    c = 0.25 * K * K * cr * cr * ((R + 1) * c2 - (R + 2))
    return H0 + A * A * (a + b * np.cos(R * lon) + c * np.cos(2 * R * lon)) / G


def corr(w, x, y):
    """Area-weighted correlation of x and y (weights w)."""
    x, y = x - (w * x).sum() / w.sum(), y - (w * y).sum() / w.sum()
    return (w * x * y).sum() / np.sqrt((w * x * x).sum() * (w * y * y).sum())


def rh_measures(ds):
    """(day, correlation, phase error in degrees) of every record."""
    lon, lat, w = np.radians(ds.lon.values), np.radians(ds.lat.values), ds.area.values
    rows = []
    for k in range(ds.sizes["time"]):
        t, h = float(ds.time[k]), ds.h.isel(time=k).values
        c = corr(w, h, rh_height(lon - NU * t, lat))
        best = 0.0   # degrees from nu t: to the nearest degree, then to 0.01
        for lo, hi, step in ((-45.0, 45.0, 1.0), (-1.0, 1.0, 0.01)):
            turns = best + np.arange(lo, hi, step)
            best = max(turns, key=lambda s: corr(w, h, rh_height(lon - NU * t - np.radians(s), lat)))
        rows.append((t / 86400, c, best))
    return rows


def zonal_waves(ds):
    """A function of v to the amplitudes (m/s) of zonal wavenumbers 4 and 8 along the jet: the
    cells of 35 to 55 N averaged in 2.5-degree bins of longitude, then a Fourier transform (the
    cube imprints wavenumbers 4 and 8, its fourfold symmetry about the pole)."""
    lat, lon = ds.lat.values.ravel(), ds.lon.values.ravel()
    band = (lat > 35.0) & (lat < 55.0)
    bins = (np.floor((lon[band] % 360.0) / 2.5)).astype(int)
    count = np.maximum(np.bincount(bins, minlength=144), 1)

    def waves(v):
        amp = np.abs(np.fft.rfft(np.bincount(bins, weights=v.ravel()[band], minlength=144) / count))
        return amp[4] / 72.0, amp[8] / 72.0
    return waves


def jet_measures(ds):
    """(day, l2 of h against the first record, max |v| / max |u| so far, the amplitudes of
    zonal wavenumbers 4 and 8 of v along the jet) of every record."""
    w, h0, ratio, rows = ds.area.values, ds.h.isel(time=0).values, 0.0, []
    waves = zonal_waves(ds)
    for k in range(ds.sizes["time"]):
        h, u, v = (ds[name].isel(time=k).values for name in ("h", "u", "v"))
        l2 = np.sqrt((w * (h - h0) ** 2).sum() / (w * h0**2).sum())
        ratio = max(ratio, np.abs(v).max() / np.abs(u).max())
        rows.append((float(ds.time[k]) / 86400, l2, ratio) + waves(v))
    return rows


def main(argv):
    cmd = argv[argv.index("--") + 1:] if "--" in argv else []
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("case", choices=("rh", "jet"))
    ap.add_argument("file")
    for bound in ("--min-corr", "--max-phase", "--max-l2", "--max-ratio"):
        ap.add_argument(bound, type=float)
    args = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    if cmd:
        print(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    fail = []
    with xarray.open_dataset(args.file, decode_times=False) as ds:
        if ds.sizes["time"] < 2:
            fail.append("fewer than two records")
        if args.case == "rh":
            rows = rh_measures(ds)
            print("day      correlation  phase error (deg)")
            for day, c, p in rows:
                print(f"{day:7.3f}  {c:.6f}     {p:+.2f}")
            day, c, p = rows[-1]
            if args.min_corr is not None and not c >= args.min_corr:
                fail.append(f"correlation {c:.6f} under {args.min_corr}")
            if args.max_phase is not None and not abs(p) <= args.max_phase:
                fail.append(f"phase error {p:+.2f} degrees beyond {args.max_phase}")
        else:
            rows = jet_measures(ds)
            print("day      l2 of h      max|v|/max|u|  v wave 4  v wave 8 (m/s)")
            for day, l2, r, w4, w8 in rows:
                print(f"{day:7.3f}  {l2:.4e}   {r:.4e}     {w4:8.4f}  {w8:8.4f}")
            day, l2, r = rows[-1][:3]
            if args.max_l2 is not None and not l2 <= args.max_l2:
                fail.append(f"l2 of h {l2:.4e} over {args.max_l2}")
            if args.max_ratio is not None and not r <= args.max_ratio:
                fail.append(f"max |v| / max |u| {r:.4e} over {args.max_ratio}")
        if not np.isfinite(ds.h.values).all():
            fail.append("non-finite h")
    if fail:
        print(f"sw_pattern: {args.file}: " + "; ".join(fail))
        return 1
    print(f"sw_pattern: {args.file}: day {day:.3f} within the bounds")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
