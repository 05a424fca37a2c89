# source: G. Strang, Introduction to Linear Algebra 5th ed. (2016), §4.3 Least Squares Approximations (normal equations A^T A x = A^T b)
# Ordinary least-squares fit with an intercept column, solved through the normal equations with np.linalg.solve.
import numpy as np

np.random.seed(67)
n, d = 64, 5
X = np.random.rand(n, d) * 4.0 - 2.0
beta_true = np.array([1.5, -2.0, 0.7, 3.0, -0.4])
y = 0.8 + X @ beta_true + 0.1 * np.random.randn(n)

A = np.column_stack([np.ones(n), X])
coef = np.linalg.solve(A.T @ A, A.T @ y)
fitted = A @ coef
residual = y - fitted
r2 = 1.0 - (residual ** 2).sum() / ((y - y.mean()) ** 2).sum()
