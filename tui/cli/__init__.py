"""The command line: ``main`` parses and dispatches, one module per group of sub-commands
(``records``: search, show, dump, index, doctor; ``cite``; ``reading_list``; ``agenda``;
``update``), with ``common``, ``output`` (printing without letting data take control) and
``doctor`` beside them. It shares ``tui.shared`` with the app and never imports Textual,
but to start the app (bare ``paperscope``) and in the doctor's check that every screen
imports.
"""
