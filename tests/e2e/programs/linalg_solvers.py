# e2e: --entry=f --input=a:float32[6,6] --input=b:float32[6] --input=c:float32[6,3]
# np.linalg's solvers (frontend/numpy_prelude.py): Gaussian elimination with partial pivoting for
# solve, inv and det, Cholesky's factor of a positive definite matrix, and matrix powers.
import numpy as np


def f(a, b, c):
    dominant = a + 6 * np.eye(6)
    spd = a @ a.T + 6 * np.eye(6)
    pivoting = np.roll(dominant, 2, axis=0)  # the largest entries off the diagonal: rows swap
    return (np.linalg.solve(dominant, b), np.linalg.solve(pivoting, c), np.linalg.inv(spd), np.linalg.det(pivoting),
            np.linalg.det(a[:3, :3] - 0.5), np.linalg.cholesky(spd), np.linalg.matrix_power(a / 3, 3))
