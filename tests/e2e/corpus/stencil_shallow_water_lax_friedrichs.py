# source: R. J. LeVeque, Finite Volume Methods for Hyperbolic Problems (2002), §4.6 The Lax-Friedrichs method and §13.1 The shallow water equations
# 1-D shallow-water dam break with the Lax-Friedrichs scheme, CFL-limited time step, transmissive boundaries
import numpy as np

g = 9.81
nx = 64
L = 1.0
dx = L / nx
x = (np.arange(nx) + 0.5) * dx
cfl = 0.45
nsteps = 40

h = np.where(x < 0.5, 2.0, 1.0)
hu = np.zeros(nx)
q = np.vstack([h, hu])          # conserved variables, shape (2, nx)


def flux(q):
    h = q[0]
    u = q[1] / h
    return np.vstack([h * u, h * u ** 2 + 0.5 * g * h ** 2])


t = 0.0
for n in range(nsteps):
    u = q[1] / q[0]
    smax = np.max(np.abs(u) + np.sqrt(g * q[0]))
    dt = cfl * dx / smax
    # ghost cells: zero-order extrapolation
    qg = np.hstack([q[:, :1], q, q[:, -1:]])
    F = flux(qg)
    q = 0.5 * (qg[:, 2:] + qg[:, :-2]) - dt / (2 * dx) * (F[:, 2:] - F[:, :-2])
    t += dt

h_final = q[0]
u_final = q[1] / q[0]
t_final = t
