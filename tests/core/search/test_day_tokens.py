"""The ``day:`` filter's values: the session's day in the venue's zone."""

from __future__ import annotations

from index_builder.model import Paper
from index_builder.search.documents import day_tokens, paper_doc


def test_icml_poster_session_3_is_a_wednesday() -> None:
    start = "2026-07-07T18:30:00-07:00"
    assert day_tokens(start, "ICML 2026") == ["2026-07-08", "07-08", "wed", "wednesday"]
    paper = Paper(id="1", title="t", starts_at=start, venue="ICML 2026")
    assert paper_doc(paper)["day"] == "2026-07-08 07-08 wed wednesday"


def test_unknown_venue_keeps_its_offset_and_bad_times_match_no_day() -> None:
    assert day_tokens("2026-07-07T18:30:00-07:00")[:1] == ["2026-07-07"]
    for bad in ("2026-07-07T18:30:00", "2026-07-07", "soon", "", "0001-01-01T00:00:00+05:00"):
        assert day_tokens(bad, "ICML 2026") == []
