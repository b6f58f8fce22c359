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

import sys as _sys
from functools import cached_property as _cached_property
from types import ModuleType as _ModuleType


def _whoosh_without_asyncio() -> None:
    """Give Whoosh the standard library's ``cached_property`` when nothing imported the
    package of that name yet.

    ``whoosh.reading`` takes ``cached_property`` from the ``cached_property`` package for
    one attribute (a segment reader's set of deleted documents). That package imports
    ``asyncio`` at its top, for properties that are coroutines, and ``asyncio`` brings
    ``logging``, ``socket`` and ``ssl``: 112 M instructions of each search process, a
    quarter of importing Whoosh, that no search uses. ``functools.cached_property`` does
    what Whoosh asks of it (the method called once, its value kept in the instance's
    ``__dict__``). A process that imported the package before (a test, another library)
    keeps it; the app imports ``asyncio`` for Textual anyway.
    """
    if "cached_property" not in _sys.modules:
        module = _ModuleType("cached_property", "functools.cached_property, for Whoosh.")
        module.cached_property = _cached_property  # type: ignore[attr-defined]
        _sys.modules["cached_property"] = module


_whoosh_without_asyncio()
