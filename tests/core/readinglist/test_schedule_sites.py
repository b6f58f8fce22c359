"""A conference in several cities (NeurIPS 2026: Sydney, Atlanta, Paris): the planner's days
per site, each in its city's time; the exports, the calendar's zone and moved sessions too."""

from __future__ import annotations

from datetime import datetime

from index_builder import venues
from index_builder.feeds.changes import Event as FeedEvent
from index_builder.feeds.changes import State, moved
from index_builder.model import Event, Paper
from index_builder.readinglist.agenda import by_day, day_heading, of_site
from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.exports import to_markdown
from index_builder.readinglist.ics import to_ics
from index_builder.readinglist.schedule import group_sessions

N26 = "NeurIPS 2026"
SYDNEY = Event(
    "poster", "Sydney Poster Session 1", "2026-12-08T11:00:00+11:00", "2026-12-08T14:00:00+11:00"
)
ATLANTA = Event(
    "poster", "Atlanta Poster Session 1", "2026-12-09T10:00:00-05:00", "2026-12-09T13:00:00-05:00"
)
PARIS = Event("poster", "Paris Poster Session 1", "2026-12-10T00:00:00+11:00",
              "2026-12-10T03:00:00+11:00")  # fmt: skip
PAPERS = {
    f"neurips2026:{n}": Paper(id=f"neurips2026:{n}", title=f"Paper {n}", session=e.session,
                              starts_at=e.starts_at, ends_at=e.ends_at, events=(e,), venue=N26)
    for n, e in ((1, SYDNEY), (2, ATLANTA), (3, PARIS))
}  # fmt: skip


def _marks(*ids: str) -> list[Bookmark]:
    return [Bookmark.from_paper(PAPERS[i], at="2026-12-01T00:00:00Z") for i in ids]


def test_the_planner_has_a_day_per_site_in_its_own_time() -> None:
    groups = group_sessions(_marks(*PAPERS), PAPERS.get)
    assert [(g.site, g.label) for g in groups] == [
        ("Sydney", "Sydney Poster Session 1, 11:00–14:00 AEDT"),
        ("Paris", "Paris Poster Session 1, 14:00–17:00 CET"),
        ("Atlanta", "Atlanta Poster Session 1, 10:00–13:00 EST"),
    ]
    days = [(day_heading(d, gs), [g.site for g in gs]) for d, gs in by_day(groups)]
    assert days == [
        ("Tuesday 8 December 2026 · Sydney", ["Sydney"]),
        ("Wednesday 9 December 2026 · Paris", ["Paris"]),
        ("Wednesday 9 December 2026 · Atlanta", ["Atlanta"]),
    ]
    assert [g.site for g in of_site(groups, "paris")] == ["Paris"]
    # The setting still overrides the sites: one zone, one day for all.
    utc = group_sessions(_marks(*PAPERS), PAPERS.get, "UTC")
    assert {g.site for g in utc} == {"Sydney", "Paris", "Atlanta"}
    assert [day_heading(d, gs) for d, gs in by_day(utc)] == [
        "Tuesday 8 December 2026 · Sydney",
        "Wednesday 9 December 2026 · Paris",
        "Wednesday 9 December 2026 · Atlanta",
    ]
    assert {g.starts.tzname() for g in utc if g.starts} == {"UTC"}


def test_exports_and_the_calendar_use_the_site() -> None:
    text = to_markdown(_marks("neurips2026:3"), PAPERS.get)
    assert "Paris Poster Session 1, Wed 9 Dec, 14:00–17:00 CET" in text
    ics = to_ics(_marks("neurips2026:3", "neurips2026:1"), lookup=PAPERS.get)
    assert "X-WR-TIMEZONE:Europe/Paris" in ics
    assert "DTSTART:20261209T130000Z" in ics  # the instant, in UTC as before


def test_a_moved_session_is_told_in_its_sites_time() -> None:
    venue = venues.venue("neurips2026")
    assert venue is not None

    def state(start: str) -> State:
        when = datetime.fromisoformat(start)
        return State("Paper 3", True, {"Poster": FeedEvent(PARIS.session, "", when, None)})

    lines = moved({"k": state("2026-12-10T00:00:00+11:00")},
                  {"k": state("2026-12-10T01:00:00+11:00")}, {"k"}, venue)  # fmt: skip
    assert lines == ["k Paper 3: poster Wed 09 Dec 14:00 → Wed 09 Dec 15:00"]
