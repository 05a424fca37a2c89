# source: L. A. Barba, CFD Python: 12 steps to Navier-Stokes, Step 6 "2-D Convection" (08_Step_6.ipynb), https://github.com/barbagroup/CFDPython
# 2-D nonlinear convection of coupled velocity components u, v with array-sliced upwind differences
import numpy as np

nx = 41
ny = 41
nt = 40
c = 1
dx = 2 / (nx - 1)
dy = 2 / (ny - 1)
sigma = 0.2
dt = sigma * dx

x = np.linspace(0, 2, nx)
y = np.linspace(0, 2, ny)

u = np.ones((ny, nx))
v = np.ones((ny, nx))
u[int(0.5 / dy):int(1 / dy + 1), int(0.5 / dx):int(1 / dx + 1)] = 2
v[int(0.5 / dy):int(1 / dy + 1), int(0.5 / dx):int(1 / dx + 1)] = 2

for n in range(nt + 1):
    un = u.copy()
    vn = v.copy()
    u[1:, 1:] = (un[1:, 1:]
                 - (un[1:, 1:] * c * dt / dx * (un[1:, 1:] - un[1:, :-1]))
                 - vn[1:, 1:] * c * dt / dy * (un[1:, 1:] - un[:-1, 1:]))
    v[1:, 1:] = (vn[1:, 1:]
                 - (un[1:, 1:] * c * dt / dx * (vn[1:, 1:] - vn[1:, :-1]))
                 - vn[1:, 1:] * c * dt / dy * (vn[1:, 1:] - vn[:-1, 1:]))
    u[0, :] = 1
    u[-1, :] = 1
    u[:, 0] = 1
    u[:, -1] = 1
    v[0, :] = 1
    v[-1, :] = 1
    v[:, 0] = 1
    v[:, -1] = 1

u_final = u
v_final = v
