"""Every key of the app as the user has it (keymap applied), and the palette that runs them.

The help screen lists :func:`shown_entries` (each key once, where it acts);
:class:`ActionCommands` offers the same actions in the command palette (those that
can run now), calling the same ``action_*`` methods as the keys do.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial

from textual.app import App
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.markup import escape
from textual.screen import Screen

from tui.commands.listed import Command, ListedCommands


@dataclass(frozen=True)
class KeyEntry:
    """One binding: its id, the keys that fire it (as shown), what it does."""

    binding_id: str
    keys: tuple[str, ...]
    description: str
    tooltip: str
    action: str


def key_entries(
    app: App[object], bindings: Sequence[BindingType], keymap: Mapping[str, str]
) -> list[KeyEntry]:
    """The bindings merged by id, with the keymap's keys replacing the defaults."""
    merged: dict[str, KeyEntry] = {}
    for item in bindings:
        if not isinstance(item, Binding):
            continue
        binding_id = item.id or item.action
        keys = keymap.get(binding_id, item.key)
        shown = tuple(
            app.get_key_display(Binding(key.strip(), item.action)) for key in keys.split(",")
        )
        old = merged.get(binding_id)
        if old is not None:
            shown = (*old.keys, *(k for k in shown if k not in old.keys))
        merged[binding_id] = KeyEntry(
            binding_id, shown, item.description or item.action, item.tooltip, item.action
        )
    return list(merged.values())


def action_nodes(
    app: App[object], screen: Screen[object]
) -> Iterator[tuple[DOMNode, Sequence[BindingType]]]:
    """Where the actions live: the app, ``screen`` and the screen's focusable widgets."""
    yield app, app.BINDINGS
    yield screen, screen.BINDINGS
    for widget in screen.query("*"):
        own = type(widget).__dict__.get("BINDINGS")
        if widget.can_focus and own and type(widget).__module__.startswith("tui."):
            yield widget, own


def shown_entries(
    app: App[object], screen: Screen[object], keymap: Mapping[str, str]
) -> list[tuple[DOMNode, KeyEntry]]:
    """The keys that act on ``screen`` now, each once, in the order app, screen, widgets.

    A key the screen binds is the screen's, not the app's (``q`` is Back in the reading
    list, not Quit), and a widget's key is the widget's: an outer binding keeps only the
    keys no inner one claims, and is left out when none is left.
    """
    nodes = list(action_nodes(app, screen))
    levels = [nodes[2:], nodes[1:2], nodes[:1]]  # innermost first: widgets, screen, app
    claimed: set[str] = set()
    kept: list[list[tuple[DOMNode, KeyEntry]]] = []
    for level in levels:
        found = []
        for node, bindings in level:
            for entry in key_entries(app, bindings, keymap):
                keys = tuple(k for k in entry.keys if k not in claimed)
                if keys:
                    found.append((node, replace(entry, keys=keys)))
        claimed |= {k for _node, entry in found for k in entry.keys}
        kept.append(found)
    return [item for level in reversed(kept) for item in level]


def enabled(node: DOMNode, action: str) -> bool:
    """False when ``node`` says ``action`` cannot run now (e.g. no suggestion to accept)."""
    name = action.split("(")[0]
    return "." in name or bool(node.check_action(name, ()))


class ActionCommands(ListedCommands):
    """The command palette's list of the app's own actions, with their keys."""

    def commands(self) -> Iterator[Command]:
        """Every action that can run now, with its keys in the help."""
        app = self.app
        keymap = getattr(app, "keymap", {})
        merged: dict[tuple[int, str], tuple[DOMNode, KeyEntry]] = {}
        for node, entry in shown_entries(app, self.screen, keymap):
            if entry.action.startswith("command_palette") or not enabled(node, entry.action):
                continue
            # One action under two ids (q and Ctrl+C both quit) is one command.
            old = merged.get((id(node), entry.action))
            if old is not None:
                entry = replace(old[1], keys=(*old[1].keys, *entry.keys))
            merged[(id(node), entry.action)] = (node, entry)
        for node, entry in merged.values():
            # The palette reads help as markup: escape it, or a key such as "/"
            # would make "[/]" and a tooltip could style itself.
            help_text = escape(f"{entry.tooltip}  ({' / '.join(entry.keys)})")
            yield entry.description, help_text, partial(app.run_action, entry.action, node)
