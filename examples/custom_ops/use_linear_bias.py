# A two-layer perceptron whose layers are the custom linear_bias operator of linear_bias/.
# e2e: --custom-op-config=linear_bias/linear_bias.json --entry=mlp --input=x:float16[64,96] --input=w1:float16[96,128] --input=b1:float16[128] --input=w2:float16[128,32] --input=b2:float16[32]
import numpy as np


def mlp(x, w1, b1, w2, b2):
    h = np.maximum(linear_bias(x, w1, b1), 0)
    return linear_bias(h, w2, b2)
