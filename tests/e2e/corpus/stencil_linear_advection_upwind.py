# source: L. A. Barba, CFD Python: 12 steps to Navier-Stokes, Step 1 "1-D Linear Convection" (01_Step_1.ipynb), https://github.com/barbagroup/CFDPython
# 1-D linear advection u_t + c u_x = 0 of a hat function with the first-order upwind (forward Euler, backward difference) scheme
import numpy as np

nx = 41
dx = 2.0 / (nx - 1)
nt = 25
dt = 0.025
c = 1.0

u = np.ones(nx)
u[int(0.5 / dx):int(1 / dx + 1)] = 2.0

un = np.ones(nx)
for n in range(nt):
    un = u.copy()
    for i in range(1, nx):
        u[i] = un[i] - c * dt / dx * (un[i] - un[i - 1])

u_final = u
