# source: M. Newman, Computational Physics (2013), §8.1.3 Fourth-order Runge-Kutta and §8.3 Second-order differential equations (nonlinear pendulum)
# Damped nonlinear pendulum theta'' = -gamma theta' - (g/L) sin(theta), integrated with classical RK4 for 50 steps
import numpy as np

g = 9.81
L = 1.0
gamma = 0.5


def f(y, t):
    theta = y[0]
    omega = y[1]
    return np.array([omega, -gamma * omega - (g / L) * np.sin(theta)], float)


a = 0.0
b = 5.0
N = 50
h = (b - a) / N

tpoints = np.arange(a, b, h)
theta_points = []
omega_points = []

y = np.array([np.pi * 0.75, 0.0], float)
for t in tpoints:
    theta_points.append(y[0])
    omega_points.append(y[1])
    k1 = h * f(y, t)
    k2 = h * f(y + 0.5 * k1, t + 0.5 * h)
    k3 = h * f(y + 0.5 * k2, t + 0.5 * h)
    k4 = h * f(y + k3, t + h)
    y += (k1 + 2 * k2 + 2 * k3 + k4) / 6

theta = np.array(theta_points)
omega = np.array(omega_points)
y_final = y
