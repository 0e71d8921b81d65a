#!/usr/bin/env python3
"""ncu_table.py: takes the CSV of `ncu --csv --metrics ...` (tests/gpu/run-on-device.sh), gives
one line per kernel: launches, mean time, DRAM bytes and bandwidth, registers, warps active,
and where measured the warp instructions issued (millions), the busiest of the SM's units
and of L1 / shared memory, in per cent of their peak (an SM% near 100 says issue-bound), and
the share of L2 sectors that hit (L2hit%). The hand-written chain's kernels (chain_hand.cu)
get a line for each block shape."""
import csv
import sys
from collections import defaultdict

rows = defaultdict(lambda: defaultdict(list))
order = []
with open(sys.argv[1], newline="") as f:
    lines = [l for l in f if l.startswith('"')]   # ncu's own messages are not CSV
for r in csv.DictReader(lines):
    key = r["Kernel Name"].split("(")[0]
    if key.startswith("chain_hand"):   # the hand-written chain, once for each block shape
        key += " " + r.get("Block Size", "").replace(" ", "")
    if key not in rows:
        order.append(key)
    try:
        rows[key][r["Metric Name"]].append(float(r["Metric Value"].replace(",", "")))
    except ValueError:
        pass
total = 0.0
print(f"{'kernel':40s} {'n':>4s} {'us':>9s} {'MB':>9s} {'GB/s':>7s} {'regs':>5s} {'warps%':>7s} "
      f"{'Minst':>7s} {'SM%':>5s} {'L1%':>5s} {'L2hit%':>6s}")
for k in order:
    m = rows[k]
    t = m.get("gpu__time_duration.sum", [0])
    n = len(t)
    us = sum(t) / n / 1e3 if n else 0   # ns
    b = m.get("dram__bytes.sum", [0])
    mb = sum(b) / len(b) / 1e6 if b else 0
    regs = m.get("launch__registers_per_thread", [0])[0]
    w = m.get("sm__warps_active.avg.pct_of_peak_sustained_active", [0])
    total += us

    def mean(name, scale=1.0):
        v = m.get(name)
        return f"{sum(v) / len(v) * scale:.1f}" if v else "-"

    print(f"{k[:40]:40s} {n:4d} {us:9.1f} {mb:9.2f} {mb / us * 1e3 if us else 0:7.0f} "
          f"{regs:5.0f} {sum(w) / len(w):7.1f} {mean('sm__inst_executed.sum', 1e-6):>7s} "
          f"{mean('sm__throughput.avg.pct_of_peak_sustained_elapsed'):>5s} "
          f"{mean('l1tex__throughput.avg.pct_of_peak_sustained_elapsed'):>5s} "
          f"{mean('lts__t_sector_hit_rate.pct'):>6s}")
print(f"sum of the kernels' mean times: {total:.1f} us")
