# e2e: --entry=f --input=a:float32[10] --input=m:float32[6,7] --input=k:int32[5]
# NumPy's integer-array indexing by selection: index arrays computed at run time (argsort, argmax,
# labels from floats), broadcast together, negative, beside slices and integers, and one-hot rows.
import numpy as np


def f(a, m, k):
    order = np.argsort(a)
    labels = np.floor(np.clip(a, 0.0, 0.99) * 3).astype(int)  # bounded: computed in int32
    rows = np.argmax(m, axis=0)
    pairs = np.triu_indices(4, 1)
    return (a[order], np.eye(3)[labels], m[rows, np.arange(7)], m[:, np.argmin(m, axis=1)[:3]],
            m[np.array([[0, 5], [-1, 2]])[:, :, None], np.array([1, 6])[None, None, :]], m[2, rows[:4]],
            m[rows[0], 1:5], a[k % 10], m[pairs], (m > 0.5)[np.array([3, 0])], labels[order])
