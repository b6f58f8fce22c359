"""The start-up floor: a bare Textual app with a paper browser's widgets and nothing else.

A header, a search box, an option list of the table's first 60 poster titles,
an empty status line and a footer. ``python floor_app.py TABLE.csv [--lean]``.

It reads the table as the project's reference floor (``shared/tools/floor_app.py``,
the one the start-up budgets are defined against) does: every row, then the first
60 posters. ``--lean`` stops reading at the 60th poster instead, about 40 ms sooner
on the bundled table: a stricter anchor, reported beside the budget's.
"""

from __future__ import annotations

import csv
import sys
from itertools import islice

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Input, OptionList, Static


class FloorApp(App[None]):
    """Shows 60 titles read from the table given on the command line."""

    def __init__(self, table: str, *, lean: bool = False) -> None:
        super().__init__()
        self.table = table
        self.lean = lean

    def compose(self) -> ComposeResult:
        """The widgets, filled from the table."""
        with open(self.table, encoding="utf-8", newline="") as f:
            rows = (r for r in csv.DictReader(f) if r["event_type"] == "Poster")
            if self.lean:
                titles = [r["title"] for r in islice(rows, 60)]
            else:
                titles = [r["title"] for r in rows][:60]
        yield Header()
        yield Input(placeholder="search")
        yield OptionList(*titles)
        yield Static("")
        yield Footer()


if __name__ == "__main__":
    FloorApp(sys.argv[1], lean="--lean" in sys.argv[2:]).run()
