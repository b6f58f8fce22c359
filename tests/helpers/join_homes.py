"""The homes of the ``J`` and ``paperscope join`` tests, built once per run, copied per test.

Every ``J`` test starts from the same sources: the real table and a list of three bundled
abstracts (:func:`tests.helpers.catalogue_data.write_lone_list`); the "certain" tests
instead a cut of the table with the conference's feed and abstracts besides the list
(:func:`write_certain_sources`). Building their catalogue and index took ~20 s a test;
they are built once (:func:`tests.helpers.shared_builds.build_once`) and each test takes a
private copy of the cache, since ``J`` writes the joins file and changes the index in
place. The sources stay in the shared folder, read only: their paths are part of the
catalogue's fingerprint, so the copied cache is fresh for them.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from index_builder.paths import HOME_ENV, Paths
from tests.helpers.catalogue_data import (
    JOINED_ROW,
    LONE_HINT,
    TABLE,
    UNHINTED_ROW,
    write_lone_list,
)
from tests.helpers.feed_data import ICML_ABSTRACTS, ICML_FEED, icml_abstracts, icml_feed
from tests.helpers.shared_builds import build_once, copy_cache
from tui.app import PaperScopeApp
from tui.shared.config import Config
from tui.shared.context import Context

JoinApp = Callable[[], PaperScopeApp]
"""Makes the app of a ``J`` test on a private copy of its built home."""

Command = Callable[..., subprocess.CompletedProcess[str]]
"""Runs ``paperscope ARGS`` in a process of its own and gives what it did."""


def paperscope_on(home: Path, table: Path, listed: Path, *, timeout: float) -> Command:
    """``paperscope`` on the home ``home`` with ``table`` and the list ``listed`` alone
    (a real process each time: the join commands are tested as a shell runs them)."""
    env = {**os.environ, HOME_ENV: str(home)}

    def call(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tui", "--no-bundled", "--source", str(table),
             "--source", str(listed), *args],
            env=env, capture_output=True, text=True, timeout=timeout, check=False,
        )  # fmt: skip

    return call


CERTAIN_TABLE = "icml2026_events.csv"
"""The name of the cut table of a "certain" home (:func:`write_certain_sources`)."""


def write_certain_sources(folder: Path) -> None:
    """The table, the conference's feed and its abstracts in ``folder``, cut to what the
    "certain" tests need: the list's three papers, each with its bundled abstract (every
    list abstract is joined with certainty, as with the whole feed), and the feed's first
    40 records (synthetic abstracts; a poster with its oral, whose row comes too).

    The whole table and feed (6,628 papers, 6,796 records) cost ~15 s of CPU a build and
    ~4 s each rebuild after ``J``; these tests are about one paper's certain join, which
    the texts decide, not the table's size (the plain ``J`` home keeps the whole table,
    where the join's decisions are the point; the update tests merge the whole feed).
    """
    feed = icml_feed()["results"]
    wanted = {r["id"] for r in feed[:40]} | {int(JOINED_ROW), int(LONE_HINT), int(UNHINTED_ROW)}
    wanted |= {e for r in feed if r["id"] in wanted for e in r["related_events_ids"]}
    records = [r for r in feed if r["id"] in wanted]
    official = icml_abstracts()
    folder.mkdir(parents=True, exist_ok=True)
    with TABLE.open(encoding="utf-8", newline="") as source:
        header, *rows = csv.reader(source)
    with (folder / CERTAIN_TABLE).open("w", encoding="utf-8", newline="") as cut:
        csv.writer(cut).writerows([header, *(r for r in rows if int(r[0]) in wanted)])
    whole = {"count": len(records), "next": None, "previous": None, "results": records}
    (folder / ICML_FEED).write_text(json.dumps(whole), encoding="utf-8")
    abstracts = {str(e): official[str(e)] for e in sorted(wanted)}
    (folder / ICML_ABSTRACTS).write_text(json.dumps(abstracts), encoding="utf-8")


def join_sources(folder: Path, *, certain: bool, marked: bool) -> list[Path]:
    """The sources of a ``J`` home kept in ``folder``, written if they are not there yet:
    the table and the lone list; ``certain``: a cut of the table, with the feed and
    abstracts (``marked``: the list's ProEval abstract in Markdown bold)."""
    listed = folder / "mine.txt"
    if not listed.exists():
        write_lone_list(listed, marked=marked)
    if not certain:
        return [TABLE, listed]
    cut = folder / "certain"
    if not (cut / ICML_ABSTRACTS).exists():
        write_certain_sources(cut)
    return [cut / CERTAIN_TABLE, cut / ICML_FEED, cut / ICML_ABSTRACTS, listed]


def home_app(home: Path, sources: list[Path]) -> PaperScopeApp:
    """The app on the home ``home`` (config, data, cache) with ``sources`` alone."""
    paths = Paths(home / "config", home / "data", home / "cache").ensure()
    ctx = Context(paths=paths, extra_sources=sources, use_bundled=False)
    return PaperScopeApp(ctx, config=Config(path=paths.config_file))


def built_join_home(
    factory: pytest.TempPathFactory, *, certain: bool = False, marked: bool = False
) -> Path:
    """The shared folder of one kind of ``J`` home: its sources, and ``cache`` built."""

    def build(folder: Path) -> None:
        folder.mkdir(parents=True)
        app = home_app(folder / "home", join_sources(folder, certain=certain, marked=marked))
        index = app.ctx.index()
        index.ensure()
        index.close()

    name = "join-certain-marked" if marked else "join-certain" if certain else "join-lone"
    return build_once(factory, name, build)


def copied_join_home(built: Path, home: Path, *, certain: bool, marked: bool) -> list[Path]:
    """Copy the cache built in ``built`` into the home ``home``; the sources it was built of."""
    copy_cache(built / "home" / "cache", home / "cache")
    return join_sources(built, certain=certain, marked=marked)


def copied_join_app(built: Path, tmp_path: Path, *, certain: bool, marked: bool) -> PaperScopeApp:
    """The app of a ``J`` test on ``tmp_path`` (a copy of the cache built in ``built``)."""
    return home_app(tmp_path, copied_join_home(built, tmp_path, certain=certain, marked=marked))


@pytest.fixture
def join_app(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> JoinApp:
    """The app on the table and the lone list, its home at ``tmp_path``."""
    built = built_join_home(tmp_path_factory)
    return lambda: copied_join_app(built, tmp_path, certain=False, marked=False)


@pytest.fixture
def certain_app(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> Callable[[bool], PaperScopeApp]:
    """The app on a cut of the table with the conference's feed and abstracts
    (:func:`write_certain_sources`) and a list whose ProEval abstract is the feed's
    (``marked``: in Markdown bold)."""

    def make(marked: bool) -> PaperScopeApp:
        built = built_join_home(tmp_path_factory, certain=True, marked=marked)
        return copied_join_app(built, tmp_path, certain=True, marked=marked)

    return make
