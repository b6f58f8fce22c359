"""Search: the Whoosh index and everything that answers a query.

``engine`` (:class:`SearchIndex`, the one entry point) and ``request`` (one search as it
answers it), ``store`` (build, open, swap and rebuild the index), ``in_place`` (change only the
papers that changed) and ``doc_map`` (document numbers to papers), ``segment``, ``blocks``
and ``parallel`` (writing it whole, on two cores), ``builder`` and ``build_child`` (a build
in a child process the app can kill), ``folder`` (the build marker and temporary folders),
``schema`` and ``documents`` (what the index holds), ``words`` (re-exports the tokenizer
and folding of ``text.words``), ``syntax`` (the query language, no Whoosh),
``whoosh_query`` (syntax tree to Whoosh query), ``scoring`` (BM25F query algebra over
posting lists) and ``postings`` (posting lists read from Whoosh's codec blocks, the only
reader of its private attributes), ``ordering`` and ``facets`` (sort orders, facet
counts), ``highlight``, ``kept`` (bounded caches) and ``vocabulary``. The only package
that imports Whoosh. Imports ``model`` and ``text``; never ``readinglist``.
"""
