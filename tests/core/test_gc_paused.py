"""The garbage collector paused around cache reads and writes and the catalogue's merge
(:func:`index_builder.atomic.gc_paused`) is left as it was found, errors included."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from index_builder.atomic import gc_paused, read_pickle, write_pickle


@pytest.fixture
def collecting() -> Iterator[None]:
    """The collector on for the test, and as it was after it."""
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


@pytest.mark.usefixtures("collecting")
def test_paused_inside_and_on_again_after_even_on_an_error() -> None:
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(KeyError), gc_paused():
        raise KeyError("x")
    assert gc.isenabled()


@pytest.mark.usefixtures("collecting")
def test_a_collector_off_before_stays_off() -> None:
    gc.disable()
    with gc_paused():
        pass
    assert not gc.isenabled()
    gc.enable()


@pytest.mark.usefixtures("collecting")
def test_cache_files_round_trip_with_the_collector_on_again(tmp_path: Path) -> None:
    value = {"papers": [("p1", "A title"), ("p2", "Another")]}
    assert write_pickle(tmp_path / "c.pickle", value)
    assert gc.isenabled()
    assert read_pickle(tmp_path / "c.pickle") == value
    assert gc.isenabled()
