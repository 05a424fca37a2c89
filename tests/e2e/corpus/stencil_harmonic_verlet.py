# source: M. Newman, Computational Physics (2013), §8.5.3 The Verlet method
# Velocity-Verlet integration of 8 independent harmonic oscillators (different masses and spring constants), trajectory and energies
import numpy as np

np.random.seed(5)
n_osc = 8
m = 0.5 + np.random.rand(n_osc)
k = 1.0 + 2.0 * np.random.rand(n_osc)
x = np.random.randn(n_osc)
v = np.random.randn(n_osc)

dt = 0.05
nsteps = 50

E0 = 0.5 * m * v ** 2 + 0.5 * k * x ** 2
xs = np.zeros((nsteps + 1, n_osc))
vs = np.zeros((nsteps + 1, n_osc))
xs[0] = x
vs[0] = v

a = -k / m * x
for step in range(1, nsteps + 1):
    x = x + v * dt + 0.5 * a * dt ** 2
    a_new = -k / m * x
    v = v + 0.5 * (a + a_new) * dt
    a = a_new
    xs[step] = x
    vs[step] = v

E = 0.5 * m * vs ** 2 + 0.5 * k * xs ** 2
E_mean = E.mean(axis=0)
E_ratio = E_mean / E0
trajectory = xs
velocities = vs
