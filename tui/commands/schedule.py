"""The palette's time commands: show session times in another zone, and what's on.

"Time zone: venue", "Time zone: local", "Time zone: UTC" are always offered; typing part
of an IANA name (``berlin``) offers the matching zones. Choosing one calls the app's
``set_time_zone`` (it redraws the times and saves ``timezone`` to the config). "What's
on" opens the what's-on screen over the current one.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache, partial
from zoneinfo import available_timezones

from textual.command import Hit

from index_builder.times import LOCAL, VENUE
from tui.commands.listed import Command, ListedCommands

FIXED = (
    (VENUE, "the conference's own zone (default)"),
    (LOCAL, "this computer's zone"),
    ("UTC", "Coordinated Universal Time"),
)
_MAX_ZONES = 20


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    """Every IANA zone name this system (or the tzdata package) knows, sorted."""
    return tuple(sorted(n for n in available_timezones() if "/" in n and "posix" not in n))


class ScheduleCommands(ListedCommands):
    """Commands to change the time zone of session times, and to see what's on."""

    def commands(self) -> Iterator[Command]:
        """What's on, and the fixed zones."""
        app = self.app
        yield (
            "What's on",
            "Sessions running now among your bookmarks",
            partial(app.run_action, "whats_on"),
        )
        for setting, help_text in FIXED:
            yield f"Time zone: {setting}", help_text, partial(self._choose, setting)

    def _choose(self, setting: str) -> None:
        chooser = getattr(self.app, "set_time_zone", None)
        if chooser is not None:
            chooser(setting)

    def more_hits(self, query: str) -> Iterator[Hit]:
        """The IANA zones whose name holds every word of ``query``."""
        words = query.lower().replace("time zone", "").replace(":", " ").split()
        if not words:
            return
        shown = 0
        for zone in zone_names():
            if all(w in zone.lower() for w in words) and shown < _MAX_ZONES:
                shown += 1
                name = f"Time zone: {zone}"
                yield Hit(
                    0.5, name, partial(self._choose, zone), text=name, help="show times in " + zone
                )
