"""The search box owns its history: Enter or Down takes the query, Up recalls it.

The box remembers a query itself and tells its parent by ``SearchBox.Submitted``; on the
main screen that moves the focus to the list.
"""

from __future__ import annotations

from textual.app import App, ComposeResult

from tests.helpers.tui_helpers import AppFactory, ready, type_query, until
from tui.widgets.result_list import ResultList
from tui.widgets.search_box import SearchBox


class Remembered:
    """A history in memory, as the box steps through it (a ``Recall``)."""

    def __init__(self) -> None:
        self.queries: list[str] = []
        self.at: int | None = None
        self.browsing = False

    def older(self, current: str) -> str | None:
        """The query before the one shown."""
        at = (len(self.queries) if self.at is None else self.at) - 1
        if at < 0:
            return None
        self.at, self.browsing = at, True
        return self.queries[at]

    def newer(self) -> str | None:
        """The query after the one shown (none past the newest here)."""
        if self.at is None or self.at + 1 >= len(self.queries):
            return None
        self.at += 1
        return self.queries[self.at]

    def reset(self) -> None:
        """Stop stepping through the history."""
        self.at, self.browsing = None, False

    def add(self, query: str) -> None:
        """Remember ``query``."""
        self.queries.append(query)
        self.reset()


class BoxApp(App[None]):
    """A search box alone, recording what it posts."""

    def __init__(self, history: Remembered) -> None:
        super().__init__()
        self.history = history
        self.submitted: list[str] = []

    def compose(self) -> ComposeResult:
        yield SearchBox(self.history)

    def on_search_box_submitted(self, message: SearchBox.Submitted) -> None:
        self.submitted.append(message.value)


async def test_the_box_remembers_what_enter_and_down_take() -> None:
    history = Remembered()
    app = BoxApp(history)
    async with app.run_test(size=(80, 5)) as pilot:
        await pilot.press(*"massart", "enter")
        await until(pilot, lambda: app.submitted == ["massart"], what="Enter to be posted")
        box = app.query_one(SearchBox)
        box.value = "noise"
        await pilot.press("down")
        await until(pilot, lambda: len(app.submitted) == 2, what="Down to be posted")
        assert app.submitted == ["massart", "noise"]
        assert history.queries == ["massart", "noise"]
        box.value = ""
        await pilot.press("up", "up")
        assert box.value == "massart"
        await pilot.press("down")  # stepping through the history: Down is the newer query
        assert box.value == "noise"
        assert len(app.submitted) == 2


async def test_down_from_the_box_moves_to_the_list_and_up_recalls(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "massart noise")
        await pilot.press("down")
        await until(pilot, lambda: app.focused is screen.results, what="the list to get focus")
        assert isinstance(app.focused, ResultList)
        await pilot.press("slash")
        screen.box.value = ""
        await pilot.press("up")
        assert screen.box.value == "massart noise"
