#!/usr/bin/env python3
"""make_case.py: writes one extreme input of tests/extreme/ (the large ones are made at test
time rather than committed). Usage: make_case.py NAME DIR; prints the main file's path.
Each case is a function below; its docstring is what the case checks."""
import os
import sys

STENCIL = "stencil s(q: field<f64>, r: field<f64>) {\n    computation(PARALLEL) {\n%s\n    }\n}\n"
PROGRAM = "program p(q: field<f64>, r: field<f64>) {\n    s(q, r);\n}\n"


def body(stmt):
    return STENCIL % stmt + PROGRAM


def parens(n):
    """13,000 nested parentheses: refused at the limit of expression depth."""
    return body("        r = " + "(" * n + "q" + ")" * n + ";")


def parens_file(n):
    """A 16 MB file of opening parentheses after a statement's start: refused at the limit of
    expression depth after a thousand tokens, not after the file's 16 million (its tokens are
    made as the parser reaches them)."""
    return body("        r = " + "(" * n)


def unary(n):
    """13,000 unary minus signs: refused at the limit of expression depth."""
    return body("        r = " + "-" * n + "q;")


def calls(n):
    """13,000 nested builtin calls: refused at the limit of expression depth."""
    return body("        r = " + "abs(" * n + "q" + ")" * n + ";")


def ifs(n):
    """13,000 nested ifs: refused at the limit of statement depth."""
    return body("        if (q > 0.0) {" * n + " r = q; " + "}" * n)


def else_ifs(n):
    """100,000 branches of else if: refused at the limit of statement depth, at once."""
    chain = " else ".join("if (q > %d.0) { r = q; }" % i for i in range(n))
    return body("        " + chain)


def long_sum(n):
    """A sum of 20,000 terms: refused at the limit of expression depth."""
    return body("        r = " + " + ".join(["q"] * n) + ";")


def sum_ok(n):
    """A sum of 999 terms (the deepest chain allowed): generated."""
    return body("        r = " + " + ".join(["q"] * n) + ";")


def const_sum(n):
    """An external of 999 constant terms: folded at once."""
    return ("external E: i32 = " + " + ".join(["1"] * n) + ";\n"
            + body("        r = q + f64(E);"))


def external_chain(n):
    """A chain of 20,000 externals each naming the one before: valued in linear time."""
    lines = ["external E0: i32 = 1;"]
    lines += ["external E%d: i32 = E%d + 1;" % (i, i - 1) for i in range(1, n)]
    return "\n".join(lines) + "\n" + body("        r = q + f64(E%d);" % (n - 1))


def external_deep(n):
    """An external naming a later one 200 levels deep in its value: valued (the old 64-entry
    stack missed the name and refused it)."""
    return ("external E: i32 = " + "1 + (" * n + "D" + ")" * n + ";\n"
            "external D: i32 = 2;\n" + body("        r = q + f64(E);"))


def inline_deep(n):
    """A function returning an n-term sum, called as the first term of an n-term sum: the
    lowered expression is 2n levels deep (ok up to 2000, refused beyond)."""
    ret = " + ".join(["x"] * n)
    return ("function g(x: f64) -> f64 {\n    return %s;\n}\n" % ret
            + body("        if (q > 0.0) { r = g(q) + " + " + ".join(["q"] * (n - 1)) + "; }"))


def halo_many(n):
    """A halo_update of 50,000 fields (the check for a field named twice was quadratic)."""
    ps = ", ".join("g%d: field<f64>" % i for i in range(n))
    args = ", ".join("g%d" % i for i in range(n))
    return "program p(%s) {\n    halo_update(%s);\n}\n" % (ps, args)


def bind_many(n):
    """A call binding 50,000 field parameters by name (binding and the aliasing check were
    quadratic)."""
    ps = ", ".join("a%d: field<f64>" % i for i in range(n))
    args = ", ".join(["a0 = r"] + ["a%d = q" % i for i in range(1, n)])
    return ("stencil s(%s) {\n    computation(PARALLEL) { a0 = a1; }\n}\n" % ps
            + "program p(q: field<f64>, r: field<f64>) {\n    s(%s);\n}\n" % args)


def callbacks_many(n):
    """50,000 callbacks each called once (the list of callbacks called was searched per call)."""
    return ("".join("callback c%d(q: field<f64>);\n" % i for i in range(n))
            + "program p(q: field<f64>) {\n" + "".join("    c%d(q);\n" % i for i in range(n))
            + "}\n")


def many_params(n):
    """A function of 70 parameters, inlined: generated."""
    ps = ", ".join("a%d: f64" % i for i in range(n))
    args = ", ".join("q" for _ in range(n))
    return ("function f(%s) -> f64 {\n    return %s;\n}\n" % (ps, " + ".join("a%d" % i for i in range(n)))
            + body("        r = f(%s);" % args))


