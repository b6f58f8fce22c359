"""Pilot tests: Ctrl+C, the help screen, the palette, ``?`` in the box, toasts, j/k in the view,
more by this author, the OpenReview PDF, and the reading list's export and planner keys."""

from __future__ import annotations

from textual.command import CommandPalette
from textual.widgets import Static

from index_builder.model import SearchResult
from tests.helpers.notices import Notices
from tests.helpers.tui_helpers import AppFactory, ready, rendered_text, settle, type_query, until
from tui.screens.help import HelpScreen
from tui.screens.main.screen import MainScreen
from tui.screens.reading_list.dialogs import ExportDialog
from tui.screens.reading_list.screen import ReadingListScreen


def key_rows(app) -> list[list[str]]:
    """The help's key table as rows of cells (split on runs of two spaces)."""
    text = rendered_text(app.screen.query_one("#help-keys"))
    return [[c.strip() for c in line.split("  ") if c.strip()] for line in text.splitlines()]


async def test_help_lists_each_key_once_with_its_id(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await ready(pilot)
        await pilot.press("escape", "question_mark")
        assert isinstance(app.screen, HelpScreen)
        rows = key_rows(app)
        firsts = [r[0] for r in rows if r]
        assert firsts.count("tab") == 1, firsts
        assert firsts.count("q") == 1
        text = rendered_text(app.screen.query_one("#help-keys"))
        for binding_id in ("bookmark", "cite_format", "did_you_mean", "quit", "open_pdf"):
            assert binding_id in text
        for word in ("Quit", "More like this", "Sort", "Facets", "Bookmark", "Cite", "Down"):
            assert word in text
        syntax = rendered_text(app.screen.query_one("#help-syntax"))
        assert "session:" in syntax and "area:" in syntax and "author:" in syntax
        await pilot.press("escape", "B")
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        rows = key_rows(app)
        q_rows = [r for r in rows if r and "q" in r[0].split(" / ")]
        assert len(q_rows) == 1 and "Back" in q_rows[0][1], q_rows
        assert not any("Quit" in " ".join(r) and "q" in r[0].split(" / ") for r in rows)


async def palette_names(pilot) -> list[str]:
    app = pilot.app
    await pilot.press("ctrl+p")
    await until(pilot, lambda: CommandPalette.is_open(app), what="the command palette")
    await settle(pilot)  # its providers have listed their commands
    options = app.screen.query_one("CommandList")
    names = [
        str(options.get_option_at_index(i).prompt).split("\n")[0]
        for i in range(options.option_count)
    ]
    await pilot.press("escape")
    await pilot.pause()
    return names


async def test_question_mark_in_the_empty_box_opens_help_and_the_palette_holds_every_action(
    make_app: AppFactory,
) -> None:
    """``?`` in the empty box opens the help and is text in a typed query; then, the box
    emptied again, the palette's actions (one app: both start from the main screen)."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        screen.box.focus()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert screen.box.value == ""
        await pilot.press("escape")
        await pilot.press("w", "h", "y", "question_mark")
        await pilot.pause()
        assert screen.box.value == "why?" and not isinstance(app.screen, HelpScreen)

        screen.box.value = ""
        await settle(pilot)
        await pilot.press("escape")
        names = await palette_names(pilot)
        assert len(names) == len(set(names)), names
        for name in ("Export reading list", "Planner", "More by author", "Open PDF", "Quit"):
            assert name in names
        assert "Did you mean" not in names, "nothing to accept"
        screen = await type_query(pilot, "halfspces")
        offer = SearchResult("halfspces", 0, (), suggestion="halfspaces")
        screen.post_message(MainScreen.SearchDone("halfspces", screen.sort, offer, True))
        await settle(pilot)
        await pilot.press("escape")
        assert "Did you mean" in await palette_names(pilot)


async def test_j_and_k_scroll_the_paper_view(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(60, 14)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "proeval")
        await pilot.press("escape", "enter")
        await settle(pilot)
        assert screen.view.has_focus and screen.view.max_scroll_y > 0
        await pilot.press("j", "j")
        await pilot.pause()
        assert screen.view.scroll_y > 0
        await pilot.press("k", "k")
        await pilot.pause()
        assert screen.view.scroll_y == 0


async def test_toasts_replace_each_other(make_app: AppFactory, notices: Notices) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36), notifications=True) as pilot:  # toasts shown
        await ready(pilot)
        await type_query(pilot, "proeval")
        await pilot.press("escape")
        for _ in range(3):
            await pilot.press("b")
            await settle(pilot)
        assert len(notices.of(app)) >= 3  # three toasts were given...
        assert len(app.screen.query("Toast")) == 1  # ...and the screen shows the last alone


async def test_P_opens_the_openreview_pdf_and_a_lists_the_first_authors_papers(
    make_app: AppFactory, notices: Notices
) -> None:
    """On ProEval: P opens the PDF the view shows, a lists its first author's papers and
    Backspace returns; a paper without a forum page opens no PDF. Then Ctrl+C quits, and
    no notice of the app showed raw markup (the last step: the app ends)."""
    opened: list[str] = []
    app = make_app(opened=opened)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "proeval")
        assert "https://openreview.net/pdf?id=ccc" in rendered_text(
            screen.view.query_one("#paper-body")
        )
        await pilot.press("escape", "P")
        await settle(pilot)
        assert opened == ["https://openreview.net/pdf?id=ccc"]

        await pilot.press("a")
        await settle(pilot)
        assert screen.box.value == 'author:"Yizheng Huang"'
        assert screen.results.hits
        assert all("Yizheng Huang" in h.paper.authors for h in screen.results.hits)
        await pilot.press("backspace")
        await settle(pilot)
        assert screen.box.value == "proeval"

        await type_query(pilot, "watermarking")
        await pilot.press("escape", "P")
        await settle(pilot)
        assert opened == ["https://openreview.net/pdf?id=ccc"], "no forum page, no PDF"

        await pilot.press("escape", "ctrl+c")
        await pilot.pause()
        assert not any("[b]" in m for m in notices.messages(app))
    assert app.return_code == 0


async def test_e_and_p_open_the_export_and_the_planner(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await type_query(pilot, "proeval")
        await pilot.press("escape", "b", "e")
        await settle(pilot)
        assert isinstance(app.screen, ExportDialog)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ReadingListScreen)
        await pilot.press("escape", "p")
        await settle(pilot)
        assert isinstance(app.screen, ReadingListScreen) and app.screen.sessions.shown
        header = str(app.screen.query_one("#rl-header", Static).render())
        assert header.startswith("Planner: 1 bookmarked paper by day and session"), header
