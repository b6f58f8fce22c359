"""Pilot tests: keys (j/k/g/G/pages, Enter/Esc, m, o/O, ?, q), the mouse, narrow layout."""

from __future__ import annotations

from textual import events

from tests.helpers.tui_helpers import AppFactory, ready, rendered_text, settle, type_query
from tui.screens.help import HelpScreen
from tui.screens.main.searching import like_query
from tui.widgets.paper_view import PaperView
from tui.widgets.result_list import ResultList


async def test_j_k_g_G_and_pages_move_the_cursor_and_the_view_follows(
    make_app: AppFactory,
) -> None:
    """The list's keys, then Enter and Esc, then a click and a double click (one app: each
    step starts in the list where the one before left it)."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await pilot.press("escape")
        assert app.focused is screen.results
        await pilot.press("j", "j", "down")
        assert screen.results.cursor == 3
        await pilot.press("k", "up")
        assert screen.results.cursor == 1
        await settle(pilot)
        assert screen.view.paper == screen.results.hits[1].paper
        await pilot.press("G")
        assert screen.results.cursor == len(screen.results.hits) - 1
        await pilot.press("g")
        assert screen.results.cursor == 0
        await pilot.press("pagedown")
        page = screen.results.cursor
        assert page > 5
        await pilot.press("pageup")
        assert screen.results.cursor == 0
        await pilot.press("end", "home")
        assert screen.results.cursor == 0

        # Enter opens the view, Esc comes back to the list (one row down, as it was left).
        await pilot.press("j", "enter")
        assert isinstance(app.focused, PaperView) or app.focused in screen.view.query("*")
        await pilot.press("escape")
        assert app.focused is screen.results
        assert screen.results.cursor == 1

        # A click selects a row, a double click opens it (the list scrolled to its top).
        await pilot.click(ResultList, offset=(5, 4))
        await settle(pilot)
        assert screen.results.cursor == 2
        assert screen.view.paper == screen.results.hits[2].paper
        await pilot.double_click(ResultList, offset=(5, 6))
        await settle(pilot)
        assert screen.results.cursor == 3


async def test_letters_typed_in_the_box_stay_in_the_box_and_slash_focuses_it(
    make_app: AppFactory,
) -> None:
    """Letters that are keys in the list are text in the box; from the list, ``/`` moves
    to the box and is not typed (one app: the box at the start, then the list)."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await pilot.press(*"jkqsbyomfgG?")
        await settle(pilot)
        assert screen.box.value == "jkqsbyomfgG?"
        assert app.is_running and app.screen is screen
        assert screen.sort == "relevance"
        assert screen.results.cursor == 0

        screen.box.value = ""
        await settle(pilot)
        await pilot.press("escape", "slash")
        assert app.focused is screen.box
        await pilot.press("slash")
        assert screen.box.value == ""


CHARACTERS = {"space": " ", "backspace": "\x7f", "ctrl+u": "\x15", "ctrl+w": "\x17", "left": None}
"""The character a terminal's bytes give with each named key (a letter gives itself)."""


def read_together(*keys: str) -> list[events.Key]:
    """The key events of ``keys`` as the app gets them when it reads a terminal's bytes in
    one go (public ``events.Key``, posted at once: no key is handled before the next comes).

    A terminal sends Esc pressed just before a letter (over SSH, in tmux, before the app
    reads its keys) as the bytes of Alt and that letter: Textual reads them as ``alt+j``.
    """
    return [events.Key(k, CHARACTERS[k] if k in CHARACTERS else k[-1]) for k in keys]


async def test_esc_and_letters_read_together_act_as_those_keys_and_esc_q_quits(
    make_app: AppFactory,
) -> None:
    """Esc j j read together move down the list; then, in the list, Esc q quits (one app:
    the second story starts where the first ends, in the list)."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        assert app.focused is screen.box and len(screen.results.hits) > 3
        for event in read_together("alt+j", "j"):  # Esc j j: Alt+j, then a plain j
            app.post_message(event)
        await settle(pilot)
        assert screen.box.value == ""
        assert app.focused is screen.results
        assert screen.results.cursor == 2
        assert screen.view.paper == screen.results.hits[2].paper

        # Esc q read together in the list quit (the last step: the app ends).
        for event in read_together("alt+q"):
            app.post_message(event)
        await settle(pilot)
    assert app.return_code == 0


EDITED = {
    "backspace": ("a b backspace c d", "acd"),
    "ctrl+u": ("a b c ctrl+u z q", "zq"),
    "ctrl+w": ("a b space c d ctrl+w e f", "ab ef"),
    "left": ("a b left c", "acb"),
}
"""Per editing key: the keys read together (space-separated) and the box's text after."""


