"""Display text: LaTeX and Markdown as Unicode (``render``, ``latex``, with the cheap
markup done by ``prepass`` and each text rendered once, ``render_cache``), links found in
abstracts (``links``), text made safe for a terminal (``safe``), and the one folding of
letters and one tokenizer (``words``) that search, joins, citation keys and ``safe`` share.

Imports only ``index_builder.model``, ``index_builder.atomic`` and pylatexenc.
"""
