"""layers.py: the generator's layers point one way. Takes nm and fpo_genlib's object files,
fails (listing them) when files call each other, directly or around a longer cycle: each cycle
is one design problem (docs/design.md, section 1)."""
import os
import subprocess
import sys


def symbols(nm, obj):
    defined, used = set(), set()
    for line in subprocess.run([nm, obj], capture_output=True, text=True, check=True).stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "TDRB":
            defined.add(f[2])
        elif len(f) == 2 and f[0] == "U":
            used.add(f[1])
    return defined, used


def cycles(graph):
    """Strongly connected components of more than one file (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        x = stack.pop()
                        on.discard(x)
                        comp.append(x)
                        if x == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
            elif w not in index:
                index[w] = low[w] = counter[0]
                counter[0] += 1
                stack.append(w)
                on.add(w)
                work.append((w, iter(sorted(graph[w]))))
            elif w in on:
                low[v] = min(low[v], index[w])
    return out


def main():
    nm, objs = sys.argv[1], sys.argv[2:]
    name = {o: os.path.basename(o).split(".")[0] + ".c" for o in objs}
    syms = {o: symbols(nm, o) for o in objs}
    graph = {name[a]: {name[b] for b in objs if b != a and syms[a][1] & syms[b][0]} for a in objs}
    found = cycles(graph)
    for comp in found:
        calls = ["%s -> %s (%s)" % (name[a], name[b], ", ".join(sorted(syms[a][1] & syms[b][0])))
                 for a in objs for b in objs
                 if a != b and name[a] in comp and name[b] in comp and syms[a][1] & syms[b][0]]
        print("files that call each other: " + ", ".join(comp) + "\n  " + "\n  ".join(calls))
    edges = sum(len(v) for v in graph.values())
    print("%d files, %d calling edges, %d cycles" % (len(objs), edges, len(found)))
    sys.exit(1 if found else 0)


main()
