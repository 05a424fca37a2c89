# A program calling the te.compute operator of upsample_nearest2x/.
# e2e: --custom-op-config=upsample_nearest2x/upsample_nearest2x.json --entry=enlarge --input=x:float32[20,24]
import numpy as np


def enlarge(x):
    return upsample_nearest2x(x) + 1
