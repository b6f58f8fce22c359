"""``paperscope join``: a lone abstract joined by hand, listed, refused, taken back.

``paperscope`` (run in the test's process, :func:`tests.helpers.cli.run_cli`: the real
parsing, commands and output) on the real table and a list of bundled abstracts (one joins
by itself, one stays on its own with a right hint, one without), their catalogue and index
built once per run and copied for each test (:mod:`tests.helpers.join_homes`); every
command after the join reads ``joins.jsonl`` from the data folder, as the app does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.catalogue_data import (
    JOINED_ABSTRACT,
    JOINED_ROW,
    LONE_ABSTRACT,
    LONE_HINT,
    UNHINTED_ABSTRACT,
    UNHINTED_ROW,
)
from tests.helpers.cli import run_cli
from tests.helpers.join_homes import Command, built_join_home, copied_join_home


def on_sources(home: Path, sources: list[Path]) -> Command:
    """``paperscope --no-bundled --source ... ARGS`` on ``home``, in this process."""
    given = [a for s in sources for a in ("--source", str(s))]
    return lambda *args: run_cli("--no-bundled", *given, *args, home=home)


@pytest.fixture
def paperscope(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> Command:
    built = built_join_home(tmp_path_factory)  # the table and the list, built once per run
    sources = copied_join_home(built, tmp_path / "home", certain=False, marked=False)
    return on_sources(tmp_path / "home", sources)


def shown(call: Command, paper_id: str) -> dict[str, Any]:
    done = call("show", paper_id, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_join_follows_the_hint_and_undo_takes_it_back(paperscope: Command, tmp_path: Path) -> None:
    call = paperscope
    lone = shown(call, LONE_ABSTRACT)
    assert lone["event_id"] is None and lone["possibly_same_as"] == [LONE_HINT]

    done = call("join", LONE_ABSTRACT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Joined {LONE_ABSTRACT} to {LONE_HINT}: Selective Disclosure")
    assert f"paperscope join --undo {LONE_HINT} takes it back" in done.stdout
    joins = tmp_path / "home" / "data" / "joins.jsonl"
    assert json.loads(joins.read_text(encoding="utf-8"))["event_id"] == int(LONE_HINT)

    paper = shown(call, LONE_ABSTRACT)
    assert paper["id"] == LONE_HINT and LONE_ABSTRACT in paper["aliases"]
    assert paper["abstract"] == lone["abstract"] and paper["authors"]
    listed = call("join", "--list")
    assert listed.returncode == 0 and f"{LONE_HINT}    {LONE_ABSTRACT}" in listed.stdout

    again = call("join", LONE_ABSTRACT, LONE_HINT)
    assert again.returncode == 1
    assert f"{LONE_ABSTRACT} is already joined to {LONE_HINT}" in again.stderr

    undone = call("join", "--undo", LONE_ABSTRACT)
    assert undone.returncode == 0, undone.stderr
    assert f"Took back the join of {LONE_ABSTRACT} to {LONE_HINT}" in undone.stdout
    assert not joins.exists()
    assert shown(call, LONE_ABSTRACT)["event_id"] is None
    assert "holds none" in call("join", "--list").stdout


def test_apart_separates_an_automatic_join_and_undo_restores_it(
    paperscope: Command, tmp_path: Path
) -> None:
    call = paperscope
    joined = shown(call, JOINED_ROW)
    assert joined["abstract"] and JOINED_ABSTRACT in joined["aliases"]

    done = call("join", "--apart", JOINED_ROW)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Took {JOINED_ABSTRACT} apart from {JOINED_ROW}: ProEval")
    assert f"paperscope join --undo {JOINED_ROW} takes it back" in done.stdout
    row, alone = shown(call, JOINED_ROW), shown(call, JOINED_ABSTRACT)
    assert not row["abstract"] and row["authors"] == joined["authors"]
    assert alone["id"] == JOINED_ABSTRACT and alone["event_id"] is None
    assert alone["abstract"] == joined["abstract"]
    listed = call("join", "--list")
    assert f"{JOINED_ROW}    apart from {JOINED_ABSTRACT}" in listed.stdout

    undone = call("join", "--undo", JOINED_ABSTRACT)
    assert undone.returncode == 0, undone.stderr
    assert f"Took back the separation of {JOINED_ABSTRACT} to {JOINED_ROW}" in undone.stdout
    assert shown(call, JOINED_ABSTRACT)["id"] == JOINED_ROW
    assert not (tmp_path / "home" / "data" / "joins.jsonl").exists()


def test_an_abstract_without_a_hint_is_not_joined_its_likeliest_papers_listed(
    paperscope: Command, tmp_path: Path
) -> None:
    done = paperscope("join", UNHINTED_ABSTRACT)
    assert done.returncode == 1
    assert f"{UNHINTED_ABSTRACT} has no 'possibly the same as' hint" in done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "The likeliest papers of the table without an abstract:"
    assert lines[1].split()[0] == UNHINTED_ROW and len(lines) == 6
    assert not (tmp_path / "home" / "data" / "joins.jsonl").exists()
    joined = paperscope("join", UNHINTED_ABSTRACT, UNHINTED_ROW)
    assert joined.returncode == 0 and f"to {UNHINTED_ROW}: Adaptive Sharpness" in joined.stdout


REFUSALS = [
    ((JOINED_ABSTRACT, LONE_HINT), 1, f"{JOINED_ABSTRACT} is already joined to {JOINED_ROW}"),
    ((LONE_ABSTRACT, JOINED_ROW), 1, "already has an abstract; a join never replaces one"),
    ((LONE_HINT,), 1, f"{LONE_HINT} is a table paper"),
    (("a0000000000", LONE_HINT), 1, "no paper with id 'a0000000000'"),
    (("--undo", LONE_HINT), 1, "no join you made is on '64328'"),
    ((), 2, "give ABSTRACT_ID and PAPER_ID"),
    (("--undo", LONE_HINT, LONE_ABSTRACT), 2, "--list, --undo and --apart take no other ids"),
    (("--apart", UNHINTED_ROW), 1, "holds no abstract of your lists to take apart"),
    (("--apart", LONE_ABSTRACT), 1, "is not a paper of the ICML 2026 table"),
]


def test_refusals_say_why_and_write_nothing(paperscope: Command, tmp_path: Path) -> None:
    # One home for all: each refusal is checked to write nothing before the next runs.
    for args, status, said in REFUSALS:
        done = paperscope("join", *args)
        assert done.returncode == status and said in done.stderr, (args, done.returncode,
                                                                   done.stderr)  # fmt: skip
        assert not (tmp_path / "home" / "data" / "joins.jsonl").exists(), args


@pytest.mark.parametrize(
    "marked", [False, True], ids=["same-text-refused-first", "same-but-markup-found-after"]
)
def test_an_abstract_that_is_the_conference_own_text_is_not_taken_apart(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path, marked: bool
) -> None:
    # A cut of the table, the feed and its abstracts (join_homes.write_certain_sources)
    # and the list, built once per run (tests.helpers.join_homes).
    built = built_join_home(tmp_path_factory, certain=True, marked=marked)
    copied = copied_join_home(built, tmp_path / "home", certain=True, marked=marked)
    done = on_sources(tmp_path / "home", copied)("join", "--apart", JOINED_ROW)
    assert done.returncode == 1, done.stdout
    assert f"{JOINED_ROW} keeps its abstract: the conference's own abstract" in done.stderr
    assert ("joins.jsonl is left as it was" in done.stderr) is marked, done.stderr
    assert not (tmp_path / "home" / "data" / "joins.jsonl").exists()
