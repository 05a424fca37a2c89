# source: Gonzalez & Woods, Digital Image Processing 3rd ed., §2.4.4 "Image interpolation" (bilinear interpolation, Eq. 2.4-6)
# bilinear upscaling of a 24x20 image to 48x40 by fancy indexing of the four neighbours (align-corners convention)
import numpy as np

np.random.seed(24)
h, w = 24, 20
small = np.random.rand(h, w) * 0.2 + np.outer(np.linspace(0, 1, h), np.linspace(1, 0, w))
H, W = 48, 40

ys = np.linspace(0, h - 1, H)
xs = np.linspace(0, w - 1, W)
y0 = np.floor(ys).astype(int)
x0 = np.floor(xs).astype(int)
y1 = np.minimum(y0 + 1, h - 1)
x1 = np.minimum(x0 + 1, w - 1)
wy = (ys - y0)[:, None]
wx = (xs - x0)[None, :]

Ia = small[y0[:, None], x0[None, :]]
Ib = small[y0[:, None], x1[None, :]]
Ic = small[y1[:, None], x0[None, :]]
Id = small[y1[:, None], x1[None, :]]
resized = (Ia * (1 - wy) * (1 - wx) + Ib * (1 - wy) * wx
           + Ic * wy * (1 - wx) + Id * wy * wx)
