# RUN: asc-fe --emit=graph %s
import numpy as np
from pyasc import nn
x = nn.softmx(np.ones(4))
