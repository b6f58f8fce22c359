"""Which paper each document number of an index stands for.

A full build writes the papers in catalogue order, so the map is usually the identity (a
few probes tell). An index changed in place (:mod:`~index_builder.search.in_place`) holds
them in another order, with deleted documents between them: those never match a query,
and each stands for paper 0 so that per-document arrays stay dense.

Reading every document's stored id to learn that order cost each opening of a changed
index about 0.1 s (6,600 papers). Whoosh never rewrites a segment (a deletion is noted in
its table of contents), so each segment's ids, in document order, are written once beside
it (:func:`save_segment_ids`: by the full build, and by a change for the segment it
writes) and read on opening. Those files are index files (the build marker keeps their
CRC-32); a segment without one, or with one of another length, is read document by
document as before.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index

from index_builder.atomic import write_atomic
from index_builder.model import Paper

IDS_PREFIX = "paperscope-ids-"


def ids_file(folder: Path, segment: Any) -> Path:
    """The file that holds ``segment``'s ids in ``folder``."""
    return folder / f"{IDS_PREFIX}{segment.segment_id()}.json"


def _stored_ids(leaf: Any) -> list[str]:
    """Each document's stored id in the segment reader ``leaf`` (deleted ones too)."""
    return [str(leaf.stored_fields(d).get("id", "")) for d in range(leaf.doc_count_all())]


def _kept_ids(folder: Path | None, leaf: Any) -> list[str]:
    """The ids of ``leaf``'s segment, from its file in ``folder`` when it has a whole one."""
    if folder is not None and leaf.segment() is not None:
        try:
            ids = json.loads(ids_file(folder, leaf.segment()).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            ids = None
        if isinstance(ids, list) and len(ids) == leaf.doc_count_all():
            return [str(i) for i in ids]
    return _stored_ids(leaf)


def save_segment_ids(folder: Path, known: Sequence[str] | None = None) -> None:
    """Write the ids file of each segment of the index in ``folder`` that has none, and
    remove those of segments it no longer holds. ``known``: the ids in document order of
    a one-segment index (a full build's papers), checked by a few probes."""
    ix = whoosh_index.open_dir(str(folder))
    try:
        with ix.reader() as reader:
            # An index of no papers is one empty reader without a segment: no ids to keep.
            leaves = [leaf for leaf, _ in reader.leaf_readers() if leaf.segment() is not None]
            wanted = {ids_file(folder, leaf.segment()) for leaf in leaves}
            for leaf in leaves:
                target = ids_file(folder, leaf.segment())
                if target.exists():
                    continue
                ids = list(known) if known is not None and len(leaves) == 1 else None
                count = leaf.doc_count_all()
                probes = sorted({0, count // 2, count - 1}) if count else []
                if (
                    ids is None
                    or len(ids) != count
                    or any(leaf.stored_fields(d).get("id") != ids[d] for d in probes)
                ):
                    ids = _stored_ids(leaf)
                write_atomic(target, json.dumps(ids, ensure_ascii=False))
    finally:
        ix.close()
    for stale in folder.glob(f"{IDS_PREFIX}*.json"):
        if stale not in wanted:
            stale.unlink()


def doc_map(
    reader: Any, papers: Sequence[Paper], by_id: Mapping[str, int], folder: Path | None = None
) -> tuple[list[int], dict[int, int]]:
    """``(paper of each document number, document of each paper)`` for the index ``reader``
    (its segments' ids files read from ``folder``).

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
    for leaf, base in reader.leaf_readers():
        deleted = set(leaf.segment().deleted_docs()) if leaf.has_deletions() else set()
        for docnum, pid in enumerate(_kept_ids(folder, leaf)):
            if docnum in deleted:
                continue
            paper = by_id.get(pid)
            if paper is None or paper in paper_doc:
                raise ValueError("index holds papers that are not in the catalogue")
            paper_doc[paper] = base + docnum
            doc_paper[base + docnum] = paper
    if len(paper_doc) != len(papers):
        raise ValueError("index holds a different number of papers")
    return doc_paper, paper_doc
