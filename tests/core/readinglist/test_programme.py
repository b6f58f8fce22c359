"""The printable programme: one self-contained, escaped HTML page, papers in walking order."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from html.parser import HTMLParser

from index_builder.model import Event, Paper
from index_builder.readinglist.agenda import by_day
from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.programme import programme_html
from index_builder.readinglist.schedule import group_sessions

PS3 = ("2026-07-07T18:30:00-07:00", "2026-07-07T20:15:00-07:00")
TALK = ("2026-07-07T19:00:00-07:00", "2026-07-07T19:15:00-07:00")
PAPERS = {
    "a": Paper("a", "Far board", authors=("Mihaela van der Schaar",), venue="ICML 2026",
               events=(Event("poster", "Poster Session 3", *PS3, 1, "Hall C", "#2504"),)),
    "b": Paper("b", "Near board <script>alert(1)</script>", venue="ICML 2026",
               events=(Event("poster", "Poster Session 3", *PS3, 2, "Hall C", "#301"),)),
    "c": Paper("c", "A talk & more", venue="ICML 2026", oral=True,
               events=(Event("oral", "Oral 3A", *TALK, 3, "Room 101"),)),
}  # fmt: skip


class Tags(HTMLParser):
    """Every start tag and its attributes, and the page's text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def page() -> str:
    marks = [Bookmark.from_paper(p) for p in PAPERS.values()]
    marks[0] = Bookmark(marks[0].copy, "reading", "Ask about [b]twins[/b]\n& the \x1b[31mcode",
                        tags=("thesis",))  # fmt: skip
    days = by_day(group_sessions(marks, PAPERS.get))
    return programme_html(days, zone_name="Asia/Seoul (KST)",
                          made_at=datetime(2026, 7, 1, tzinfo=UTC))  # fmt: skip


def test_the_page_holds_the_day_sessions_in_walking_order_and_clashes() -> None:
    html = page()
    parsed = Tags()
    parsed.feed(html)
    text = " ".join(" ".join(parsed.text).split())
    assert "Wednesday 8 July 2026" in text  # 18:30 in Vancouver time is the 8th in Seoul
    assert "Poster Session 3 · Wed 8 Jul, 10:30–12:15 KST" in text
    assert text.index("#301") < text.index("#2504")  # near board first
    assert "Clashes with Oral 3A" in text
    assert "Ask about [b]twins[/b] & the code" in text and "tags: thesis" in text
    assert "Mihaela van der Schaar" in text and "A talk & more (talk)" in text


def test_nothing_is_fetched_and_data_text_stays_text() -> None:
    html = page()
    parsed = Tags()
    parsed.feed(html)
    names = [tag for tag, _attrs in parsed.tags]
    assert "script" not in names and "img" not in names and "link" not in names
    assert not [a for _t, attrs in parsed.tags for k, a in attrs.items() if k in ("src", "href")]
    assert "url(" not in html and "@import" not in html and "\x1b" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert re.search(r"@page\s*\{\s*size:\s*A4", html)
