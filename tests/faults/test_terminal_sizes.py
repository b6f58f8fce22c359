"""Tiny, huge and changing terminals while syntax soup is typed: no crash, no overflow.

The sample papers plus a few with wide characters (CJK, emoji, fullwidth letters,
combining marks) and markup in their titles, their index built once per run and copied
for each app. Every drawn line must fit the screen in cells, so wide characters do not
push the layout past the edge.
"""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.pilot import Pilot

from index_builder.model import Paper
from index_builder.paths import HOME_ENV
from index_builder.search.engine import SearchIndex
from tests.helpers.faults_cli import forked_cli
from tests.helpers.hostile_data import write_sources
from tests.helpers.shared_builds import build_once
from tests.helpers.tmux import TmuxServer
from tests.helpers.tui_helpers import main, ready, settle
from tests.helpers.tui_papers import PaperShelf
from tests.helpers.waiting import wait_until, wait_until_stable
from tui.app import PaperScopeApp

SIZES = [(20, 5), (30, 8), (70, 22), (300, 100)]
SOUP = '"((a OR NOT" field: *~ ]]'
WIDE = (
    Paper(id="w1", title="中文标题的论文 🙂🙂🙂 가나다라 ＦＵＬＬＷＩＤＴＨ zqwide",
          authors=("王小明", "🙂 Emoji"), abstract="中文摘要 " * 200 + "zqwide"),
    Paper(id="w2", title="e\u0301\u0301\u0301 z\u0336\u0337a\u0336lgo [bold red]x[/] 🙂" * 6,
          authors=("[@click=app.quit]Q[/]",), abstract="\u202eevil\u202c " * 50),
)  # fmt: skip


def fits(app: PaperScopeApp) -> list[str]:
    """Lines of the visible widgets that overflow the terminal or their widget (none, please).

    Every line a widget draws should be exactly as wide as the widget in cells; a wide
    character counted as one cell (or a combining mark as one) would show as a difference.
    """
    width = app.size.width
    wide: list[str] = []
    for widget in app.screen.query("ResultList, PaperBody, StatusBar, SearchBox"):
        w, h = widget.size
        if not (w and h):
            continue
        for strip in widget.render_lines(Region(0, 0, w, h)):
            if strip.cell_length > width or strip.cell_length != w:
                wide.append(f"{type(widget).__name__}: {strip.text[:60]!r}")
    return wide


async def type_soup(pilot: Pilot[int], soup: str = SOUP) -> None:
    """Focus the search box and type ``soup`` key by key."""
    screen = main(pilot)
    screen.box.focus()
    for ch in soup:
        await pilot.press(ch if ch != " " else "space")


@pytest.fixture
def papers(
    tui_papers: tuple[Paper, ...], tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Paper, ...]:
    """The sample papers and the wide ones; their index is in the test's cache, where the
    app (``make_app(papers=...)``) opens it: a copy of the one built once per run (each
    test built it again, ~0.3 s of CPU)."""
    papers = (*WIDE, *tui_papers)

    def build(cache: Path) -> None:
        index = SearchIndex(cache / "index", papers, PaperShelf(papers).fingerprint)
        assert index.ensure() is None
        index.close()

    shutil.copytree(build_once(tmp_path_factory, "terminal-sizes", build), tmp_path / "cache")
    copied = SearchIndex(tmp_path / "cache" / "index", papers, PaperShelf(papers).fingerprint)
    assert copied.is_fresh(), "the copied index is not the app's: it would build again"
    return papers


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_each_size_survives_typing_and_keys(
    make_app: object, papers: tuple[Paper, ...], size: tuple[int, int]
) -> None:
    app = make_app(papers=papers)  # type: ignore[operator]
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await type_soup(pilot)
        await settle(pilot)
        assert fits(app) == []
        await pilot.press("escape", "j", "j", "k", "G", "g", "s", "f", "f", "question_mark")
        await settle(pilot)
        await pilot.press("escape")
        main(pilot).box.value = ""
        await type_soup(pilot, "zqwide")
        await settle(pilot)
        assert fits(app) == []
        assert app.is_running


