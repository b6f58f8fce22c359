"""The footer's keys: composed again only when the keys it shows change (``KeysFooter``)."""

from __future__ import annotations

from textual.widgets import Footer

from index_builder.model import SearchResult
from tests.helpers.tui_helpers import AppFactory, ready, settle, type_query
from tui.screens.main.screen import MainScreen


def shown(footer: Footer) -> list[str]:
    """The footer's keys as they read ("/ Search"), in order."""
    return [" ".join(str(key.render()).split()) for key in footer.children]


def descriptions(screen: MainScreen) -> list[str]:
    """The descriptions of the screen's live bindings that a footer shows."""
    return [b.description for _n, b, _e, _t in screen.active_bindings.values() if b.show]


def follows_the_bindings(footer: Footer, screen: MainScreen) -> bool:
    """The footer shows the screen's live bindings, in their order, then the palette's."""
    keys = shown(footer)
    return [k.split(" ", 1)[1] for k in keys[:-1]] == descriptions(screen) and keys[-1] == (
        "^p palette"
    )


async def test_the_footer_composes_its_keys_again_only_when_they_change(
    make_app: AppFactory,
) -> None:
    """The bindings published again unchanged keep the same keys (the same widgets, not
    mounted again); a move of the focus, a suggestion offered and taken change them."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        footer = screen.query_one(Footer)
        assert shown(footer) == ["/ Search", "esc Back", "^p palette"]  # in the box
        keys = list(footer.children)
        screen.refresh_bindings()  # published again, the same keys
        await settle(pilot)
        assert list(footer.children) == keys, "the same keys, not composed again"

        await pilot.press("escape")  # the list: its keys
        await settle(pilot)
        assert app.focused is screen.results
        assert follows_the_bindings(footer, screen)
        assert "⏎ Open" in shown(footer) and "Did you mean" not in descriptions(screen)

        await pilot.press("slash")
        await type_query(pilot, "halfspces")
        offered = SearchResult("halfspces", 0, (), suggestion="halfspaces")
        screen.post_message(MainScreen.SearchDone("halfspces", screen.sort, offered, True))
        await settle(pilot)
        assert follows_the_bindings(footer, screen)
        assert "tab Did you mean" in shown(footer)

        await pilot.press("tab")  # taken: the key goes
        await settle(pilot)
        assert screen.box.value == "halfspaces"
        assert shown(footer) == ["/ Search", "esc Back", "^p palette"]
