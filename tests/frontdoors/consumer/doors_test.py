"""doors_test.py: program doors (doors.fpo) from Python: two runs against NumPy bit for bit, and the
exceptions for arrays that cannot be its fields. Prints 'python doors: OK'. With --device, the
arrays are CUDA arrays (__cuda_array_interface__) over NumPy's memory, for a build whose CUDA
back end is emulated (its device memory is host memory): the program runs on the CUDA back
end, and CUDA arrays that cannot be fields are refused (prints 'python doors (CUDA arrays):
OK')."""
import sys

import numpy as np

import doors

DEVICE = "--device" in sys.argv[1:]


class CudaArray:
    """A NumPy array's memory described by __cuda_array_interface__ (version 3), as CuPy,
    Numba and PyTorch describe theirs; `strides` None says C order, as theirs may."""

    def __init__(self, a, strides=True, readonly=False, stream=None):
        self.a, self.strides, self.readonly, self.stream = a, strides, readonly, stream

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.a.shape, "typestr": self.a.dtype.str, "version": 3,
                "data": (self.a.ctypes.data, self.readonly),
                "strides": self.a.strides if self.strides else None, "stream": self.stream}


def fields(a):
    """The arrays as the program takes them: CUDA arrays with --device."""
    return {n: CudaArray(x) for n, x in a.items()} if DEVICE else a

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
with doors.Program(doors.domain(NX, NY, NZ), fields(a), origin=(1, 1, 0)) as p:
    for w, c in ((0.25, 3), (-1.5, -7)):          # opened once, run twice
        p.run(w, c)
        p.wait()
        out, m = expect(a, w, c)
        assert np.array_equal(a["out"][1:-1, 1:-1], out), "out differs from NumPy's"
        assert np.array_equal(a["m"][1:-1, 1:-1], m), "m differs from NumPy's"
    assert p.variant == "all" and p.memory()["threads"] >= 1
    assert p.backend == ("cuda" if DEVICE else "c"), p.backend
    assert p.stream is None   # the C back end's, and an emulated CUDA back end's


def refused(kind, param, words, backend=None, **change):
    """Opening with the arrays `change` replaces raises `kind`, naming `param` and `words`."""
    bad = fields(arrays())
    bad.update(change)
    try:
        doors.Program(doors.domain(NX, NY, NZ), bad, origin=(1, 1, 0), backend=backend)
    except kind as e:
        assert e.param == param and "'%s'" % param in str(e), (param, str(e))
        assert all(w in str(e) for w in words), (words, str(e))
        return
    raise AssertionError("%s: no %s" % (param, kind.__name__))


good = arrays()
if DEVICE:
    cuda = CudaArray
    refused(doors.FieldError, "q", ["dtype float32", "float64"],
            q=cuda(good["q"].astype(np.float32)))
    refused(doors.FieldError, "area", ["3 dimensions", "takes 2"], area=cuda(good["q"]))
    refused(doors.FieldError, "q", ["C order"], q=cuda(np.ascontiguousarray(good["q"])))
    refused(doors.FieldError, "q", ["C order"],
            q=cuda(np.ascontiguousarray(good["q"]), strides=False))
    refused(doors.FieldError, "out", ["not contiguous"],
            out=cuda(np.zeros((2 * (NX + 2), NY + 2, NZ), order="F")[::2]))
    refused(doors.FieldError, "m", ["read-only"], m=cuda(good["m"], readonly=True))
    refused(doors.Error, "q", ["'q' is in host memory", "CUDA back end"], q=good["q"])
    refused(doors.Error, "q", ["'q' is in device memory", "C back end"], backend="c")
    refused(doors.Error, "q", [], q=cuda(np.zeros((NX + 1, NY + 2, NZ), order="F")))
    # streams: CuPy's (.ptr), PyTorch's (.cuda_stream), Numba's (.handle, a c_void_p), an
    # integer; anything else refused before open
    import ctypes
    cupy_s, torch_s, numba_s = (type("S", (), {k: v}) for k, v in
                                (("ptr", 4096), ("cuda_stream", 8192),
                                 ("handle", ctypes.c_void_p(12288))))
    assert [doors._stream_handle(s) for s in (cupy_s, torch_s, numba_s, 7, None)] == \
        [4096, 8192, 12288, 7, None]
    try:
        doors.Program(doors.domain(NX, NY, NZ), fields(arrays()), origin=(1, 1, 0), stream="s0")
        raise AssertionError("a string taken as a stream")
    except TypeError as e:
        assert "stream is a str" in str(e), str(e)
    with doors.Program(doors.domain(NX, NY, NZ), fields(arrays()), origin=(1, 1, 0),
                       stream=cupy_s) as p:   # (the emulated back end orders nothing by it)
        p.run(0.5, 2)
    # the streams the arrays' interfaces name: each followed once (after) at open and at
    # bind, in the order of the program's fields; 0 (ambiguous in the interface) refused
    # before open
    refused(doors.FieldError, "area", ["stream is 0", "never 0"],
            area=cuda(good["area"], stream=0))
    followed = []
    real_after = doors.Program.after
    doors.Program.after = lambda self, s: (followed.append(s), real_after(self, s))
    streamed = fields(arrays())
    streamed["q"].stream, streamed["out"].stream, streamed["m"].stream = 4096, 1, 4096
    with doors.Program(doors.domain(NX, NY, NZ), streamed, origin=(1, 1, 0)) as p:
        assert followed == [4096, 1], followed
        streamed["area"].stream = 2
        p.bind(streamed, origin=(1, 1, 0))
        assert followed == [4096, 1, 4096, 2, 1], followed
        p.after(cupy_s)
        assert followed[-1] is cupy_s
    doors.Program.after = real_after
    # a 1D array in C order (strides None) is in Fortran order too
    assert doors._field("wk", "f64", "K", CudaArray(good["wk"], strides=False), (0, 0, 0))[0].space
    print("python doors (CUDA arrays): OK")
    sys.exit(0)
refused(doors.FieldError, "q", ["dtype float32", "float64"], q=good["q"].astype(np.float32))
refused(doors.FieldError, "n", ["dtype int64"], n=good["n"].astype(np.int64))
refused(doors.FieldError, "area", ["3 dimensions", "takes 2"], area=good["q"])
refused(doors.FieldError, "q", ["C order"], q=np.ascontiguousarray(good["q"]))
refused(doors.FieldError, "out", ["not contiguous"],
        out=np.zeros((2 * (NX + 2), NY + 2, NZ), order="F")[::2])
refused(doors.FieldError, "wk", ["not a NumPy array or a CUDA array"], wk=[1.0] * NZ)
refused(doors.Error, "q", [], q=np.zeros((NX + 1, NY + 2, NZ), order="F"))   # open's check
bad = arrays()
del bad["m"]
try:
    doors.Program(doors.domain(NX, NY, NZ), bad, origin=(1, 1, 0))
    raise AssertionError("no error for a missing field")
except doors.FieldError as e:
    assert e.param == "m" and "missing" in str(e), str(e)
print("python doors: OK")
