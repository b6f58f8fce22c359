"""A quick first look at the papers while the full catalogue is built on a first run.

:func:`quick_table_papers` reads the paper table(s) alone: no abstracts, no join,
no records. It gives the same :class:`~index_builder.model.Paper` ids (event ids),
titles and display order as the table papers of the full catalogue
(:mod:`index_builder.catalogue.merge`), with empty abstracts, in a
:class:`~index_builder.catalogue.load.Catalogue` whose ``complete`` is False. The app
shows it for the second the cold build takes and then replaces it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from index_builder.catalogue.load import Catalogue
from index_builder.catalogue.merge import _display_key, _merge_tables, _table_paper
from index_builder.sources.files import read_regular_file
from index_builder.sources.reading import decode
from index_builder.sources.table import read_table
from index_builder.sources.types import SourceData, SourceError, SourceText


def quick_table_papers(sources: Sequence[Path]) -> Catalogue:
    """The table papers of ``sources`` without abstracts (``complete`` is False).

    Files that cannot be read, or are not tables, are passed over silently: the
    full load reports them.
    """
    blobs: list[tuple[Path, bytes]] = []
    for path in sources:
        try:
            blobs.append((Path(path), read_regular_file(Path(path))))
        except OSError:
            continue
    # The full build's canonical order, so that the same table row wins an event id.
    blobs.sort(key=lambda b: (b[0].name, hashlib.sha256(b[1]).hexdigest()))
    tables: list[SourceData] = []
    for path, data in blobs:
        try:
            text, _ = decode(path, data)
            parsed = read_table(SourceText(path, text))
        except SourceError:
            continue
        if parsed is not None:
            tables.append(parsed)
    papers = sorted((_table_paper(item, None) for item in _merge_tables(tables)), key=_display_key)
    catalogue = Catalogue(papers)
    catalogue.complete = False
    return catalogue
