"""Rows spliced into the stored matrices are the matrices made from every row.

``PaperVectors.with_rows`` splices the changed rows into the stored matrices
(:mod:`index_builder.vectors.splice`); before, it stacked every row and sorted all the
cells by word, which is what scipy makes (``test_vectors_numpy``). On random changes
(papers added, removed, rewritten and moved, in any mix) the splice must give scipy's
arrays exactly, and hold no array of every cell beside the two matrices it makes.
"""

from __future__ import annotations

import random
import tracemalloc
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from scipy import sparse

from index_builder.vectors import splice, storage, tfidf
from tests.core.search.test_vectors_api import OUTSIDE, catalogue, sample
from tests.helpers.arxiv_papers import sample_path

pytestmark = pytest.mark.skipif(sample_path() is None, reason="no arxiv_sample.jsonl.gz here")


@cache
def stored_rows() -> dict[str, object]:
    """Each stored row of :func:`catalogue` as scipy indexes it (``matrix[i]``), by paper id:
    taken once for every test, not row by row in each (they never change)."""
    stored = catalogue().matrix
    return {pid: stored[i] for i, pid in enumerate(catalogue().ids)}


def rebuilt(vectors: storage.PaperVectors, rows: dict[str, object], order: list[str]):  # type: ignore[no-untyped-def]
    """scipy's matrices of the papers ``order``: each row the changed one or the stored one."""
    assert vectors is catalogue()  # the rows of stored_rows
    stored = stored_rows()
    picked = [rows[pid] if pid in rows else stored[pid] for pid in order]
    every = (
        sparse.vstack(picked, format="csr")
        if picked
        else sparse.csr_matrix((0, len(vectors.words)), dtype=np.float32)
    )
    every.sort_indices()
    by_word = every.tocsc()
    by_word.sort_indices()
    return every, by_word


def assert_rebuilt(got: storage.PaperVectors, want_rows, want_words) -> None:  # type: ignore[no-untyped-def]
    """``got``'s arrays are scipy's, value for value and type for type."""
    for part, want in (("by_paper", want_rows), ("by_word", want_words)):
        mine = getattr(got, part)
        for field, theirs, kind in zip(
            ("values", "at", "start"),
            (want.data, want.indices, want.indptr),
            ("<f4", "<i4", "<i8"),
            strict=True,
        ):
            array = getattr(mine, field)
            assert array.dtype == np.dtype(kind), (part, field, array.dtype)
            assert np.array_equal(array, theirs.astype(kind)), (part, field)


def random_change(rng: random.Random, vectors: storage.PaperVectors, new_rows: list[object]):  # type: ignore[no-untyped-def]
    """Papers removed, rewritten (another paper's row, or an outside paper's), added and
    moved, each with a random share: the changes and the new order."""
    ids = list(vectors.ids)
    order = ids[:]
    changes: dict[str, object] = {}
    for pid in rng.sample(order, rng.choice([0, 1, 5, 60])):
        order.remove(pid)
        changes[pid] = None
    for pid in rng.sample(order, rng.choice([0, 1, 3, 40])):
        changes[pid] = rng.choice([*new_rows, vectors.matrix[rng.randrange(len(ids))]])
    for n in range(rng.choice([0, 1, 4, 30])):
        pid = f"added-{n}"
        order.insert(rng.randrange(len(order) + 1), pid)
        changes[pid] = rng.choice(new_rows)
    how = rng.choice(["none", "few", "front", "block", "shuffle"])
    if how == "front":
        order[: rng.randint(2, 9)] = order[: rng.randint(2, 9)][::-1]
    elif how == "few":
        for _ in range(rng.randint(1, 8)):
            order.insert(rng.randrange(len(order)), order.pop(rng.randrange(len(order))))
    elif how == "block":
        i = rng.randrange(len(order))
        order[i : i + 50] = order[i : i + 50][::-1]
    elif how == "shuffle":
        rng.shuffle(order)
    return changes, order


@pytest.mark.parametrize("seed", range(24))
def test_a_splice_gives_the_matrices_made_from_every_row(seed: int) -> None:
    vectors = catalogue()
    rng = random.Random(seed)
    outside = tfidf.vectorize(vectors, sample().papers[-OUTSIDE:])
    new_rows: list[object] = [outside[i] for i in range(OUTSIDE)]
    new_rows.append(sparse.csr_matrix((1, len(vectors.words)), dtype=np.float32))  # no feature
    changes, order = random_change(rng, vectors, new_rows)
    spliced = vectors.with_rows(changes, order)
    assert spliced.ids == tuple(order) and spliced.words == vectors.words
    assert_rebuilt(
        spliced, *rebuilt(vectors, {k: v for k, v in changes.items() if v is not None}, order)
    )
    # Rows given as (positions, values), as the pending rows are, splice the same.
    lines = {k: (v.indices, v.data) if v is not None else None for k, v in changes.items()}  # type: ignore[union-attr]
    again = vectors.with_rows(lines, order)
    for part in ("by_paper", "by_word"):
        for field in ("values", "at", "start"):
            a, b = getattr(getattr(again, part), field), getattr(getattr(spliced, part), field)
            assert np.array_equal(a, b)


@pytest.mark.parametrize(
    "name", ["same", "none left", "all new", "reversed", "first and last", "one moved far"]
)
def test_edges_of_a_splice(name: str) -> None:
    vectors = catalogue()
    ids = list(vectors.ids)
    outside = tfidf.vectorize(vectors, sample().papers[-OUTSIDE:])
    changes: dict[str, object] = {}
    order = ids[:]
    if name == "none left":
        changes, order = {pid: None for pid in ids}, []
    elif name == "all new":
        changes = {pid: outside[i % OUTSIDE] for i, pid in enumerate(ids)}
    elif name == "reversed":
        order = ids[::-1]
    elif name == "first and last":
        order = ["new-first", *ids[1:-1], "new-last"]
        changes = {ids[0]: None, ids[-1]: None, "new-first": outside[0], "new-last": outside[1]}
    elif name == "one moved far":
        order = [*ids[1:], ids[0]]
    spliced = vectors.with_rows(changes, order)
    assert_rebuilt(
        spliced, *rebuilt(vectors, {k: v for k, v in changes.items() if v is not None}, order)
    )


def test_a_splice_holds_none_of_the_files_bytes_nor_a_copy_of_every_cell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage.save(catalogue(), tmp_path)
    loaded = storage.load(tmp_path)
    ids = list(loaded.ids)
    outside = tfidf.vectorize(loaded, sample().papers[-OUTSIDE:])
    changes = {ids[5]: outside[0], ids[700]: None, "added": outside[1]}
    order = [*ids[:700], "added", *ids[701:]]
    monkeypatch.setattr(splice, "CHUNK", 4096)
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        spliced = loaded.with_rows(changes, order)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    for part in ("by_paper", "by_word"):
        for field in ("values", "at", "start"):
            array = getattr(getattr(spliced, part), field)
            assert not np.shares_memory(array, getattr(getattr(loaded, part), field))
    assert not np.shares_memory(spliced.idf, loaded.idf)
    made = sum(
        getattr(getattr(spliced, part), field).nbytes
        for part in ("by_paper", "by_word")
        for field in ("values", "at", "start")
    )
    cells = len(loaded.by_word.values)
    # Beside the two matrices: a flag per cell (kept or not) and a block's copies. Stacking
    # every row and sorting the cells by word held some 24 bytes a cell more.
    assert peak < made + cells + 64 * 4096 + 300_000, (peak, made, cells)
