# The networks of examples/vgg_mobilenet.py in plain NumPy: convolutions as sums over kernel taps
# of window products (einsum over channels; depthwise, the window times the tap's per-channel
# weights), 2x2 max pooling as np.maximum over four strided windows. At O2 the compiler recognises
# each idiom and runs them as the pyasc.nn versions run.
# e2e: --entry=tiny --input=x:float32[1,32,32,3]
import numpy as np


def normal(shape, scale):
    """Seeded float32 values, normal with this standard deviation."""
    return np.random.randn(*shape).astype(np.float32) * np.float32(scale)


def uniform(shape, low, width=1.0):
    """Seeded float32 values uniform in [low, low + width)."""
    return np.random.rand(*shape).astype(np.float32) * np.float32(width) + np.float32(low)


def conv(x, w, stride, depthwise):
    """A k x k convolution with 'same' padding: the sum over its taps of each tap's weights times the
    window of the padded input it sees (contracted over channels, or channel by channel)."""
    k = w.shape[0]
    if k == 1:
        return x @ w[0, 0]
    n, h, wd, _ = x.shape
    p = (k - 1) // 2
    oh, ow = (h + 2 * p - k) // stride + 1, (wd + 2 * p - k) // stride + 1
    xp = np.pad(x, ((0, 0), (p, p), (p, p), (0, 0)))
    out = np.zeros((n, oh, ow, w.shape[-1]), dtype=np.float32)
    for i in range(k):
        for j in range(k):
            window = xp[:, i:i + stride * (oh - 1) + 1:stride, j:j + stride * (ow - 1) + 1:stride, :]
            out += window * w[i, j] if depthwise else np.einsum("nhwc,cf->nhwf", window, w[i, j])
    return out


def conv_bn_relu(x, cin, cout, k, stride, depthwise=False):
    """A k x k convolution ('same' padding; depthwise: one filter per channel, weights [k, k, C]), then
    batch norm as a per-channel scale and shift, then ReLU."""
    shape = (k, k, cout) if depthwise else (k, k, cin, cout)
    w = normal(shape, np.sqrt(2.0 / (k * k * (1 if depthwise else cin))))
    scale, shift = uniform((cout,), 0.5), normal((cout,), 0.1)
    return np.maximum(conv(x, w, stride, depthwise) * scale + shift, 0)


def max_pool2(x):
    """2x2 max pooling, stride 2: the maximum of the four strided windows."""
    return np.maximum(np.maximum(x[:, 0::2, 0::2, :], x[:, 0::2, 1::2, :]), np.maximum(x[:, 1::2, 0::2, :], x[:, 1::2, 1::2, :]))


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
        h = max_pool2(h)
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
