# source: N. Rougier, From Python to NumPy (2017), §4.2 Uniform vectorization, exercise "Reaction diffusion" (Gray-Scott model), https://www.labri.fr/perso/nrougier/from-python-to-numpy/
# Gray-Scott reaction-diffusion of species U and V on a 32 x 32 grid, 40 explicit steps from a seeded central square
import numpy as np

n = 32
Du, Dv, F, k = 0.16, 0.08, 0.035, 0.065

np.random.seed(3)
U = np.ones((n + 2, n + 2))
V = np.zeros((n + 2, n + 2))
r = 6
U[n // 2 - r:n // 2 + r, n // 2 - r:n // 2 + r] = 0.50
V[n // 2 - r:n // 2 + r, n // 2 - r:n // 2 + r] = 0.25
U += 0.05 * np.random.random((n + 2, n + 2))
V += 0.05 * np.random.random((n + 2, n + 2))

u, v = U[1:-1, 1:-1], V[1:-1, 1:-1]

for i in range(40):
    Lu = (U[0:-2, 1:-1] + U[1:-1, 0:-2] - 4 * U[1:-1, 1:-1] + U[1:-1, 2:] + U[2:, 1:-1])
    Lv = (V[0:-2, 1:-1] + V[1:-1, 0:-2] - 4 * V[1:-1, 1:-1] + V[1:-1, 2:] + V[2:, 1:-1])
    uvv = u * v * v
    u += (Du * Lu - uvv + F * (1 - u))
    v += (Dv * Lv + uvv - (F + k) * v)

U_final = U
V_final = V
