"""The calendar's text is icalendar's own: ``to_ics`` hands icalendar only the content lines
it folds, and the file is byte for byte what ``Calendar.to_ical(sorted=False)`` writes."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import icalendar
import pytest

from index_builder.model import Event, Paper
from index_builder.readinglist import ics
from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.schedule import clashes

NOW = datetime(2026, 12, 2, 19, 30, 7, tzinfo=UTC)
# "SUMMARY:" is 8 octets: titles of 64 to 70 octets make lines of 72 to 78 around the fold
# at 75, in ASCII, with a character of two, three and four octets across the 75th octet,
# and with an escaped comma or backslash there.
TITLES = [
    *("t" * n for n in range(64, 71)),
    *("t" * n + c + "tt" for n in range(62, 66) for c in ("é", "漢", "🙂")),
    *("t" * n + ",t" for n in range(63, 68)),
    *("t" * n + "\\" for n in range(64, 68)),
]


def papers() -> list[Paper]:
    """Papers whose summary lines end each side of the fold; one an oral (two events)."""
    made = [
        Paper(
            id=f"p{n}",
            title=title,
            authors=("Ada Lovelace", "Émilie du Châtelet"),
            session=f"Poster Session {n % 3}",
            starts_at=f"2026-07-0{6 + n % 3}T18:30:00-07:00",
            ends_at=f"2026-07-0{6 + n % 3}T20:15:00-07:00",
            openreview_url=f"https://openreview.net/forum?id=x{n}",
            venue="ICML 2026",
        )
        for n, title in enumerate(TITLES)
    ]
    talk = Event("oral", "Oral 1E", "2026-07-06T18:15:00-07:00", "2026-07-06T18:30:00-07:00")
    poster = Event(
        "poster", made[0].session, made[0].starts_at, made[0].ends_at, poster_position="#1"
    )
    made[0] = dataclasses.replace(made[0], oral=True, events=(talk, poster))
    return made


def test_the_file_is_what_icalendar_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    written = ics._written
    whole: list[str] = []

    def both(calendar: icalendar.Calendar) -> str:
        whole.append(calendar.to_ical(sorted=False).decode("utf-8"))
        return written(calendar)

    monkeypatch.setattr(ics, "_written", both)
    listed = papers()
    marks = [Bookmark.from_paper(p) for p in listed]
    lookup = {p.id: p for p in listed}.get
    text = ics.to_ics(marks, now=NOW, lookup=lookup)
    assert text == whole[0]
    lines = text.split("\r\n")
    assert {len(line.encode()) for line in lines if line.startswith("SUMMARY:")} >= {72, 73, 74}
    assert sum(line.startswith(" ") for line in lines) > len(TITLES)  # folded lines
    assert text.count("BEGIN:VEVENT") == len(TITLES) + 1  # the oral's talk and poster


def test_a_rival_of_both_of_an_orals_events_is_named_once() -> None:
    """The talk and the poster both overlap one long session: its paper is one rival."""
    oral = papers()[0]
    day = ("2026-07-06T08:00:00-07:00", "2026-07-06T23:00:00-07:00")
    long_one = Paper("w1", "A workshop paper", session="Workshop", starts_at=day[0], ends_at=day[1])
    listed = [oral, long_one]
    lookup = {p.id: p for p in listed}.get
    marks = [Bookmark.from_paper(p) for p in listed]
    assert [b.paper_id for b in clashes(marks, lookup)[oral.id]] == ["w1"]
    text = ics.to_ics(marks, now=NOW, lookup=lookup).replace("\r\n ", "")
    assert text.count("Clashes with: A workshop paper (Workshop)\r\n") == 2  # talk, poster
