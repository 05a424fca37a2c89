#!/usr/bin/env python3
"""The rewrites the frontend suggests (programs/numpy_rewrites.py) compute, under NumPy, what the
functions they replace compute: np.outer, np.hypot, np.flip, np.diff, np.cov, np.roll, np.tril,
np.triu."""
import importlib.util
import os
import sys

import numpy as np

spec = importlib.util.spec_from_file_location(
    "numpy_rewrites", os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs", "numpy_rewrites.py"))
rewrites = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rewrites)

rng = np.random.default_rng(0)
x, a, b = rng.random((8, 16)), rng.random(16), rng.random(16)
want = {"outer": np.outer(a, b), "hypot": np.hypot(a, b), "flip": np.flip(a), "diff": np.diff(a), "cov": np.cov(x),
        "roll": np.roll(a, 3), "tril": np.tril(x), "triu": np.triu(x)}
failed = [name for name, got in zip(want, rewrites.f(x, a, b)) if not np.allclose(got, want[name])]
print("differ from NumPy: " + ", ".join(failed) if failed else "all rewrites equal the NumPy functions")
sys.exit(1 if failed else 0)
