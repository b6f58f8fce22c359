"""The home of the fault tests on the joins file: the lone list on a cut of the table.

The fault tests of ``joins.jsonl`` (a named pipe or a device there, a join whose paper
left the table, the file read off the event loop) check how the file is read and what is
said, not the join's decisions. On the whole table every ``J`` and every command after a
change of the table merged 6,628 papers again (~2-4 s of CPU each); on the cut of the
"certain" homes (:func:`tests.helpers.join_homes.write_certain_sources`: the list's three
papers and the feed's first 40 records' rows) the list's three abstracts get the same
joins and hints (joined by itself; on its own with the hint ``64328``; on its own without
one). The ``J`` tests of the join's decisions keep the whole table
(:func:`tests.helpers.join_homes.built_join_home`).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from tests.helpers.catalogue_data import write_lone_list
from tests.helpers.join_homes import CERTAIN_TABLE, home_app, write_certain_sources
from tests.helpers.shared_builds import build_once, copy_cache
from tui.app import PaperScopeApp


def cut_sources(folder: Path) -> list[Path]:
    """The cut table and the lone list kept in ``folder``."""
    return [folder / "certain" / CERTAIN_TABLE, folder / "mine.txt"]


def built_cut_home(factory: pytest.TempPathFactory) -> Path:
    """The shared folder of the cut home: its sources, and ``home/cache`` built."""

    def build(folder: Path) -> None:
        write_certain_sources(folder / "certain")
        write_lone_list(folder / "mine.txt")
        index = home_app(folder / "home", cut_sources(folder)).ctx.index()
        index.ensure()
        index.close()

    return build_once(factory, "faults-join-cut", build)


def cut_home(factory: pytest.TempPathFactory, home: Path) -> list[Path]:
    """A private copy at ``home`` of the cut home's cache; its sources (read only)."""
    built = built_cut_home(factory)
    copy_cache(built / "home" / "cache", home / "cache")
    return cut_sources(built)


def cut_app(factory: pytest.TempPathFactory, home: Path) -> PaperScopeApp:
    """The app on a private copy (at ``home``) of the cut home."""
    return home_app(home, cut_home(factory, home))


def without_row(table: Path, event_id: str, dest: Path) -> Path:
    """A copy of ``table`` at ``dest`` (a file) without the row of ``event_id``."""
    with table.open(encoding="utf-8", newline="") as source:
        rows = [row for row in csv.reader(source) if row[0] != event_id]
    dest.parent.mkdir(parents=True, exist_ok=True)
    with dest.open("w", encoding="utf-8", newline="") as out:
        csv.writer(out).writerows(rows)
    return dest
