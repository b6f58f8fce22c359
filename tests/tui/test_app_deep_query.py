"""A query nested too deep in the app (issue 29, item 3): the list follows it and the
status line says it was read as plain words; the old app's search worker died of a
RecursionError and silently left the previous results on screen."""

from __future__ import annotations

from tests.helpers.tui_helpers import AppFactory, ready, type_query

DEEP = "NOT " * 600 + "diffusion"


async def test_a_deep_query_is_read_as_plain_words_and_says_so(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "massart")
        assert screen.result is not None and screen.result.query == "massart"
        screen = await type_query(pilot, DEEP)
        assert screen.result is not None and screen.result.query == DEEP
        assert screen.result.fallback and screen.result.fallback_reason == "nested too deep"
        assert "query read as plain words (nested too deep)" in screen.status.text
