# source: D. V. Schroeder, An Introduction to Thermal Physics (2000), §8.2 The Ising Model of a Ferromagnet (1-D chain, periodic)
# Energy, magnetisation, single-flip energy changes and Boltzmann-weighted averages for a batch of fixed 1-D Ising spin configurations
import numpy as np

np.random.seed(2024)
n_conf = 32
N = 64
J = 1.0
h = 0.1
beta = 0.4

spins = np.where(np.random.rand(n_conf, N) < 0.6, 1, -1)

neighbours = np.roll(spins, -1, axis=1)
energy = -J * np.sum(spins * neighbours, axis=1) - h * np.sum(spins, axis=1)
magnetisation = spins.mean(axis=1)

# energy change for flipping each spin individually
left = np.roll(spins, 1, axis=1)
right = np.roll(spins, -1, axis=1)
delta_E = 2 * J * spins * (left + right) + 2 * h * spins

weights = np.exp(-beta * (energy - energy.min()))
Z = weights.sum()
mean_energy = np.sum(weights * energy) / Z
mean_abs_mag = np.sum(weights * np.abs(magnetisation)) / Z
