"""Citations of one paper: ``styles`` (BibTeX, APA, Markdown, plain), ``keys`` (author
names and stable unique citation keys), ``bibtex_escape`` (text as BibTeX field values).

Imports ``model`` and ``text``.
"""
