# e2e: --entry=axpy16 --input%x:float16[2048] --input=y:float16[2048]
# float16 arithmetic: Python scalars stay weak, so the result stays float16.
import numpy as np
from pyasc import Tensor, float16


def axpy16(x: Tensor[float16], y: Tensor[float16]):
    return x * 0.5 + y - 1

import numpy as np