"""Widgets on their own: the virtual list at 100,000 rows, badges, links, times, hostile text."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace

from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.pilot import Pilot
from textual.widgets import Static

from index_builder.model import Hit, Paper
from tests.helpers.tui_papers import HAND_MADE
from tui.widgets.paper_text import DERIVED_MARK, session_rows, short_authors, title_text
from tui.widgets.paper_view import is_web_link, paper_links
from tui.widgets.result_list import ResultList


class ListApp(App[None]):
    """Just a result list."""

    def compose(self) -> ComposeResult:
        yield ResultList()


def many(count: int) -> list[Hit]:
    return [
        Hit(Paper(id=str(i), title=f"Paper number {i}", authors=("A. Author",)))
        for i in range(count)
    ]


@asynccontextmanager
async def listing(app: App[None], count: int) -> AsyncIterator[tuple[Pilot[None], ResultList]]:
    """``app`` at 80x24 with ``count`` papers in its focused result list."""
    async with app.run_test(size=(80, 24)) as pilot:
        rows = app.query_one(ResultList)
        rows.set_hits(many(count))
        rows.focus()
        yield pilot, rows


async def test_virtual_list_renders_only_what_is_visible_at_100000_rows() -> None:
    app = ListApp()
    async with listing(app, 100_000) as (pilot, result_list):
        await pilot.pause()
        assert result_list.virtual_size.height == 200_000
        assert len(result_list._cache) <= 2 * 24
        await pilot.press("G")
        await pilot.pause()
        assert result_list.current is not None and result_list.current.paper.id == "99999"
        assert "Paper number 99999" in "".join(
            result_list.render_line(y).text for y in range(result_list.size.height)
        )
        assert len(result_list._cache) <= 4 * 24
        assert len(app.query("*")) < 10, "no widget per row"


async def test_keep_cursor_on_the_same_paper() -> None:
    app = ListApp()
    async with app.run_test(size=(80, 24)) as pilot:
        result_list = app.query_one(ResultList)
        hits = many(50)
        result_list.set_hits(hits)
        result_list.set_hits(list(reversed(hits)), keep="10")
        await pilot.pause()
        assert result_list.current is not None and result_list.current.paper.id == "10"


class ListBesideText(App[None]):
    """A result list beside a text as tall as the number under the cursor ends with: each
    move lays the screen out again (as the paper view does, with its similar papers)."""

    CSS = "Horizontal { height: 1fr; } ResultList { width: 1fr; } #text { width: 20; }"

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield ResultList()
            yield Static(id="text")

    def on_result_list_highlighted(self, message: ResultList.Highlighted) -> None:
        lines = int(message.hit.paper.id) % 5 + 1 if message.hit is not None else 0
        self.query_one("#text", Static).update("\n".join(["a line"] * lines))


async def test_the_scrollbar_follows_the_rows_and_not_the_layouts_beside_it() -> None:
    app = ListBesideText()
    async with listing(app, 50) as (pilot, rows):
        await pilot.press("j")  # the bar's first layout since it is shown fits it once
        await pilot.pause()
        bar = rows.vertical_scrollbar
        assert (bar.window_virtual_size, bar.window_size) == (100, 24)
        drawn: list[float] = []
        render = bar.render

        def counted() -> object:
            drawn.append(bar.position)
            return render()

        bar.render = counted  # type: ignore[method-assign]
        text = app.query_one("#text", Static)
        for _ in range(3):  # within the first page: the list does not scroll
            await pilot.press("j")
        await pilot.pause()
        assert rows.cursor == 4 and text.size.height == 5, "each move laid the screen out"
        assert drawn == [], "the list's scrollbar drawn again though its rows did not change"
        rows.add_hits(50, many(100)[50:])
        await pilot.pause()
        assert bar.window_virtual_size == 200 and drawn, "more rows, a shorter thumb"
        await pilot.resize_terminal(80, 30)
        await pilot.pause()
        assert (bar.window_virtual_size, bar.window_size) == (200, 30)


def test_derived_title_is_marked_and_italic() -> None:
    derived = HAND_MADE[4]
    text = title_text(derived, (), "bold")
    assert text.plain.startswith(DERIVED_MARK)
    assert any("italic" in str(span.style) for span in text.spans)
    assert not title_text(HAND_MADE[0], (), "bold").plain.startswith(DERIVED_MARK)


def test_title_highlights_only_valid_spans() -> None:
    paper = HAND_MADE[0]
    text = title_text(paper, ((0, 11), (5, 500)), "bold")
    assert [(s.start, s.end) for s in text.spans] == [(0, 11)]


def test_short_authors() -> None:
    assert short_authors(("A", "B", "C", "D", "E")) == "A, B, C +2"
    assert short_authors(("A",)) == "A"
    assert short_authors(()) == "authors unknown"


def test_session_rows_in_the_chosen_zone() -> None:
    # With no venue, the times keep the offset they came with.
    [(label, line)] = session_rows(replace(HAND_MADE[0], venue=""))
    assert (label, line) == ("Poster", "Poster Session 3 · Tue 7 Jul, 11:00–12:30 UTC-07:00")
    icml = replace(HAND_MADE[0], venue="ICML 2026")
    assert session_rows(icml)[0][1] == "Poster Session 3 · Wed 8 Jul, 03:00–04:30 KST"
    assert session_rows(icml, "UTC")[0][1] == "Poster Session 3 · Tue 7 Jul, 18:00–19:30 UTC"
    naive = replace(icml, starts_at="2026-07-07T11:00:00", ends_at="", events=())
    assert session_rows(naive)[0][1] == "Poster Session 3 · time unknown"
    assert session_rows(HAND_MADE[3]) == []


def test_only_web_links_are_offered() -> None:
    assert is_web_link("https://github.com/x/y") and is_web_link("HTTP://a.b")
    for bad in ("javascript:alert(1)", "file:///etc/passwd", "https://a b", "ftp://x", ""):
        assert not is_web_link(bad)
    labels = [label for label, _ in paper_links(HAND_MADE[3])]
    assert labels == [], "a javascript: code link is dropped"
    assert [label for label, _ in paper_links(HAND_MADE[2])] == ["OpenReview", "PDF", "Code"]


def test_places_name_rooms_and_boards_from_a_feed() -> None:
    from index_builder.model import Event

    paper = Paper(
        id="65133",
        title="T",
        events=(
            Event("poster", "Poster Session 2", room="Hall D", poster_position="#1080"),
            Event("oral", "Oral 1A", room="Auditorium\x1b[31m 1"),
        ),
    )
    rows = dict(session_rows(paper))
    assert rows["Poster"].endswith("board #1080, Hall D")
    assert rows["Talk"].endswith("Auditorium 1"), "data text is made safe"
    bare = Paper(id="1", title="T", events=(Event("poster", "Poster Session 2"),))
    assert "board" not in dict(session_rows(bare))["Poster"]


class ViewApp(App[None]):
    """Just a paper view."""

    def compose(self) -> ComposeResult:
        from tui.widgets.paper_view import PaperView

        yield PaperView()


async def test_the_view_says_which_paper_an_abstract_possibly_is() -> None:
    from tests.helpers.tui_helpers import rendered_text
    from tui.widgets.paper_view import PaperView

    unsure = Paper(
        id="a59e2397676",
        title="We generalize the attention mechanism…",
        title_derived=True,
        abstract="We generalize the attention mechanism.",
        possibly_same_as=("64188",),
    )
    app = ViewApp()
    async with app.run_test(size=(100, 30)) as pilot:
        view = app.query_one(PaperView)
        view.show(Hit(unsure))
        await pilot.pause()
        text = rendered_text(view.query_one("#paper-body"))
        assert "Possibly" in text and "the same paper as id 64188" in text
