"""Session times: safe parsing, the chosen zone, and the programme's wording."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from index_builder.model import Event, Paper
from index_builder.times import (
    UNKNOWN,
    check_setting,
    convert,
    describe,
    event_place,
    instant_key,
    normal_setting,
    paper_events,
    parse_span,
    parse_time,
)

PS3 = ("2026-07-07T18:30:00-07:00", "2026-07-07T20:15:00-07:00")


def test_icml_poster_session_3_is_wednesday_morning_in_seoul() -> None:
    assert describe(*PS3, "venue", "ICML 2026") == "Wed 8 Jul, 10:30–12:15 KST"
    assert describe(*PS3, "Asia/Seoul") == "Wed 8 Jul, 10:30–12:15 KST"


def test_utc_and_an_unknown_venue() -> None:
    assert describe(*PS3, "UTC") == "Wed 8 Jul, 01:30–03:15 UTC"
    # A venue not known keeps the offset its times came with.
    assert describe(*PS3, "venue", "Some Workshop 2031") == "Tue 7 Jul, 18:30–20:15 UTC-07:00"
    assert describe(*PS3, "venue", "") == "Tue 7 Jul, 18:30–20:15 UTC-07:00"


def test_a_zone_with_summer_time() -> None:
    # Berlin is UTC+2 in July and UTC+1 in January; the abbreviation follows.
    assert describe(*PS3, "Europe/Berlin") == "Wed 8 Jul, 03:30–05:15 CEST"
    winter = describe("2026-01-15T09:00:00+00:00", "2026-01-15T10:00:00+00:00", "Europe/Berlin")
    assert winter == "Thu 15 Jan, 10:00–11:00 CET"
    # The night the clocks go forward: 00:30 UTC is 01:30 CET, 01:30 UTC is 03:30 CEST.
    spring = describe("2026-03-29T00:30:00Z", "2026-03-29T01:30:00Z", "Europe/Berlin")
    assert spring == "Sun 29 Mar, 01:30–03:30 CET"
    # Seoul has no summer time: January is +9 like July.
    assert describe("2026-01-15T00:00:00Z", "", "Asia/Seoul") == "Thu 15 Jan, 09:00 KST"


@pytest.fixture
def tz_new_york() -> Iterator[None]:
    old = os.environ.get("TZ")
    os.environ["TZ"] = "America/New_York"
    time.tzset()
    yield
    if old is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = old
    time.tzset()


def test_local_follows_the_computer_and_venue_does_not(tz_new_york: None) -> None:
    assert describe(*PS3, "local") == "Tue 7 Jul, 21:30–23:15 EDT"
    assert describe(*PS3, "venue", "ICML 2026") == "Wed 8 Jul, 10:30–12:15 KST"


@pytest.mark.parametrize(
    ("start", "end"),
    [
        ("2026-07-07T18:30:00", ""),  # no offset: whose 18:30?
        ("2026-07-07 kind of evening", ""),
        ("2026-13-40T18:30:00-07:00", ""),
        ("", "2026-07-07T20:15:00-07:00"),
        ("2026-07-07T18:30:00-07:00", "2026-07-07T17:00:00-07:00"),  # ends before it starts
        ("0001-01-01T00:00:00+05:00", ""),  # converting to UTC would leave the calendar
        ("9999-12-31T23:59:00-05:00", ""),
        ("0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"),
    ],
)
def test_bad_times_are_unknown_in_every_zone(start: str, end: str) -> None:
    for setting in ("venue", "local", "UTC", "Pacific/Kiritimati", "Etc/GMT+12"):
        assert describe(start, end, setting, "ICML 2026") == UNKNOWN
    assert parse_span(start, end) is None


def test_an_unreadable_end_leaves_the_start() -> None:
    assert describe(PS3[0], "soon", "venue", "ICML 2026") == "Wed 8 Jul, 10:30 KST"
    assert parse_time(None) is None and parse_time("") is None


@pytest.mark.usefixtures("text_table")
@given(st.text(max_size=40), st.text(max_size=40), st.text(max_size=30))
def test_no_input_makes_it_crash(start: str, end: str, setting: str) -> None:
    assert isinstance(describe(start, end, setting, "ICML 2026"), str)


@given(st.datetimes(timezones=st.timezones()), st.sampled_from(["venue", "UTC", "Asia/Seoul"]))
def test_the_day_shown_is_the_day_in_that_zone(moment: datetime, setting: str) -> None:
    text = moment.isoformat()
    shown = describe(text, "", setting, "ICML 2026")
    if parse_time(text) is None:
        assert shown == UNKNOWN
        return
    zone = "Asia/Seoul" if setting == "venue" else setting
    from zoneinfo import ZoneInfo

    there = moment.astimezone(ZoneInfo(zone))
    assert shown.startswith(f"{there:%a} {there.day} {there:%b}, {there:%H:%M}")


def test_settings() -> None:
    assert check_setting("venue") is None and check_setting("LOCAL") is None
    assert check_setting("Europe/Berlin") is None
    for bad in ("Nowhere/Nope", "", "../../etc/passwd", "/etc/localtime", 9, "Europe"):
        message = check_setting(bad)
        assert message is not None and message.startswith("timezone = ")
        assert normal_setting(bad if isinstance(bad, str) else None) == "venue"
    assert normal_setting(" Local ") == "local"
    assert normal_setting("Asia/Seoul") == "Asia/Seoul"
    assert normal_setting(" europe/BERLIN ") == "Europe/Berlin"


def test_convert_keeps_the_moment() -> None:
    start = parse_time(PS3[0])
    assert start is not None
    for setting in ("venue", "local", "UTC", "America/Denver"):
        assert convert(start, setting, "ICML 2026") == start
    assert convert(start, "UTC").tzinfo is not None


def test_paper_events_in_time_order_and_places() -> None:
    talk = Event("oral", "Oral 2B", "2026-07-07T10:00:00-07:00", "2026-07-07T10:15:00-07:00")
    poster = Event("poster", "Poster Session 3", *PS3, room="Hall C", poster_position="#2504")
    paper = Paper(id="1", title="t", events=(poster, talk, Event("poster")))
    assert paper_events(paper) == (talk, poster, Event("poster"))
    assert event_place(poster) == "board #2504, Hall C" and event_place(talk) == ""
    legacy = Paper(id="2", title="t", session="Poster Session 3", starts_at=PS3[0])
    assert paper_events(legacy)[0].session == "Poster Session 3"
    assert paper_events(Paper(id="3", title="t")) == ()
    assert instant_key(PS3[0]) < instant_key("2026-07-08T03:00:00+00:00") < instant_key("")
    assert instant_key(PS3[0])[1] == datetime(2026, 7, 8, 1, 30, tzinfo=UTC).timestamp()


def test_sort_by_time_is_by_the_moment_whatever_the_offset() -> None:
    from index_builder.search.facets import sort_key

    seoul = Paper(id="a", title="a", starts_at="2026-07-08T10:00:00+09:00")  # 01:00 UTC
    feed = Paper(id="b", title="b", starts_at="2026-07-07T18:30:00-07:00")  # 01:30 UTC
    broken = Paper(id="c", title="c", starts_at="2026-07-07T18:30:00")
    ordered = sorted([broken, feed, seoul], key=lambda p: sort_key("time", p))
    assert [p.id for p in ordered] == ["a", "b", "c"]


def test_local_zone_is_a_zone_with_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    from datetime import UTC, datetime

    from index_builder.times import local_zone

    for tz in ("Europe/Berlin", ":Europe/Berlin", "/usr/share/zoneinfo/Europe/Berlin"):
        monkeypatch.setenv("TZ", tz)
        zone = local_zone()
        assert datetime(2026, 12, 8, 9, tzinfo=UTC).astimezone(zone).strftime("%H %Z") == "10 CET"
        assert datetime(2026, 7, 8, 9, tzinfo=UTC).astimezone(zone).strftime("%H %Z") == "11 CEST"
    monkeypatch.setenv("TZ", "Nowhere/Nope")
    assert local_zone() is not None  # the C library's offset, never an error
