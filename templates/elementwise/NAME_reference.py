"""NumPy reference of {{name}}: what `ascop test` compares the simulated operator with.

Run it (with pyasc's python/ on PYTHONPATH) to check the TBE-style definition against it under CPython.
"""
import numpy as np


def {{name}}(x):
    return np.maximum(x, 0).astype(x.dtype)


if __name__ == "__main__":
    import {{name}} as definition

    rng = np.random.default_rng(0)
    for shape in [(1,), (17,), (3, 130)]:
        for dtype in (np.float16, np.float32):
            x = rng.standard_normal(shape).astype(dtype)
            np.testing.assert_allclose(definition.{{name}}(x), {{name}}(x), rtol=1e-3, atol=1e-3)
    print("{{name}}: the definition matches the reference")
