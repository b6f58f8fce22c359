"""Issue 36.3, 36.10, 36.11: a hostile ``joins.jsonl`` under the real ``paperscope join``.

A named pipe or a link to ``/dev/zero`` where the joins file is: every ``join`` command
says so in one line and ends (each command is a process of its own, forked from the
test's: its timeout is the hang detector); a join whose paper left the feed is named by
``join --list`` and ``doctor``. The home is the lone list on a cut of the table
(:mod:`tests.helpers.faults_joins`): the same joins and hints for the list's abstracts,
without merging the whole table again after the table changed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.catalogue_data import JOINED_ROW, LONE_ABSTRACT, LONE_HINT
from tests.helpers.faults_cli import forked_cli
from tests.helpers.faults_joins import cut_home, without_row
from tests.helpers.join_homes import Command

JOIN_COMMANDS = [
    ("join", "--list"),
    ("join", "--undo", LONE_HINT),
    ("join", "--apart", JOINED_ROW),
    ("join", LONE_ABSTRACT, LONE_HINT),
]


@pytest.fixture
def sources(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> tuple[Path, Path]:
    """The cut table and the lone-abstract list; the home ``tmp_path/home`` starts with a
    copy of the cache built once per run of them (:mod:`tests.helpers.faults_joins`)."""
    table, listed = cut_home(tmp_path_factory, tmp_path / "home")
    return table, listed


def cli(tmp_path: Path, sources: tuple[Path, Path], table: Path | None = None) -> Command:
    """``paperscope`` on ``table`` (default: the cut table) and the lone-abstract list."""
    options = ("--no-bundled", "--source", str(table or sources[0]), "--source", str(sources[1]))
    return lambda *args: forked_cli(*options, *args, home=tmp_path / "home", timeout=120)


def joins_file(tmp_path: Path) -> Path:
    folder = tmp_path / "home" / "data"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "joins.jsonl"


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_joins_file_that_is_no_file_is_one_line_for_every_join_command(
    tmp_path: Path, sources: tuple[Path, Path], kind: str
) -> None:
    path = joins_file(tmp_path)
    if kind == "fifo":
        os.mkfifo(path)
        said = "not a regular file (a named pipe)"
    else:
        path.symlink_to("/dev/zero")
        said = "not a regular file (a device)"
    call = cli(tmp_path, sources)
    for args in JOIN_COMMANDS:
        done = call(*args)  # a hang is a TimeoutExpired: the test fails
        assert done.returncode == 1, (args, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and said in lines[0] and str(path) in lines[0], (args, lines)
    assert path.is_fifo() if kind == "fifo" else path.is_symlink()  # left as it was


def test_a_join_whose_paper_left_the_feed_is_named_by_list_and_doctor(
    tmp_path: Path, sources: tuple[Path, Path]
) -> None:
    made = cli(tmp_path, sources)(*JOIN_COMMANDS[3])
    assert made.returncode == 0, made.stderr
    left = without_row(sources[0], LONE_HINT, tmp_path / "feed" / sources[0].name)
    gone = cli(tmp_path, sources, left)
    joins = gone("join", "--list")
    assert joins.returncode == 0, joins.stderr
    assert "not in force: that paper is no longer in the table" in joins.stdout
    assert f"paperscope join --undo {LONE_HINT} removes it" in joins.stdout
    doctor = gone("doctor")
    assert f"your join to {LONE_HINT}" in doctor.stdout, doctor.stdout
    shown = gone("show", LONE_ABSTRACT)
    assert shown.returncode == 0 and "Authors: unknown" not in shown.stdout
    assert gone("show", LONE_HINT).returncode != 0  # no ghost paper of the join line
    undone = gone("join", "--undo", LONE_HINT)
    assert undone.returncode == 0, undone.stderr
    assert not joins_file(tmp_path).exists()
