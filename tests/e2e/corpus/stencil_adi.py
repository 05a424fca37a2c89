# source: PolyBench/C 4.2.1, kernel 'adi' (stencils/adi, alternating direction implicit solver, description in polybench.pdf)
# ADI time stepping of a 2-D heat problem: column then row tridiagonal (Thomas) sweeps, vectorised across lines
import numpy as np

N = 16
TSTEPS = 5

u = np.fromfunction(lambda i, j: (i + N - j) / N, (N, N))
v = np.zeros((N, N))
p = np.zeros((N, N))
q = np.zeros((N, N))

DX = 1.0 / N
DY = 1.0 / N
DT = 1.0 / TSTEPS
B1 = 2.0
B2 = 1.0
mul1 = B1 * DT / (DX * DX)
mul2 = B2 * DT / (DY * DY)
a = -mul1 / 2.0
b = 1.0 + mul1
c = a
d = -mul2 / 2.0
e = 1.0 + mul2
f = d

for t in range(1, TSTEPS + 1):
    # column sweep
    v[0, 1:N - 1] = 1.0
    p[1:N - 1, 0] = 0.0
    q[1:N - 1, 0] = v[0, 1:N - 1]
    for j in range(1, N - 1):
        denom = a * p[1:N - 1, j - 1] + b
        p[1:N - 1, j] = -c / denom
        q[1:N - 1, j] = (-d * u[j, 0:N - 2] + (1.0 + 2.0 * d) * u[j, 1:N - 1]
                         - f * u[j, 2:N] - a * q[1:N - 1, j - 1]) / denom
    v[N - 1, 1:N - 1] = 1.0
    for j in range(N - 2, 0, -1):
        v[j, 1:N - 1] = p[1:N - 1, j] * v[j + 1, 1:N - 1] + q[1:N - 1, j]
    # row sweep
    u[1:N - 1, 0] = 1.0
    p[1:N - 1, 0] = 0.0
    q[1:N - 1, 0] = u[1:N - 1, 0]
    for j in range(1, N - 1):
        denom = d * p[1:N - 1, j - 1] + e
        p[1:N - 1, j] = -f / denom
        q[1:N - 1, j] = (-a * v[0:N - 2, j] + (1.0 + 2.0 * a) * v[1:N - 1, j]
                         - c * v[2:N, j] - d * q[1:N - 1, j - 1]) / denom
    u[1:N - 1, N - 1] = 1.0
    for j in range(N - 2, 0, -1):
        u[1:N - 1, j] = p[1:N - 1, j] * u[1:N - 1, j + 1] + q[1:N - 1, j]

u_final = u
