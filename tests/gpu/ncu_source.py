#!/usr/bin/env python3
"""ncu_source.py: takes Nsight Compute's source counters of some kernels (the CSV of `ncu --import
R --page source --csv --print-source sass`, FPO_GPU_SOURCE in tests/gpu/run-on-device.sh) and
the listing of the same .cu compiled here with -lineinfo (`nvdisasm --print-line-info -c`, as
for sass_loops.py; -lineinfo leaves the code as it is), gives per kernel where its warps were
sampled and its instructions executed, by source line: the .fpo lines first, then the
generated .cu's. No GPU is needed to read it.

    tests/gpu/ncu_source.py src_base_tp_step.csv x.sass [TOP]

Each section of the CSV (a kernel profiled: a header row naming "Address" and "Source", then
a row an instruction) is matched to the kernel of the listing whose instructions' opcodes it
repeats (the CSV's own kernel names are not relied on); its rows give each instruction's
counters by position. Columns are found by their words: "Warp Stall Sampling (All" (samples,
where the warps were when sampled: what the time went to), "Instructions Executed" (warp
instructions, not threads'), "stall_REASON" (the samples by what the warp waited for: each
line's three largest are shown); a column missing is shown as 0."""
import csv
import re
import sys
from collections import defaultdict

sys.path.insert(0, __import__("os").path.dirname(__file__))
import sass_loops  # noqa: E402  (the listing's reader)


def sections(path):
    """[(header, rows)] of the CSV: a header is a row with "Address" and "Source" in it."""
    out, header = [], None
    with open(path, newline="") as f:
        for row in csv.reader(l for l in f if l.startswith('"')):
            if any("Address" in c for c in row) and any(c.strip() == "Source" for c in row):
                header = row
                out.append((header, []))
            elif header and len(row) >= len(header) - 1:
                out[-1][1].append(row)
    return out


def column(header, *words):
    for i, name in enumerate(header):
        if all(w in name for w in words):
            return i
    return None


def number(row, i):
    if i is None or i >= len(row):
        return 0.0
    try:
        return float(row[i].replace(",", "") or 0)
    except ValueError:
        return 0.0


def main():
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 25
    listing = [(name, ins) for name, ins, _ in
               sass_loops.kernels(open(sys.argv[2]).read().split("\n"))]
    for header, rows in sections(sys.argv[1]):
        src = column(header, "Source")
        # the samples' stall reasons (stall_long_sb: a global or local load; stall_math: the
        # math pipe; ...), where the CSV has them
        reasons = [(i, n.strip()[len("stall_"):]) for i, n in enumerate(header)
                   if n.strip().startswith("stall_") and "Not Issued" not in n]
        samples = column(header, "Warp Stall Sampling (All")
        executed = next((i for i, n in enumerate(header) if n.strip() == "Instructions Executed"),
                        None)
        ops = [sass_loops.opcode(r[src].strip().rstrip(" ;")) if r[src].strip() else ""
               for r in rows]
        best, score = None, 0.0
        for name, ins in listing:   # the kernel whose opcodes the rows repeat
            if abs(len(ins) - len(ops)) > len(ins) // 10 + 2:
                continue
            same = sum(a == sass_loops.opcode(t) for a, (t, _) in zip(ops, ins)) / max(len(ins), 1)
            if same > score:
                best, score = (name, ins), same
        if not best or score < 0.9:
            print(f"a section of {len(rows)} instructions matches no kernel of the listing "
                  f"(best {score:.0%})")
            continue
        name, ins = best
        by = defaultdict(lambda: [0.0, 0.0])
        waits = defaultdict(lambda: defaultdict(float))   # line: reason: samples
        total = [0.0, 0.0]
        for r, (_, where) in zip(rows, ins):
            s, e = number(r, samples), number(r, executed)
            key = f"{where[0]}:{where[1]}" if where else "(no line)"
            by[key][0] += s
            by[key][1] += e
            total[0] += s
            total[1] += e
            for i, reason in reasons:
                waits[key][reason] += number(r, i)
        m = re.match(r"_Z(\d+)", name)   # a mangled name: its length, then the name
        short = name[m.end(): m.end() + int(m.group(1))] if m else name
        print(f"{short}: {len(rows)} instructions ({score:.0%} of the opcodes as here), "
              f"{total[0]:.0f} warp samples, {total[1] / 1e6:.1f} million warp instructions")
        fpo = sorted(((k, v) for k, v in by.items() if ".fpo:" in k), key=lambda kv: -kv[1][0])
        rest = sorted(((k, v) for k, v in by.items() if ".fpo:" not in k),
                      key=lambda kv: -kv[1][0])
        for what, items in ((".fpo lines", fpo), ("generated lines", rest)):
            print(f"  {what}: {'line':28s} {'samples%':>8s} {'Minst':>7s}"
                  f"{'  waiting on (share of the line)' if reasons else ''}")
            for k, (s, e) in items[:top]:
                w = sorted(waits[k].items(), key=lambda kv: -kv[1])[:3]
                w = ", ".join(f"{n} {100 * v / s:.0f} %" for n, v in w if v > 0 and s > 0)
                print(f"  {'':{len(what)}s}  {k:28s} {100 * s / max(total[0], 1):8.1f} "
                      f"{e / 1e6:7.2f}{'  ' + w if w else ''}")


if __name__ == "__main__":
    main()
