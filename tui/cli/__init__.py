"""The command line: ``main`` parses and dispatches, one module per group of sub-commands
(``records``: search, show, dump, index, doctor; ``cite``; ``reading_list``), with ``common``,
``output`` (printing without letting data take control) and ``doctor`` beside them.
"""
