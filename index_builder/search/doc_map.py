"""Which paper each document number of an index stands for.

A full build writes the papers in catalogue order, so the map is usually the identity (a
few probes tell). An index changed in place (:mod:`~index_builder.search.in_place`) holds
them in another order, with deleted documents between them: those never match a query,
and each stands for paper 0 so that per-document arrays stay dense.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from index_builder.model import Paper


def doc_map(
    reader: Any, papers: Sequence[Paper], by_id: Mapping[str, int]
) -> tuple[list[int], dict[int, int]]:
    """``(paper of each document number, document of each paper)`` for the index ``reader``.

    ``ValueError`` when the index does not hold exactly the catalogue's papers, once each.
    """
    count = reader.doc_count_all()
    if reader.doc_count() != len(papers):
        raise ValueError("index holds a different number of papers")
    probes = sorted({0, count // 2, count - 1}) if count else []
    if not reader.has_deletions() and all(
        reader.stored_fields(d).get("id") == papers[d].id for d in probes
    ):
        return list(range(count)), {p: p for p in range(count)}
    doc_paper, paper_doc = [0] * count, {}
    for docnum, fields in reader.iter_docs():
        paper = by_id.get(fields.get("id", ""))
        if paper is None or paper in paper_doc:
            raise ValueError("index holds papers that are not in the catalogue")
        paper_doc[paper] = docnum
        doc_paper[docnum] = paper
    return doc_paper, paper_doc
