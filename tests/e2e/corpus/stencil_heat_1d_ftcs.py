# source: Press et al., Numerical Recipes 3rd ed. (2007), §20.2 Diffusive initial value problems (explicit FTCS scheme)
# 1-D heat equation u_t = D u_xx with Dirichlet ends, explicit forward-time centred-space steps, compared with the exact solution
import numpy as np

nx = 41
L = 1.0
D = 1.0
dx = L / (nx - 1)
r = 0.4
dt = r * dx ** 2 / D
nt = 50

x = np.linspace(0.0, L, nx)
u = np.sin(np.pi * x) + 0.5 * np.sin(3.0 * np.pi * x)

for n in range(nt):
    u[1:-1] += r * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    u[0] = 0.0
    u[-1] = 0.0

t_end = nt * dt
u_exact = (np.exp(-np.pi ** 2 * D * t_end) * np.sin(np.pi * x)
           + 0.5 * np.exp(-9.0 * np.pi ** 2 * D * t_end) * np.sin(3.0 * np.pi * x))
err = np.abs(u - u_exact)
max_err = err.max()
u_final = u
