"""The main screen: search box, result list, paper view, facets and status line.

- ``screen``: ``MainScreen``, the layout and the message handlers; the work is in the
  helper objects it owns:
- ``start_up``: ``StartUp``, how the screen fills (first papers, the rest, the index);
  the whole start is mapped in :mod:`tui.lifecycle.startup`.
- ``search_flow``: ``SearchFlow``, queries in a thread worker, stale results dropped.
- ``searching``: ``Searcher``, plain Python: the index once ready, a substring filter
  before; ``like:ID``.
- ``history``: ``SearchHistory``, the queries recalled with Up/Down (handed to the search
  box, which knows it only as a ``Recall``).
- ``browse``: the paper shown, its similar papers and links.
- ``listings``: listings shown in place of the query, and the way back.
- ``library``: reading-list and citation work.
- ``bindings``: the screen's keys.
"""
