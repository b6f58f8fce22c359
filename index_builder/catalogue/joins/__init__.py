"""The join: abstracts without a title placed on the table's papers, on clear evidence only.

The catalogue's merge calls one function, the entry point
:func:`index_builder.catalogue.joins.place.place_abstracts`: it takes the pool of
distinct abstracts and the table, and answers which abstract joins which entry, which
is possibly which, and which are twins.

``place`` (the entry point: official texts, twins, the user's aparts, records' ids),
``match`` (the automatic join: author, strong, ordered and dominant joins), ``score``
(:class:`~index_builder.catalogue.joins.score.TitleIndex`, one abstract scored against
every title), ``by_hand`` (the joins file's joins and aparts, ``paperscope join`` and
``J``). The joins file's lines are read by :mod:`index_builder.sources.join_lines`, below
this layer, as the record reader needs them too.
"""
