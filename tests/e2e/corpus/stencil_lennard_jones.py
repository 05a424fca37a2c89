# source: Frenkel & Smit, Understanding Molecular Simulation 2nd ed. (2002), §4.2.2 The Force Calculation (Algorithm 5, Lennard-Jones), without cut-off
# Lennard-Jones potential energy, pair forces and virial for 27 atoms on a perturbed cubic lattice (reduced units)
import numpy as np

np.random.seed(11)
epsilon = 1.0
sigma = 1.0
spacing = 1.3

g = np.arange(3) * spacing
gx, gy, gz = np.meshgrid(g, g, g, indexing='ij')
pos = np.stack([gx.ravel(), gy.ravel(), gz.ravel()], axis=1)
pos = pos + 0.05 * np.random.randn(*pos.shape)
n = pos.shape[0]

rij = pos[:, None, :] - pos[None, :, :]
r2 = np.sum(rij * rij, axis=-1)
np.fill_diagonal(r2, 1.0)               # avoid division by zero on i == j
sr2 = sigma ** 2 / r2
sr6 = sr2 ** 3
sr12 = sr6 ** 2
pair_energy = 4.0 * epsilon * (sr12 - sr6)
np.fill_diagonal(pair_energy, 0.0)
energy = 0.5 * pair_energy.sum()

# F_ij = 24 eps (2 sr12 - sr6) / r^2 * r_ij
fmag = 24.0 * epsilon * (2.0 * sr12 - sr6) / r2
np.fill_diagonal(fmag, 0.0)
forces = np.sum(fmag[:, :, None] * rij, axis=1)
virial = 0.5 * np.sum(fmag * r2)
