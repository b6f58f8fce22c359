"""What the command line shares with the app; nothing here imports Textual.

- ``context``: ``Context``, the per-user paths and the chosen sources, with the catalogue
  and the index opened lazily, once (and the start-up's peek and first look).
- ``config``: the user's TOML config (key remaps, theme, citation style, time zone).
- ``clipboard``: copying text through OSC 52 and the native clipboard, in the app and from
  ``paperscope cite --copy``.

Checked by a contract in ``pyproject.toml`` and ``tests/tui/cli/test_cli_import_hygiene.py``.
"""
