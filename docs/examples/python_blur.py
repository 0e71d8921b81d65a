"""python_blur.py: docs/frontdoors.md's Python example (its first ten lines), program blur of
blur.fpo (README.md's, W = 0.25) for 100 steps, then the same steps in NumPy, bit for bit."""
import numpy as np, blur                      # blur.py and libblur.so, built with PYTHON
nx, ny, nz = 64, 64, 10
q = np.asfortranarray(np.random.rand(nx + 2, ny + 2, nz))    # [i, j, k], I fastest, halo 1
out = np.zeros_like(q, order="F")
with blur.Program(blur.domain(nx, ny, nz), {"q": q, "out": out}, origin=(1, 1, 0)) as p:
    for step in range(100):
        p.run()                                # the scalar parameters, in order, if any
        q, out = out, q
        p.bind({"q": q, "out": out}, origin=(1, 1, 0))

# the same in NumPy, from the same start: two buffers, swapped after each step
a = np.asfortranarray(np.random.default_rng(0).random((nx + 2, ny + 2, nz)))
b = np.zeros_like(a, order="F")
q, out = a.copy(order="F"), b.copy(order="F")
with blur.Program(blur.domain(nx, ny, nz), {"q": q, "out": out}, origin=(1, 1, 0)) as p:
    for step in range(100):
        p.run()
        q, out = out, q
        p.bind({"q": q, "out": out}, origin=(1, 1, 0))
        c = a[1:-1, 1:-1]
        b[1:-1, 1:-1] = (1.0 - 0.25) * c + 0.25 * 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] +
                                                          a[1:-1, :-2] + a[1:-1, 2:])
        a, b = b, a
assert np.array_equal(q, a) and np.array_equal(out, b), "blur differs from NumPy"
print("python blur: OK")
