# RUN: pyasc --custom-op-config=unclosed_bracket.json --entry=f --input=x:float32[8] %s -o /dev/null
import numpy as np


def f(x):
    return unclosed_bracket(x)
