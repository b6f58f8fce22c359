"""The vectors file: what is saved is read back exactly, and damage is an error, not data.

Real vectors (TF-IDF of 600 arXiv papers, ids and words outside ASCII added) are saved
and loaded; then the file is cut at every length that matters, its header bytes flipped
one at a time, and its header rewritten with sizes, offsets and versions that lie: each
must raise ``ValueError`` (the index is rebuilt then), never return a matrix.
"""

from __future__ import annotations

import json
import struct
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from index_builder.vectors import storage, tfidf
from tests.helpers.arxiv_papers import arxiv_papers, sample_path

pytestmark = pytest.mark.skipif(sample_path() is None, reason="no arxiv_sample.jsonl.gz here")


@cache
def vectors() -> storage.PaperVectors:
    papers = list(arxiv_papers().papers[:600])
    papers[0] = replace(papers[0], id='Ω-1 "quoted"\nline', title="Ünïcödé façade naïveté")
    return tfidf.compute(papers)


def same(a: storage.PaperVectors, b: storage.PaperVectors) -> bool:
    arrays = [(getattr(a, p), getattr(b, p)) for p in storage.PARTS]
    return (
        a.words == b.words
        and a.ids == b.ids
        and a.analysis == b.analysis
        and np.array_equal(a.idf, b.idf)
        and all(
            np.array_equal(getattr(x, f), getattr(y, f))
            for x, y in arrays
            for f in ["values", "at", "start"]
        )
        and a.matrix.shape == b.matrix.shape
        and (a.matrix != b.matrix).nnz == 0
    )


def test_saved_vectors_are_read_back_exactly(tmp_path: Path) -> None:
    path = storage.save(vectors(), tmp_path)
    found = storage.load(tmp_path)
    assert same(found, vectors()) and found.matrix.dtype == np.float32
    assert path.name == storage.VECTORS_FILE and path.stat().st_size % storage.ALIGN == 0
    assert not [p for p in tmp_path.iterdir() if p != path]  # no temporary file left
    # The products the queries run work on the file's (read-only) arrays; by word and by
    # paper are the same matrix.
    assert (found.matrix != sparse_by_word(found).tocsr()).nnz == 0
    assert (found.transposed != found.matrix.T.tocsr()).nnz == 0
    row = found.matrix[5].toarray().ravel()
    assert np.allclose(found.matrix @ row, vectors().matrix @ row)


def sparse_by_word(vectors: storage.PaperVectors) -> Any:
    from scipy import sparse

    part = vectors.by_word
    shape = (vectors.rows, len(vectors.words))
    return sparse.csc_matrix((part.values, part.at, part.start), shape=shape)


def test_empty_vectors_round_trip(tmp_path: Path) -> None:
    from scipy import sparse

    nothing = sparse.csr_matrix((3, 0), dtype=np.float32)
    analysis = tfidf.default_analysis()
    empty = storage.PaperVectors.from_matrix(nothing, (), ("a", "b", "c"), (), analysis)
    storage.save(empty, tmp_path)
    assert same(storage.load(tmp_path), empty)


def rewrite_header(path: Path, change: dict[str, object]) -> None:
    raw = path.read_bytes()
    begin = len(storage.MAGIC) + 8
    (length,) = struct.unpack_from("<Q", raw, len(storage.MAGIC))
    header = json.loads(raw[begin : begin + length])
    header.update(change)
    text = json.dumps(header).encode()
    assert len(text) <= length
    path.write_bytes(raw[:begin] + text.ljust(length) + raw[begin + length :])


@pytest.mark.parametrize(
    "change",
    [
        {"version": 1},
        {"shape": [600, 5]},
        {"shape": [599, None]},
        {"ids": []},
        {"arrays": [["data", "<f4", 16, -1], ["indices", "<i4", 16, 0], ["indptr", "<i8", 16, 1]]},
        {
            "arrays": [
                ["data", "<f4", 10**9, 3],
                ["indices", "<i4", 0, 3],
                ["indptr", "<i8", 0, 601],
            ]
        },
        {"arrays": [["data", "<f8", 16, 3]]},
        {"arrays": "nothing"},
    ],
)
def test_a_header_that_lies_is_an_error(tmp_path: Path, change: dict[str, object]) -> None:
    path = storage.save(vectors(), tmp_path)
    rewrite_header(path, change)
    with pytest.raises(ValueError):
        storage.load(tmp_path)


def test_a_cut_file_is_an_error_at_any_length(tmp_path: Path) -> None:
    path = storage.save(vectors(), tmp_path)
    raw = path.read_bytes()
    begin = len(storage.MAGIC) + 8
    (size,) = struct.unpack_from("<Q", raw, len(storage.MAGIC))
    places = json.loads(raw[begin : begin + size])["arrays"]
    ends = [offset + count * np.dtype(kind).itemsize for _, kind, offset, count in places]
    # Cut in the header: every 997th length. Cut past it, every length fails the same
    # check (an array's end beyond the file): every 9,973rd, and each array's first and
    # last byte, where that check turns (every 997th there, 1,100 lengths, took ~10 s).
    arrays = [n for _, _, offset, _ in places for n in (offset, offset + 1)]
    arrays += [n for end in ends for n in (end - 1, end - 2)]
    for length in [
        0,
        5,
        len(storage.MAGIC) + 4,
        len(storage.MAGIC) + 20,
        *range(200, begin + size + 1, 997),
        begin + size - 1,
        *range(begin + size, len(raw), 9973),
        *(n for n in arrays if n < len(raw)),
        len(raw) - 1,
    ]:
        path.write_bytes(raw[:length])
        with pytest.raises(ValueError):
            storage.load(tmp_path)


def test_indices_outside_the_matrix_are_an_error(tmp_path: Path) -> None:
    good = vectors()
    for part, field, change in [
        ("by_paper", "at", lambda a: a.__setitem__(7, len(good.words) + 3)),
        ("by_word", "at", lambda a: a.__setitem__(9, good.rows)),
        ("by_word", "at", lambda a: a.__setitem__(2, -1)),
        ("by_paper", "start", lambda a: a.__setitem__(slice(3, 5), a[4:2:-1].copy())),
        ("by_word", "values", lambda a: a.resize(len(a) - 1, refcheck=False)),
        ("by_paper", "values", lambda a: a.__setitem__(4, np.nan)),
        ("by_word", "values", lambda a: a.__setitem__(11, np.inf)),
    ]:
        array = np.array(getattr(getattr(good, part), field))
        change(array)
        storage.save(
            replace(good, **{part: replace(getattr(good, part), **{field: array})}), tmp_path
        )
        with pytest.raises(ValueError):
            storage.load(tmp_path)


@pytest.mark.parametrize("bad", [np.nan, -np.inf])
def test_an_idf_that_is_not_a_number_is_an_error(tmp_path: Path, bad: float) -> None:
    idf = np.array(vectors().idf)
    idf[5] = bad
    storage.save(replace(vectors(), idf=idf), tmp_path)
    with pytest.raises(ValueError, match="not a number"):
        storage.load(tmp_path)


@pytest.mark.parametrize("analysis", [{}, {"stop_words": 3}, "none"])
def test_analysis_settings_not_whole_are_an_error(tmp_path: Path, analysis: object) -> None:
    path = storage.save(vectors(), tmp_path)
    rewrite_header(path, {"analysis": analysis})
    with pytest.raises(ValueError):
        storage.load(tmp_path)
