"""``paperscope update [VENUE ...] [--from URL_OR_DIR] [--force] [--undo]``: the official feeds.

Downloads each venue's official feed (every page of it) and abstracts file into the data
folder, with a progress line on a terminal, and says what changed: papers added and
removed, the bookmarked papers whose session, room or time moved, and the watches with
new matches (``watches: 2 new for author:"…"; 5 new for diffusion``). Any fault is one
line on stderr and exit status 1; what was stored before stays in use. ``--undo`` puts
back the feed the last update replaced.

The venues are the built-in ones and those the config declares (``[venues.KEY]``);
``--list`` shows them. ``update KEY --host HOST [--venue-zone ZONE]`` takes any other
conference on the same site software for this run (docs/venues.md).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from index_builder import venues
from index_builder.text.safe import safe
from tui.cli.common import add_subparser
from tui.cli.output import ProgressBar, echo, error
from tui.shared.context import Context


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``update`` to the ``paperscope`` parser."""
    p = add_subparser(
        sub, "update", "download the conferences' official papers and abstracts", cmd_update
    )
    p.add_argument(
        "venues",
        nargs="*",
        metavar="VENUE",
        help=f"<conf><year>, default {venues.DEFAULT.key}; --list shows the known ones",
    )
    p.add_argument("--list", action="store_true", help="show the known venues and stop")
    p.add_argument(
        "--host",
        metavar="HOST",
        help="the conference site of a venue not in the list (colm.cc), for this run",
    )
    p.add_argument(
        "--venue-zone",
        metavar="ZONE",
        help="with --host: the IANA zone of the venue's city (default: the feed's offsets)",
    )
    p.add_argument(
        "--from",
        dest="base",
        metavar="URL_OR_DIR",
        help="an http(s):// folder or a local folder holding the same file names "
        "(for a mirror, or files downloaded by hand behind a proxy)",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="store a feed whose number of records is far from the stored one's",
    )
    p.add_argument(
        "--undo",
        action="store_true",
        help="put back the feed the last update replaced (again: go back)",
    )
    p.add_argument(
        "-v", "--verbose", action="store_true", help="say each step on stderr as it happens"
    )


class DownloadLine(ProgressBar):
    """The progress bar, or a byte count and the seconds spent when the size is unknown."""

    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        super().__init__(label, stream)
        self.started = time.monotonic()
        self._shown = 0.0

    def __call__(self, done: int, total: int) -> None:
        """Report ``done`` bytes of ``total`` (0: unknown)."""
        if total > 0:
            super().__call__(done, total)
            return
        now = time.monotonic()
        if not self.enabled or now - self._shown < 0.2:
            return
        self._shown = now
        self._last = 0
        spent = now - self.started
        self.stream.write(f"\r{self.label} {done / 1e6:.1f} MB ({spent:.0f} s)\x1b[K")
        self.stream.flush()


def cmd_update(args: argparse.Namespace, ctx: Context) -> int:
    """``paperscope update``."""
    # The HTTP stack is imported by the one command that downloads, not by every command.
    from index_builder.feeds.download import Cancelled, FeedError
    from index_builder.feeds.store import venue_dir
    from index_builder.feeds.update import undo, update

    if args.base is not None and not args.base.strip():
        error("update: --from needs an http(s):// folder or a local folder, not ''")
        return 2
    ctx.config()  # the venues it declares
    if args.list:
        for line in venue_lines(_configured(ctx)):
            echo(line)
        for problem in ctx.venue_problems.values():
            error(problem)
        return 0
    try:
        chosen, new = chosen_venues(args, ctx)
    except LookupError as exc:
        error(str(exc))
        return 2
    except ValueError as exc:
        error(str(exc))
        return 1
    bars: list[ProgressBar] = []

    def progress(name: str) -> ProgressBar:
        bar = DownloadLine(f"Downloading {name}")
        bars.append(bar)
        return bar

    status = 0
    added = False
    for venue in chosen:

        def step(what: str, key: str = venue.key) -> None:
            if args.verbose or what.startswith("waiting"):
                sys.stderr.write(f"{key}: {safe(what)}\n")  # it may quote a feed's link
                sys.stderr.flush()

        try:
            if args.undo:
                echo(undo(venue, ctx.paths))
                continue
            change = update(venue, ctx.paths, source=args.base, progress=progress,
                            force=args.force, bookmarked=_bookmarked(ctx),
                            step=step)  # fmt: skip
        except Cancelled:
            raise KeyboardInterrupt from None
        except FeedError as exc:
            _finish(bars)
            error(f"{venue.key}: {exc}; the stored data is unchanged")
            status = 1
            continue
        _finish(bars)
        if change.parsed:  # the next build reads the stored feed parsed
            from index_builder.catalogue.load import keep_parsed

            keep_parsed(ctx.paths.cache_dir, change.parsed)
        echo(change.summary())
        for line in change.details():
            echo(f"  {line}")
        if not change.unchanged:
            echo(f"  stored in {venue_dir(ctx.paths, venue)}")
        if venue is new:
            from index_builder.feeds.remembered import remember

            remember(ctx.paths, venue)
            echo(f"  {venue.key} is remembered with its feed ([venues.{venue.key}] in the "
                 "config takes its place)")  # fmt: skip
        added = added or (not args.undo and change.added > 0)
    if added:
        _watch_news(ctx)
    return status