def many_stencils(n):
    """A valid file of 5,000 stencils and a program calling each: generated in time."""
    out = []
    for i in range(n):
        out.append("stencil s%d(q: field<f64>, r: field<f64>) {\n"
                   "    computation(PARALLEL) { r = q + %d.0; }\n}\n" % (i, i))
    out.append("program p(q: field<f64>, r: field<f64>) {\n")
    out += ["    s%d(q, r);\n" % i for i in range(n)]
    out.append("}\n")
    return "".join(out)


def many_statements(n):
    """50,000 statements writing and reading 50,000 temporaries in one PARALLEL computation."""
    stmts = ["        var t%d = q + %d.0;" % (i, i) for i in range(n)]
    stmts.append("        r = t%d;" % (n - 1))
    return body("\n".join(stmts))


def huge_source(n):
    """A 10 MB stencil of 1.4 million short statements (`r=q+r;`, five nodes each): refused
    when its nodes pass FPO_MAX_AST_NODES, before the rest is parsed or lowered."""
    return body("\n".join(["r=q+r;"] * n))


def many_temps(n):
    """20,000 temporaries written in one PARALLEL computation and read at an offset in the
    next (so they stay arrays): the optimizer's and emitters' walks over slots and accesses."""
    w = "\n".join("        var t%d = q + %d.0;" % (i, i) for i in range(n))
    r = "\n".join("        r = r + t%d[1, 0, 0];" % i for i in range(n))
    return ("stencil s(q: field<f64>, r: field<f64>) {\n    computation(PARALLEL) {\n" + w
            + "\n    }\n    computation(PARALLEL) {\n" + r + "\n    }\n}\n" + PROGRAM)


def many_stencil_temps(n):
    """20,000 stencils each with a temporary read at an I offset (so a plane, a ring of rows,
    not a scalar), all called on the same fields and fused into one group of 40,000 nests: the
    emitter's walks over a group's loops, planes and slots."""
    out = []
    for i in range(n):
        out.append("stencil s%d(q: field<f64>, r: field<f64>) {\n"
                   "    computation(PARALLEL) { var t = q + %d.0; }\n"
                   "    computation(PARALLEL) { r = r + t[1, 0, 0]; }\n}\n" % (i, i))
    out.append("program p(q: field<f64>, r: field<f64>) {\n")
    out += ["    s%d(q, r);\n" % i for i in range(n)]
    out.append("}\n")
    return "".join(out)


def many_sweeps(n):
    """5,000 stencils each a FORWARD sweep of a temporary (a ring of levels) and a PARALLEL
    computation reading it, all one column group: the column, strip and K-cache passes' walks
    over a group's nests and slots."""
    out = []
    for i in range(n):
        out.append("stencil c%d(q: field<f64>, r: field<f64>) {\n"
                   "    computation(FORWARD) {\n"
                   "        interval(bottom, bottom + 1) { var t = q; }\n"
                   "        interval(bottom + 1, top) { t = t[0, 0, -1] + q + %d.0; }\n"
                   "    }\n"
                   "    computation(PARALLEL) { r = r + t; }\n}\n" % (i, i))
    out.append("program p(q: field<f64>, r: field<f64>) {\n")
    out += ["    c%d(q, r);\n" % i for i in range(n)]
    out.append("}\n")
    return "".join(out)


def many_joins(n):
    """Stencils each a PARALLEL computation of a temporary, then a FORWARD sweep reading it,
    all one column group after a fused group, built with --enable-pass join: pass_join's
    checks of each slot against the two groups' nests."""
    out = []
    for i in range(n):
        out.append("stencil c%d(q: field<f64>, r: field<f64>) {\n"
                   "    computation(PARALLEL) { var t = q + %d.0; }\n"
                   "    computation(FORWARD) {\n"
                   "        interval(bottom, bottom + 1) { r = t; }\n"
                   "        interval(bottom + 1, top) { r = r[0, 0, -1] + t; }\n"
                   "    }\n}\n" % (i, i))
    out.append("program p(q: field<f64>, r: field<f64>) {\n")
    out += ["    c%d(q, r);\n" % i for i in range(n)]
    out.append("}\n")
    return "".join(out)


def call_chain(n):
    """300 functions each calling the next: refused at the limit of call depth."""
    out = ["function g0(x: f64) -> f64 {\n    return x;\n}\n"]
    out += ["function g%d(x: f64) -> f64 {\n    return g%d(x) + 1.0;\n}\n" % (i, i - 1)
            for i in range(1, n)]
    return "".join(out) + body("        r = g%d(q);" % (n - 1))


