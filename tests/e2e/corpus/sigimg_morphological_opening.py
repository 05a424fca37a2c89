# source: Gonzalez & Woods, Digital Image Processing 3rd ed., §9.2 "Erosion and dilation" and §9.3 "Opening and closing"; grey-scale version §9.6.1
# grey-scale erosion and dilation with a 3x3 square structuring element as min/max over shifted views; opening, closing, morphological gradient
import numpy as np

np.random.seed(36)
H, W = 40, 40
img = np.zeros((H, W))
img[8:30, 6:20] = 0.8
img[15:35, 22:34] = 0.5
speckle = np.random.rand(H, W) > 0.95
img = np.where(speckle, 1.0, img) + 0.01 * np.random.rand(H, W)


def erode(a):
    p = np.pad(a, 1, mode='edge')
    out = p[1:-1, 1:-1].copy()
    for dy in range(3):
        for dx in range(3):
            out = np.minimum(out, p[dy:dy + a.shape[0], dx:dx + a.shape[1]])
    return out


def dilate(a):
    p = np.pad(a, 1, mode='edge')
    shifts = [p[dy:dy + a.shape[0], dx:dx + a.shape[1]] for dy in range(3) for dx in range(3)]
    return np.max(np.stack(shifts), axis=0)


eroded = erode(img)
dilated = dilate(img)
opened = dilate(eroded)
closed = erode(dilated)
gradient = dilated - eroded
