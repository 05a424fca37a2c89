# ResNet-50 v1.5 inference (NHWC, batch 1, 224x224) with pyasc.nn; resnet_tiny is the same network, smaller.
# e2e: --entry=resnet_tiny --input=x:float32[1,32,32,3]
# e2e-also: --opt-level=O1
# e2e-also: --auto-mixed-precision=O1
# e2e-also: --auto-mixed-precision=O2
import numpy as np
from pyasc import nn


def normal(shape, scale):
    """Seeded float32 weights, normal with this standard deviation."""
    return np.random.randn(*shape).astype(np.float32) * np.float32(scale)


def uniform(shape, low, width=1.0):
    """Seeded float32 values uniform in [low, low + width)."""
    return np.random.rand(*shape).astype(np.float32) * np.float32(width) + np.float32(low)


def conv_bn(x, cin, cout, k, stride, relu, gain=1.0):
    """A k x k convolution without bias, then inference batch norm (seeded statistics, gamma about
    `gain`), then ReLU."""
    w = normal((k, k, cin, cout), np.sqrt(2.0 / (k * k * cin)))
    mean, beta = normal((cout,), 0.1), normal((cout,), 0.1)
    var, gamma = uniform((cout,), 0.5), uniform((cout,), 0.5 * gain, gain)
    p = (k - 1) // 2
    h = nn.conv2d(x, w, stride=(stride, stride), padding=(p, p, p, p))
    h = nn.batch_norm(h, mean, var, gamma, beta, axis=3)
    return np.maximum(h, 0) if relu else h


def bottleneck(x, cin, width, stride):
    """1x1 reduce, 3x3 (carrying the stride, as in v1.5), 1x1 expand (its batch norm scaled down so
    that the residual sums stay in float16's range), plus the shortcut; then ReLU."""
    h = conv_bn(x, cin, width, 1, 1, True)
    h = conv_bn(h, width, width, 3, stride, True)
    h = conv_bn(h, width, width * 4, 1, 1, False, 0.2)
    shortcut = conv_bn(x, cin, width * 4, 1, stride, False) if stride != 1 or cin != width * 4 else x
    return np.maximum(h + shortcut, 0)


def resnet(x, blocks, width, classes):
    """The stem (7x7 stride 2, 3x3 max pool stride 2), four stages of bottlenecks, mean pool, classifier."""
    np.random.seed(0)
    h = conv_bn(x, 3, width, 7, 2, True)
    h = nn.max_pool2d(h, 3, stride=2, padding=1)
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
