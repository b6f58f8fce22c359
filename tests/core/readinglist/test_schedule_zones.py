"""The planner's days in the venue's zone, talks and boards, and the calendar's place fields."""

from __future__ import annotations

from datetime import UTC, datetime

import icalendar

from index_builder.model import Event, Paper
from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.exports import to_markdown
from index_builder.readinglist.ics import to_ics
from index_builder.readinglist.schedule import clashes, group_sessions

PS3 = ("2026-07-07T18:30:00-07:00", "2026-07-07T20:15:00-07:00")
POSTER = Event("poster", "Poster Session 3", *PS3, 62980, "Hall C", "#2504")
TALK = Event("oral", "Oral 3A", "2026-07-07T19:00:00-07:00", "2026-07-07T19:15:00-07:00", 7)
LATE = Event("poster", "Poster Session 4", "2026-07-07T23:30:00-07:00", "2026-07-08T01:15:00-07:00")

PAPERS = {
    "62980": Paper(
        id="62980", title="Faults", session=POSTER.session, starts_at=PS3[0], ends_at=PS3[1],
        events=(POSTER,), venue="ICML 2026",
    ),
    "500": Paper(
        id="500", title="An oral", oral=True, session="Poster Session 4",
        starts_at=LATE.starts_at, ends_at=LATE.ends_at, events=(LATE, TALK), venue="ICML 2026",
    ),
    "bad": Paper(
        id="bad", title="Broken times", session="Poster Session 9",
        starts_at="2026-07-07T18:30:00", events=(Event("poster", "Poster Session 9", "soon"),),
        venue="ICML 2026",
    ),
}  # fmt: skip


def lookup(key: str) -> Paper | None:
    return PAPERS.get(key)


def bookmarks() -> list[Bookmark]:
    return [Bookmark.from_paper(p, at="2026-07-01T00:00:00Z") for p in PAPERS.values()]


def test_poster_session_3_is_on_wednesday_in_seoul_with_its_board() -> None:
    groups = group_sessions(bookmarks(), lookup)
    names = [g.name for g in groups]
    assert names == ["Poster Session 3", "Oral 3A", "Poster Session 4", "Poster Session 9"]
    ps3, talk, ps4, unknown = groups
    assert ps3.label == "Poster Session 3, 10:30–12:15 KST"
    assert str(ps3.day) == "2026-07-08" and str(talk.day) == "2026-07-08"
    assert str(ps4.day) == "2026-07-08"  # 23:30 -07:00 on the 7th is 15:30 on the 8th in Seoul
    assert ps3.slots[0].place == "board #2504, Hall C"
    assert talk.kind == "oral" and talk.bookmarks[0].paper_id == "500"
    # The talk falls inside Poster Session 3: both are marked, in their right place.
    assert ps3.clashes_with == (talk.label,) and talk.clashes_with == (ps3.label,)
    assert ps4.clashes_with == ()
    assert unknown.starts is None and [b.paper_id for b in unknown.bookmarks] == ["bad"]
    assert set(clashes(bookmarks(), lookup)) == {"62980", "500"}


def test_the_chosen_zone_moves_the_days() -> None:
    utc = group_sessions(bookmarks(), lookup, "UTC")
    assert utc[0].label == "Poster Session 3, 01:30–03:15 UTC" and str(utc[0].day) == "2026-07-08"
    la = group_sessions(bookmarks(), lookup, "America/Los_Angeles")
    assert la[0].label == "Poster Session 3, 18:30–20:15 PDT" and str(la[0].day) == "2026-07-07"


def test_markdown_shows_programme_times() -> None:
    text = to_markdown(bookmarks(), lookup)
    assert "  - Poster Session 3, Wed 8 Jul, 10:30–12:15 KST, board \\#2504, Hall C" in text
    assert "  - Oral 3A, Wed 8 Jul, 11:00–11:15 KST" in text
    assert "  - Poster Session 9, time unknown" in text
    assert "18:30" not in text
    assert "01:30–03:15 UTC" in to_markdown(bookmarks(), lookup, "UTC")


def test_ics_stays_utc_and_gains_place_and_zone() -> None:
    now = datetime(2026, 7, 1, tzinfo=UTC)
    text = to_ics(bookmarks(), now=now, lookup=lookup)
    cal = icalendar.Calendar.from_ical(text)
    assert str(cal["X-WR-TIMEZONE"]) == "Asia/Seoul"
    events = {str(e["SUMMARY"]): e for e in cal.walk("VEVENT")}
    assert "DTSTART:20260708T013000Z" in text and "DTEND:20260708T031500Z" in text
    assert events["Faults"]["DTSTART"].dt == datetime(2026, 7, 8, 1, 30, tzinfo=UTC)
    assert str(events["Faults"]["LOCATION"]) == "Poster Session 3, board #2504, Hall C"
    assert str(events["An oral"]["LOCATION"]) == "Poster Session 4"
    # Without the catalogue nothing is known of the venue: no zone line, same UTC times.
    bare = to_ics(bookmarks(), now=now)
    assert "X-WR-TIMEZONE" not in bare and "DTSTART:20260708T013000Z" in bare
