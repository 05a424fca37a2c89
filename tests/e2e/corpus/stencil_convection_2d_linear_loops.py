# source: L. A. Barba, CFD Python: 12 steps to Navier-Stokes, Step 5 "2-D Linear Convection" (07_Step_5.ipynb, nested-loop version), https://github.com/barbagroup/CFDPython
# 2-D linear convection of a square hat with first-order upwind differences, written with nested Python loops
import numpy as np

nx = 16
ny = 16
nt = 10
c = 1.0
dx = 2.0 / (nx - 1)
dy = 2.0 / (ny - 1)
sigma = 0.2
dt = sigma * dx

x = np.linspace(0, 2, nx)
y = np.linspace(0, 2, ny)

u = np.ones((ny, nx))
u[int(0.5 / dy):int(1 / dy + 1), int(0.5 / dx):int(1 / dx + 1)] = 2

for n in range(nt + 1):
    un = u.copy()
    row, col = u.shape
    for j in range(1, row):
        for i in range(1, col):
            u[j, i] = (un[j, i] - (c * dt / dx * (un[j, i] - un[j, i - 1]))
                       - (c * dt / dy * (un[j, i] - un[j - 1, i])))
    u[0, :] = 1
    u[-1, :] = 1
    u[:, 0] = 1
    u[:, -1] = 1

u_final = u
