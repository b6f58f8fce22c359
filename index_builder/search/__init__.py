"""Search: the Whoosh index and everything that answers a query.

``engine`` (:class:`SearchIndex`, the one entry point), ``store`` (build, open, swap and
rebuild the index), ``segment``, ``blocks`` and ``parallel`` (writing it whole, on two cores),
``builder`` and ``build_child`` (a build in a child process the app can kill), ``folder``
(the build marker and temporary folders), ``schema`` and ``documents`` (what the index
holds), ``words`` (re-exports the tokenizer of ``text.words``), ``syntax`` (the query language,
no Whoosh), ``whoosh_query`` (syntax tree to Whoosh query), ``scoring`` (BM25F over posting
lists), ``ordering`` and ``facets`` (sort orders, facet counts), ``highlight`` and
``vocabulary``. The only package that imports Whoosh. Imports ``model`` and ``text``;
never ``readinglist``.
"""
