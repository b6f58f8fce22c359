"""The footer of the screens: Textual's, composed again only when its keys change."""

from __future__ import annotations

from collections.abc import Hashable

from textual.widgets import Footer


class KeysFooter(Footer):
    """Textual's :class:`~textual.widgets.Footer`, which composes its keys again only
    when the keys it would show (or their state) changed.

    Textual's footer mounts all of its keys again each time the screen's bindings are
    published, at every change of focus (the search box to the list and back), though
    the keys shown are the same; each key mounted restyles itself twice. The keys
    drawn are the same as Textual's: this only skips composing what is already shown.
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