def inline_blowup(n):
    """40 functions each calling the next twice (2^40 copies once inlined): refused."""
    out = ["function g0(x: f64) -> f64 {\n    return x * 2.0;\n}\n"]
    out += ["function g%d(x: f64) -> f64 {\n    var a = g%d(x);\n    return a + g%d(a);\n}\n"
            % (i, i - 1, i - 1) for i in range(1, n)]
    return "".join(out) + body("        r = g%d(q);" % (n - 1))


def program_blowup(n):
    """40 programs each calling the next twice (imported): refused."""
    return ('import "programs.fpo";\n'
            "program whole(q: field<f64>, r: field<f64>) {\n    p%d(q, r);\n}\n" % (n - 1))


def program_lib(n):
    out = ["stencil s(q: field<f64>, r: field<f64>) {\n    computation(PARALLEL) { r = q; }\n}\n",
           "program p0(q: field<f64>, r: field<f64>) {\n    s(q, r);\n}\n"]
    out += ["program p%d(q: field<f64>, r: field<f64>) {\n    p%d(q, r);\n    p%d(q, r);\n}\n"
            % (i, i - 1, i - 1) for i in range(1, n)]
    return "".join(out)


def long_line(n):
    """An error at the end of a 10 MB line: reported at once, in a few short lines."""
    return body("        r = q" + " " * n + " $;")


def long_name(n):
    """A name of 10,000 characters: refused at the name."""
    return body("        var " + "x" * n + " = q;\n        r = q;")


def nul_byte(n):
    """A NUL byte in the middle of the file: refused at its place (not the end of the file)."""
    return body("        r = q;\x00 r = q;")


def all_nul(n):
    """A file of NUL bytes: refused at 1:1."""
    return "\x00" * n


def control_byte(n):
    """A form feed outside a comment: refused at its place."""
    return body("        r = q;\x0c")


def latin1(n):
    """A byte 0xe9 in a name: refused at its place (outside comments the source is ASCII)."""
    return body("        r = q\xe9;")


def utf8_comment(n):
    """UTF-8 text in comments: allowed."""
    return "// d\u00e9j\u00e0 vu \u2014 \u03c0\n/* \u00fcber */\n" + body("        r = q;")


def import_zero(n):
    """import "/dev/zero": refused at the import (not a .fpo file)."""
    return 'import "/dev/zero";\n' + body("        r = q;")


def import_zero_link(n):
    """import of zero.fpo, a link to /dev/zero: refused at the import (not a regular file)."""
    return 'import "zero.fpo";\n' + body("        r = q;")


def import_dir(n):
    """import of dir.fpo, a folder: refused at the import."""
    return 'import "dir.fpo";\n' + body("        r = q;")


def import_fifo(n):
    """import of a FIFO nobody writes: refused at once (no hang)."""
    return 'import "fifo.fpo";\n' + body("        r = q;")


def import_big(n):
    """import of a 17 MiB file: refused at the import (the size limit is 16 MiB)."""
    return 'import "big.fpo";\n' + body("        r = q;")


def import_text(n):
    """import of a file that is not .fpo (here /etc/passwd-like text): refused at the import,
    none of its lines shown."""
    return 'import "notes.txt";\n' + body("        r = q;")


def import_wide(n):
    """Five imports of 14 MB files of comments (70 MB): refused at the fifth, past the 64 MiB
    a run's sources may come to."""
    return "".join('import "wide%d.fpo";\n' % i for i in range(1, 6)) + body("        r = q;")


def import_chain(n):
    """100 files importing one another in a chain: refused at the limit of import depth."""
    return 'import "chain1.fpo";\n' + body("        r = q;")


def big_file(n):
    """A valid 10 MB file (a long comment and many externals): read in time."""
    ext = "".join("external X%d: i32 = %d;\n" % (i, i) for i in range(100000))
    pad = "// " + "x" * 1000 + "\n"
    text = ext + body("        r = q;")
    while len(text) < n:
        text = pad * 1000 + text
    return text


def name_case(name):
    """A field named like a C macro, keyword or type: refused at the name."""
    def make(n):
        return (STENCIL % ("        %s = q;" % name)).replace("r: field<f64>", "%s: field<f64>" % name) \
            + PROGRAM
    return make


def name_hypot_program(n):
    """A program named like a C library function: refused at the name."""
    return body("        r = q;").replace("program p(", "program hypot(")


def name_callback_prefix(n):
    """A callback named like the program's generated functions: refused at the callback."""
    return ("callback names_run(q: field<f64>);\n" + STENCIL % "        r = q;"
            + "program names(q: field<f64>, r: field<f64>) {\n    s(q, r);\n    names_run(q);\n}\n")


