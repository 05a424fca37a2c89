"""NumPy reference of {{name}}: what `ascop test` compares the simulated operator with.

Run it (with pyasc's python/ on PYTHONPATH) to check the TBE-style definition against it under CPython.
"""
import numpy as np


def {{name}}(a, b):
    return np.matmul(a.astype(np.float32), b.astype(np.float32)).astype(np.float16)


if __name__ == "__main__":
    import {{name}} as definition

    rng = np.random.default_rng(0)
    for m, k, n in [(1, 1, 1), (16, 16, 16), (17, 33, 130)]:
        a = rng.standard_normal((m, k)).astype(np.float16)
        b = rng.standard_normal((k, n)).astype(np.float16)
        np.testing.assert_allclose(definition.{{name}}(a, b), {{name}}(a, b), rtol=1e-2, atol=1e-2)
    print("{{name}}: the definition matches the reference")
