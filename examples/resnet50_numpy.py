# ResNet-50 v1.5 inference (NHWC, batch 1, 224x224) in plain NumPy: convolutions as sums over kernel
# taps of einsum over shifted, strided windows, max pooling as np.maximum over windows, batch norm
# as a per-channel scale and shift; resnet_tiny is the same network, smaller. At O2 the compiler
# recognises each idiom (pyasc info lists them) and runs the network as examples/resnet50.py does.
# e2e: --entry=resnet_tiny --input=x:float32[1,32,32,3]
# e2e-also: --auto-mixed-precision=O2
import numpy as np


def normal(shape, scale):
    """Seeded float32 values, normal with this standard deviation."""
    return np.random.randn(*shape).astype(np.float32) * np.float32(scale)


def uniform(shape, low, width=1.0):
    """Seeded float32 values uniform in [low, low + width)."""
    return np.random.rand(*shape).astype(np.float32) * np.float32(width) + np.float32(low)


def conv(x, w, stride):
    """A k x k convolution with 'same' padding (k - 1) // 2: the sum over its taps of each tap's
    weights times the window of the padded input it sees."""
    k = w.shape[0]
    if k == 1:
        return x[:, ::stride, ::stride, :] @ w[0, 0] if stride > 1 else x @ w[0, 0]
    n, h, wd, _ = x.shape
    p = (k - 1) // 2
    oh, ow = (h + 2 * p - k) // stride + 1, (wd + 2 * p - k) // stride + 1
    xp = np.pad(x, ((0, 0), (p, p), (p, p), (0, 0)))
    out = np.zeros((n, oh, ow, w.shape[3]), dtype=np.float32)
    for i in range(k):
        for j in range(k):
            window = xp[:, i:i + stride * (oh - 1) + 1:stride, j:j + stride * (ow - 1) + 1:stride, :]
            out += np.einsum("nhwc,cf->nhwf", window, w[i, j])
    return out


def conv_bn(x, cin, cout, k, stride, relu, gain=1.0):
    """A k x k convolution without bias, then inference batch norm as a per-channel scale (about
    `gain`) and shift, then ReLU."""
    w = normal((k, k, cin, cout), np.sqrt(2.0 / (k * k * cin)))
    scale, shift = uniform((cout,), 0.5 * gain, gain), normal((cout,), 0.1)
    h = conv(x, w, stride) * scale + shift
    return np.maximum(h, 0) if relu else h


def max_pool(x):
    """3x3 max pooling, stride 2, padding 1: the maximum over the nine windows of the input padded
    with -inf."""
    n, h, w, c = x.shape
    oh, ow = (h - 1) // 2 + 1, (w - 1) // 2 + 1
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), constant_values=-np.inf)
    out = np.full((n, oh, ow, c), -np.inf, dtype=np.float32)
    for i in range(3):
        for j in range(3):
            out = np.maximum(out, xp[:, i:i + 2 * (oh - 1) + 1:2, j:j + 2 * (ow - 1) + 1:2, :])
    return out


def bottleneck(x, cin, width, stride):
    """1x1 reduce, 3x3 (carrying the stride, as in v1.5), 1x1 expand (its scale about 0.2, so that
    the residual sums stay in float16's range), plus the shortcut; then ReLU."""
    h = conv_bn(x, cin, width, 1, 1, True)
    h = conv_bn(h, width, width, 3, stride, True)
    h = conv_bn(h, width, width * 4, 1, 1, False, 0.2)
    shortcut = conv_bn(x, cin, width * 4, 1, stride, False) if stride != 1 or cin != width * 4 else x
    return np.maximum(h + shortcut, 0)


def resnet(x, blocks, width, classes):
    """The stem (7x7 stride 2, 3x3 max pool stride 2), four stages of bottlenecks, mean pool, classifier."""
    np.random.seed(0)
    h = conv_bn(x, 3, width, 7, 2, True)
    h = max_pool(h)
    cin = width
    for stage, count in enumerate(blocks):
        w = width * 2 ** stage
        for b in range(count):
            h = bottleneck(h, cin, w, 2 if b == 0 and stage > 0 else 1)
            cin = w * 4
    pooled = h.mean(axis=(1, 2))
    return pooled @ normal((cin, classes), np.sqrt(1.0 / cin)) + normal((classes,), 0.01)


def resnet50(x):
    """ResNet-50 v1.5: x is [1, 224, 224, 3]; 1000 logits."""
    return resnet(x, (3, 4, 6, 3), 64, 1000)


def resnet_tiny(x):
    """Two bottlenecks in the first stage (the second with the identity shortcut), one in the others,
    width 8, 10 classes: x is [1, 32, 32, 3]."""
    return resnet(x, (2, 1, 1, 1), 8, 10)
