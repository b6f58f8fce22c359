"""The garbage collector paused around cache reads and writes and the catalogue's merge
(:func:`index_builder.atomic.gc_paused`) is left as it was found, errors included; in a
command's process (:func:`~index_builder.atomic.freezing_after_pauses`) each pause freezes
what it kept, in the app's it does not."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from index_builder.atomic import freezing_after_pauses, gc_paused, read_pickle, write_pickle


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


@pytest.mark.usefixtures("collecting")
def test_a_commands_pauses_freeze_what_they_made_and_the_apps_do_not() -> None:
    before = gc.get_freeze_count()
    with gc_paused():
        kept = [[n] for n in range(1_000)]
    assert gc.get_freeze_count() == before
    with freezing_after_pauses(), gc_paused():
        also_kept = [[n] for n in range(1_000)]
    assert gc.get_freeze_count() >= before + len(kept) + len(also_kept)
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    with gc_paused():
        kept.append([0])
    assert gc.get_freeze_count() == frozen


@pytest.mark.usefixtures("collecting", "home")
def test_a_command_run_from_the_command_line_freezes_after_its_pauses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tui.cli import joins, main

    grew: list[bool] = []

    def probe(args: object, ctx: object) -> int:
        before = gc.get_freeze_count()
        with gc_paused():
            made = [[n] for n in range(100)]
        grew.append(gc.get_freeze_count() >= before + len(made))
        return 0

    monkeypatch.setattr(joins, "cmd_join", probe)
    assert main.run(["join", "--list"]) == 0
    assert grew == [True]
    frozen = gc.get_freeze_count()
    with gc_paused():
        [[n] for n in range(100)]
    assert gc.get_freeze_count() == frozen, "a pause outside a command froze"
