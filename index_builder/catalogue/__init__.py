"""The merged catalogue: every source read, joined and ordered, with stable ids.

``load`` (the :class:`Catalogue` and its on-disk cache), ``merge`` and ``merge_records``
(sources into papers), ``join`` and ``join_score`` (abstracts to table rows, on clear evidence
only), ``derived_title`` (a title for an abstract that has none), ``first_look`` (the table
alone, shown while a first run builds the rest). Imports ``model``, ``text`` and ``sources``.
"""
