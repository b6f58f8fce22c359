"""The main screen: search box, result list, paper view, facets and status line.

- ``screen``: ``MainScreen``, the actions and the handlers of its widgets' messages (the
  widgets own their behaviour: the list pages itself, the paper view looks up its similar
  papers, the search box keeps the history).
- ``view``: ``MainView``, its base: the layout, the helpers, and the one place that
  changes the widgets. The work is in the helper objects it owns, which compute and
  return or post:
- ``start_up``: ``StartUp``, how the screen fills (first papers, the rest, the index);
  the whole start is mapped in :mod:`tui.lifecycle.startup`.
- ``search_flow``: ``SearchFlow``, queries in a thread worker, stale results dropped; each
  answer returned as an ``Answer`` the screen shows.
- ``searching``: ``Searcher``, plain Python: the index once ready, a substring filter
  before; ``like:ID``.
- ``history``: ``SearchHistory``, the queries recalled with Up/Down (handed to the search
  box, which knows it only as a ``Recall``).
- ``links``: ``PaperLinks``, a paper's page, PDF or code opened in a browser.
- ``listings``: listings shown in place of the query, and the way back.
- ``library``: reading-list and citation work; ``for_you``: dismissed papers;
  ``owned``: your library matched to the catalogue.
- ``bindings``: the screen's keys.
"""
