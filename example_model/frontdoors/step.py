"""step.py: the example model's time step from Python: em_step through its Python module
(em_step.py, NumPy arrays), the setup (grid, decomposition, winds) and h's fingerprint from
the C library fpo_example_host (host.h). Same command line as fpo_example_model (-n -z -d -s);
run on 6 ranks: mpiexec -n 6 python3 step.py -n 24 -d 1, with PYTHONPATH holding em_step.py and
EM_HOST naming libfpo_example_host.so."""
import argparse
import ctypes
import os

import numpy as np

args = argparse.ArgumentParser()
for flag, kind, default in (("-n", int, 24), ("-z", int, 5), ("-d", float, 12.0), ("-s", int, 0)):
    args.add_argument(flag, type=kind, default=default)
o = args.parse_args()

host = ctypes.CDLL(os.environ["EM_HOST"], mode=ctypes.RTLD_GLOBAL)   # MPI's symbols for all
vp, cint = ctypes.c_void_p, ctypes.c_int
for name, argtypes, restype in (
        ("em_host_new", [cint, cint, ctypes.c_double, cint], vp),
        ("em_host_steps", [vp], cint), ("em_host_shape", [vp, vp], None),
        ("em_host_domain", [vp, vp], None), ("em_host_decomp", [vp], vp),
        ("em_host_array", [vp, ctypes.c_char_p], ctypes.POINTER(ctypes.c_double)),
        ("em_host_finish", [vp], cint)):
    getattr(host, name).argtypes, getattr(host, name).restype = argtypes, restype
h = host.em_host_new(o.n, o.z, o.d, o.s)
if not h:
    raise SystemExit(1)

import em_step   # noqa: E402 (after MPI is up: the module loads the program's library)

shape = (ctypes.c_int * 4)()
host.em_host_shape(h, shape)
sx, sy, nz, halo = shape
dom = em_step.Domain()
host.em_host_domain(h, ctypes.byref(dom))


def array(name):
    """The host's array as a NumPy array indexed [i, j, k] (or [i, j]), I fastest: no copy."""
    dims = (sx, sy, nz) if name in ("q", "crx", "cry", "xfx", "yfx") else (sx, sy)
    flat = np.ctypeslib.as_array(host.em_host_array(h, name.encode()), shape=(np.prod(dims),))
    return flat.reshape(dims, order="F")


arrays = {name: array(name) for name, _, _ in em_step.FIELDS}
with em_step.Program(dom, arrays, origin=(halo, halo, 0), halo=host.em_host_decomp(h)) as step:
    for _ in range(host.em_host_steps(h)):
        step.run()
raise SystemExit(host.em_host_finish(h))
