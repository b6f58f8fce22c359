"""Escape sequences in data never reach a terminal through a text export (real processes).

A hostile source puts OSC 52 (clipboard), OSC 0 (pane title, ended by ``ESC \\``), CSI
colours, BEL and a bidi override into a title, an author and a note. ``reading-list
export`` (CSV, Markdown, BibTeX, JSON) and ``dump --format csv`` piped to another program
must hold none of them: the text was made safe where it entered. A citation key is built from
the author's letters, not from the escape sequence's.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers.faults import paperscope
from tests.helpers.faults_cli import run_forked
from tests.helpers.shared_builds import build_once

OSC52 = "\x1b]52;c;ZXZpbA==\x07"
OSC0 = "\x1b]0;pwned\x1b\\"
TITLE = f"Evil {OSC52}Title{OSC0} \u202eReversed\u202c done"
AUTHOR = "\x1b[31mred\x1b[0m Evil"
BAD = ("\x1b", "\x07", "\u202e", "\x9b", "\x9d", "pwned", "ZXZpbA")


def _build_hostile(folder: Path) -> None:
    """``evil.json`` and ``home``, whose list holds its paper with a hostile note."""
    folder.mkdir(parents=True)
    source = folder / "evil.json"
    source.write_text(
        json.dumps([{"event_id": 88004, "title": TITLE, "authors": [AUTHOR, "Ann Lee"]}])
    )
    argv = paperscope("--no-bundled", "--source", str(source))
    for action in (["add", "88004"], ["note", "88004", f"note {OSC52}{OSC0}end"]):
        done = run_forked(folder / "home", [*argv, "reading-list", *action])
        assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def hostile_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of :func:`_build_hostile`, made once per test run (read only)."""
    return build_once(tmp_path_factory, "faults-export-escapes-hostile", _build_hostile)


@pytest.fixture
def hostile(hostile_built: Path, tmp_path: Path) -> tuple[Path, list[str]]:
    """A private copy of a home whose list holds the hostile paper with a hostile note,
    and the source argv (the source stays where the home was made from it: its path is
    in the catalogue's fingerprint)."""
    home = Path(shutil.copytree(hostile_built / "home", tmp_path / "home", symlinks=True))
    return home, paperscope("--no-bundled", "--source", str(hostile_built / "evil.json"))


@pytest.mark.parametrize("fmt", ["csv", "markdown", "bibtex"])
def test_text_exports_hold_no_escape_sequences(hostile: tuple[Path, list[str]], fmt: str) -> None:
    home, argv = hostile
    done = run_forked(home, [*argv, "reading-list", "export", "--format", fmt])  # stdout is a pipe
    assert done.returncode == 0, done.stderr
    assert "Title" in done.stdout and "Reversed" in done.stdout
    for bad in BAD:
        assert bad not in done.stdout, (fmt, bad)
    if fmt == "bibtex":  # the citation key is built from the author's letters
        first = done.stdout.splitlines()[0]
        assert first.startswith("@inproceedings{")
        assert "31m" not in first and "0m2026" not in first
        assert "evil2026" in first


def test_dump_csv_holds_no_escape_sequences(hostile: tuple[Path, list[str]]) -> None:
    home, argv = hostile
    done = run_forked(home, [*argv, "dump", "--format", "csv"])
    assert done.returncode == 0, done.stderr
    assert "Title" in done.stdout
    for bad in BAD:
        assert bad not in done.stdout, bad


def test_json_export_keeps_the_text_without_sequences(hostile: tuple[Path, list[str]]) -> None:
    home, argv = hostile
    done = run_forked(home, [*argv, "reading-list", "export", "--format", "json"])
    assert done.returncode == 0, done.stderr
    bookmark = json.loads(done.stdout)["bookmarks"][0]
    # Made safe where the source was read (issue 36.1), so not even ``jq -r`` replays one.
    assert bookmark["title"] == "Evil Title Reversed done", bookmark["title"]
    assert bookmark["note"] == "note end", bookmark["note"]
