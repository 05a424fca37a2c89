# source: U. Kang, C. E. Tsourakakis, C. Faloutsos, "PEGASUS: A Peta-Scale Graph Mining System", ICDM 2009, §IV connected components (HCC: min label over neighbours)
# Connected-component labels of an undirected graph by iterating min over neighbour labels a fixed number of times.
import numpy as np

np.random.seed(37)
n = 48
block = np.floor(np.random.rand(n) * 4)
same_block = block[:, None] == block[None, :]
A = (np.random.rand(n, n) < 0.25) & same_block
A = A | A.T
np.fill_diagonal(A, False)

labels = np.arange(n)
for _ in range(12):
    neighbour_min = np.where(A, labels[None, :], n).min(axis=1)
    labels = np.minimum(labels, neighbour_min)

n_components = np.unique(labels).size
component = labels
