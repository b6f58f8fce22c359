"""``reading-list`` through argparse with a Context on a temporary home."""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from index_builder.model import Paper
from index_builder.paths import Paths
from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.store import ReadingList
from index_builder.text.safe import safe
from index_builder.times import paper_events, parse_time
from tui.cli import reading_list as cli_readinglist
from tui.shared.context import Context


class ListCatalogue:
    """A stand-in catalogue over a few papers (``get`` by id or alias, ``papers``)."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self.papers = tuple(papers)
        self._by = {k: p for p in self.papers for k in (p.id, *p.aliases)}

    def get(self, key: str) -> Paper | None:
        return self._by.get(key)

    def __iter__(self) -> Iterator[Paper]:
        return iter(self.papers)

    def __len__(self) -> int:
        return len(self.papers)


PAPERS = [
    Paper(
        id="p1",
        title="ProEval: Proactive Failure Discovery",
        authors=("Yizheng Huang", "Wenjun Zeng", "Aditi Kumaresan", "Zi Wang"),
        openreview_url="https://openreview.net/forum?id=cYYVYK1Dgg",
        event_id=62850,
    ),
    Paper(
        id="p2",
        title="Multimodal Scaling Laws for Task & Data-Optimized Models",
        authors=("A. Person",),
        session="Poster Session 4",
        starts_at="2026-07-07T18:30:00-07:00",
        ends_at="2026-07-07T20:15:00-07:00",
        aliases=("abs-old",),
        event_id=64356,
    ),
    Paper(id="p3", title="=cmd|' /C calc'!A0 \x1b]52;c;SGFjaw==\x07", event_id=1),
]


def make_ctx(tmp_path: Path, papers: Sequence[Paper] = PAPERS) -> Context:
    """A context on a private home whose catalogue holds ``papers``."""
    root = tmp_path / "home"
    paths = Paths(root / "config", root / "data", root / "cache").ensure()
    ctx = Context(paths=paths, use_bundled=False)
    ctx._catalogue = ListCatalogue(papers)  # type: ignore[assignment]
    return ctx


def rl(ctx: Context, *argv: str) -> int:
    """Parse ``reading-list ARGV`` with a parser holding only this command, then run it."""
    parser = argparse.ArgumentParser(prog="paperscope")
    cli_readinglist.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["reading-list", *argv])
    assert args.func is cli_readinglist.run
    return int(args.func(args, ctx))


@pytest.fixture
def ctx(tmp_path: Path) -> Context:
    return make_ctx(tmp_path)


def test_add_list_json_shape(ctx: Context, capsys: pytest.CaptureFixture[str]) -> None:
    assert rl(ctx, "add", "p1", "abs-old") == 0
    out = capsys.readouterr().out
    assert "added" in out and "p2" in out
    assert rl(ctx, "add", "p1") == 0
    assert "already listed" in capsys.readouterr().out
    assert rl(ctx, "list", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["paper_id"] for d in data] == ["p2", "p1"]  # newest first
    first = next(d for d in data if d["paper_id"] == "p1")
    assert {"paper_id", "title", "authors", "status", "note", "added_at"} <= set(first)
    assert first["authors"] == list(PAPERS[0].authors) and first["status"] == "to-read"
    assert first["in_catalogue"] is True


def test_unknown_ids_fail_but_others_proceed(
    ctx: Context, capsys: pytest.CaptureFixture[str]
) -> None:
    assert rl(ctx, "add", "nope", "p1") == 1
    err = capsys.readouterr().err
    assert "no paper with id 'nope'" in err and "Traceback" not in err
    assert rl(ctx, "remove", "p2") == 1
    assert "not on the reading list" in capsys.readouterr().err
    assert rl(ctx, "status", "zzz", "read") == 1
    assert rl(ctx, "note", "zzz", "x") == 1
    with ReadingList(ctx.paths.reading_list) as store:
        assert store.ids() == {"p1"}


def test_status_note_remove_and_human_list(
    ctx: Context, capsys: pytest.CaptureFixture[str]
) -> None:
    rl(ctx, "add", "p1", "p2", "p3")
    assert rl(ctx, "status", "p1", "read") == 0
    assert rl(ctx, "note", "abs-old", "see", "the", "appendix") == 0
    assert rl(ctx, "remove", "p3") == 0
    capsys.readouterr()
    assert rl(ctx, "list") == 0
    out = capsys.readouterr().out
    assert "[x] p1  ProEval" in out and "note: see the appendix" in out
    assert "2 bookmarks" in out and "p3" not in out
    assert rl(ctx, "list", "--status", "read", "--json") == 0
    assert [d["paper_id"] for d in json.loads(capsys.readouterr().out)] == ["p1"]


def test_bad_status_is_a_usage_error(ctx: Context) -> None:
    with pytest.raises(SystemExit) as info:
        rl(ctx, "status", "p1", "done")
    assert info.value.code == 2


def test_hostile_title_is_inert_on_the_terminal(
    ctx: Context, capsys: pytest.CaptureFixture[str]
) -> None:
    rl(ctx, "add", "p3")
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    rl(ctx, "list", "--json")
    raw = capsys.readouterr().out
    # Stored titles are outside text too: made safe as they are read back (issue 36.1).
    assert "\x1b" not in raw and json.loads(raw)[0]["title"] == safe(PAPERS[2].title)


def test_orphan_is_listed_exported_and_removable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rl(make_ctx(tmp_path), "add", "p1", "p2")
    later = make_ctx(tmp_path, PAPERS[1:])  # p1 left the data
    capsys.readouterr()
    rl(later, "list")
    assert (
        "ProEval: Proactive Failure Discovery  (no longer in the data)" in capsys.readouterr().out
    )
    rl(later, "export", "--format", "bibtex")
    bib = capsys.readouterr().out
    # "p1" says nothing of its venue (an event id would say ICML 2026): nothing invented.
    assert "@misc{huangproeval," in bib and "Wang, Zi" in bib
    assert rl(later, "remove", "p1") == 0


def test_rekeys_a_bookmark_stored_under_an_alias(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = make_ctx(tmp_path, [Paper(id="abs-old", title="Derived")])
    rl(before, "add", "abs-old")
    capsys.readouterr()
    rl(make_ctx(tmp_path), "list", "--json")
    data = json.loads(capsys.readouterr().out)
    assert [d["paper_id"] for d in data] == ["p2"] and data[0]["aliases"] == ["abs-old"]
    assert data[0]["title"] == PAPERS[1].title


@pytest.mark.parametrize("fmt", ["bibtex", "markdown", "csv", "json", "ics"])
def test_export_to_file_parses(ctx: Context, tmp_path: Path, fmt: str) -> None:
    rl(ctx, "add", "p1", "p2", "p3")
    target = tmp_path / "out" / f"list.{fmt}"
    assert rl(ctx, "export", "--format", fmt, "-o", str(target)) == 0
    text = target.read_text(encoding="utf-8")
    if fmt == "bibtex":
        import bibtexparser

        lib = bibtexparser.parse_string(text)
        assert len(lib.entries) == 3 and not lib.failed_blocks
    elif fmt == "csv":
        rows = list(csv.reader(io.StringIO(text, newline="")))
        assert len(rows) == 4 and any(r[2].startswith("'=cmd") for r in rows)
    elif fmt == "json":
        assert len(json.loads(text)["bookmarks"]) == 3
    elif fmt == "ics":
        import icalendar

        events = list(icalendar.Calendar.from_ical(text).walk("VEVENT"))
        assert [str(e["SUMMARY"]) for e in events] == [PAPERS[1].title]
    else:
        assert text.startswith("# Reading list") and "## To read (3)" in text
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]


def test_export_unwritable_target(
    ctx: Context, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert rl(ctx, "export", "--format", "json", "-o", str(blocker / "sub" / "x.json")) == 1
    assert "cannot write" in capsys.readouterr().err


def test_import_merges_and_rejects_bad_files(
    ctx: Context, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = make_ctx(tmp_path / "other")
    rl(other, "add", "p1", "p2")
    rl(other, "note", "p1", "from the laptop")
    export = tmp_path / "export.json"
    rl(other, "export", "--format", "json", "-o", str(export))
    rl(ctx, "add", "p1")
    rl(ctx, "note", "p1", "desk")
    capsys.readouterr()
    assert rl(ctx, "import", str(export)) == 0
    assert "1 new, 1 updated" in capsys.readouterr().out
    with ReadingList(ctx.paths.reading_list) as store:
        note = store.get("p1").note  # type: ignore[union-attr]
    assert note == "desk\n\nfrom the laptop"
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nope"}')
    assert rl(ctx, "import", str(bad)) == 1
    assert "not a PaperScope reading-list export" in capsys.readouterr().err
    assert rl(ctx, "import", str(tmp_path / "missing.json")) == 1
    assert "cannot read" in capsys.readouterr().err


def test_corrupt_list_is_kept_aside(ctx: Context, capsys: pytest.CaptureFixture[str]) -> None:
    path = ctx.paths.reading_list
    garbage = os.urandom(4096)
    path.write_bytes(garbage)
    assert rl(ctx, "add", "p1") == 0
    err = capsys.readouterr().err
    assert "not a reading-list database" in err and "kept as" in err
    kept = [p for p in path.parent.iterdir() if ".corrupt-" in p.name]
    assert len(kept) == 1 and kept[0].read_bytes() == garbage
    with ReadingList(path) as store:
        assert store.ids() == {"p1"}


def test_locked_list_is_a_clear_error(
    ctx: Context, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    rl(ctx, "add", "p1")
    holder = sqlite3.connect(ctx.paths.reading_list, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    real = ReadingList.__init__

    def short_wait(self: ReadingList, path: Path, *, timeout: float = 5.0) -> None:
        real(self, path, timeout=0.1)

    monkeypatch.setattr(ReadingList, "__init__", short_wait)
    try:
        capsys.readouterr()
        assert rl(ctx, "add", "p2") == 1
        err = capsys.readouterr().err
        assert "locked by another process" in err and "Traceback" not in err
    finally:
        holder.close()


@pytest.fixture
def bundled_home(warm_home: Path) -> Path:
    """The run's shared home whose bundled catalogue cache is built (read only)."""
    return warm_home


