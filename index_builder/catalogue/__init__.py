"""The merged catalogue: every source read, joined and ordered, with stable ids.

``load`` (sources to a :class:`Catalogue`, cached when fresh), ``papers`` (the
:class:`Catalogue` type), ``cache`` (its pickles on disk and their head),
``source_cache`` (each source's parsed records, kept by its bytes), ``merge`` and
``merge_records`` (sources into papers), ``joins`` (abstracts to table rows, on clear
evidence only, and the joins by hand), ``official`` (what a conference feed brings),
``id_claims`` (declared ids never take another paper's), ``order`` (display order),
``derived_title`` (a title for an abstract that has none), ``first_look`` (the table
alone, shown while a first run builds the rest). Imports ``model``, ``text`` and ``sources``.
"""
