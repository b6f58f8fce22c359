"""Display text: LaTeX and Markdown as Unicode (``render``, ``latex``), links found in
abstracts (``links``), and text made safe for a terminal (``safe``).

Imports only ``index_builder.model`` and pylatexenc.
"""
