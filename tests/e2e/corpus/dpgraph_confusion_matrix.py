# source: scikit-learn User Guide, "Metrics and scoring", §Confusion matrix and §Precision, recall and F-measures, https://scikit-learn.org/stable/modules/model_evaluation.html#confusion-matrix
# Confusion matrix of predicted vs. true labels counted in a loop, with per-class precision, recall and F1.
import numpy as np

np.random.seed(59)
k = 4
n = 64
y_true = np.floor(np.random.rand(n) * k).astype(int)
noise = np.floor(np.random.rand(n) * k).astype(int)
y_pred = np.where(np.random.rand(n) < 0.7, y_true, noise)

cm = np.zeros((k, k), dtype=int)
for t, p in zip(y_true, y_pred):
    cm[t, p] += 1

tp = np.diag(cm).astype(float)
precision = tp / cm.sum(axis=0)
recall = tp / cm.sum(axis=1)
f1 = 2.0 * precision * recall / (precision + recall)
accuracy = tp.sum() / n
