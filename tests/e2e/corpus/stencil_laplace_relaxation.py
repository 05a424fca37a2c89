# source: L. A. Barba, CFD Python: 12 steps to Navier-Stokes, Step 9 "2-D Laplace Equation" (12_Step_9.ipynb), https://github.com/barbagroup/CFDPython
# Jacobi relaxation of the 2-D Laplace equation until the relative L1 change falls below a target (Dirichlet left/right, Neumann top/bottom)
import numpy as np


def laplace2d(p, y, dx, dy, l1norm_target):
    l1norm = 1
    pn = np.empty_like(p)

    while l1norm > l1norm_target:
        pn = p.copy()
        p[1:-1, 1:-1] = ((dy ** 2 * (pn[1:-1, 2:] + pn[1:-1, 0:-2])
                          + dx ** 2 * (pn[2:, 1:-1] + pn[0:-2, 1:-1]))
                         / (2 * (dx ** 2 + dy ** 2)))
        p[:, 0] = 0          # p = 0 at x = 0
        p[:, -1] = y         # p = y at x = 2
        p[0, :] = p[1, :]    # dp/dy = 0 at y = 0
        p[-1, :] = p[-2, :]  # dp/dy = 0 at y = 1
        l1norm = (np.sum(np.abs(p[:]) - np.abs(pn[:])) / np.sum(np.abs(pn[:])))

    return p


nx = 16
ny = 16
dx = 2 / (nx - 1)
dy = 2 / (ny - 1)

p = np.zeros((ny, nx))
x = np.linspace(0, 2, nx)
y = np.linspace(0, 1, ny)

p[:, 0] = 0
p[:, -1] = y
p[0, :] = p[1, :]
p[-1, :] = p[-2, :]

p_final = laplace2d(p, y, dx, dy, 1e-2)
