"""Paper vectors: TF-IDF of every paper, and what is computed from them.

``tfidf`` (compute the vectors), ``storage`` (the index folder's ``vectors.bin``),
``similar`` (the nearest papers by cosine), ``recommend`` (a linear SVM, fitted by
``svm``, over the reading list, as arxiv-sanity-lite ranks papers). The only package that
imports numpy, scipy and scikit-learn, and each module imports them when first called,
never on the way to the first frame; scikit-learn only to compute the vectors, never for
a query. Imports ``model`` only.
"""