def bundled_ctx(root: Path, tmp_path: Path) -> Context:
    """The real bundled catalogue (cached in ``root``) with a fresh config and data dir."""
    return Context(paths=Paths(tmp_path / "config", tmp_path / "data", root / "cache").ensure())


def test_bundled_proeval_by_its_abstract_id(
    bundled_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ctx = bundled_ctx(bundled_home, tmp_path)
    proeval = next(p for p in ctx.catalogue().papers if p.title.startswith("ProEval"))
    assert proeval.aliases, "the catalogue joins ProEval's abstract to its row"
    assert rl(ctx, "add", proeval.aliases[0]) == 0
    capsys.readouterr()
    assert rl(ctx, "list", "--json") == 0
    [record] = json.loads(capsys.readouterr().out)
    assert record["paper_id"] == proeval.id and record["authors"] == list(proeval.authors)
    assert len(record["authors"]) == 4
    assert rl(ctx, "export", "--format", "bibtex") == 0
    bib = capsys.readouterr().out
    assert bib.startswith("@inproceedings{huang2026proeval,")
    author = next(line for line in bib.splitlines() if line.strip().startswith("author"))
    assert author.count(" and ") == 3 and "Wang, Zi" in author


@pytest.mark.slow
def ics_events(ics: bytes) -> tuple[int, list[Any]]:
    """The number of events in ``ics`` and, read back by icalendar, every event holding a
    character beyond ASCII or an escaped backslash, every talk and every tenth of the rest.

    Each event is written by the same code whatever its paper (icalendar's, on the fields
    of :func:`paper_events`); what differs is the text. Folding a long line between the
    bytes of a character and escaping a backslash are where a paper's text can break an
    event, so every such event is read; the others hold only ASCII with the commas,
    semicolons and new lines every event has, and every tenth of them is read (the whole
    file took 3.2 s of CPU to read, these 2,476 of 6,033 events 1.6 s).
    """
    import icalendar

    head, *blocks = ics.split(b"BEGIN:VEVENT\r\n")
    assert head.startswith(b"BEGIN:VCALENDAR\r\n") and blocks
    assert all(b.endswith(b"END:VEVENT\r\n") for b in blocks[:-1])
    assert blocks[-1].endswith(b"END:VEVENT\r\nEND:VCALENDAR\r\n")
    chosen = [
        n
        for n, block in enumerate(blocks)
        if not block.isascii() or b"\\\\" in block or b"SUMMARY:Talk: " in block or n % 10 == 0
    ]
    if chosen[-1] != len(blocks) - 1:
        chosen.append(len(blocks) - 1)  # the block that ends the calendar
    sample = head + b"".join(b"BEGIN:VEVENT\r\n" + blocks[n] for n in chosen)
    events = list(icalendar.Calendar.from_ical(sample).walk("VEVENT"))
    assert len(events) == len(chosen)
    return len(blocks), events


def test_whole_bundled_catalogue_bookmarked_exports_parse(
    bundled_home: Path, tmp_path: Path
) -> None:
    """Every bundled paper bookmarked: each export of the whole list reads back (the
    iCalendar file's events as :func:`ics_events` says)."""
    import bibtexparser

    ctx = bundled_ctx(bundled_home, tmp_path)
    papers = ctx.catalogue().papers
    with ReadingList(ctx.paths.reading_list) as store:
        store.merge(Bookmark.from_paper(p) for p in papers)
        assert len(store) == len(papers) >= 6628
    out = tmp_path / "out"
    for fmt in ("bibtex", "csv", "json", "markdown", "ics"):
        assert rl(ctx, "export", "--format", fmt, "-o", str(out / fmt)) == 0
    lib = bibtexparser.parse_string((out / "bibtex").read_text(encoding="utf-8"))
    keys = [e.key for e in lib.entries]
    assert not lib.failed_blocks and len(keys) == len(set(keys)) == len(papers)
    assert all(e["title"].count("{") == e["title"].count("}") for e in lib.entries)
    rows = list(csv.reader(io.StringIO((out / "csv").read_text(encoding="utf-8"), newline="")))
    assert len(rows) == len(papers) + 1
    assert len(json.loads((out / "json").read_text(encoding="utf-8"))["bookmarks"]) == len(papers)
    assert (out / "markdown").read_text(encoding="utf-8").count("\n- [ ] ") == len(papers)
    # one event per presentation with a time: the poster sessions and the orals' talks
    timed = sum(1 for p in papers for e in paper_events(p) if parse_time(e.starts_at))
    count, events = ics_events((out / "ics").read_bytes())
    assert count == timed > 5000
    assert sum(1 for e in events if str(e["SUMMARY"]).startswith("Talk: ")) >= 160


@pytest.mark.parametrize("spelling", [["to read"], ["to", "read"], ["To-Read"], ["to_read"]])
def test_status_takes_the_spelling_the_tui_shows(
    ctx: Context, capsys: pytest.CaptureFixture[str], spelling: list[str]
) -> None:
    rl(ctx, "add", "p1")
    assert rl(ctx, "status", "p1", "read") == 0
    assert rl(ctx, "status", "p1", *spelling) == 0
    with ReadingList(ctx.paths.reading_list) as store:
        bookmark = store.get("p1")
        assert bookmark is not None and bookmark.status == "to-read"
    capsys.readouterr()
    assert rl(ctx, "list", "--status", " ".join(spelling), "--json") == 0
    assert [d["paper_id"] for d in json.loads(capsys.readouterr().out)] == ["p1"]


def test_bad_status_names_the_choices(ctx: Context, capsys: pytest.CaptureFixture[str]) -> None:
    rl(ctx, "add", "p1")
    with pytest.raises(SystemExit) as info:
        rl(ctx, "status", "p1", "to", "do")
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "'to do'" in err and "'to read'" in err and "Traceback" not in err


def test_list_json_names_the_id_as_the_export_does(
    ctx: Context, capsys: pytest.CaptureFixture[str]
) -> None:
    rl(ctx, "add", "p1")
    capsys.readouterr()
    assert rl(ctx, "list", "--json") == 0
    [listed] = json.loads(capsys.readouterr().out)
    assert rl(ctx, "export", "--format", "json") == 0
    exported = json.loads(capsys.readouterr().out)
    [record] = exported if isinstance(exported, list) else exported["bookmarks"]
    assert "id" not in listed and listed["paper_id"] == record["paper_id"] == "p1"
    assert set(record) <= set(listed)


def test_imported_bookmarks_show_a_title(
    ctx: Context, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ids only for a paper in the data: its title; a paper gone: the stored title."""
    source = tmp_path / "hand-made.json"
    source.write_text(
        json.dumps([{"paper_id": "p1"}, {"paper_id": "gone-1", "title": "A Stored Title"}])
    )
    assert rl(ctx, "import", str(source)) == 0
    capsys.readouterr()
    assert rl(ctx, "list") == 0
    out = capsys.readouterr().out
    assert "(untitled)" not in out
    assert "p1  ProEval: Proactive Failure Discovery" in out
    assert "gone-1  A Stored Title  (no longer in the data)" in out


def test_tags_from_the_shell_and_through_an_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ctx = make_ctx(tmp_path / "a")
    assert rl(ctx, "add", "p1", "p2") == 0
    assert rl(ctx, "tag", "p1", "thesis", "to discuss") == 0
    assert rl(ctx, "tag", "abs-old", "thesis") == 0  # by an earlier id
    assert rl(ctx, "untag", "p1", "to discuss") == 0
    assert rl(ctx, "tag", "p1", "a,b") == 1
    assert "comma" in capsys.readouterr().err
    assert rl(ctx, "tag", "nope", "x") == 1
    capsys.readouterr()
    assert rl(ctx, "export", "--format", "csv", "--tag", "THESIS") == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert sorted((r["id"], r["tags"]) for r in rows) == [("p1", "thesis"), ("p2", "thesis")]
    out = tmp_path / "list.json"
    assert rl(ctx, "export", "--format", "json", "-o", str(out)) == 0
    other = make_ctx(tmp_path / "b")
    assert rl(other, "import", str(out)) == 0
    capsys.readouterr()
    assert rl(other, "list", "--json", "--tag", "thesis") == 0
    data = json.loads(capsys.readouterr().out)
    assert {d["paper_id"]: d["tags"] for d in data} == {"p1": ["thesis"], "p2": ["thesis"]}
