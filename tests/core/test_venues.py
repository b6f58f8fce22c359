"""Venues and their sites: which city a session is in, its time there (checked against
``zoneinfo`` around summer-time changes), and venues the user declares."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from index_builder import venues
from index_builder.times import describe
from index_builder.venue_config import VenueError, default_name, from_table, make_venue
from index_builder.venues import Site


def test_the_current_venues_are_known_with_their_cities() -> None:
    expected = {
        "neurips2026": ("neurips.cc", "Australia/Sydney"),
        "eccv2026": ("eccv.ecva.net", "Europe/Stockholm"),
        "colm2026": ("colm.cc", "America/Los_Angeles"),
        "aistats2026": ("virtual.aistats.org", "Africa/Casablanca"),
        "mlsys2026": ("mlsys.org", "America/Los_Angeles"),
    }
    for key, (host, zone) in expected.items():
        venue = venues.venue(key)
        assert venue is not None and (venue.host, venue.timezone) == (host, zone), key
        assert venue.booktitle and ZoneInfo(venue.timezone)
    neurips = venues.venue("neurips2026")
    assert neurips is not None
    assert [(s.name, s.timezone) for s in neurips.sites] == [
        ("Sydney", "Australia/Sydney"),
        ("Atlanta", "America/New_York"),
        ("Paris", "Europe/Paris"),
    ]
    assert neurips.feed_name == "neurips-2026-orals-posters.json"


@pytest.mark.parametrize(
    ("session", "site"),
    [
        ("Paris Poster Session 2", "Paris"),
        ("paris  poster session 2", "Paris"),
        ("Atlanta Oral 1", "Atlanta"),
        ("Parisian Poster Session", None),  # a word that begins with a site's name is not it
        ("Poster Session 3", None),
        ("", None),
    ],
)
def test_a_session_is_at_the_site_its_name_begins_with(session: str, site: str | None) -> None:
    neurips = venues.venue("neurips2026")
    assert neurips is not None
    found = neurips.site_of(session)
    assert (found.name if found else None) == site
    assert neurips.zone_of(session) == (found.timezone if found else "Australia/Sydney")


def test_the_longest_site_name_wins() -> None:
    mexico = venues.venue("neurips2025")
    assert mexico is not None
    assert mexico.zone_of("Mexico City Poster Session 1") == "America/Mexico_City"
    assert mexico.zone_of("San Diego Poster Session 6") == "America/Los_Angeles"
    both = make_venue("abc2030", "abc.org", timezone="UTC",
                      sites={"New": "Asia/Tokyo", "New York": "America/New_York"})  # fmt: skip
    assert both.zone_of("New York Posters") == "America/New_York"
    assert both.zone_of("New Posters") == "Asia/Tokyo"


def _expected(start: str, zone: str) -> str:
    """What a programme writes for ``start`` in ``zone``, computed by zoneinfo itself."""
    moment = datetime.fromisoformat(start).astimezone(ZoneInfo(zone))
    return f"{moment:%a} {moment.day} {moment:%b}, {moment:%H:%M} {moment.tzname()}"


@pytest.mark.parametrize(
    ("start", "session", "zone", "shown"),
    [
        # December: Sydney on daylight time, Paris and Atlanta not.
        ("2026-12-08T00:00:00Z", "Sydney Poster Session 1", "Australia/Sydney",
         "Tue 8 Dec, 11:00 AEDT"),
        ("2026-12-08T00:00:00Z", "Paris Poster Session 1", "Europe/Paris",
         "Tue 8 Dec, 01:00 CET"),
        ("2026-12-08T00:00:00Z", "Atlanta Poster Session 1", "America/New_York",
         "Mon 7 Dec, 19:00 EST"),
        # Each side of the changes of 2026: Sydney 4 Oct, Paris 25 Oct, Atlanta 1 Nov.
        ("2026-10-03T15:30:00Z", "Sydney Poster Session 0", "Australia/Sydney",
         "Sun 4 Oct, 01:30 AEST"),
        ("2026-10-03T16:30:00Z", "Sydney Poster Session 0", "Australia/Sydney",
         "Sun 4 Oct, 03:30 AEDT"),
        ("2026-10-25T00:30:00Z", "Paris Poster Session 0", "Europe/Paris",
         "Sun 25 Oct, 02:30 CEST"),
        ("2026-10-25T01:30:00Z", "Paris Poster Session 0", "Europe/Paris",
         "Sun 25 Oct, 02:30 CET"),
        ("2026-11-01T05:30:00Z", "Atlanta Poster Session 0", "America/New_York",
         "Sun 1 Nov, 01:30 EDT"),
        ("2026-11-01T06:30:00Z", "Atlanta Poster Session 0", "America/New_York",
         "Sun 1 Nov, 01:30 EST"),
    ],
)  # fmt: skip
def test_each_site_in_its_own_time_at_the_dst_edges(
    start: str, session: str, zone: str, shown: str
) -> None:
    assert _expected(start, zone) == shown  # the table agrees with zoneinfo
    assert describe(start, "", "venue", "NeurIPS 2026", session) == shown
    # The timezone setting still overrides the site's.
    assert describe(start, "", "UTC", "NeurIPS 2026", session) == _expected(start, "UTC")


def test_mexico_city_keeps_standard_time_in_december() -> None:
    shown = describe("2025-12-04T10:00:00-06:00", "", "venue", "NeurIPS 2025", "Mexico City PS 1")
    assert shown == "Thu 4 Dec, 10:00 CST"
    san_diego = describe("2025-12-05T16:30:00-08:00", "", "venue", "NeurIPS 2025", "San Diego 6")
    assert san_diego == "Fri 5 Dec, 16:30 PST"


def test_a_declared_venue_is_known_cited_and_timed_until_declared_away() -> None:
    title = "Fourth Conference on Language Modeling"
    colm = from_table(
        "colm2027", {"host": "colm.cc", "timezone": "america/toronto", "booktitle": title}
    )
    assert (colm.name, colm.timezone, colm.conf, colm.year) == (
        "COLM 2027",
        "America/Toronto",
        "colm",
        2027,
    )
    assert venues.venue("colm2027") is None
    venues.declare([colm])
    assert venues.venue("colm2027") == colm and venues.venue_named("colm 2027") == colm
    assert venues.venue_of_id("colm2027:30001") == "COLM 2027"
    assert describe("2027-10-06T07:00:00-07:00", "", "venue", "COLM 2027") == (
        "Wed 6 Oct, 10:00 EDT"
    )
    assert venues.declared_digest() and not venues.is_built_in(colm)
    venues.declare(())
    assert venues.venue("colm2027") is None and venues.declared_digest() == ""


def test_a_declared_venue_replaces_a_built_in_one_but_not_the_bundled_table() -> None:
    sites = {"Sydney": "Australia/Sydney", "Auckland": "Pacific/Auckland"}
    moved = make_venue("neurips2026", "neurips.cc", timezone="Australia/Sydney", sites=sites)
    icml = make_venue("icml2026", "example.org", timezone="UTC")
    venues.declare([moved, icml])
    assert venues.venue("neurips2026") == moved
    assert venues.venue("icml2026") == venues.DEFAULT
    assert moved.zone_of("Auckland Posters") == "Pacific/Auckland"


@pytest.mark.parametrize(
    ("key", "table", "words"),
    [
        ("colm", {"host": "colm.cc", "timezone": "UTC"}, "conference and the year"),
        ("colm2027", {"host": "colm.cc", "timezone": "Mars/Olympus"}, "'Mars/Olympus'"),
        ("colm2027", {"host": "colm.cc"}, "timezone is missing"),
        ("colm2027", {"timezone": "UTC"}, "host is missing"),
        ("colm2027", {"host": "https://colm.cc/x", "timezone": "UTC"}, "not a host name"),
        ("colm2027", {"host": "colm.cc", "timezone": "UTC", "sites": ["Paris"]}, "sites must"),
        ("colm2027", {"host": "colm.cc", "timezone": "UTC", "sites": {"Paris": "Nowhere"}},
         "'Nowhere'"),
        ("colm2027", {"host": "colm.cc", "timezone": "UTC", "name": "\x1b[31m"}, "control"),
        ("colm2027", {"host": "colm.cc", "timezone": "UTC", "hots": 1}, "unknown field 'hots'"),
        ("colm2027", "colm.cc", "must be a table"),
    ],
)  # fmt: skip
def test_a_venue_that_cannot_be_used_says_why_in_a_line(
    key: str, table: object, words: str
) -> None:
    with pytest.raises(VenueError) as caught:
        from_table(key, table)
    message = str(caught.value)
    assert words in message and "\n" not in message


def test_names_default_to_the_conference_as_it_is_spelled() -> None:
    assert default_name("neurips", 2027) == "NeurIPS 2027"
    assert default_name("newconf", 2027) == "NEWCONF 2027"
    site = Site("Mexico City", "America/Mexico_City")
    assert site.holds("Mexico City Poster Session 1") and not site.holds("Mexico Poster")
