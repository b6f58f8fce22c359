"""The TUI on a hostile catalogue: data shows as text, links stay http(s), nothing takes over.

The app runs on a real :class:`~tui.shared.context.Context` whose only sources are the hostile
files of :mod:`hostile_data` (as ``paperscope --no-bundled --source ...`` would make it);
the catalogue cache and index are built once per test run and copied per test.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from index_builder.paths import Paths
from index_builder.readinglist.store import ReadingList
from tests.helpers.hostile_data import (
    HOSTILE_BUILD,
    MARKUP,
    build_hostile,
    built_sources,
    unsafe_chars,
)
from tests.helpers.notices import Notices
from tests.helpers.shared_builds import build_once
from tests.helpers.tui_helpers import main, ready, rendered_text, settle, type_query, until
from tui.app import PaperScopeApp
from tui.shared.config import Config
from tui.shared.context import Context

HostileApp = Callable[..., PaperScopeApp]


@pytest.fixture(scope="module")
def hostile_cache(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    """The hostile sources and a cache folder holding their catalogue and index.

    Built once per test run for all workers; read only (each test copies the cache).
    """
    root = build_once(tmp_path_factory, HOSTILE_BUILD, build_hostile)
    return root / "cache", built_sources(root)


@pytest.fixture
def hostile_app(tmp_path: Path, hostile_cache: tuple[Path, list[Path]]) -> HostileApp:
    """``hostile_app(opened=list)``: the app on a private home over the hostile sources.

    ``lock_wait=S``: the app gets its reading list already opened, waiting ``S`` seconds
    for another process's lock instead of the default.
    """
    cache, sources = hostile_cache

    def factory(opened: list[str] | None = None, lock_wait: float | None = None) -> PaperScopeApp:
        shutil.copytree(cache, tmp_path / "cache", dirs_exist_ok=True)
        paths = Paths(tmp_path / "config", tmp_path / "data", tmp_path / "cache").ensure()
        ctx = Context(paths=paths, extra_sources=sources, use_bundled=False)
        seen = opened if opened is not None else []

        def record(url: str) -> bool:
            seen.append(url)
            return True

        store = None if lock_wait is None else ReadingList(paths.reading_list, timeout=lock_wait)
        config = Config(path=paths.config_file)
        return PaperScopeApp(ctx, config=config, store=store, open_url=record)

    return factory


def screen_text(app: PaperScopeApp) -> str:
    """What the list and the paper view draw, as plain text."""
    screen = app.screen
    parts = [rendered_text(w) for w in screen.query("ResultList, PaperBody, StatusBar")]
    return "\n".join(parts)


async def show(pilot: object, word: str) -> str:
    """Search ``word`` (in an emptied box) and return what the list and the view show."""
    main(pilot).box.value = ""  # type: ignore[arg-type]
    screen = await type_query(pilot, word)  # type: ignore[arg-type]
    await settle(pilot)  # type: ignore[arg-type]
    assert screen.view.paper is not None, f"no paper for {word}"
    return screen_text(screen.app)  # type: ignore[arg-type]


async def test_markup_in_data_is_shown_as_characters(hostile_app: HostileApp) -> None:
    app = hostile_app()
    async with app.run_test(size=(220, 70)) as pilot:
        await ready(pilot)
        text = await show(pilot, "zqmarkup")
        for literal in MARKUP:
            assert literal in text
        assert "[/bold red]" in text
        screen = main(pilot)
        screen.view.focus()
        await pilot.press("j", "k")
        await settle(pilot)
        assert app.is_running and app.return_code is None  # [@click=app.quit] did nothing
        text = await show(pilot, "zqtitlemarkup")
        assert "[bold red]Title[/]" in text and "[@click=app.quit]Q[/]" in text


ESCAPING = ["zqansi", "zqcontrol", "zqbidi", "zqtitlemarkup", "zqnul"]
"""The hostile papers whose text carries escape sequences or controls (one app shows each)."""


async def test_escape_sequences_never_reach_the_screen(hostile_app: HostileApp) -> None:
    app = hostile_app()
    async with app.run_test(size=(200, 60)) as pilot:
        await ready(pilot)
        for word in ESCAPING:
            text = await show(pilot, word)
            assert word in text
            assert unsafe_chars(text) == [], word
            # The whole sequence is dropped, not only its ESC: no leftover on screen either.
            assert "52;c;" not in text and "aGFja2Vk" not in text and "[31m" not in text, word


async def test_only_web_links_are_opened(hostile_app: HostileApp) -> None:
    opened: list[str] = []
    app = hostile_app(opened)
    async with app.run_test(size=(200, 60)) as pilot:
        await ready(pilot)
        await show(pilot, "zqtitlemarkup")  # page javascript:, OpenReview file:
        main(pilot).view.focus()
        await pilot.press("o", "O")
        await settle(pilot)
        assert opened == []
        await show(pilot, "zqformula")  # page data:, OpenReview https:
        main(pilot).view.focus()
        await pilot.press("o")
        await settle(pilot)
        assert not any(url.startswith("data:") for url in opened)
        opened.clear()
        body = main(pilot).query_one("PaperBody")
        assert all(url.startswith(("http://", "https://")) for _l, url in body.links)  # type: ignore[attr-defined]
        await show(pilot, "zqbraces")
        main(pilot).view.focus()
        await pilot.press("o")
        await settle(pilot)
        assert opened == ["https://example.org/[@click=app.quit]x[/]"]
        assert app.is_running


async def test_a_notification_quoting_a_url_shows_it_as_text(
    hostile_app: HostileApp, notices: Notices
) -> None:
    opened: list[str] = []
    app = hostile_app(opened)
    async with app.run_test(size=(200, 60)) as pilot:
        await ready(pilot)
        for count, word in enumerate(["zqbraces", "zqwide"], start=1):
            await show(pilot, word)
            main(pilot).view.focus()
            await pilot.press("o")
            await settle(pilot)

            def quoted(count: int = count) -> bool:
                return len(opened) == count and any(
                    opened[-1] in t for t in notifications(notices, app)
                )

            await until(pilot, quoted, what=f"the notice quoting the link of {word}")
            assert len(opened) == count, (word, opened)
            assert any(opened[-1] in text for text in notifications(notices, app)), word


def notifications(notices: Notices, app: PaperScopeApp) -> list[str]:
    """The text of each notice ``app`` gave as its toast shows it (markup applied when on)."""
    from textual.content import Content

    return [
        Content.from_markup(n.message).plain if n.markup else n.message for n in notices.of(app)
    ]


@pytest.mark.slow
async def test_huge_abstract_and_long_title(hostile_app: HostileApp) -> None:
    app = hostile_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        text = await show(pilot, "zqhuge")
        assert "zqhuge" in text and "lorem ipsum [bold]dolor[/bold]" in text
        main(pilot).view.focus()
        await pilot.press("G", "end", "pagedown", "g")
        await settle(pilot)
        text = await show(pilot, "zqlongtitle")
        assert "zqlongtitle" in text
        assert app.is_running


async def test_damaged_reading_list_the_app_starts_and_says_so(
    hostile_app: HostileApp, tmp_path: Path, notices: Notices
) -> None:
    app = hostile_app()
    path = app.ctx.paths.reading_list
    garbage = os.urandom(4096)
    path.write_bytes(garbage)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await show(pilot, "zqmarkup")
        main(pilot).view.focus()
        await pilot.press("b")
        await settle(pilot)
        messages = " ".join(notifications(notices, app))
        assert "reading list" in messages.lower()
        assert app.is_running
    kept = [p for p in path.parent.iterdir() if p.is_file() and p.read_bytes() == garbage]
    assert kept, "the damaged reading list's bytes are gone"


LOCK_HOLDER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(60)
"""


