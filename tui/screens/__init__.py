"""The screens of the PaperScope TUI, one class per screen.

- ``main/``: the main screen and the helper objects it owns (its own map).
- ``reading_list/``: the reading list screen (``B``) and its session planner.
- ``help``: every key as bound now, and the query syntax.
- ``citation_picker``: the style picker behind ``Y``.
- ``copy_fallback``: the text to copy by hand when no clipboard may have taken it.
- ``whats_on``: the bookmarked sessions running now, the next one, the day's plan.

Screens get a :class:`~tui.services.Services` when they are created and never import
the app.
"""
