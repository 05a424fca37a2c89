# source: N. Rougier, From Python to NumPy (2017), §4.2 Uniform vectorization, The Game of Life (NumPy implementation), https://www.labri.fr/perso/nrougier/from-python-to-numpy/
# Conway's Game of Life on a 32 x 32 board with dead borders, 20 generations, neighbour counts from shifted slices
import numpy as np

np.random.seed(7)
Z = (np.random.rand(32, 32) < 0.35).astype(int)
Z[0, :] = 0
Z[-1, :] = 0
Z[:, 0] = 0
Z[:, -1] = 0


def iterate(Z):
    # count neighbours
    N = (Z[0:-2, 0:-2] + Z[0:-2, 1:-1] + Z[0:-2, 2:] +
         Z[1:-1, 0:-2] + Z[1:-1, 2:] +
         Z[2:, 0:-2] + Z[2:, 1:-1] + Z[2:, 2:])
    # apply rules
    birth = (N == 3) & (Z[1:-1, 1:-1] == 0)
    survive = ((N == 2) | (N == 3)) & (Z[1:-1, 1:-1] == 1)
    Z[...] = 0
    Z[1:-1, 1:-1][birth | survive] = 1
    return Z


for generation in range(20):
    Z = iterate(Z)

board = Z
population = Z.sum()
