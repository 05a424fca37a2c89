# A VGG-style and a MobileNet-style (v1, depthwise separable) network, NHWC, batch 1, with pyasc.nn;
# examples/vgg_mobilenet_numpy.py is the same networks in plain NumPy. Weights from np.random.seed(0).
# e2e: --entry=tiny --input=x:float32[1,32,32,3]
import numpy as np
from pyasc import nn


def normal(shape, scale):
    """Seeded float32 values, normal with this standard deviation."""
    return np.random.randn(*shape).astype(np.float32) * np.float32(scale)


def uniform(shape, low, width=1.0):
    """Seeded float32 values uniform in [low, low + width)."""
    return np.random.rand(*shape).astype(np.float32) * np.float32(width) + np.float32(low)


def conv_bn_relu(x, cin, cout, k, stride, depthwise=False):
    """A k x k convolution ('same' padding; depthwise: one filter per channel), then batch norm as a
    per-channel scale and shift, then ReLU."""
    w = normal((k, k, 1 if depthwise else cin, cout), np.sqrt(2.0 / (k * k * (1 if depthwise else cin))))
    scale, shift = uniform((cout,), 0.5), normal((cout,), 0.1)
    p = (k - 1) // 2
    h = nn.conv2d(x, w, stride=(stride, stride), padding=(p, p, p, p), groups=cin if depthwise else 1)
    return np.maximum(h * scale + shift, 0)


def classifier(h, cin, classes):
    pooled = h.mean(axis=(1, 2))
    return pooled @ normal((cin, classes), np.sqrt(1.0 / cin)) + normal((classes,), 0.01)


def vgg(x, stages, classes):
    """Stages of (width, count) 3x3 convolutions, each closed by 2x2 max pooling; mean pool, classifier."""
    np.random.seed(0)
    h, cin = x, x.shape[3]
    for width, count in stages:
        for _ in range(count):
            h = conv_bn_relu(h, cin, width, 3, 1)
            cin = width
        h = nn.max_pool2d(h, 2, stride=2)
    return classifier(h, cin, classes)


def mobilenet(x, width, blocks, classes):
    """A 3x3 stride-2 stem, then depthwise separable blocks (3x3 depthwise, 1x1 pointwise) with
    (output channels, stride) from `blocks`; mean pool, classifier."""
    np.random.seed(0)
    h = conv_bn_relu(x, x.shape[3], width, 3, 2)
    cin = width
    for cout, stride in blocks:
        h = conv_bn_relu(h, cin, cin, 3, stride, depthwise=True)
        h = conv_bn_relu(h, cin, cout, 1, 1)
        cin = cout
    return classifier(h, cin, classes)


MOBILENET_BLOCKS = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2)] + [(512, 1)] * 5 + [(1024, 2), (1024, 1)]


def vgg16(x):
    """VGG-16's thirteen 3x3 convolutions in five stages (64 to 512 channels): x is [1, 224, 224, 3]."""
    return vgg(x, ((64, 2), (128, 2), (256, 3), (512, 3), (512, 3)), 1000)


def mobilenet_v1(x):
    """MobileNet v1 (width 1.0): x is [1, 224, 224, 3]."""
    return mobilenet(x, 32, MOBILENET_BLOCKS, 1000)


def vgg_tiny(x):
    """Two stages of two convolutions, 8 and 16 channels, 10 classes: x is [1, 32, 32, 3]."""
    return vgg(x, ((8, 2), (16, 2)), 10)


def mobilenet_tiny(x):
    """Width 8, three blocks, 10 classes: x is [1, 32, 32, 3]."""
    return mobilenet(x, 8, [(16, 1), (32, 2), (32, 1)], 10)


def tiny(x):
    """Both reduced networks' logits: x is [1, 32, 32, 3]."""
    return vgg_tiny(x), mobilenet_tiny(x)
