"""The architecture doc's "Where a key's action lives" stays true.

``docs/architecture.md`` traces some keys from their ``Binding`` to what the user sees;
a row whose binding id, key or action has gone (renamed, moved to another class) fails
here, and so does a ``Class.name`` the section names that the class no longer has, so
the doc is corrected with the code.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.dom import DOMNode

from tui.app import PaperScopeApp
from tui.screens.main.for_you import ForYou
from tui.screens.main.library import Library
from tui.screens.main.listings import Listings
from tui.screens.main.screen import MainScreen
from tui.screens.main.search_flow import SearchFlow
from tui.screens.main.start_up import StartUp
from tui.screens.main.view import MainView
from tui.widgets.facet_panel import FacetPanel
from tui.widgets.paper_view import PaperView
from tui.widgets.result_list import ResultList
from tui.widgets.search_box import SearchBox

DOC = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
OWNERS: dict[str, type[DOMNode]] = {
    "MainScreen": MainScreen,
    "ResultList": ResultList,
    "PaperView": PaperView,
    "SearchBox": SearchBox,
    "PaperScopeApp": PaperScopeApp,
}
NAMED: dict[str, type[object]] = {
    **OWNERS,
    "MainView": MainView,
    "Listings": Listings,
    "Library": Library,
    "ForYou": ForYou,
    "StartUp": StartUp,
    "SearchFlow": SearchFlow,
    "FacetPanel": FacetPanel,
}
KEY_NAMES = {"/": "slash", "?": "question_mark"}
DOTTED = re.compile(r"`([A-Z][A-Za-z]+)\.([a-z_A-Z]+)`")
ROW = re.compile(r"^\| `([^`]+)` \| `([^`]+)` \| `([^`]+)` \| `([^`]+)` \|", re.MULTILINE)


def section() -> str:
    """The text of the section "Where a key's action lives"."""
    text = DOC.read_text(encoding="utf-8").split("## Where a key's action lives", 1)[1]
    return text.split("\n## ", 1)[0]


def rows() -> list[tuple[str, str, str, str]]:
    """(key, binding id, class, action) of each row of the doc's key table."""
    return ROW.findall(section())


def test_the_doc_traces_keys() -> None:
    assert len(rows()) >= 8


def test_every_class_member_the_section_names_exists() -> None:
    named = [(owner, name) for owner, name in DOTTED.findall(section()) if owner in NAMED]
    assert len(named) >= 10
    missing = [f"{o}.{n}" for o, n in named if not hasattr(NAMED[o], n)]
    assert not missing, f"the doc names what the code no longer has: {missing}"


@pytest.mark.parametrize(("key", "binding_id", "owner", "action"), rows())
def test_a_traced_key_is_bound_to_its_action(
    key: str, binding_id: str, owner: str, action: str
) -> None:
    cls = OWNERS[owner]
    bindings = [b for b in cls.BINDINGS if isinstance(b, Binding) and b.id == binding_id]
    assert bindings, f"{owner} binds no key with id {binding_id!r}"
    binding = bindings[0]
    assert KEY_NAMES.get(key, key) in [k.strip() for k in binding.key.split(",")]
    assert binding.action.split("(")[0] == action
    namespace, _, name = action.rpartition(".")
    target = PaperScopeApp if namespace == "app" else cls
    assert callable(getattr(target, f"action_{name}", None)), f"{target.__name__} has no {name}"
