"""Vector rows a change in place leaves to be computed when the vectors are first read.

A change in place (:mod:`~index_builder.search.in_place`) of a few papers does not touch
``vectors.bin``: it names the changed and added papers in :data:`PENDING_FILE`, and
:func:`load_vectors` computes their rows (with the stored vocabulary and weights, as the
change would have) when ``similar`` or ``recommend`` first reads the vectors. A search
after a change thus never imports numpy. The rows of a paper depend on the stored
vocabulary, idf and analysis and on the paper alone, and none of them changes in place,
so a row computed later is the row the change would have computed. Removed papers need no
entry: the rows are laid out in the catalogue's order, which leaves theirs out.

The pending papers add up over changes; past :data:`PENDING_LIMIT` the change computes
every pending row and writes ``vectors.bin`` again, so reading the vectors never costs
more than that many rows. The file is an index file: the build marker keeps its CRC-32,
and one that cannot be read is damage (the index is rebuilt).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from index_builder.atomic import write_atomic
from index_builder.model import Paper

if TYPE_CHECKING:
    from index_builder.vectors.storage import PaperVectors

PENDING_FILE = "paperscope-pending-rows.json"
PENDING_LIMIT = 200
"""More pending rows than this and a change writes the vectors whole (see the module)."""


def read_pending(folder: Path) -> frozenset[str]:
    """The ids whose rows ``vectors.bin`` in ``folder`` lacks; ``ValueError`` when unreadable."""
    try:
        text = (folder / PENDING_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return frozenset()
    data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("ids"), list):
        raise ValueError(f"{PENDING_FILE} is not a list of paper ids")
    return frozenset(map(str, data["ids"]))


def write_pending(folder: Path, ids: Collection[str]) -> None:
    """Name ``ids`` as pending in ``folder`` (a new file: never written through a link)."""
    write_atomic(folder / PENDING_FILE, json.dumps({"ids": sorted(ids)}))


def clear_pending(folder: Path) -> None:
    """No row is pending in ``folder`` (its ``vectors.bin`` holds every row)."""
    (folder / PENDING_FILE).unlink(missing_ok=True)


def with_pending(
    vectors: PaperVectors, papers: Sequence[Paper], pending: Collection[str]
) -> PaperVectors:
    """``vectors`` with the rows of the ``pending`` papers computed, in ``papers``' order."""
    from index_builder.vectors.tfidf import vectorize_lines

    written = [p for p in papers if p.id in pending]
    if not written and tuple(p.id for p in papers) == vectors.ids:
        return vectors
    lines = vectorize_lines(vectors, written) if written else None
    rows = {p.id: lines.line(i) for i, p in enumerate(written)} if lines is not None else {}
    return vectors.with_rows(rows, [p.id for p in papers])


def load_vectors(folder: Path, papers: Sequence[Paper]) -> PaperVectors:
    """The vectors of ``papers`` in ``folder``, pending rows computed; ``ValueError`` (or
    ``KeyError``, ``OSError``) when the files do not hold them."""
    from index_builder.vectors.storage import load

    pending = read_pending(folder)
    vectors = load(folder)
    return with_pending(vectors, papers, pending) if pending else vectors
