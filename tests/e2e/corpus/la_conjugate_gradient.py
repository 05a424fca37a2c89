# source: J. R. Shewchuk, An Introduction to the Conjugate Gradient Method Without the Agonizing Pain (1994), §B2 Conjugate Gradients
# Solve a symmetric positive definite system A x = b with a fixed number of conjugate gradient iterations.
import numpy as np

np.random.seed(17)
n = 48
M = np.random.randn(n, n)
A = M @ M.T / n + 0.1 * np.eye(n)
b = np.random.randn(n)

x = np.zeros(n)
r = b - A @ x
d = r.copy()
delta_new = r @ r
for i in range(6):
    q = A @ d
    alpha = delta_new / (d @ q)
    x = x + alpha * d
    r = r - alpha * q
    delta_old = delta_new
    delta_new = r @ r
    beta = delta_new / delta_old
    d = r + beta * d
