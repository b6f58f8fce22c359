"""Hostile data through every command: shown as text, never interpreted, never a crash.

The sources (markup, ANSI and OSC escapes, control characters, bidi overrides, a 1 MB
abstract, a 10,000-word title, empty fields, formula cells, NUL bytes) are written by
:mod:`hostile_data` and loaded with ``--source`` and ``--no-bundled``; their catalogue
and index are built once per test run (:func:`hostile_data.build_hostile`, shared with
the TUI's hostile tests) and copied into a home of this module's own. Commands run
in-process through ``tui.cli.main.run``.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from index_builder.model import Paper
from index_builder.paths import HOME_ENV
from tests.helpers.hostile_data import (
    ABSTRACTS,
    HOSTILE_BUILD,
    HUGE_WORD,
    LONG_TITLE_WORD,
    MARKUP,
    build_hostile,
    built_sources,
    unsafe_chars,
)
from tests.helpers.shared_builds import build_once, copy_cache
from tui.cli.main import run
from tui.widgets.paper_view import is_web_link, paper_links

Output = tuple[int, str, str]
WORDS = [*ABSTRACTS, HUGE_WORD, LONG_TITLE_WORD, "zqtitlemarkup", "zqformula", "zqempty", "zqnul"]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, list[str]]]:
    """A home and the ``--source`` options of the hostile files (built once per run).

    The home is this module's own copy of the shared catalogue cache and index (tests
    write bookmarks and exports into it), on which ``paperscope index`` must succeed.
    """
    shared = build_once(tmp_path_factory, HOSTILE_BUILD, build_hostile)
    root = tmp_path_factory.mktemp("hostile")
    copy_cache(shared / "cache", root / "home" / "cache")
    sources = built_sources(shared)
    options = ["--no-bundled"]
    for path in sources:
        options += ["--source", str(path)]
    old = os.environ.get(HOME_ENV)
    os.environ[HOME_ENV] = str(root / "home")
    try:
        assert run([*options, "index"]) == 0
        yield root / "home", options
    finally:
        if old is None:
            os.environ.pop(HOME_ENV, None)
        else:
            os.environ[HOME_ENV] = old


@pytest.fixture
def cli(
    hostile: tuple[Path, list[str]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> Any:
    """``cli(*args) -> (status, stdout, stderr)`` on the hostile home and sources."""
    home, options = hostile
    monkeypatch.setenv(HOME_ENV, str(home))
    monkeypatch.setenv("COLUMNS", "120")

    def call(*args: str) -> Output:
        capsys.readouterr()
        status = run([*options, *args])
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        return status, out, err

    return call


def human_safe(out: str, err: str) -> None:
    """Nothing a terminal would act on, in either stream."""
    assert unsafe_chars(out) == []
    assert unsafe_chars(err) == []


@pytest.fixture(scope="module")
def records(hostile: tuple[Path, list[str]]) -> dict[str, dict[str, Any]]:
    """The hostile catalogue as ``dump`` prints it, by paper id."""
    home, options = hostile
    old = os.environ.get(HOME_ENV)
    os.environ[HOME_ENV] = str(home)
    buffer = io.StringIO()
    import contextlib

    try:
        with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(io.StringIO()):
            assert run([*options, "dump", "--format", "jsonl"]) == 0
    finally:
        if old is not None:
            os.environ[HOME_ENV] = old
    found = [json.loads(line) for line in buffer.getvalue().splitlines()]
    return {r["id"]: r for r in found}


def ids_with(records: dict[str, dict[str, Any]], word: str) -> list[str]:
    """Ids of the records whose title or abstract holds ``word``."""
    return [i for i, r in records.items() if word in r["title"] or word in r["abstract"]]


def test_every_hostile_paper_loads(records: dict[str, dict[str, Any]], cli: Any) -> None:
    for word in WORDS:
        assert ids_with(records, word), word
    huge = records[ids_with(records, HUGE_WORD)[0]]
    assert len(huge["abstract"]) > 900_000
    long = records[ids_with(records, LONG_TITLE_WORD)[0]]
    assert len(long["title"].split()) >= 10_000
    empty = records[ids_with(records, "zqempty")[0]]
    assert empty["authors"] == [] and empty["url"] == ""
    assert not any("zqbinary" in r["abstract"] for r in records.values())


def test_a_binary_file_is_named_and_skipped(cli: Any) -> None:
    status, out, err = cli("search", "zqmarkup")
    assert status == 0
    assert "binary.txt" in err and "not a text file" in err
    human_safe(out, err)


def test_json_keeps_the_text_but_no_sequence_a_terminal_would_run(
    records: dict[str, dict[str, Any]], cli: Any
) -> None:
    status, out, err = cli("dump", "--format", "jsonl")
    assert status == 0
    human_safe(out, err)
    # Made safe where the file was read (issue 36.1): not even ``jq -r`` can replay a
    # sequence; an OSC 8 link keeps its text (36.2).
    ansi = records[ids_with(records, "zqansi")[0]]
    assert ansi["abstract_raw"] == (
        "zqansi red cleared, then and an OSC 8 link and a title end."
    ), ansi["abstract_raw"]


@pytest.mark.parametrize("word", WORDS)
def test_search_shows_text(cli: Any, word: str) -> None:
    status, out, err = cli("search", word)
    assert status == 0
    human_safe(out, err)
    assert "0 of 0" not in out, out[-300:]
    status, out, err = cli("search", word, "--json")
    assert status == 0
    human_safe(out, err)
    assert json.loads(out)["total"] >= 1


def test_show_prints_every_hostile_paper_as_text(
    records: dict[str, dict[str, Any]], cli: Any
) -> None:
    for paper_id, record in records.items():
        status, out, err = cli("show", paper_id)
        assert status == 0, err
        human_safe(out, err)
        status, out, err = cli("show", paper_id, "--json")
        assert status == 0
        human_safe(out, err)
        assert json.loads(out) == record
    markup_id = ids_with(records, "zqmarkup")[0]
    status, out, err = cli("show", markup_id)
    for literal in MARKUP:
        assert literal in out  # printed as characters, not applied


@pytest.mark.parametrize("style", ["bibtex", "apa", "markdown", "plain"])
def test_cite_prints_every_hostile_paper_as_text(
    records: dict[str, dict[str, Any]], cli: Any, style: str
) -> None:
    status, out, err = cli("cite", *records, "--style", style)
    assert status == 0, err
    human_safe(out, err)
    if style == "bibtex":
        assert_bibtex_holds(out, len(records))


def assert_bibtex_holds(text: str, entries: int) -> None:
    """Each entry opens at the start of a line and every brace closes inside it."""
    starts = [m.start() for m in re.finditer(r"(?m)^@", text)]
    assert len(starts) == entries, text[:2000]
    for begin, end in zip(starts, [*starts[1:], len(text)], strict=True):
        depth = 0
        body = re.sub(r"\\[{}\\]", "", text[begin:end])  # escaped braces and backslashes
        for ch in body:
            depth += {"{": 1, "}": -1}.get(ch, 0)
            assert depth >= 0, body[:400]
        assert depth == 0, body[:400]


FORMULA = ("=", "+", "-", "@", "\t", "\r")


def formula_cells(text: str) -> list[str]:
    """Cells of a CSV text that a spreadsheet would run as a formula."""
    csv.field_size_limit(1 << 24)  # the 1 MB abstract is one cell
    return [c for row in csv.reader(io.StringIO(text)) for c in row if c.startswith(FORMULA)]


def test_dump_csv_neutralises_formulas(cli: Any) -> None:
    status, out, _err = cli("dump", "--format", "csv")
    assert status == 0
    assert "zqformula" in out
    assert formula_cells(out) == []


def test_reading_list_exports_hold(records: dict[str, dict[str, Any]], cli: Any) -> None:
    ids = list(records)
    status, _out, err = cli("reading-list", "add", *ids)
    assert status == 0, err
    status, out, err = cli("reading-list", "note", ids[0], '=HYPERLINK("x")', OSC_NOTE)
    assert status == 0, err
    status, out, err = cli("reading-list", "list")
    assert status == 0
    human_safe(out, err)
    folder = Path(os.environ[HOME_ENV]) / "exports"
    folder.mkdir(exist_ok=True)
    for fmt in ("csv", "bibtex", "markdown", "json", "ics"):
        target = folder / f"list.{fmt}"
        status, _out, err = cli("reading-list", "export", "--format", fmt, "-o", str(target))
        assert status == 0, err
        text = target.read_text(encoding="utf-8")
        if fmt == "csv":
            assert "zqformula" in text and formula_cells(text) == []
        elif fmt == "bibtex":
            assert_bibtex_holds(text, len(ids))
        elif fmt == "json":
            json.loads(text)
        elif fmt == "ics":
            assert unsafe_chars(text.replace("\r", "")) == []


OSC_NOTE = "\x1b]52;c;aGFja2Vk\x07 note"


def test_only_web_links_are_openable(records: dict[str, dict[str, Any]]) -> None:
    for url in (
        "javascript:alert(1)",
        "JAVASCRIPT:alert(1)",
        " javascript:alert(1)",
        "file:///etc/passwd",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:x",
        "ftp://example.org",
        "//example.org",
        "https://example.org/a b",
        "https://example.org/\nfile:///etc/passwd",
        "",
    ):
        assert not is_web_link(url), url
    for url in ("https://openreview.net/forum?id=x", "http://icml.cc/", "HTTPS://ICML.CC/"):
        assert is_web_link(url), url
    for record in records.values():
        paper = Paper.from_json(record)
        for _label, url in paper_links(paper):
            assert url.lower().startswith(("http://", "https://")), url


def test_render_of_a_huge_marked_up_text_keeps_every_word() -> None:
    """A 1 MB abstract full of markup: rendered (by the plain cleanup) without losing words."""
    from index_builder.text.render import render

    raw = "start \\textbf{bold} $x^2$ **md** [bold]tag[/bold] " * 25_000 + "zqlastword"
    shown = render(raw)
    assert shown.startswith("start") and shown.endswith("zqlastword")
    assert shown.count("bold") >= 25_000 and shown.count("tag") == 25_000


@pytest.mark.parametrize("style", ["bibtex", "apa", "markdown", "plain"])
def test_citations_drop_whole_escape_sequences(
    records: dict[str, dict[str, Any]], style: str
) -> None:
    """What ``y`` copies: no escape sequence, and no leftover of one (``]52;c;…``, ``[31m``)."""
    from index_builder.citations.styles import cite

    for record in records.values():
        text = cite(Paper.from_json(record), style)
        assert unsafe_chars(text) == []
        assert "aGFja2Vk" not in text and "[31m" not in text, text[:300]


FORMULAS = ["=cmd|' /C calc'!A0", "+1", "-1", "@SUM(A1:A9)", "\t=1+1", "\r=1+1"]


@pytest.mark.parametrize("cell", FORMULAS, ids=["cmd", "plus", "minus", "at", "tab", "cr"])
def test_csv_export_neutralises_every_formula_start(cell: str) -> None:
    """Each column a bookmark exports, holding a formula, comes out inert and whole."""
    from dataclasses import replace

    from index_builder.readinglist.bookmark import Bookmark
    from index_builder.readinglist.exports import to_csv

    paper = Paper(id="p1", title=cell, authors=(cell, "B"), session=cell, url=cell)
    bm = replace(Bookmark.from_paper(paper, at="2026-07-06T10:00:00+00:00"), note=cell)
    text = to_csv([bm])
    assert formula_cells(text) == []
    rows = list(csv.reader(io.StringIO(text)))
    # Kept behind one quote; a CR is a control character and is cleaned away first.
    assert ("'" + cell.replace("\r", "")) in rows[1]
