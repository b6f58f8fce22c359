"""PaperScope's core: no Textual, usable from any script. The map, lowest layer first:

- ``model``, ``paths``, ``atomic``, ``venues``: the plain domain types, where files live,
  atomic writes, the conferences known (feeds, sites and their time zones, proceedings;
  built in, or declared by the user).
- ``times``: session times parsed safely, put in the chosen zone (the session's site's,
  local or IANA) and written as a programme writes them.
- ``venue_config``: a venue the user declares (a config table, ``update --host``), checked.
- ``text/``: display text: LaTeX and Markdown to Unicode, links, terminal safety.
- ``sources/``: reading files: the paper table, abstract lists, JSON/JSONL/BibTeX records.
- ``catalogue/``: every source merged into one record per paper: joins, ids, the cache.
- ``feeds/``: ``paperscope update``: download, check and store the conferences' official
  feeds (beside ``catalogue``; the catalogue reads the stored files through ``sources``).
- ``search/``: the Whoosh index (the only package that imports Whoosh) and query answering.
- ``citations/``: BibTeX, APA, Markdown and plain citations with stable keys.
- ``readinglist/``: bookmarks in SQLite, exports, the schedule and the ``.ics`` calendar.

A package imports only from the layers listed above it (``pyproject.toml``'s import-linter
contracts check this); ``search`` and ``readinglist`` never import each other.
"""

from __future__ import annotations

__version__ = "0.1.0"
