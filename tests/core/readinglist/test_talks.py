"""Orals: their talk counts as their first presentation in a time sort, and the calendar
has an event for it as the planner does (issue 36, item 20)."""

from __future__ import annotations

from datetime import UTC, datetime

import icalendar

from index_builder.model import Event, Paper
from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.ics import event_uid, to_ics
from index_builder.search.facets import sort_key
from index_builder.times import first_event

NOW = datetime(2026, 12, 2, 19, 30, tzinfo=UTC)
ORAL = Paper(  # as 63687 of the bundled data: a talk at 18:15, its poster at 22:00
    id="63687",
    title="An oral paper",
    authors=("Ada Lovelace",),
    oral=True,
    session="Poster Session 2",
    starts_at="2026-07-06T22:00:00-07:00",
    ends_at="2026-07-06T23:45:00-07:00",
    events=(
        Event(
            "oral", "Oral 1E Understanding", "2026-07-06T18:15:00-07:00",
            "2026-07-06T18:30:00-07:00", room="Hall A",
        ),
        Event(
            "poster", "Poster Session 2", "2026-07-06T22:00:00-07:00",
            "2026-07-06T23:45:00-07:00", poster_position="#101",
        ),
    ),
    venue="ICML 2026",
)  # fmt: skip
BETWEEN = Paper(
    id="p2",
    title="A poster between the talk and the oral's poster",
    session="Poster Session 1b",
    starts_at="2026-07-06T19:00:00-07:00",
    ends_at="2026-07-06T20:00:00-07:00",
    venue="ICML 2026",
)
UNDATED = Paper(id="p3", title="Undated")


def test_time_sorts_an_oral_by_its_talk_when_it_comes_first() -> None:
    assert first_event(ORAL).session == "Oral 1E Understanding"
    assert first_event(UNDATED).starts_at == ""
    ordered = sorted([UNDATED, BETWEEN, ORAL], key=lambda p: sort_key("time", p))
    assert [p.id for p in ordered] == ["63687", "p2", "p3"]


def test_the_calendar_has_the_talk_and_the_poster() -> None:
    lookup = {ORAL.id: ORAL, BETWEEN.id: BETWEEN}.get
    bookmarks = [Bookmark.from_paper(ORAL), Bookmark.from_paper(BETWEEN)]
    cal = icalendar.Calendar.from_ical(to_ics(bookmarks, now=NOW, lookup=lookup))
    events = {str(e["SUMMARY"]): e for e in cal.walk("VEVENT")}
    assert set(events) == {"Talk: An oral paper", "An oral paper", BETWEEN.title}
    talk, poster = events["Talk: An oral paper"], events["An oral paper"]
    assert talk.decoded("DTSTART") == datetime(2026, 7, 7, 1, 15, tzinfo=UTC)
    assert str(talk["LOCATION"]) == "Oral 1E Understanding, Hall A"
    assert str(poster["LOCATION"]) == "Poster Session 2, board #101"
    # the poster keeps the UID earlier exports gave it; the talk has its own
    assert str(poster["UID"]) == event_uid(ORAL.id) != str(talk["UID"])
    # the talk (18:15-18:30) does not clash with p2 (19:00), the poster does not either
    assert "Clashes" not in str(talk["DESCRIPTION"])