async def test_editing_keys_read_together_with_letters_keep_their_order(
    make_app: AppFactory,
) -> None:
    """Each editing key in turn, in one app: the box emptied before each (the same code
    path, the box's own handling of keys read together, as in an app of its own)."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        for key, (typed, expected) in EDITED.items():
            screen.box.value = ""
            await settle(pilot)
            assert app.focused is screen.box, key
            for event in read_together(*typed.split()):
                app.post_message(event)
            await settle(pilot)
            assert screen.box.value == expected, key


async def test_massart_done_when_flow_then_m_lists_similar_papers_and_escape_returns(
    make_app: AppFactory,
) -> None:
    """The Massart flow (a query, the list, the view following it), then ``m`` on a new
    query (one app: the second story starts with a query of its own)."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "massart noise")
        first, second = screen.results.hits
        assert screen.view.paper == first.paper
        await pilot.press("escape", "j")
        await settle(pilot)
        assert screen.view.paper == second.paper
        body = rendered_text(screen.view.query_one("#paper-body"))
        assert f"Authors      {second.paper.authors[0]}," in body
        assert first.paper.authors[0] not in body

        screen = await type_query(pilot, "watermark")
        paper = screen.results.hits[0].paper
        await pilot.press("escape", "m")
        await settle(pilot)
        assert screen.box.value == like_query(paper.id)
        assert screen.results.hits, "similar papers are listed"
        assert paper.id not in {h.paper.id for h in screen.results.hits}
        assert app.focused is screen.results
        await pilot.press("escape")
        await settle(pilot)
        assert screen.box.value == "watermark"
        await pilot.press("m")
        await settle(pilot)
        await pilot.press("backspace")
        await settle(pilot)
        assert screen.box.value == "watermark"


async def test_o_and_O_and_a_click_open_only_web_links(make_app: AppFactory) -> None:
    """o and O on ProEval, then a click on its Code line, then O on a paper whose code
    link is not a web link (one app: each step opens links of the paper shown)."""
    opened: list[str] = []
    app = make_app(opened=opened)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "proeval")
        await pilot.press("escape", "o", "O")
        await settle(pilot)
        assert opened == [
            "https://openreview.net/forum?id=ccc",
            "https://github.com/example/proeval",
        ]
        # A click on the view's Code line opens it too.
        opened.clear()
        body = screen.view.query_one("#paper-body")
        lines = rendered_text(body).splitlines()
        row = next(i for i, line in enumerate(lines) if line.startswith("Code"))
        await pilot.click("#paper-body", offset=(20, row))
        await settle(pilot)
        assert opened == ["https://github.com/example/proeval"]

        await type_query(pilot, "watermarking")
        await pilot.press("escape", "O")
        await settle(pilot)
        assert screen.view.paper is not None and screen.view.paper.id == "t04"
        assert len(opened) == 1, "a javascript: link is never opened"


async def test_narrow_layout_stacks_and_enter_shows_the_view(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(70, 22)) as pilot:
        screen = await ready(pilot)
        assert screen.has_class("-narrow")
        assert screen.results.region.y < screen.view.region.y, "the list sits above the view"
        assert screen.results.region.height >= 6 and screen.view.region.height >= 6
        screen = await type_query(pilot, "massart noise")
        await pilot.press("escape", "enter")
        assert screen.has_class("-reading")
        assert not screen.results.display or screen.results.region.height == 0
        await pilot.press("escape")
        assert not screen.has_class("-reading")
        assert app.focused is screen.results


def test_every_binding_has_an_id_and_a_tooltip() -> None:
    from textual.binding import Binding

    from tui.app import PaperScopeApp
    from tui.screens.main.screen import MainScreen

    bindings = [
        *PaperScopeApp.BINDINGS,
        *MainScreen.BINDINGS,
        *ResultList.BINDINGS,
        *HelpScreen.BINDINGS,
    ]
    ids = []
    for binding in bindings:
        assert isinstance(binding, Binding)
        assert binding.id and binding.tooltip, binding
        ids.append(binding.id)
    assert len(ids) == len(set(ids)), "ids are unique, so a keymap names one binding"
