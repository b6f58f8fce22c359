"""Reading source files into plain records, one module per format.

``types`` holds what readers return; ``table`` (the CSV paper table), ``abstract_lists``
(plain-text abstract lists), ``structured`` and ``records`` (the user's JSON, JSONL and
BibTeX files); ``reading`` decodes a file and picks its reader. Imports ``model`` and ``text``.
"""
