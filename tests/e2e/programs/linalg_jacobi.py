# e2e: --entry=f --input=a:float32[6,6] --input=x:float32[9,4]
# np.linalg.eigh, eigvalsh and svd by cyclic Jacobi rotations (frontend/numpy_prelude.py): eigenvalues
# ascending, singular values descending, and what does not depend on the vectors' signs (which may
# differ from LAPACK's): reconstructions, absolute values, projections.
import numpy as np


def f(a, x):
    s = a + a.T
    w, v = np.linalg.eigh(s)
    upper = np.linalg.eigvalsh(np.triu(s) + np.tril(a, -1) * 7, UPLO='U')
    u, sv, vt = np.linalg.svd(x, full_matrices=False)
    wide = np.linalg.svd(x.T, compute_uv=False)
    us, ss, vts = np.linalg.svd(s)
    return (w, (v * w) @ v.T, np.abs(v), upper, sv, (u * sv) @ vt, np.abs(u @ vt), wide, ss,
            (us * ss) @ vts, np.abs(v.T @ v))
