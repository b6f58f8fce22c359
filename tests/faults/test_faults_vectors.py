"""The paper vectors file (``vectors.bin``) is an index file like the others.

Built with the index, listed in the build marker with its size and CRC-32, so a vectors
file that is missing or damaged before opening means a rebuild (with the notice for
damage), and one damaged after opening is found when the vectors are first read, and
the index is rebuilt then. An index built before vectors existed is rebuilt once.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from index_builder.search import folder as indexfiles
from index_builder.search.engine import DAMAGED_NOTICE, SearchIndex
from index_builder.vectors.storage import VECTORS_FILE, VECTORS_VERSION
from tests.helpers.search_papers import PAPERS


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("vectors") / "index"
    index = SearchIndex(folder, PAPERS, "fixture-v")
    assert index.ensure() is None
    index.close()
    return folder


@pytest.fixture
def copy(pristine: Path, tmp_path: Path) -> Iterator[Path]:
    dest = tmp_path / "index"
    shutil.copytree(pristine, dest)
    yield dest


def similar_ids(index: SearchIndex) -> list[str]:
    return [h.paper.id for h in index.more_like_this("p12")]


def test_the_vectors_file_is_checked_like_every_index_file(copy: Path) -> None:
    marker = indexfiles.read_marker(copy) or {}
    assert VECTORS_FILE in marker["checksums"] and VECTORS_FILE in marker["files"]
    assert marker["vectors"] >= 1


def test_a_missing_vectors_file_is_rebuilt(copy: Path) -> None:
    (copy / VECTORS_FILE).unlink()
    index = SearchIndex(copy, PAPERS, "fixture-v")
    index.ensure()
    assert (copy / VECTORS_FILE).is_file() and index.is_fresh()
    assert similar_ids(index)[:1] == ["p13"]
    index.close()


@pytest.mark.parametrize("damage", ["garbage", "truncated", "flipped"])
def test_a_damaged_vectors_file_is_rebuilt_with_a_notice(copy: Path, damage: str) -> None:
    path = copy / VECTORS_FILE
    data = bytearray(path.read_bytes())
    if damage == "garbage":
        data = bytearray(os.urandom(len(data)))
    elif damage == "truncated":
        data = data[: len(data) // 2]
    else:  # one byte in the middle: the size is kept, only the CRC-32 tells
        data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    index = SearchIndex(copy, PAPERS, "fixture-v")
    assert index.ensure() == DAMAGED_NOTICE
    assert similar_ids(index)[:1] == ["p13"]
    index.close()


def test_vectors_damaged_after_opening_are_rebuilt_when_first_read(copy: Path) -> None:
    index = SearchIndex(copy, PAPERS, "fixture-v")
    assert index.ensure() is None
    (copy / VECTORS_FILE).write_bytes(b"PK\x03\x04 not a numpy archive")
    assert similar_ids(index)[:1] == ["p13"]
    assert index.notice == DAMAGED_NOTICE
    index.close()


def test_an_index_from_before_vectors_is_rebuilt(copy: Path) -> None:
    marker_path = copy / indexfiles.MARKER
    marker = json.loads(marker_path.read_text())
    del marker["vectors"]
    marker_path.write_text(json.dumps(marker))
    (copy / VECTORS_FILE).unlink()
    index = SearchIndex(copy, PAPERS, "fixture-v")
    assert not index.is_fresh()
    index.ensure()
    assert index.is_fresh() and (copy / VECTORS_FILE).is_file()
    index.close()


def test_an_index_with_the_old_vectors_npz_is_rebuilt_not_misread(copy: Path) -> None:
    """Version 1 stored ``vectors.npz``: an index built then is rebuilt once, to ``.bin``."""
    marker_path = copy / indexfiles.MARKER
    marker = json.loads(marker_path.read_text())
    assert marker["vectors"] == VECTORS_VERSION
    marker["vectors"] = 1
    old = copy / "vectors.npz"
    os.replace(copy / VECTORS_FILE, old)
    marker["files"]["vectors.npz"] = marker["files"].pop(VECTORS_FILE)
    marker["checksums"]["vectors.npz"] = marker["checksums"].pop(VECTORS_FILE)
    marker_path.write_text(json.dumps(marker))
    index = SearchIndex(copy, PAPERS, "fixture-v")
    assert not index.is_fresh()
    assert index.ensure() is None  # a quiet rebuild: an old index is not damage
    assert index.is_fresh() and (copy / VECTORS_FILE).is_file() and not old.exists()
    assert similar_ids(index)[:1] == ["p13"]
    index.close()


def _forge(folder: Path, value: float) -> None:
    """Write ``value`` into the first stored weights of ``vectors.bin``, then re-stamp the
    marker's CRC-32 as a forger would: only the values themselves can tell (issue 36.7)."""
    import struct

    import numpy as np

    from index_builder.vectors.storage import MAGIC

    path = folder / VECTORS_FILE
    raw = bytearray(path.read_bytes())
    (length,) = struct.unpack_from("<Q", raw, len(MAGIC))
    begin = len(MAGIC) + 8
    header = json.loads(raw[begin : begin + length].decode("utf-8"))
    for name, _kind, offset, count in header["arrays"]:
        if name.endswith(".values") and count:
            raw[offset : offset + 8] = np.array([value, value], dtype="<f4").tobytes()
    path.write_bytes(bytes(raw))
    marker_path = folder / indexfiles.MARKER
    marker = json.loads(marker_path.read_text())
    marker["checksums"] = indexfiles.file_checksums(folder)
    marker_path.write_text(json.dumps(marker))


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_forged_vectors_with_nan_or_inf_are_rebuilt(copy: Path, value: float) -> None:
    _forge(copy, value)
    index = SearchIndex(copy, PAPERS, "fixture-v")
    assert index.ensure() is None  # sizes and CRC-32s match: it opens
    found = index.recommend(["p12", "p13", "p14"])
    assert found.hits and index.notice == DAMAGED_NOTICE
    assert all(h.score == h.score and abs(h.score) != float("inf") for h in found.hits)
    assert similar_ids(index)[:1] == ["p13"]
    index.close()
