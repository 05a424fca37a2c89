# source: scikit-image API documentation, skimage.color.rgb2gray (Y = 0.2125 R + 0.7154 G + 0.0721 B); Gonzalez & Woods, Digital Image Processing 3rd ed., §3.2.3 power-law (gamma) transformations
# RGB image to luminance by a weighted sum over the channel axis, followed by gamma correction s = c * r**gamma
import numpy as np

np.random.seed(1)
H, W = 48, 64
yy, xx = np.mgrid[0:H, 0:W]
rgb = np.empty((H, W, 3))
rgb[..., 0] = xx / (W - 1)
rgb[..., 1] = yy / (H - 1)
rgb[..., 2] = 0.5 + 0.5 * np.sin(xx / 6.0) * np.cos(yy / 5.0)
rgb = np.clip(rgb + 0.05 * np.random.rand(H, W, 3), 0.0, 1.0)

weights = np.array([0.2125, 0.7154, 0.0721])
gray = rgb @ weights

gamma = 0.4
c = 1.0
corrected = c * gray ** gamma
darkened = gray ** 2.5
