# e2e: --entry=head --input=x:float32[1,7,7,512] --input=w:float32[512,100] --input=b:float32[100]
# e2e-also: --auto-mixed-precision=O1
# e2e-also: --auto-mixed-precision=O2
# A CNN's classifier head: a global mean pool (one launch, by columns of channels), then the dense
# layer with its bias. Under mixed precision the mean writes its result in float16 itself, so the
# matmul takes float16 operands without a cast kernel.
import numpy as np


def head(x, w, b):
    pooled = x.mean(axis=(1, 2))
    return pooled @ w + b
