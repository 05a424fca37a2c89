# source: N. J. Giordano & H. Nakanishi, Computational Physics 2nd ed. (2006), §2.2 Projectile motion (cannon shell with air drag, Euler method)
# Euler integration of a projectile with quadratic air drag until it returns to the ground; trajectory, range and path length
import numpy as np

g = 9.81
B2_m = 4e-3          # drag coefficient over mass (1/m)
v0 = 30.0
angle = np.deg2rad(50.0)
dt = 0.1

r = np.array([0.0, 0.0])
v = v0 * np.array([np.cos(angle), np.sin(angle)])
trajectory = [r.copy()]

while r[1] >= 0.0:
    speed = np.linalg.norm(v)
    a = np.array([0.0, -g]) - B2_m * speed * v
    r = r + v * dt
    v = v + a * dt
    trajectory.append(r.copy())

traj = np.array(trajectory)
# linear interpolation of the landing point between the last two positions
x1, y1 = traj[-2]
x2, y2 = traj[-1]
x_land = x1 - y1 * (x2 - x1) / (y2 - y1)
segments = np.sqrt(np.sum(np.diff(traj, axis=0) ** 2, axis=1))
path_length = np.cumsum(segments)
max_height = traj[:, 1].max()
