# source: Golub & Van Loan, Matrix Computations 4th ed. (2013), §8.2.1 The power method; Hamiltonian of the infinite square well discretised by central differences (Griffiths, Introduction to Quantum Mechanics 2nd ed., §2.2)
# Builds the finite-difference Hamiltonian of a particle in a box and finds its ground state by power iteration on the shifted matrix sigma*I - H
import numpy as np

n = 48                      # interior grid points
L = 1.0
dx = L / (n + 1)
hbar = 1.0
mass = 1.0
x = np.linspace(dx, L - dx, n)

t = hbar ** 2 / (2 * mass * dx ** 2)
H = (np.diag(np.full(n, 2.0 * t))
     + np.diag(np.full(n - 1, -t), k=1)
     + np.diag(np.full(n - 1, -t), k=-1))

# Gershgorin bound: all eigenvalues of H lie in [0, 4t]
sigma = 4.0 * t
A = sigma * np.eye(n) - H

np.random.seed(1)
psi = np.random.rand(n)
psi /= np.linalg.norm(psi)
for it in range(60):
    w = A @ psi
    psi = w / np.linalg.norm(w)

E0 = psi @ H @ psi
psi = psi * np.sign(psi.sum())
psi_normalised = psi / np.sqrt(dx)
E_exact = (np.pi * hbar) ** 2 / (2 * mass * L ** 2)
residual = np.linalg.norm(H @ psi - E0 * psi)
evals = np.linalg.eigvalsh(H)
