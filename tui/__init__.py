"""PaperScope's user side: the Textual app and the command line.

The rooms (each package's ``__init__`` maps what it holds):

- ``__main__``: the ``paperscope`` entry; bare, it starts the TUI, else the command line.
- ``app``: the Textual app, its app-wide keys and :func:`~tui.app.run_tui`.
- ``services``: what the screens are handed (reading list, citations, clipboard copy,
  links, config) so that they never import the app.
- ``cli/``: the command line's sub-commands. Never imports Textual.
- ``shared/``: what the command line shares with the app (context, config, clipboard).
  Never imports Textual.
- ``lifecycle/``: the app's life: start (``startup`` is the map of it and holds its
  timings), the forked first look, the loading, the quit and the exit.
- ``commands/``: the keymap and the command palette's providers.
- ``screens/``: one class per screen; the main screen's helpers in ``screens/main/``.
- ``widgets/``: one widget per module; they know no screen, service, history or app.

The import rules are contracts in ``pyproject.toml`` (``lint-imports``).
"""
