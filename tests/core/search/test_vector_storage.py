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
    return (
        a.words == b.words
        and a.ids == b.ids
        and a.matrix.shape == b.matrix.shape
        and (a.matrix != b.matrix).nnz == 0
    )


def test_saved_vectors_are_read_back_exactly(tmp_path: Path) -> None:
    path = storage.save(vectors(), tmp_path)
    found = storage.load(tmp_path)
    assert same(found, vectors()) and found.matrix.dtype == np.float32
    assert path.name == storage.VECTORS_FILE and path.stat().st_size % storage.ALIGN == 0
    assert not [p for p in tmp_path.iterdir() if p != path]  # no temporary file left
    # The products the queries run work on the file's (read-only) arrays.
    row = found.matrix[5].toarray().ravel()
    assert np.allclose(found.matrix @ row, vectors().matrix @ row)


def test_empty_vectors_round_trip(tmp_path: Path) -> None:
    from scipy import sparse

    empty = storage.PaperVectors(sparse.csr_matrix((3, 0), dtype=np.float32), (), ("a", "b", "c"))
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
    for length in [
        0,
        5,
        len(storage.MAGIC) + 4,
        len(storage.MAGIC) + 20,
        *range(200, len(raw), 997),
    ]:
        path.write_bytes(raw[:length])
        with pytest.raises(ValueError):
            storage.load(tmp_path)


def test_indices_outside_the_matrix_are_an_error(tmp_path: Path) -> None:
    bad = vectors().matrix.copy()
    bad.indices[7] = bad.shape[1] + 3
    storage.save(replace(vectors(), matrix=bad), tmp_path)
    with pytest.raises(ValueError):
        storage.load(tmp_path)
    bad = vectors().matrix.copy()
    bad.indptr[3], bad.indptr[4] = bad.indptr[4], bad.indptr[3]
    storage.save(replace(vectors(), matrix=bad), tmp_path)
    with pytest.raises(ValueError):
        storage.load(tmp_path)
