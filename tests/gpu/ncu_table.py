#!/usr/bin/env python3
"""ncu_table.py: takes the CSV of `ncu --csv --metrics ...` (tests/gpu/run-on-device.sh), gives
one line per kernel: launches, mean time, DRAM bytes and bandwidth, registers, warps active."""
import csv
import sys
from collections import defaultdict

rows = defaultdict(lambda: defaultdict(list))
order = []
with open(sys.argv[1], newline="") as f:
    lines = [l for l in f if l.startswith('"')]   # ncu's own messages are not CSV
for r in csv.DictReader(lines):
    key = r["Kernel Name"].split("(")[0]
    if key not in rows:
        order.append(key)
    try:
        rows[key][r["Metric Name"]].append(float(r["Metric Value"].replace(",", "")))
    except ValueError:
        pass
total = 0.0
print(f"{'kernel':40s} {'n':>4s} {'us':>9s} {'MB':>9s} {'GB/s':>7s} {'regs':>5s} {'warps%':>7s}")
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
    print(f"{k[:40]:40s} {n:4d} {us:9.1f} {mb:9.2f} {mb / us * 1e3 if us else 0:7.0f} "
          f"{regs:5.0f} {sum(w) / len(w):7.1f}")
print(f"sum of the kernels' mean times: {total:.1f} us")
