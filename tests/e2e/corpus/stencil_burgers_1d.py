# source: L. A. Barba, CFD Python: 12 steps to Navier-Stokes, Step 4 "Burgers' Equation" (05_Step_4.ipynb), https://github.com/barbagroup/CFDPython
# 1-D viscous Burgers' equation with the saw-tooth initial condition, periodic boundaries, explicit upwind/central differences
import numpy as np

nx = 64
nt = 50
nu = 0.07
dx = 2.0 * np.pi / (nx - 1)
dt = dx * nu

x = np.linspace(0.0, 2.0 * np.pi, nx)
# analytic initial condition u = -2 nu phi'/phi + 4 at t = 0
phi = np.exp(-x ** 2 / (4 * nu)) + np.exp(-(x - 2 * np.pi) ** 2 / (4 * nu))
dphi = (-x / (2 * nu) * np.exp(-x ** 2 / (4 * nu))
        - (x - 2 * np.pi) / (2 * nu) * np.exp(-(x - 2 * np.pi) ** 2 / (4 * nu)))
u = -2 * nu * dphi / phi + 4

for n in range(nt):
    un = u.copy()
    u[1:-1] = (un[1:-1] - un[1:-1] * dt / dx * (un[1:-1] - un[:-2])
               + nu * dt / dx ** 2 * (un[2:] - 2 * un[1:-1] + un[:-2]))
    u[0] = (un[0] - un[0] * dt / dx * (un[0] - un[-2])
            + nu * dt / dx ** 2 * (un[1] - 2 * un[0] + un[-2]))
    u[-1] = u[0]

# analytic solution at the final time
t = nt * dt
phi_t = (np.exp(-(x - 4 * t) ** 2 / (4 * nu * (t + 1)))
         + np.exp(-(x - 4 * t - 2 * np.pi) ** 2 / (4 * nu * (t + 1))))
dphi_t = (-(x - 4 * t) / (2 * nu * (t + 1)) * np.exp(-(x - 4 * t) ** 2 / (4 * nu * (t + 1)))
          - (x - 4 * t - 2 * np.pi) / (2 * nu * (t + 1)) * np.exp(-(x - 4 * t - 2 * np.pi) ** 2 / (4 * nu * (t + 1))))
u_analytical = -2 * nu * dphi_t / phi_t + 4
u_final = u
