# RUN: asc-fe --emit=graph %s
import os
import numpy as np
