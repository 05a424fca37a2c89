# source: P. Mocz, "Create Your Own N-body Simulation (With Python)" (2020), leapfrog kick-drift-kick with Plummer softening, https://github.com/pmocz/nbody-python
# Direct-summation N-body gravity for 16 bodies, kick-drift-kick leapfrog for 30 steps, plus total energy
import numpy as np

np.random.seed(42)
N = 16
G = 1.0
eps = 0.1
dt = 0.01
nsteps = 30

pos = np.random.randn(N, 3)
vel = 0.3 * np.random.randn(N, 3)
mass = 0.5 + np.random.rand(N) / N
vel -= np.sum(mass[:, None] * vel, axis=0) / mass.sum()


def accelerations(pos, mass):
    dx = pos[None, :, :] - pos[:, None, :]          # dx[i, j] = r_j - r_i
    r2 = np.sum(dx ** 2, axis=2) + eps ** 2
    inv_r3 = r2 ** -1.5
    return G * np.einsum('ij,ijk->ik', mass[None, :] * inv_r3, dx)


acc = accelerations(pos, mass)
for step in range(nsteps):
    vel += 0.5 * dt * acc
    pos += dt * vel
    acc = accelerations(pos, mass)
    vel += 0.5 * dt * acc

kinetic = 0.5 * np.sum(mass * np.sum(vel ** 2, axis=1))
dx = pos[None, :, :] - pos[:, None, :]
r = np.sqrt(np.sum(dx ** 2, axis=2) + eps ** 2)
iu = np.triu_indices(N, 1)
potential = -G * np.sum((mass[:, None] * mass[None, :] / r)[iu])
total_energy = kinetic + potential
final_pos = pos
final_vel = vel
