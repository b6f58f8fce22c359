"""Paper vectors: TF-IDF of every paper, and what is computed from them.

``analysis`` (what a paper's features are: words, word pairs, authors as people),
``tfidf`` (compute the vectors, and vectorize other papers in their space), ``storage``
(the index folder's ``vectors.bin``), ``similar`` (the nearest papers by cosine),
``recommend`` (a linear SVM, fitted by ``svm``, over the reading list and the library,
as arxiv-sanity-lite ranks papers). The only package that imports numpy, scipy and
scikit-learn, and each module imports them when first called, never on the way to the
first frame; scikit-learn only for its stop words when the vectors are computed, never
for a query. Imports ``model`` and ``text`` only.
"""
