# source: H. P. Langtangen & S. Linge, Finite Difference Computing with PDEs (Springer 2017), ch. 2 Wave Equations, "Finite Difference Methods for 2D and 3D Wave Equations"
# 2-D wave equation u_tt = c^2 (u_xx + u_yy) with a Gaussian initial pulse, fixed zero boundaries, leapfrog time stepping
import numpy as np


def laplacian(u, dx):
    lap = np.zeros_like(u)
    lap[1:-1, 1:-1] = (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2]
                       - 4.0 * u[1:-1, 1:-1]) / dx ** 2
    return lap


n = 32
c = 1.0
dx = 1.0 / (n - 1)
dt = 0.5 * dx / c
nt = 40

x = np.linspace(0.0, 1.0, n)
X, Y = np.meshgrid(x, x, indexing='ij')
u0 = np.exp(-((X - 0.5) ** 2 + (Y - 0.4) ** 2) / 0.01)
u0[0, :] = 0.0
u0[-1, :] = 0.0
u0[:, 0] = 0.0
u0[:, -1] = 0.0

# first step with zero initial velocity
u_prev = u0
u = u0 + 0.5 * (c * dt) ** 2 * laplacian(u0, dx)

for step in range(1, nt):
    u_next = 2.0 * u - u_prev + (c * dt) ** 2 * laplacian(u, dx)
    u_prev = u
    u = u_next

u_final = u
energy = 0.5 * np.sum(((u - u_prev) / dt) ** 2) * dx * dx
