# source: G. H. Golub and C. F. Van Loan, Matrix Computations, 4th ed. (2013), §5.2.2 Householder QR, Algorithm 5.2.1
# Householder QR factorisation of a tall matrix, accumulating Q explicitly.
import numpy as np

np.random.seed(22)
m, n = 40, 24
A = np.random.rand(m, n) + np.eye(m, n)

R = A.copy()
Q = np.eye(m)
for j in range(n):
    x = R[j:, j]
    normx = np.linalg.norm(x)
    s = -np.sign(x[0])
    u1 = x[0] - s * normx
    v = x / u1
    v[0] = 1.0
    tau = -s * u1 / normx
    R[j:, :] -= tau * np.outer(v, v @ R[j:, :])
    Q[:, j:] -= tau * np.outer(Q[:, j:] @ v, v)
