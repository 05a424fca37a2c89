# source: scikit-learn User Guide, "Feature extraction", §Tf–idf term weighting (TfidfTransformer, smooth_idf=True, norm='l2'), https://scikit-learn.org/stable/modules/feature_extraction.html#tfidf-term-weighting
# TF-IDF weights from a document-term count matrix with smoothed idf and L2-normalised rows, then document cosine similarities.
import numpy as np

np.random.seed(89)
n_docs, n_terms = 16, 40
counts = np.floor(np.random.rand(n_docs, n_terms) ** 3 * 5.0)

df = (counts > 0).sum(axis=0)
idf = np.log((1.0 + n_docs) / (1.0 + df)) + 1.0
tfidf = counts * idf
norms = np.sqrt((tfidf ** 2).sum(axis=1, keepdims=True))
tfidf = tfidf / norms
similarity = tfidf @ tfidf.T
