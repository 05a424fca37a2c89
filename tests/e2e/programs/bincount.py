# e2e: --entry=f --input=labels:int32[300] --input=w:float32[300] --input=img:float32[24,20]
# np.bincount with minlength (the number of bins): counts of class labels, weighted sums per label,
# and a histogram of quantised levels as image code computes one (the values lie below minlength).
import numpy as np


def f(labels, w, img):
    classes = labels % 7
    levels = (np.clip(img, 0.0, 0.999) * 16).astype(np.int64)
    return (np.bincount(classes, minlength=7), np.bincount(classes, weights=w, minlength=9),
            np.bincount(levels.ravel(), minlength=16))