def empty_blocks(n):
    """Regions, ifs and elses with empty blocks beside the statements that write r (one in an
    else): generated, with every check --instrument compiles in (each names r's writer)."""
    return body("        region(i_start, :) { }\n"
                "        if (q > 0.0) { } else { }\n"
                "        if (q > 1.0) { } else { r = q; }\n"
                "        region(:, j_end) { if (q < 0.0) { } }\n"
                "        r = r + q;")


CASES = {
    "parens": (parens, 13000), "unary": (unary, 13000), "calls": (calls, 13000),
    "ifs": (ifs, 13000), "else_ifs": (else_ifs, 100000), "long_sum": (long_sum, 20000),
    "sum_ok": (sum_ok, 999), "const_sum": (const_sum, 999),
    "external_chain": (external_chain, 20000), "external_deep": (external_deep, 200),
    "many_params": (many_params, 70), "halo_many": (halo_many, 50000),
    "bind_many": (bind_many, 50000), "callbacks_many": (callbacks_many, 50000), "inline_deep_ok": (inline_deep, 990),
    "inline_deep": (inline_deep, 999), "many_stencils": (many_stencils, 5000),
    "many_statements": (many_statements, 50000),
    "huge_source": (huge_source, 1400000), "parens_file": (parens_file, (16 << 20) - 4096), "many_temps": (many_temps, 20000),
    "many_stencil_temps": (many_stencil_temps, 20000),
    "many_stencil_temps_cuda": (many_stencil_temps, 8000), "many_temps_cuda": (many_temps, 20000), "many_sweeps": (many_sweeps, 5000),
    "many_joins": (many_joins, 20000), "many_joins_cuda": (many_joins, 5000),
    "call_chain": (call_chain, 300),
    "inline_blowup": (inline_blowup, 40), "program_blowup": (program_blowup, 40),
    "long_line": (long_line, 10 << 20), "long_name": (long_name, 10000),
    "nul_byte": (nul_byte, 0), "all_nul": (all_nul, 4096), "control_byte": (control_byte, 0),
    "latin1": (latin1, 0), "utf8_comment": (utf8_comment, 0), "import_zero": (import_zero, 0),
    "import_dir": (import_dir, 0), "import_zero_link": (import_zero_link, 0), "import_fifo": (import_fifo, 0),
    "import_big": (import_big, 0), "import_text": (import_text, 0),
    "import_chain": (import_chain, 100), "import_wide": (import_wide, 14 << 20),
    "big_file": (big_file, 10 << 20),
    "name_hypot_program": (name_hypot_program, 0),
    "name_callback_prefix": (name_callback_prefix, 0), "empty_blocks": (empty_blocks, 0),
}
for _n in ["NULL", "EOF", "NAN", "INFINITY", "HUGE_VAL", "M_PI", "CHAR_BIT", "unix", "linux",
           "errno", "stdin", "assert", "int8_t", "alignas", "omp_x", "true"]:
    CASES["name_" + _n] = (name_case(_n), 0)


def main():
    name, d = sys.argv[1], sys.argv[2]
    os.makedirs(d, exist_ok=True)
    fn, n = CASES[name]
    main_path = os.path.join(d, name + ".fpo")
    text = fn(n)
    with open(main_path, "wb") as f:
        f.write(text.encode("utf-8") if name == "utf8_comment" else text.encode("latin-1"))
    if name == "import_fifo":
        fifo = os.path.join(d, "fifo.fpo")
        if not os.path.exists(fifo):
            os.mkfifo(fifo)
    if name == "import_zero_link" and not os.path.lexists(os.path.join(d, "zero.fpo")):
        os.symlink("/dev/zero", os.path.join(d, "zero.fpo"))
    if name == "import_dir":
        os.makedirs(os.path.join(d, "dir.fpo"), exist_ok=True)
    if name == "import_big":
        with open(os.path.join(d, "big.fpo"), "wb") as f:
            f.truncate(17 << 20)
    if name == "import_text":
        with open(os.path.join(d, "notes.txt"), "w") as f:
            f.write("root:x:0:0:root:/root:/bin/bash\n")
    if name == "program_blowup":
        with open(os.path.join(d, "programs.fpo"), "w") as f:
            f.write(program_lib(n))
    if name == "import_wide":
        line = "// " + "x" * 1020 + "\n"
        for i in range(1, 6):
            with open(os.path.join(d, "wide%d.fpo" % i), "w") as f:
                f.write(line * (n // len(line)))
    if name == "import_chain":
        for i in range(1, n + 1):
            with open(os.path.join(d, "chain%d.fpo" % i), "w") as f:
                f.write('import "chain%d.fpo";\n' % (i + 1) if i < n else "")
    print(main_path)


if __name__ == "__main__":
    main()
