#!/usr/bin/env python3
"""plot_h.py: an example-model NetCDF file to a PNG of h on one level at the first and the last
record, each on the unfolded cube (tiles 0, 1, 3, 4 round the equator, 2 above tile 0, 5 below
it), every tile turned so that east is right and north is up along the equator.

usage: plot_h.py FILE.nc OUT.png [--var h] [--lev K]
K defaults to the level whose alpha is nearest pi/4 (the hardest case of test case 1); a file
of the shallow-water model has one layer and no K (--var h, u, v or vorticity).
Needs Debian's python3-netcdf4 and python3-matplotlib."""
import argparse
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import netCDF4  # noqa: E402
import numpy as np  # noqa: E402

# (row, column) of each tile in the net, and how its [y, x] array is turned for display
# (rows going north, columns going east; cubed-sphere.md's tile table).
NET = {
    0: (1, 0, lambda a: a),
    1: (1, 1, lambda a: a),
    3: (1, 2, lambda a: a.T[::-1, :]),
    4: (1, 3, lambda a: a.T[::-1, :]),
    2: (2, 0, lambda a: a.T[:, ::-1]),
    5: (0, 0, lambda a: a),
}


def unfold(field):
    """field[tile, y, x] to a (3N, 4N) canvas, NaN outside the net."""
    n = field.shape[-1]
    canvas = np.full((3 * n, 4 * n), np.nan)
    for tile, (row, col, turn) in NET.items():
        canvas[row * n:(row + 1) * n, col * n:(col + 1) * n] = turn(np.asarray(field[tile]))
    return canvas


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("out")
    ap.add_argument("--var", default="h")
    ap.add_argument("--lev", type=int, help="level index (default: alpha nearest pi/4)")
    args = ap.parse_args(argv)
    with netCDF4.Dataset(args.file) as ds:
        var = ds.variables[args.var]
        time = ds.variables["time"][:] if "time" in ds.variables else np.arange(var.shape[0])
        if var.ndim == 5:  # (time, lev, tile, y, x): the transport model's levels
            alpha = np.asarray(ds.variables["alpha"][:])
            lev = int(np.argmin(np.abs(alpha - np.pi / 4))) if args.lev is None else args.lev
            if not 0 <= lev < var.shape[1]:
                ap.error(f"--lev {lev}: the file has {var.shape[1]} levels")
            first, last = np.ma.filled(var[0, lev], np.nan), np.ma.filled(var[-1, lev], np.nan)
            where = f"level {lev}, alpha = {alpha[lev]:.4f}"
        else:  # (time, tile, y, x): the shallow-water model's one layer
            first, last = np.ma.filled(var[0], np.nan), np.ma.filled(var[-1], np.nan)
            where = "one layer"
        units = getattr(var, "units", "")
        title = getattr(ds, "title", args.file)
    vmax = np.nanmax([np.nanmax(first), np.nanmax(last)])
    vmin = np.nanmin([np.nanmin(first), np.nanmin(last)])
    fig, axes = plt.subplots(1, 2, figsize=(12, 5), constrained_layout=True)
    for ax, data, t in zip(axes, (first, last), (time[0], time[-1])):
        im = ax.imshow(unfold(data), origin="lower", vmin=vmin, vmax=vmax, cmap="viridis",
                       interpolation="nearest")
        n = data.shape[-1]
        for tile, (row, col, _) in NET.items():
            ax.add_patch(plt.Rectangle((col * n - 0.5, row * n - 0.5), n, n, fill=False, lw=0.6,
                                       ec="grey"))
            ax.text(col * n + 1, row * n + 1, str(tile), color="grey", fontsize=8)
        ax.set_title(f"{args.var} at day {float(t) / 86400:.2f}")
        ax.set_axis_off()
    fig.colorbar(im, ax=axes, shrink=0.8, label=f"{args.var} ({units})")
    fig.suptitle(f"{title}\n{where}")
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out} ({where})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
