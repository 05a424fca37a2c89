# RUN: pyasc %s -o /dev/null
# A program without outputs compiles (an empty model) with a warning.
import numpy as np

n = 3