def chosen_venues(
    args: argparse.Namespace, ctx: Context
) -> tuple[list[venues.Venue], venues.Venue | None]:
    """The venues to update, and the one ``--host`` made known (to remember once its feed
    is stored). ``LookupError`` for a key not known (a usage error), ``ValueError`` for one
    that cannot be used (a refused config table, a bad zone or host).
    """
    from index_builder.venue_config import make_venue

    keys = args.venues or [venues.DEFAULT.key]
    if args.host is None:
        if args.venue_zone is not None:
            raise LookupError("update: --venue-zone goes with --host")
        return [_known(key, ctx) for key in keys], None
    if len(keys) != 1:
        raise LookupError("update: --host takes one venue")
    key = keys[0].strip().lower()
    found = venues.venue(key)
    new = found is None or (not venues.is_built_in(found) and key not in _configured(ctx))
    if found is not None and args.venue_zone is None:
        from dataclasses import replace

        from index_builder.venue_config import check_host

        found = replace(found, host=check_host(key, args.host))
    else:
        found = make_venue(key, args.host, timezone=args.venue_zone)
    venues.declare([*venues.declared(), found])
    return [found], found if new else None


def _configured(ctx: Context) -> set[str]:
    return {v.key for v in ctx.config().venues}


def _known(key: str, ctx: Context) -> venues.Venue:
    found = venues.venue(key)
    if found is not None:
        return found
    refused = ctx.venue_problems.get(key.strip().lower())
    if refused:
        raise ValueError(refused)
    known = ", ".join(v.key for v in venues.known())
    raise LookupError(
        f"unknown venue {key!r}; known venues: {known} (another conference on the same "
        f"site software: --host HOST, or [venues.{key}] in the config)"
    )


def venue_lines(mine: set[str]) -> list[str]:
    """``paperscope update --list``: each known venue, its site, zone(s) and origin
    (built in, the config's, or remembered from an ``update --host``); ``mine`` are the
    config's keys."""
    rows = [("venue", "name", "site", "time zone (sites)", "from")]
    for v in venues.known():
        zones = "; ".join(f"{s.name} {s.timezone}" for s in v.sites) or v.timezone or "-"
        origin = "built in" if venues.is_built_in(v) else "config" if v.key in mine else "--host"
        rows.append((v.key, v.name, v.host, zones, origin))
    widths = [*(max(len(r[i]) for r in rows) for i in range(4)), 0]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def _watch_news(ctx: Context) -> None:
    """Name the watches with new matches (``watches: 2 new for …``); nothing if none."""
    from index_builder.readinglist.store import ReadingList, ReadingListError
    from index_builder.readinglist.watches import Watches
    from tui.cli.records import ensure_index
    from tui.shared.watching import count_watches, news_line

    if not ctx.paths.reading_list.exists():
        return
    try:
        with ReadingList(ctx.paths.reading_list) as store:
            watches = Watches(store).all()
    except (ReadingListError, OSError) as exc:
        error(f"watches: {exc} (their news is left out)")
        return
    if watches:
        ensure_index(ctx)
        line = news_line(count_watches(ctx.index(), watches))
        echo(f"watches: {line}" if line else "watches: nothing new")


def _bookmarked(ctx: Context) -> frozenset[str]:
    """The reading list's ids (none when it cannot be read: the update goes on)."""
    from tui.cli.records import bookmarked_ids

    return bookmarked_ids(ctx)


def _finish(bars: list[ProgressBar]) -> None:
    """End the progress bars drawn so far."""
    for bar in bars:
        bar.finish()
    bars.clear()