@pytest.mark.slow
async def test_resizes_while_typing(make_app: object, papers: tuple[Paper, ...]) -> None:
    app = make_app(papers=papers)  # type: ignore[operator]
    order = [(30, 8), (300, 100), (20, 5), (70, 22), (20, 5), (300, 100), (30, 8)]
    async with app.run_test(size=(70, 22)) as pilot:
        await ready(pilot)
        main(pilot).box.focus()
        for i, (width, height) in enumerate(order):
            await pilot.resize_terminal(width, height)
            for ch in SOUP[i::3]:
                await pilot.press(ch if ch != " " else "space")
            await pilot.press("backspace")
            await pilot.pause()
        await settle(pilot)
        assert fits(app) == []
        main(pilot).box.value = "zqwide"
        for width, height in order:
            await pilot.resize_terminal(width, height)
            await pilot.pause()
        await settle(pilot)
        assert fits(app) == []
        assert app.is_running


def pane_size(tmux: TmuxServer, target: str) -> str:
    """The pane's size as tmux sees it, ``WxH``."""
    return tmux("display-message", "-p", "-t", target, "#{pane_width}x#{pane_height}").strip()


def settled(tmux: TmuxServer, target: str, size: tuple[int, int]) -> str:
    """Wait until the pane has ``size`` and its screen stops changing; return the screen."""
    wanted = f"{size[0]}x{size[1]}"
    assert wait_until(lambda: pane_size(tmux, target) == wanted), pane_size(tmux, target)
    return wait_until_stable(lambda: tmux.capture(target))


@pytest.mark.tmux
@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_real_terminal_in_tmux(tmp_path: Path, tmux_server: TmuxServer) -> None:
    """The real app in tmux at 30×8: hostile data, OSC 52 in an abstract, resizes, soup."""
    tmux = tmux_server
    sources = write_sources(tmp_path / "sources", huge=False)
    home = tmp_path / "home"
    options = ["--no-bundled", *(x for p in sources for x in ("--source", str(p)))]
    built = forked_cli(*options, "index", home=home, timeout=120)
    assert built.returncode == 0, built.stderr
    command = " ".join(shlex.quote(x) for x in [sys.executable, "-m", "tui", *options])
    session = "app"
    tmux("new-session", "-d", "-s", "keep", "-x", "30", "-y", "8")
    tmux("set-option", "-s", "set-clipboard", "on")
    tmux("set-option", "-g", "remain-on-exit", "on")
    tmux("new-session", "-d", "-s", session, "-x", "30", "-y", "8",
         f"env {HOME_ENV}={shlex.quote(str(home))} TERM=xterm-256color {command}")  # fmt: skip
    assert wait_until(lambda: "zq" in tmux.capture(session)), tmux.capture(session)
    tmux("send-keys", "-t", session, "-l", "zqansi")
    assert wait_until(lambda: "zqansi" in tmux.capture(session)), tmux.capture(session)
    for width, height in ((20, 5), (70, 22), (30, 8), (300, 100), (30, 8)):
        tmux("resize-window", "-t", session, "-x", str(width), "-y", str(height))
        tmux("send-keys", "-t", session, "-l", SOUP)
        settled(tmux, session, (width, height))
    tmux("send-keys", "-t", session, "C-u")
    tmux("send-keys", "-t", session, "-l", "zqansi")
    tmux("resize-window", "-t", session, "-x", "70", "-y", "22")
    settled(tmux, session, (70, 22))
    assert wait_until(lambda: "zqansi" in tmux.capture(session)), tmux.capture(session)
    capture = wait_until_stable(lambda: tmux.capture(session))
    (tmp_path / "capture.txt").write_text(capture)
    print(capture)
    alive = tmux("list-panes", "-t", session, "-F", "#{pane_dead}").strip()
    assert alive == "0", capture
    assert "Traceback" not in capture
    assert "hacked" not in tmux("list-buffers")  # the abstract's OSC 52 reached nothing
