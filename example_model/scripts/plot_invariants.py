#!/usr/bin/env python3
"""plot_invariants.py: a shallow-water NetCDF file (fpo_sw_reference or fpo_sw_model -f) to a PNG
of the relative drift (x(t) - x(0)) / x(0) of its total mass, energy and potential enstrophy over
time, one panel each.

usage: plot_invariants.py FILE.nc OUT.png
Needs Debian's python3-netcdf4 and python3-matplotlib."""
import argparse
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import netCDF4  # noqa: E402
import numpy as np  # noqa: E402

SERIES = ("mass", "energy", "enstrophy")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("out")
    args = ap.parse_args(argv)
    with netCDF4.Dataset(args.file) as ds:
        day = np.asarray(ds.variables["time"][:]) / 86400.0
        drift = {}
        for name in SERIES:
            x = np.asarray(ds.variables[name][:], dtype=float)
            drift[name] = (x - x[0]) / x[0]
        title = getattr(ds, "title", args.file)
    fig, axes = plt.subplots(len(SERIES), 1, figsize=(7, 6), sharex=True, constrained_layout=True)
    for ax, name in zip(axes, SERIES):
        big = float(np.abs(drift[name]).max())
        ax.plot(day, drift[name], marker="." if len(day) < 30 else None)
        ax.axhline(0.0, color="grey", lw=0.6)
        if big == 0.0:  # exact (mass): a scale of round-off, not matplotlib's default
            ax.set_ylim(-1e-15, 1e-15)
        ax.text(0.01, 0.05, f"largest |drift| {big:.2e}", transform=ax.transAxes, fontsize=9)
        ax.set_ylabel(f"{name}\nrelative drift")
        ax.ticklabel_format(axis="y", style="sci", scilimits=(-2, 2))
        ax.grid(alpha=0.3)
        print(f"{name}: relative drift at day {day[-1]:.2f} {drift[name][-1]:+.3e}, "
              f"largest {drift[name][np.argmax(np.abs(drift[name]))]:+.3e}")
    axes[-1].set_xlabel("day")
    fig.suptitle(title)
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
