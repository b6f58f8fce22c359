"""Reading-list exports parsed back, formula neutralisation, clashes and the JSON import."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

import icalendar
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index_builder.atomic import write_atomic
from index_builder.model import Paper
from index_builder.paths import bundled_sources
from index_builder.readinglist.bookmark import Bookmark, now_iso, parse_iso
from index_builder.readinglist.exports import (
    CSV_COLUMNS,
    default_export_path,
    export,
    neutralise_cell,
    read_json,
    to_csv,
    to_ics,
    to_markdown,
)
from index_builder.readinglist.ics import clean_ics_text, event_uid
from index_builder.readinglist.schedule import clashes, group_sessions
from index_builder.readinglist.store import ReadingList
from tests.helpers.waiting import wait_until

NOW = datetime(2026, 12, 2, 19, 30, tzinfo=UTC)


@cache
def csv_papers() -> dict[str, Paper]:
    """Every row of the bundled table as a Paper keyed by ``e<event_id>`` (orals too)."""
    table = bundled_sources()[0]
    out: dict[str, Paper] = {}
    with table.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            pid = f"e{row['event_id']}"
            out[pid] = Paper(
                id=pid,
                title=row["title"],
                title_raw=row["title"],
                authors=tuple(a.strip() for a in row["authors"].split(";") if a.strip()),
                oral=row["event_type"] == "Oral",
                session=row["session"],
                starts_at=row["starttime"],
                ends_at=row["endtime"],
                url=row["url"],
                openreview_url=row["paper_url"],
                event_id=int(row["event_id"]),
                venue="ICML 2026",
            )
    return out


def marks(*ids: str) -> list[Bookmark]:
    """Bookmarks of bundled papers, in the order given."""
    papers = csv_papers()
    return [Bookmark.from_paper(papers[i], at="2026-12-01T10:00:00.000Z") for i in ids]


def oral_at(hhmm: str) -> str:
    """The id of an oral on 6 July starting at ``hhmm`` local time."""
    for pid, p in csv_papers().items():
        if p.oral and p.starts_at == f"2026-07-06T{hhmm}:00-07:00":
            return pid
    raise LookupError(hhmm)


def test_bundled_rows_are_read() -> None:
    papers = csv_papers()
    assert len(papers) == 6628 + 168
    assert papers["e62850"].authors[0] == "Yizheng Huang"


# --- .ics -----------------------------------------------------------------------------------


def test_ics_parses_field_by_field() -> None:
    bms = marks("e64356", "e62850")  # a Poster Session 4 paper with '&'; ProEval has no time
    text = to_ics(bms, now=NOW)
    assert "\r\n" in text and "\n" not in text.replace("\r\n", "")
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    assert "DTSTART:20260708T053000Z\r\n" in text  # 2026-07-07T22:30 at -07:00
    cal = icalendar.Calendar.from_ical(text)
    events = list(cal.walk("VEVENT"))
    assert len(events) == 1  # ProEval has no session time
    ev = events[0]
    paper = csv_papers()["e64356"]
    assert str(ev["SUMMARY"]) == paper.title
    assert ev["DTSTART"].dt == datetime(2026, 7, 8, 5, 30, tzinfo=UTC)
    assert ev["DTEND"].dt == datetime(2026, 7, 8, 7, 15, tzinfo=UTC)
    assert ev["DTSTAMP"].dt == NOW
    assert str(ev["LOCATION"]) == "Poster Session 4"
    assert paper.openreview_url in str(ev["DESCRIPTION"])
    assert str(ev["URL"]) == paper.openreview_url
    assert str(ev["UID"]) == event_uid("e64356")
    assert "Clashes" not in str(ev["DESCRIPTION"])


def test_ics_utc_conversion_example() -> None:
    bm = Bookmark(Paper("x", "t", starts_at="2026-07-07T18:30:00-07:00"))
    assert "DTSTART:20260708T013000Z\r\n" in to_ics([bm], now=NOW)


def test_ics_marks_clashes_and_keeps_uids_stable() -> None:
    oral = oral_at("18:45")  # overlaps Poster Session 1 (18:30-20:15)
    bms = marks("e63900", "e63329", oral)  # two posters of session 1 and the oral
    first, second = to_ics(bms, now=NOW), to_ics(list(reversed(bms)), now=NOW)
    uids = {str(e["UID"]) for e in icalendar.Calendar.from_ical(first).walk("VEVENT")}
    assert uids == {str(e["UID"]) for e in icalendar.Calendar.from_ical(second).walk("VEVENT")}
    assert len(uids) == 3
    desc = {
        str(e["UID"]): str(e["DESCRIPTION"])
        for e in icalendar.Calendar.from_ical(first).walk("VEVENT")
    }
    oral_title = csv_papers()[oral].title
    assert f"Clashes with: {oral_title}" in desc[event_uid("e63900")]
    assert csv_papers()["e63329"].title not in desc[event_uid("e63900")]  # same session
    assert "Clashes with:" in desc[event_uid(oral)]


def test_ics_escaping_and_folding_round_trip() -> None:
    title = "Commas, semis; back\\slash\nnewline — " + "é漢字🙂" * 30
    bm = Bookmark(Paper("h", title, session="S; 1, A", starts_at="2026-07-06T18:30:00-07:00"))
    text = to_ics([bm], now=NOW)
    physical = text.split("\r\n")
    assert all(len(line.encode()) <= 75 for line in physical)
    assert sum(line.startswith(" ") for line in physical) >= 5  # the long title was folded
    unfolded = text.replace("\r\n ", "").split("\r\n")
    assert "SUMMARY:Commas\\, semis\\; back\\\\slash\\nnewline — " + "é漢字🙂" * 30 in unfolded
    assert "LOCATION:S\\; 1\\, A" in unfolded
    ev = next(iter(icalendar.Calendar.from_ical(text).walk("VEVENT")))
    assert str(ev["SUMMARY"]) == title
    assert str(ev["LOCATION"]) == "S; 1, A"


def test_ics_backslash_n_and_controls_read_back_as_the_cleaned_text() -> None:
    # RFC 5545's \\N is a line break (also once a control between \\ and N is dropped).
    title = "a\\Nb\x1b[31mred\u2028c\r\nd\\\x00N"
    bm = Bookmark(Paper("c", title, starts_at="2026-07-06T18:30:00-07:00"))
    text = to_ics([bm], now=NOW)
    assert "\x1b" not in text and "\u2028" not in text
    ev = next(iter(icalendar.Calendar.from_ical(text).walk("VEVENT")))
    assert str(ev["SUMMARY"]) == clean_ics_text(title) == "a\nb[31mredc\nd\n"


# --- clashes and sessions -------------------------------------------------------------------


def test_clash_rules() -> None:
    oral = oral_at("18:45")
    early_oral = oral_at("18:00")  # ends 18:15, before Poster Session 1 starts
    bms = marks("e63900", "e63329", oral, early_oral, "e62850")
    found = clashes(bms)
    assert set(found) == {"e63900", "e63329", oral}
    assert {b.paper_id for b in found[oral]} == {"e63900", "e63329"}
    assert {b.paper_id for b in found["e63900"]} == {oral}
    blank = Bookmark(Paper("b", "b", starts_at=bms[0].copy.starts_at, ends_at=bms[0].copy.ends_at))
    assert "b" not in clashes([bms[0], blank])  # blank session name, same range: same session


def test_group_sessions_orders_by_time_and_marks_clashes() -> None:
    oral = oral_at("18:45")
    groups = group_sessions(marks("e64356", "e63900", oral, "e62850", "e63329"))
    labels = [g.label for g in groups]
    # No lookup, so no venue: the times keep the offset they came with.
    assert labels[0] == "Poster Session 1, 18:30–20:15 UTC-07:00"
    assert labels[1].startswith("Oral 1") and labels[1].endswith("18:45–19:00 UTC-07:00")
    assert labels[2] == "Poster Session 4, 22:30–00:15 UTC-07:00"
    assert labels[3] == "No session time"
    assert [len(g.bookmarks) for g in groups] == [2, 1, 1, 1]
    assert groups[0].clashes_with == (labels[1],) and groups[1].clashes_with == (labels[0],)
    assert groups[2].clashes_with == ()
    assert str(groups[2].day) == "2026-07-07" and groups[3].day is None


# --- CSV ------------------------------------------------------------------------------------


def test_csv_parses_and_neutralises_formulas() -> None:
    hostile = Bookmark(
        Paper(
            "h",
            '=HYPERLINK("http://evil","x")',
            authors=("+1 Person", "@Other"),
            session="\tcmd",
            url="\rnext",
        ),
        note="-2+3",
    )
    text = to_csv([*marks("e64356"), hostile])
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert rows[1][0] == "e64356" and rows[1][2] == csv_papers()["e64356"].title
    row = dict(zip(CSV_COLUMNS, rows[2], strict=True))
    assert row["title"] == '\'=HYPERLINK("http://evil","x")'
    assert row["authors"] == "'+1 Person; @Other"
    assert row["note"] == "'-2+3"
    # The CR is a control character: cleaned away like every escape, leaving no formula.
    assert row["session"] == "'\tcmd" and row["url"] == "next"
    assert neutralise_cell("safe = fine") == "safe = fine"


# --- JSON -----------------------------------------------------------------------------------


def test_json_round_trip_and_import_merge(tmp_path: Path) -> None:
    bms = marks("e64356", "e62850")
    text = export(bms, "json", now=NOW)
    data = json.loads(text)
    assert data["format"] == "paperscope-reading-list" and data["version"] == 1
    assert read_json(text) == bms
    with ReadingList(tmp_path / "a.sqlite3") as mine, ReadingList(tmp_path / "b.sqlite3") as other:
        mine.merge(bms)
        mine.set_note("e62850", "desk notes")
        # updated_at has millisecond resolution: let the clock pass it, so "later" is unambiguous.
        stamp = parse_iso(mine.get("e62850").updated_at)  # type: ignore[union-attr]
        assert wait_until(lambda: parse_iso(now_iso()) > stamp, every=0.001)
        other.add(csv_papers()["e62850"])
        other.set_note("e62850", "from my laptop")
        other.set_status("e62850", "reading")
        assert mine.merge(read_json(export(other.all(), "json"))) == (0, 1)
        got = mine.get("e62850")
    assert got is not None
    assert got.status == "reading"  # the other side changed it last
    assert got.note == "desk notes\n\nfrom my laptop"


def test_json_import_accepts_list_output_and_rejects_junk() -> None:
    listed = json.dumps(
        [
            {
                "id": "p1",
                "title": "T",
                "authors": ["A"],
                "status": "read",
                "note": "",
                "added_at": "2026-01-01T00:00:00Z",
            }
        ]
    )
    assert read_json(listed)[0].status == "read"
    for junk, message in [
        ("{", "not JSON"),
        ('{"format": "other"}', "not a PaperScope"),
        ('{"format": "paperscope-reading-list", "version": 9, "bookmarks": []}', "newer"),
        ('[{"id": ""}]', "bookmark 1"),
        ('[{"id": "x", "status": "done"}]', "unknown status"),
        ('[{"id": "x", "authors": "A"}]', "list of strings"),
        ('"text"', "list of bookmarks"),
    ]:
        with pytest.raises(ValueError, match=message):
            read_json(junk)


# --- Markdown ---------------------------------------------------------------------------------


def test_markdown_checklist_grouped_by_status() -> None:
    a, b = marks("e64356", "e62850")
    evil = Bookmark(
        Paper("z", "[click](javascript:alert(1)) *bold*"), status="read", note="line one\nline two"
    )
    text = to_markdown([a, Bookmark.from_json({**b.to_json(), "status": "reading"}), evil])
    lines = text.splitlines()
    assert lines[0] == "# Reading list"
    assert (
        lines.index("## Reading (1)") < lines.index("## To read (1)") < lines.index("## Read (1)")
    )
    assert any(line.startswith("- [ ] [Multimodal Scaling Laws for Task") for line in lines)
    assert "- [x] \\[click\\](javascript:alert(1)) \\*bold\\*: authors unknown" in lines
    assert "  > line two" in lines


# --- files ------------------------------------------------------------------------------------


def test_write_atomic_replaces_and_leaves_no_temp(tmp_path: Path) -> None:
    target = default_export_path(tmp_path, "ics", now=NOW)
    assert target.name == "reading-list-20261202T193000.ics"
    write_atomic(target, "old")
    write_atomic(target, "new\r\nline")
    assert target.read_bytes() == b"new\r\nline"
    assert [p.name for p in target.parent.iterdir()] == [target.name]


def test_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown format"):
        export([], "xml")


# --- BibTeX -----------------------------------------------------------------------------------


def test_bibtex_parses_with_catalogue_and_orphans() -> None:
    import bibtexparser

    papers = csv_papers()
    bms = marks("e64356", "e63090", "e62850")
    gone = Bookmark(Paper("gone", "A Paper That Left & Came Back", authors=("Ann Lee",)))
    lookup = papers.get
    text = export([*bms, gone], "bibtex", lookup=lookup, all_papers=list(papers.values()))
    lib = bibtexparser.parse_string(text)
    assert not lib.failed_blocks
    entries = {e.key: e for e in lib.entries}
    assert len(entries) == 4
    assert "huang2026proeval" in entries
    assert entries["huang2026proeval"]["author"].count(" and ") == 3
    assert "\\&" in next(e for e in lib.entries if "Task" in e["title"])["title"]
    # "gone" says nothing of its venue: a @misc without an invented year.
    assert entries["leepaper"]["author"] == "Lee, Ann" and entries["leepaper"].entry_type == "misc"


@pytest.mark.usefixtures("text_table")
@settings(max_examples=200, deadline=None)
@given(title=st.text(max_size=300), session=st.text(max_size=40))
def test_ics_any_text_parses_back(title: str, session: str) -> None:
    stated = Paper("x", title or "t", session=session, starts_at="2026-07-06T18:30:00-07:00")
    bm = Bookmark(stated)
    text = to_ics([bm], now=NOW)
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    ev = next(iter(icalendar.Calendar.from_ical(text).walk("VEVENT")))
    assert str(ev["SUMMARY"]) == clean_ics_text(title or "t")
    if clean_ics_text(session):
        assert str(ev["LOCATION"]) == clean_ics_text(session)


def test_orphan_with_a_derived_title_is_not_cited_as_its_title(tmp_path: Path) -> None:
    derived = Paper(id="a0123456789", title="Learning things from an abstract", title_derived=True)
    with ReadingList(tmp_path / "d.sqlite3") as store:
        store.add(derived)
        [bm] = store.all()
    assert bm.copy.title_derived and bm.to_paper().title_derived
    assert read_json(export([bm], "json"))[0].copy.title_derived
    bib = export([bm], "bibtex", lookup=lambda _id: None)
    assert "derived" in bib.lower() and "Authors unknown" in bib
    assert "(title derived from the abstract)" in export([bm], "markdown")
