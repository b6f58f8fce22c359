"""The reading list: ``store`` (the API over one SQLite file), ``database`` (schema,
migrations, quarantine of a damaged file), ``bookmark`` (the record), ``exports`` (BibTeX,
Markdown, CSV, JSON, import), ``ics`` (the calendar), ``schedule`` (sessions by day, clashes).

Imports ``model``, ``text``, ``citations`` and ``atomic``; never ``search``.
"""
