"""Pilot test: on a narrow terminal the status line still shows the build's progress."""

from __future__ import annotations

from tests.helpers.held_index import UnbuiltIndex
from tests.helpers.tui_helpers import AppFactory, main, rendered_text, until


async def test_a_narrow_status_line_shows_the_build_before_the_hint(make_app: AppFactory) -> None:
    index = UnbuiltIndex(43)
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
