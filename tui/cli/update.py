"""``paperscope update [VENUE ...] [--from URL_OR_DIR]``: fetch the conferences' feeds.

Downloads each venue's official feed (and abstracts file) into the data folder,
with a progress bar on a terminal, and says what changed. Any fault is one line on
stderr and exit status 1; what was stored before stays in use.
"""

from __future__ import annotations

import argparse

from index_builder import venues
from tui.cli.common import add_subparser
from tui.cli.output import ProgressBar, echo, error
from tui.shared.context import Context


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``update`` to the ``paperscope`` parser."""
    known = ", ".join(v.key for v in venues.VENUES)
    p = add_subparser(
        sub, "update", "download the conferences' official papers and abstracts", cmd_update
    )
    p.add_argument(
        "venues",
        nargs="*",
        metavar="VENUE",
        help=f"<conf><year>, default {venues.DEFAULT.key}; known: {known}",
    )
    p.add_argument(
        "--from",
        dest="base",
        metavar="URL_OR_DIR",
        help="an http(s):// folder or a local folder holding the same file names "
        "(for a mirror, or files downloaded by hand behind a proxy)",
    )


def cmd_update(args: argparse.Namespace, ctx: Context) -> int:
    """``paperscope update``."""
    # The HTTP stack is imported by the one command that downloads, not by every command.
    from index_builder.feeds.download import Cancelled, FeedError
    from index_builder.feeds.store import venue_dir
    from index_builder.feeds.update import update

    chosen = []
    for key in args.venues or [venues.DEFAULT.key]:
        venue = venues.venue(key)
        if venue is None:
            known = ", ".join(v.key for v in venues.VENUES)
            error(f"unknown venue {key!r}; known venues: {known}")
            return 2
        chosen.append(venue)
    bars: list[ProgressBar] = []

    def progress(name: str) -> ProgressBar:
        bar = ProgressBar(f"Downloading {name}")
        bars.append(bar)
        return bar

    status = 0
    for venue in chosen:
        try:
            change = update(venue, ctx.paths, source=args.base, progress=progress)
        except Cancelled:
            raise KeyboardInterrupt from None
        except FeedError as exc:
            _finish(bars)
            error(f"{venue.key}: {exc}; the stored data is unchanged")
            status = 1
            continue
        _finish(bars)
        echo(change.summary())
        if not change.unchanged:
            echo(f"  stored in {venue_dir(ctx.paths, venue)}")
    return status


def _finish(bars: list[ProgressBar]) -> None:
    """End the progress bars drawn so far."""
    for bar in bars:
        bar.finish()
    bars.clear()
