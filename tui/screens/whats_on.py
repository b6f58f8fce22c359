"""What's on: the bookmarked sessions running at a moment, the next one, and that day's plan.

The moment is now, or a day and hour typed in the box (read in the zone the sessions are
shown in: the venue's by default): ``wed 14:45``, ``2026-07-08 14:45``, ``wed``, or a bare
``14:45`` on the conference day shown (:func:`~index_builder.readinglist.agenda.moment_from`).
The same text as ``paperscope agenda`` (:mod:`index_builder.readinglist.agenda`).

BINDINGS:

| key    | action                                          |
|--------|-------------------------------------------------|
| enter  | show the moment typed (empty: now)              |
| escape | close                                           |
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from index_builder.model import Paper
from index_builder.readinglist.agenda import (
    agenda_zone,
    by_day,
    conference_days,
    group_lines,
    moment_from,
    now_lines,
    whats_on,
)
from index_builder.readinglist.bookmark import Bookmark, Lookup
from index_builder.readinglist.schedule import group_sessions
from index_builder.text.safe import safe
from index_builder.times import long_day


class WhatsOnScreen(ModalScreen[None]):
    """The sessions running at a moment among the bookmarks, the next one, and the day."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", tooltip="Back", id="whats_on_close"),
    ]

    def __init__(
        self,
        bookmarks: Sequence[Bookmark],
        lookup: Lookup | None,
        setting: str,
        *,
        now: datetime | None = None,
        papers: Iterable[Paper] = (),
    ) -> None:
        super().__init__()
        self.groups = group_sessions(bookmarks, lookup, setting)
        self.zone = agenda_zone(self.groups, setting)
        bookmarked = {g.day for g in self.groups if g.day is not None}
        self.days = conference_days(papers, self.zone) or tuple(sorted(bookmarked))
        """The conference's days (of every paper given, else of the bookmarks)."""
        self.now = now
        self.moment: datetime | None = None

    def compose(self) -> ComposeResult:
        """A title, the box for a day and hour, and the text."""
        with Vertical(id="wo-dialog"):
            yield Label("What's on", id="wo-title")
            yield Input(
                placeholder="a day and hour: wed 10:30, 2026-07-08 or 10:30 (Enter; empty: now)",
                id="wo-when",
            )
            with VerticalScroll(id="wo-scroll"):
                yield Static(id="wo-body")

    def on_mount(self) -> None:
        """Show what is on now."""
        self.show("")
        self.query_one("#wo-when", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Show the moment typed."""
        event.stop()
        self.show(event.value)

    def show(self, typed: str) -> None:
        """Fill the text for ``typed``: a day (``wed``, ``YYYY-MM-DD``) and an hour
        (``HH:MM``), either alone, or '' for now."""
        body = self.query_one("#wo-body", Static)
        parts = typed.split()
        at = next((p for p in parts if ":" in p), None)
        days = [p for p in parts if ":" not in p]
        if len(days) > 1 or len(parts) > 2:
            body.update(Text(safe(f"{typed!r} is not a day and hour like wed 10:30")))
            return
        day = days[0] if days else None
        shown = self.moment.date() if self.moment is not None else None
        clock = self.now or datetime.now(UTC)
        try:
            self.moment = moment_from(day, at, self.zone, clock, self.days, shown)
        except ValueError as exc:
            body.update(Text(safe(str(exc).replace("--day ", "").replace("--at ", ""))))
            return
        now = whats_on(self.groups, self.moment)
        lines = now_lines(now)
        if not self.groups:
            lines = ["No bookmarks yet: b on a paper adds it.", "", *lines]
        day_groups = [g for d, gs in by_day(self.groups) if d == self.moment.date() for g in gs]
        lines += ["", f"{long_day(self.moment.date())}:"]
        for group in day_groups:
            lines += group_lines(group)
        if not day_groups:
            lines.append("  nothing bookmarked on this day")
        body.update(Text(safe("\n".join(lines))))

    def action_close(self) -> None:
        """Back to where the screen was opened."""
        self.dismiss(None)
