"""The footer of the screens: Textual's, composed again only when its keys change."""

from __future__ import annotations

from collections.abc import Hashable

from textual.app import ComposeResult
from textual.reactive import Reactive
from textual.widgets import Footer


class KeysFooter(Footer):
    """Textual's :class:`~textual.widgets.Footer`, which composes its keys again only
    when the keys it would show (or their state) changed.

    Textual's footer mounts all of its keys again each time the screen's bindings are
    published, at every change of focus (the search box to the list and back), though
    the keys shown are the same; each key mounted restyles itself twice. The keys
    drawn are the same as Textual's: this only skips composing what is already shown.
    Each key bound to the footer's style is also made in that style (compact or not)
    before it is mounted: Textual's keys start compact and are restyled when mounted.
    """

    def __init__(self) -> None:
        super().__init__()
        self._composed: Hashable = None

    def shown_keys(self) -> Hashable:
        """What the footer's keys are made from: each binding it shows, with whether it
        is enabled and its tooltip, and the command palette's binding."""
        active = self.screen.active_bindings
        keys = tuple(
            (binding, enabled, tooltip)
            for _node, binding, enabled, tooltip in active.values()
            if binding.show
        )
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        palette_key = palette[1:] if palette is not None else None
        return keys, palette_key, self.show_command_palette, self.app.ENABLE_COMMAND_PALETTE

    def compose(self) -> ComposeResult:
        """Textual's keys, each bound to the footer's ``compact`` given it and its class
        before it is mounted, as its watcher would: a key mounted then restyles itself
        neither for its default (compact) nor for the footer's style, which it has."""
        for widget in super().compose():
            # The keys are the widgets with a ``compact`` reactive (Textual's FooterKey,
            # which its package does not export); its labels and groups have none. The
            # palette's key is not bound to the footer's style: it keeps its own.
            compact = getattr(type(widget), "compact", None)
            if isinstance(compact, Reactive) and not widget.has_class("-command-palette"):
                widget.set_reactive(compact, self.compact)
                widget.set_class(self.compact, "-compact", update=False)
            yield widget

    async def recompose(self) -> None:
        """Compose the keys again if what they are made from changed since the last time."""
        if not self.is_attached:
            return
        shown = self.shown_keys()
        if shown == self._composed:
            return
        await super().recompose()
        # Keys not ready yet compose nothing: those are composed the next time.
        self._composed = shown if self.children else None
