"""The catalogue before the last change is kept: an undone change is served from the cache."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import index_builder.catalogue.cache as catalogue_cache
import index_builder.catalogue.merge as build_module
from index_builder.catalogue.cache import previous_file
from index_builder.catalogue.load import CATALOGUE_VERSION, load_catalogue
from index_builder.catalogue.papers import Catalogue
from tests.helpers.catalogue_data import FIXTURES
from tests.helpers.recording import record_calls

SMALL_TABLE = FIXTURES / "catalogue_table_small.csv"
LATE_ROW = "104,Poster,A Late Addition,,,,,,,,,\n"


def _refuse_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("merged again though the cache held these sources")

    monkeypatch.setattr(build_module, "build_papers", refuse)


def _recorded_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the catalogue files unpickled from now on."""
    return record_calls(monkeypatch, catalogue_cache, "_read", lambda path, *_: path.name)


def _cached_table(tmp_path: Path) -> tuple[Path, Path, bytes, Catalogue]:
    """A copy of the small table, its cache folder, its bytes, and its catalogue (cached)."""
    table = tmp_path / "table.csv"
    shutil.copy(SMALL_TABLE, table)
    cache = tmp_path / "cache"
    return table, cache, table.read_bytes(), load_catalogue([table], cache_dir=cache)


def test_an_undone_change_is_served_from_the_previous_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, cache, original, before = _cached_table(tmp_path)
    table.write_bytes(original + LATE_ROW.encode())
    changed = load_catalogue([table], cache_dir=cache)
    assert changed.get("104") is not None
    table.write_bytes(original)  # the change undone
    with monkeypatch.context() as patch:
        _refuse_builds(patch)
        undone = load_catalogue([table], cache_dir=cache)
        assert undone.papers == before.papers and undone.fingerprint == before.fingerprint
        table.write_bytes(original + LATE_ROW.encode())  # and made again: the other slot
        redone = load_catalogue([table], cache_dir=cache)
        assert redone.papers == changed.papers
    table.write_bytes(original)
    assert undone.papers == load_catalogue([table]).papers, "the same as built anew"


def test_a_damaged_previous_catalogue_is_rebuilt(tmp_path: Path) -> None:
    table, cache, original, before = _cached_table(tmp_path)
    table.write_bytes(original + LATE_ROW.encode())
    load_catalogue([table], cache_dir=cache)
    kept = previous_file(cache / f"catalogue-v{CATALOGUE_VERSION}.pickle")
    assert kept.is_file()
    kept.write_bytes(b"\x80\x05K")
    table.write_bytes(original)
    assert load_catalogue([table], cache_dir=cache).papers == before.papers


def test_the_current_catalogue_is_not_unpickled_when_its_head_names_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, cache, original, _ = _cached_table(tmp_path)
    table.write_bytes(original + LATE_ROW.encode())
    changed = load_catalogue([table], cache_dir=cache)
    table.write_bytes(original)
    read = _recorded_reads(monkeypatch)
    load_catalogue([table], cache_dir=cache)
    assert read == [f"catalogue-v{CATALOGUE_VERSION}.previous.pickle"]
    table.write_bytes(original + LATE_ROW.encode())  # the head now names the undone one
    read.clear()
    assert load_catalogue([table], cache_dir=cache).papers == changed.papers
    assert read == [f"catalogue-v{CATALOGUE_VERSION}.previous.pickle"]


def test_a_change_that_is_no_undo_does_not_unpickle_the_previous_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The previous catalogue's fingerprint is written beside it: a second change (no
    undo) builds without reading the previous file, and an undo still reads it."""
    table, cache, original, before = _cached_table(tmp_path)
    table.write_bytes(original + LATE_ROW.encode())
    load_catalogue([table], cache_dir=cache)
    read = _recorded_reads(monkeypatch)
    table.write_bytes(original + LATE_ROW.encode() + LATE_ROW.replace("104", "105").encode())
    second = load_catalogue([table], cache_dir=cache)
    assert read == [] and second.get("105") is not None
    assert second.papers == load_catalogue([table]).papers
    table.write_bytes(original + LATE_ROW.encode())  # the second change undone
    undone = load_catalogue([table], cache_dir=cache)
    assert read == [f"catalogue-v{CATALOGUE_VERSION}.previous.pickle"]
    assert undone.get("105") is None and undone.get("104") is not None
    table.write_bytes(original)  # the first one too: built again, not served
    assert load_catalogue([table], cache_dir=cache).papers == before.papers
