"""Pilot test: on a narrow terminal the status line still shows the build's progress."""

from __future__ import annotations

import threading
from collections.abc import Callable

from tests.helpers.tui_helpers import AppFactory, main, rendered_text, until


class HalfBuilt:
    """An index whose build stops at 43 % until the test ends."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def is_fresh(self) -> bool:
        return False

    def ensure(self, progress: Callable[[int, int], None] | None = None) -> str | None:
        if progress is not None:
            progress(43, 100)
        self.release.wait(30)
        raise RuntimeError("not built in this test")


async def test_a_narrow_status_line_shows_the_build_before_the_hint(make_app: AppFactory) -> None:
    index = HalfBuilt()
    app = make_app(index=index)
    try:
        async with app.run_test(size=(70, 22)) as pilot:
            status = main(pilot).status
            assert await until(pilot, lambda: "43%" in status.text)
            assert status.hint, "some sample papers lack abstracts: the hint is there too"
            assert status.text.index("building index 43%") < status.text.index(status.hint)
            await pilot.pause()
            assert "building index 43%" in rendered_text(status.query_one("#status-text"))
    finally:
        index.release.set()
