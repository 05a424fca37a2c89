# RUN: asc-fe --emit=graph %s
import numpy as np
name = f"x{1}"
