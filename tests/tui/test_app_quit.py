"""Pilot tests: Ctrl+C quits from anywhere, q from the list (the real-terminal side, with
an index build running, is ``tests/faults/test_quit.py``)."""

from __future__ import annotations

from tests.helpers.tui_helpers import AppFactory, main, ready, type_query


async def test_ctrl_c_quits_even_while_typing_in_the_search_box(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await type_query(pilot, "massart")
        assert main(pilot).box.has_focus
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert not app.is_running
    assert app.return_code == 0


async def test_q_types_in_the_search_box_and_quits_from_the_list(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await type_query(pilot, "q", keys=True)
        assert app.is_running and main(pilot).box.value.endswith("q")
        await pilot.press("escape", "q")
        await pilot.pause()
        assert not app.is_running
    assert app.return_code == 0
    assert app.return_value == 0
