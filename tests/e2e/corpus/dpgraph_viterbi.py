# source: L. R. Rabiner, "A Tutorial on Hidden Markov Models and Selected Applications in Speech Recognition", Proc. IEEE 77(2), 1989, §III-B (Viterbi algorithm, eqs. 32-35)
# Most likely hidden state path of a 4-state HMM for 40 observations, in log space with backtracking.
import numpy as np

np.random.seed(21)
N, M, T = 4, 6, 40
A = 0.6 * np.eye(N) + 0.1 + 0.1 * np.random.rand(N, N)
A = A / A.sum(axis=1, keepdims=True)
B = np.array([[0.40, 0.30, 0.10, 0.10, 0.05, 0.05],
              [0.05, 0.35, 0.40, 0.10, 0.05, 0.05],
              [0.05, 0.05, 0.10, 0.40, 0.30, 0.10],
              [0.10, 0.05, 0.05, 0.10, 0.30, 0.40]])
pi = np.full(N, 1.0 / N)
obs = np.floor(np.random.rand(T) * M).astype(int)

logA = np.log(A)
logB = np.log(B)
delta = np.zeros((T, N))
psi = np.zeros((T, N), dtype=int)
delta[0] = np.log(pi) + logB[:, obs[0]]
for t in range(1, T):
    scores = delta[t - 1][:, None] + logA
    psi[t] = np.argmax(scores, axis=0)
    delta[t] = np.max(scores, axis=0) + logB[:, obs[t]]

path = np.zeros(T, dtype=int)
path[T - 1] = np.argmax(delta[T - 1])
for t in range(T - 2, -1, -1):
    path[t] = psi[t + 1, path[t + 1]]

best_logprob = delta[T - 1].max()
states = path
