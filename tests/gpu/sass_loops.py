#!/usr/bin/env python3
"""sass_loops.py: takes the machine code of a compiled kernel file (`nvdisasm --print-line-info`
of a cubin built with -lineinfo), gives per kernel its instructions and, for each loop of it
(a branch back), the loop's instructions, the .fpo statement lines in it, and its loads,
stores and floating-point operations; a loop the compiler unrolled shows twice, the one-point
remainder beside the unrolled body. No GPU is needed: this reads what a thread runs per point.

    nvcc -O3 -arch=sm_90 --fmad=false -lineinfo -cubin -I<gen dir> -Iruntime -o x.cubin x.cu
    nvdisasm --print-line-info -c x.cubin > x.sass      # CUDA's nvdisasm, or PyPI's
    tests/gpu/sass_loops.py x.sass [KERNEL-SUBSTRING]   # nvidia-cuda-nvdisasm

Each kernel ends with the sum, over its loops' sets of .fpo lines, of the smallest loop of
each set: what a point of each nest costs, a nest's two loops (a segment's column loop and
its general one) and an unrolled loop's remainder counted once, and so also the nests of a
stencil called again with the same statements. A loop around other loops (a segment
kernel's levels, --cuda-levels) is listed with what a round of it costs besides them, not
summed. Compile the segments' point loops one point an iteration first for a figure that
does not depend on the compiler's unrolling:
    sed 's/^\( *\)for (int fpo_t = /\1_Pragma("unroll 1") for (int fpo_t = /;
         s/^\( *\)for (int j = fpo_c /\1_Pragma("unroll 1") for (int j = fpo_c /' x.cu > u1.cu
"""
import re
import sys
from collections import Counter

KINDS = {"LDG": "ldg", "STG": "stg", "LDS": "lds", "STS": "sts", "LD": "ldg", "ST": "stg"}


def kernels(lines):
    """(name, [(op, (file, line))...], {label: index}) for each function of the listing."""
    name, ins, labels, where = None, [], {}, None
    for l in lines:
        m = re.match(r"^\.text\.(\S+):$", l)
        if m:
            if name:
                yield name, ins, labels
            name, ins, labels, where = m.group(1), [], {}, None
            continue
        if name is None:
            continue
        m = re.match(r'\s*//## File "(.*)", line (\d+)', l)
        if m:
            where = (m.group(1).rsplit("/", 1)[-1], int(m.group(2)))
            continue
        m = re.match(r"^(\.L_x_\d+):", l)
        if m:
            labels[m.group(1)] = len(ins)
            continue
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;", l)
        if m:
            ins.append((m.group(1), where))
    if name:
        yield name, ins, labels


def opcode(text):
    words = text.split()
    op = words[1] if words[0].startswith("@") else words[0]
    return op.split(".")[0]


def main():
    lines = open(sys.argv[1]).read().split("\n")
    want = sys.argv[2] if len(sys.argv) > 2 else ""
    for name, ins, labels in kernels(lines):
        if want not in name or not ins:
            continue
        print(f"{name}: {len(ins)} instructions")
        point = {}   # per set of .fpo lines: its smallest loop (one point, where unrolled too)
        loops = []   # (first, last) instruction of each loop, a branch back
        for idx, (text, _) in enumerate(ins):
            m = re.search(r"BRA\s+`?\(?(\.L_x_\d+)", text)
            if m and labels.get(m.group(1), idx + 1) <= idx:
                loops.append((labels[m.group(1)], idx))
        for first, last in loops:
            body = ins[first: last + 1]
            # a loop around others (a segment kernel's levels): what each of its rounds costs
            # besides the loops inside it, not a point
            inner = [(a, b) for a, b in loops if first <= a and b <= last and (a, b) != (first, last)]
            if inner:
                own = len(body) - sum(b - a + 1 for a, b in inner
                                      if not any(c <= a and b <= d and (c, d) != (a, b)
                                                 for c, d in inner))
                print(f"  loop of {len(body):4d} around {len(inner)} loops: {own} "
                      "instructions a round besides them")
                continue
            ops = Counter(opcode(t) for t, _ in body)
            kinds = Counter()
            for op, n in ops.items():
                kinds[KINDS.get(op, "fp" if op[0] in "DFH" and op not in ("FSEL", "FSETP")
                                else "int/other")] += n
            stmts = sorted({w for _, w in body if w and w[0].endswith(".fpo")},
                           key=lambda w: w[1])
            if stmts:
                key = tuple(stmts)
                point[key] = min(point.get(key, len(body)), len(body))
            where = ", ".join(f"{f}:{n}" for f, n in stmts) or "(no .fpo line)"
            print(f"  loop of {len(body):4d}: " +
                  " ".join(f"{k} {kinds[k]}" for k in ("ldg", "stg", "lds", "sts", "fp", "int/other")
                           if kinds[k]) + f"  [{where}]")
        if point:
            print(f"  a point of each loop with statements: {sum(point.values())} instructions")


if __name__ == "__main__":
    main()