@pytest.mark.slow
async def test_locked_reading_list_bookmark_says_so(
    hostile_app: HostileApp, notices: Notices
) -> None:
    """Another process holds the list: ``b`` waits, then says it is locked; nothing changes.

    The app's list waits half a second for the lock, not the five it waits by default.
    """
    app = hostile_app(lock_wait=0.5)  # opens the list: an empty one in WAL mode
    path = app.ctx.paths.reading_list
    waiting = app.services.reading_list()
    assert waiting is not None
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        async with app.run_test(size=(120, 40)) as pilot:
            await ready(pilot)
            await show(pilot, "zqmarkup")
            main(pilot).view.focus()
            await pilot.press("b")
            await settle(pilot)
            assert "locked" in " ".join(notifications(notices, app))
            assert app.is_running
    finally:
        holder.kill()
        holder.wait(timeout=10)
        waiting.close()
    with ReadingList(path) as store:
        assert len(store) == 0


async def test_damaged_index_the_app_rebuilds_and_says_so(
    hostile_app: HostileApp, notices: Notices
) -> None:
    app = hostile_app()
    index_dir = app.ctx.paths.index_dir
    for path in index_dir.iterdir():
        if path.is_file() and path.suffix in (".toc", ".seg", ".pst", ".trm"):
            path.write_bytes(os.urandom(max(64, path.stat().st_size)))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await until(
            pilot,
            lambda: any("rebuilt" in text for text in notifications(notices, app)),
            what="the notice that the damaged index was rebuilt",
        )
        text = await show(pilot, "zqmarkup")
        assert "[bold red]" in text


async def test_copying_a_hostile_paper_sends_only_clean_text(
    hostile_app: HostileApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``y`` copies the citation: no escape sequence of the data rides along to the clipboard."""
    import tui.shared.clipboard as clipboard

    sent: list[str] = []

    def record_osc52(app: object, text: str) -> bool:
        sent.append(text)
        return True

    async def record_native(text: str, **_kw: object) -> str:
        sent.append(text)
        return "copied"

    monkeypatch.setattr(clipboard, "send_osc52", record_osc52)
    monkeypatch.setattr(clipboard, "copy_native_async", record_native)
    app = hostile_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        for word in ["zqansi", "zqtitlemarkup", "zqcontrol"]:
            sent.clear()
            await show(pilot, word)
            main(pilot).view.focus()
            await pilot.press("y")
            await settle(pilot)
            await until(pilot, lambda: bool(sent), what=f"the citation of {word} copied")
            assert sent, f"nothing was copied for {word}"
            for text in sent:
                assert unsafe_chars(text) == [], word
                assert "aGFja2Vk" not in text, word  # the data's own OSC 52 payload
