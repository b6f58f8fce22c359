"""A few papers of the bundled table, as the only source of a command-line test's home.

A test that checks what the command line says of one or two bundled papers (their
sessions' times, their agenda, their export) has every command read the 6,628 papers of
the bundled catalogue's cache first (0.1-0.2 s of CPU each, the most of such a command).
:func:`bundled_cut` writes the bundled table's rows of the chosen papers (every row of
each: its poster and its talk) to a table of the same name, read with
``--no-bundled --source CUT`` (:func:`cut_flags`): the same rows, read by the same reader,
make the same papers with the same sessions and times.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from index_builder.paths import bundled_sources


def bundled_cut(folder: Path, ids: Iterable[str]) -> Path:
    """The bundled table's rows of the papers with ``ids`` (a poster's and its talk's rows
    share the paper's title) written to ``folder``, under the table's own name."""
    table = bundled_sources()[0]
    head, rows = _rows(table)
    title = head.index("title")
    wanted = set(ids)
    titles = {row[title] for row in rows if row[0] in wanted}
    assert len(titles) == len(wanted), f"not every id of {sorted(wanted)} is in {table.name}"
    folder.mkdir(parents=True, exist_ok=True)
    cut = folder / table.name
    with cut.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(head)
        writer.writerows(row for row in rows if row[title] in titles)
    return cut


@cache
def _rows(table: Path) -> tuple[list[str], tuple[list[str], ...]]:
    """The table's head and rows, read once per test process (the bundled files are read
    only: each cut read and parsed all 6,628 papers' rows again, ~25 ms)."""
    with table.open(newline="", encoding="utf-8") as source:
        head, *rows = list(csv.reader(source))
    return head, tuple(rows)


def cut_flags(cut: Path) -> list[str]:
    """The global options that make ``cut`` a command's only source."""
    return ["--no-bundled", "--source", str(cut)]
