# source: C. M. Bishop, Pattern Recognition and Machine Learning (2006), §4.3.2 Logistic regression (cross-entropy gradient, eq. 4.91)
# Binary logistic regression fitted by 50 steps of batch gradient descent on the mean cross-entropy.
import numpy as np

np.random.seed(61)
n, d = 64, 8
X = np.random.randn(n, d)
w_true = np.random.randn(d)
y = (X @ w_true + 0.5 * np.random.randn(n) > 0).astype(float)


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


w = np.zeros(d)
b = 0.0
lr = 0.5
for step in range(50):
    p = sigmoid(X @ w + b)
    grad_w = X.T @ (p - y) / n
    grad_b = np.mean(p - y)
    w -= lr * grad_w
    b -= lr * grad_b

prob = sigmoid(X @ w + b)
loss = -np.mean(y * np.log(prob) + (1.0 - y) * np.log(1.0 - prob))
weights = w
