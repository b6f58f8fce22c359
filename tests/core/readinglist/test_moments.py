"""A moment typed by a person: days by name within the conference, a bare hour on the
conference day shown (issue 36, item 19)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from index_builder.model import Event, Paper
from index_builder.readinglist.agenda import conference_days, moment_from

SEOUL = ZoneInfo("Asia/Seoul")
DAYS = tuple(date(2026, 7, d) for d in range(6, 12))  # Mon 6 to Sat 11 July
FAR = datetime(2026, 12, 6, 5, 0, tzinfo=UTC)  # a Sunday, far from the conference
DURING = datetime(2026, 7, 7, 3, 0, tzinfo=UTC)  # Tue 7 July, noon in Seoul


@pytest.mark.parametrize("typed", ["wed", "Wed", "WEDNESDAY", "wed.", "Wednes"])
def test_a_weekday_is_that_day_of_the_conference(typed: str) -> None:
    moment = moment_from(typed, "14:45", SEOUL, FAR, DAYS)
    assert moment == datetime(2026, 7, 8, 14, 45, tzinfo=SEOUL)
    assert moment_from(typed, None, SEOUL, DURING, DAYS) == datetime(2026, 7, 8, tzinfo=SEOUL)


def test_a_weekday_the_conference_does_not_have_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match=r"'sun': no day of the conference \(Mon 6 Jul to Sat"):
        moment_from("sun", "10:00", SEOUL, FAR, DAYS)
    with pytest.raises(ValueError, match="is not a day like wed or 2026-07-08"):
        moment_from("we", None, SEOUL, FAR, DAYS)


def test_a_bare_hour_is_on_the_conference_day_shown_never_far_from_it() -> None:
    first = datetime(2026, 7, 6, 14, 45, tzinfo=SEOUL)
    assert moment_from(None, "14:45", SEOUL, FAR, DAYS) == first
    assert moment_from(None, "14:45", SEOUL, FAR, DAYS, date(2026, 12, 6)) == first
    shown = moment_from(None, "14:45", SEOUL, FAR, DAYS, date(2026, 7, 9))
    assert shown == datetime(2026, 7, 9, 14, 45, tzinfo=SEOUL)
    today = moment_from(None, "14:45", SEOUL, DURING, DAYS)
    assert today == datetime(2026, 7, 7, 14, 45, tzinfo=SEOUL)
    before = datetime(2026, 7, 1, tzinfo=UTC)
    assert moment_from(None, "9:00", SEOUL, before, DAYS).date() == date(2026, 7, 6)
    # no conference days known: today, as before
    assert moment_from(None, "14:45", SEOUL, FAR).date() == date(2026, 12, 6)


def test_iso_days_are_read_as_before() -> None:
    moment = moment_from("2026-07-08", "11:00", SEOUL, FAR, DAYS)
    assert moment == datetime(2026, 7, 8, 11, tzinfo=SEOUL)
    with pytest.raises(ValueError, match="'8 July' is not a day"):
        moment_from("8 July", None, SEOUL, FAR, DAYS)


def test_conference_days_come_from_every_presentation_in_the_zone() -> None:
    papers = [
        Paper(id="1", title="a", starts_at="2026-07-06T22:00:00-07:00"),  # Tue 7 in Seoul
        Paper(
            id="2",
            title="b",
            events=(
                Event("poster", "P", "2026-07-08T01:30:00+00:00", ""),
                Event("oral", "O", "2026-07-10T02:00:00+00:00", ""),
            ),
        ),
        Paper(id="3", title="c", starts_at="not a time"),
    ]
    assert conference_days(papers, SEOUL) == (date(2026, 7, 7), date(2026, 7, 8), date(2026, 7, 10))
