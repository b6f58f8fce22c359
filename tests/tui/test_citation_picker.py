"""Pilot tests: the ``Y`` style picker and the copy-by-hand dialog."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static, TextArea

from index_builder.citations.styles import cite
from index_builder.model import Paper
from tests.helpers.notices import Notices
from tui.screens.citation_picker import CitationPicker
from tui.screens.copy_fallback import CopyFallback, copy_and_report
from tui.shared import clipboard

PAPER = Paper(
    id="p1",
    title="ProEval: Proactive Failure Discovery",
    title_raw="ProEval: Proactive Failure Discovery",
    authors=("Yizheng Huang", "Wenjun Zeng", "Aditi Kumaresan", "Zi Wang"),
    openreview_url="https://openreview.net/forum?id=abc",
    event_id=1,
    venue="ICML 2026",
)
MISSING = object()


class Host(App[None]):
    """A bare app that pushes the screen under test and keeps its result."""

    def __init__(self) -> None:
        super().__init__()
        self.result: object = MISSING

    def compose(self) -> ComposeResult:
        yield Static("host")

    def pick(self, **kwargs: Any) -> None:
        """Push the picker as ``Y`` would."""
        self.push_screen(CitationPicker(PAPER, **kwargs), callback=self.keep)

    def keep(self, value: object) -> None:
        self.result = value


def preview(app: App[Any]) -> str:
    """The text of the picker's preview."""
    return str(app.screen.query_one("#preview", Static).render())


@pytest.mark.parametrize(
    ("key", "style"),
    [("b", "bibtex"), ("a", "apa"), ("m", "markdown"), ("p", "plain"), ("r", "ris"),
     ("c", "csljson")],
)  # fmt: skip
async def test_one_letter_picks_the_style(key: str, style: str) -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        app.pick()
        await pilot.pause()
        assert isinstance(app.screen, CitationPicker)
        await pilot.press(key)
        await pilot.pause()
        assert app.result == style
        assert not isinstance(app.screen, CitationPicker)


async def test_escape_cancels() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        app.pick()
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.result is None
        assert not isinstance(app.screen, CitationPicker)


async def test_preview_follows_the_highlight_and_enter_picks() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        app.pick(key="huang2026proeval")
        await pilot.pause()
        assert preview(app).startswith("@inproceedings{huang2026proeval,")
        await pilot.press("down")
        await pilot.pause()
        assert preview(app) == cite(PAPER, "apa")
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.result == "markdown"


async def test_default_style_is_highlighted_first() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        app.pick(default="plain")
        await pilot.pause()
        assert preview(app) == cite(PAPER, "plain")
        await pilot.press("enter")
        await pilot.pause()
        assert app.result == "plain"


async def test_tiny_terminal_does_not_crash() -> None:
    app = Host()
    async with app.run_test(size=(20, 6)) as pilot:
        app.pick()
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        assert app.result == "markdown"


async def test_fallback_shows_the_text_read_only_and_closes() -> None:
    app = Host()
    text = cite(PAPER, "bibtex")
    async with app.run_test(size=(100, 30)) as pilot:
        app.push_screen(CopyFallback(text, "Could not copy"), callback=app.keep)
        await pilot.pause()
        area = app.screen.query_one(TextArea)
        assert area.text == text and area.read_only
        assert area.selected_text == text
        await pilot.press("x")
        assert area.text == text
        await pilot.press("escape")
        await pilot.pause()
        assert app.result is None
        assert not isinstance(app.screen, CopyFallback)


@pytest.mark.parametrize("size", [(120, 36), (80, 24), (70, 22)])
async def test_no_notice_covers_the_fallback(size: tuple[int, int]) -> None:
    """A notice shown before (or while) the fallback opens leaves its words uncovered."""
    app = Host()
    async with app.run_test(size=size, notifications=True) as pilot:
        app.notify("Back in For you.")
        app.push_screen(CopyFallback(cite(PAPER, "bibtex"), "Could not copy"))
        await pilot.pause()
        app.notify("Since the last update: 3 papers changed, one of them moved to Hall D.")
        await pilot.pause()
        screen = app.screen
        for part in ("#fallback-reason", "#fallback-hint", "#fallback-text"):
            region = screen.query_one(part).region
            assert region.area, part
            for y in range(region.y, region.bottom):
                for x in range(region.x, region.right):
                    widget, _ = screen.get_widget_at(x, y)
                    assert widget.id == part[1:] or part in (f"#{a.id}" for a in widget.ancestors)


async def test_copy_and_report_without_any_clipboard_opens_the_fallback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_backend(text: str) -> None:
        raise RuntimeError("no clipboard here")

    monkeypatch.setattr(clipboard, "_pyperclip_copy", no_backend)
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        outcome = await copy_and_report(app, "the text", what="Citation")
        await pilot.pause()
        assert outcome.show_fallback
        assert isinstance(app.screen, CopyFallback)
        assert app.screen.query_one(TextArea).text == "the text"


async def test_copy_and_report_notifies_when_the_system_clipboard_works(
    monkeypatch: pytest.MonkeyPatch, notices: Notices
) -> None:
    copied: list[str] = []
    monkeypatch.setattr(clipboard, "_pyperclip_copy", copied.append)
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        outcome = await copy_and_report(app, "the text", what="Citation")
        await pilot.pause()
        assert copied == ["the text"] and outcome.native
        assert not isinstance(app.screen, CopyFallback)
        assert notices.messages(app) == [outcome.message]


async def test_at_80x24_the_picker_shows_every_line_and_its_keys() -> None:
    long_title = "A Diffusive Classification Loss for Learning Energy-based Generative Models"
    paper = Paper(
        id="p2",
        title=long_title,
        title_raw=long_title,
        authors=("RuiKang OuYang", "Louis Grenioux", "Jose Miguel Hernandez-Lobato"),
        openreview_url="https://openreview.net/forum?id=RVPqygyGRu",
        event_id=2,
        venue="ICML 2026",
    )
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(CitationPicker(paper), callback=app.keep)
        await pilot.pause()
        await pilot.pause()
        picker = app.screen.query_one("#picker")
        shown = picker.content_region
        for part in ("#picker-title", "#styles", "#preview-box", "#picker-help"):
            region = app.screen.query_one(part).region
            assert shown.contains_region(region), f"{part} is cut off at 80x24"
        box = app.screen.query_one("#preview-box")
        assert box.max_scroll_y == 0, "the whole BibTeX entry is on screen"
        assert app.screen.query_one("#preview", Static).region.height >= 12


async def test_ris_and_csl_json_previews() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        app.pick(key="huang2026proeval", default="ris")
        await pilot.pause()
        assert preview(app).startswith("TY  - CPAPER")
        assert "AU  - Huang, Yizheng" in preview(app)
        await pilot.press("down")
        await pilot.pause()
        assert '"id": "huang2026proeval"' in preview(app)
