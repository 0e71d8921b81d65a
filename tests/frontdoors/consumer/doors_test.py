"""doors_test.py: program doors (doors.fpo) from Python: two runs against NumPy bit for bit, and the
exceptions for arrays that cannot be its fields. Prints 'python doors: OK'."""
import numpy as np

import doors

NX, NY, NZ = 7, 5, 3          # compute domain; one halo point around I and J
rng = np.random.default_rng(1)


def arrays():
    return {"q": np.asfortranarray(rng.random((NX + 2, NY + 2, NZ))),
            "area": np.asfortranarray(rng.random((NX + 2, NY + 2))),
            "wk": rng.random(NZ),
            "n": np.asfortranarray(rng.integers(-50, 50, (NX + 2, NY + 2, NZ), dtype=np.int32)),
            "out": np.zeros((NX + 2, NY + 2, NZ), order="F"),
            "m": np.zeros((NX + 2, NY + 2, NZ), dtype=np.int32, order="F")}


def expect(a, w, c):
    q, c0 = a["q"], (slice(1, -1), slice(1, -1))
    lap = q[:-2, 1:-1] + q[2:, 1:-1] + q[1:-1, :-2] + q[1:-1, 2:] - 4.0 * q[c0]
    return (q[c0] + w * a["area"][c0][:, :, None] * a["wk"][None, None, :] * lap,
            a["n"][c0] * np.int32(c))


a = arrays()
with doors.Program(doors.domain(NX, NY, NZ), a, origin=(1, 1, 0)) as p:
    for w, c in ((0.25, 3), (-1.5, -7)):          # opened once, run twice
        p.run(w, c)
        out, m = expect(a, w, c)
        assert np.array_equal(a["out"][1:-1, 1:-1], out), "out differs from NumPy's"
        assert np.array_equal(a["m"][1:-1, 1:-1], m), "m differs from NumPy's"
    assert p.variant == "all" and p.memory()["threads"] >= 1


def refused(kind, param, words, **change):
    """Opening with the arrays `change` replaces raises `kind`, naming `param` and `words`."""
    bad = arrays()
    bad.update(change)
    try:
        doors.Program(doors.domain(NX, NY, NZ), bad, origin=(1, 1, 0))
    except kind as e:
        assert e.param == param and "'%s'" % param in str(e), (param, str(e))
        assert all(w in str(e) for w in words), (words, str(e))
        return
    raise AssertionError("%s: no %s" % (param, kind.__name__))


good = arrays()
refused(doors.FieldError, "q", ["dtype float32", "float64"], q=good["q"].astype(np.float32))
refused(doors.FieldError, "n", ["dtype int64"], n=good["n"].astype(np.int64))
refused(doors.FieldError, "area", ["3 dimensions", "takes 2"], area=good["q"])
refused(doors.FieldError, "q", ["C order"], q=np.ascontiguousarray(good["q"]))
refused(doors.FieldError, "out", ["not contiguous"],
        out=np.zeros((2 * (NX + 2), NY + 2, NZ), order="F")[::2])
refused(doors.FieldError, "wk", ["not a NumPy array"], wk=[1.0] * NZ)
refused(doors.Error, "q", [], q=np.zeros((NX + 1, NY + 2, NZ), order="F"))   # open's check
bad = arrays()
del bad["m"]
try:
    doors.Program(doors.domain(NX, NY, NZ), bad, origin=(1, 1, 0))
    raise AssertionError("no error for a missing field")
except doors.FieldError as e:
    assert e.param == "m" and "missing" in str(e), str(e)
print("python doors: OK")
