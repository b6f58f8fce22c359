"""The .ics of a reading list holding every bundled paper: how long it takes to write.

    .venv/bin/python -m tests.benchmarks.ics_export [--runs 5] [--marks N] [--out FILE]

Every paper of the bundled catalogue (or the first ``--marks``) is bookmarked and the
calendar written (:func:`~index_builder.readinglist.exports.export`, format ``ics``, a fixed
stamp, so two runs write the same bytes); it prints the events, the bytes and the median
of ``--runs`` writes. ``--out`` keeps the file, to compare two trees' output (run each with
its own ``PYTHONPATH``). It reports; it asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from index_builder.catalogue.load import load_catalogue
from index_builder.paths import bundled_sources
from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.exports import export

STAMP = datetime(2026, 12, 2, 19, 30, tzinfo=UTC)


def main() -> None:
    """Write the whole bundled reading list's calendar ``--runs`` times and print figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--marks", type=int, default=0, help="the first N papers (0: all)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        catalogue = load_catalogue(bundled_sources(), cache_dir=Path(cache))
    marks = [Bookmark.from_paper(p, at="2026-12-01T10:00:00.000Z") for p in catalogue.papers]
    marks = marks[: args.marks or None]
    seconds, text = [], ""
    for _ in range(max(1, args.runs)):
        began = time.perf_counter()
        text = export(marks, "ics", lookup=catalogue.get, now=STAMP)
        seconds.append(time.perf_counter() - began)
    if args.out:
        args.out.write_bytes(text.encode("utf-8"))
    events, size = text.count("BEGIN:VEVENT"), len(text.encode("utf-8"))
    print(f"{len(marks)} bookmarks, {events} events, {size} bytes")
    print(f"median of {len(seconds)} writes: {1000 * statistics.median(seconds):.0f} ms")


if __name__ == "__main__":
    main()
