""" "Update from the conference site" in the command palette: ``paperscope update`` in a worker.

The download runs in a thread worker with its progress on the status line; the app
stays usable. It reads from where the last update did (``--from``), else the site.
When something changed, a fresh catalogue and index are built (still in
the worker) and swapped into the main screen; a fault is one notification and the
stored data stays in use. Quitting sets ``cancel``, which stops a download at once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from tui.commands.listed import Command, ListedCommands

if TYPE_CHECKING:
    from textual.app import App

    from index_builder.catalogue.load import Catalogue
    from index_builder.feeds.update import Change
    from index_builder.search.engine import SearchIndex
    from tui.shared.context import Context

COMMAND = "Update from the conference site"
LOADING = "loading the new papers"
"""The status line while a change's papers are merged and its index changed."""
HELP = "Download every paper's abstract (paperscope update)"


class UpdateCommands(ListedCommands):
    """The palette's one update command."""

    def commands(self) -> Iterator[Command]:
        """The update command."""
        yield COMMAND, HELP, self._run

    async def _run(self) -> None:
        await self.app.run_action("update_feeds")


def update_in_worker(
    app: App[int],
    ctx: Context,
    cancel: threading.Event,
    *,
    adopt: Callable[[Context], None],
    show_state: Callable[[str, tuple[int, int] | None], None],
    swap_in: Callable[[Callable[[], SearchIndex], Catalogue, SearchIndex, str | None], None],
) -> None:
    """Download, then rebuild and swap in the catalogue and index (run in a thread worker).

    ``show_state`` is the main screen's status line, ``swap_in`` its start-up's
    ``swap_in``: passed in, so the palette's commands never import the screens.
    """
    from index_builder.feeds.download import Cancelled, FeedError
    from index_builder.feeds.store import read_meta
    from index_builder.feeds.update import update
    from index_builder.venues import DEFAULT
    from tui.shared.context import Context as Fresh

    def show(state: str, done: int = 0, total: int = 0) -> None:
        app.call_from_thread(show_state, state, (done, total) if total else None)

    def downloading(name: str) -> Callable[[int, int], None]:
        last = [0.0]

        def report(done: int, total: int) -> None:
            # At most ten redraws a second: each waits for the event loop.
            if time.monotonic() - last[0] < 0.1 and done != total:
                return
            last[0] = time.monotonic()
            show(f"downloading {name} {done / 1e6:.1f} MB", done, total or done)

        return report

    # From where the last ``paperscope update --from`` took it, else the site itself.
    source = read_meta(ctx.paths, DEFAULT).get("base") or None
    try:
        change = update(DEFAULT, ctx.paths, source=source, cancel=cancel, progress=downloading,
                        bookmarked=_bookmarked(ctx))  # fmt: skip
    except Cancelled:
        return
    except FeedError as exc:
        show("index ready")
        app.call_from_thread(
            app.notify, f"{exc}; the stored data is unchanged", title="Update", severity="error"
        )
        return
    if change.parsed:  # the build below reads the stored feed parsed
        from index_builder.catalogue.load import keep_parsed

        keep_parsed(ctx.paths.cache_dir, change.parsed)
    show(LOADING)  # the papers are merged again: most of the wait after a download
    fresh = Fresh(ctx.paths, list(ctx.extra_sources), ctx.use_bundled)
    catalogue = fresh.catalogue()
    # Another update (``paperscope update`` in a shell) may have stored what is not shown yet.
    if change.unchanged and catalogue.fingerprint == ctx.catalogue().fingerprint:
        app.call_from_thread(app.notify, change.summary(), title="Update")
        show("index ready")
        return
    _tell(app, ctx, change)
    swap_in_fresh(
        app, fresh, catalogue, cancel, adopt=adopt, show_state=show_state, swap_in=swap_in
    )
    if change.added and not cancel.is_set():
        _tell_watches(app, fresh)


def swap_in_fresh(
    app: App[int],
    fresh: Context,
    catalogue: Catalogue,
    cancel: threading.Event,
    *,
    adopt: Callable[[Context], None],
    show_state: Callable[[str, tuple[int, int] | None], None],
    swap_in: Callable[[Callable[[], SearchIndex], Catalogue, SearchIndex, str | None], None],
) -> None:
    """Build the index of ``fresh`` (its ``catalogue`` built) and swap both in (in a worker)."""

    def show(state: str, done: int = 0, total: int = 0) -> None:
        app.call_from_thread(show_state, state, (done, total) if total else None)

    show(LOADING)
    index = fresh.index()
    notice = index.ensure(progress=lambda done, total: show("building index", done, total))
    if not cancel.is_set():
        app.call_from_thread(adopt, fresh)
        app.call_from_thread(swap_in, fresh.index, catalogue, index, notice)


def _bookmarked(ctx: Context) -> frozenset[str]:
    """The reading list's ids, read in this thread (none when it cannot be read)."""
    from index_builder.readinglist.store import ReadingList

    if not ctx.paths.reading_list.exists():
        return frozenset()
    try:
        with ReadingList(ctx.paths.reading_list) as store:
            return store.ids()
    except Exception:  # the update goes on; moved bookmarks are then not listed
        return frozenset()


def _tell(app: App[int], ctx: Context, change: Change) -> None:
    """Say what the update did (what another update stored, when this one found nothing)."""
    from index_builder.feeds.changes import mark_seen

    if change.unchanged:
        text = f"{change.venue.name}: the feed stored by an earlier update is now shown"
    else:
        text = "\n".join([change.summary(), *change.details()[:10]])
        mark_seen(ctx.paths, change.venue.key)
    app.call_from_thread(app.notify, text, title="Update", timeout=12)


def _tell_watches(app: App[int], fresh: Context) -> None:
    """Name the watches with new matches over the fresh index (``2 new for …``)."""
    from index_builder.readinglist.store import ReadingList
    from index_builder.readinglist.watches import Watches
    from tui.shared.watching import count_watches, news_line

    if not fresh.paths.reading_list.exists():
        return
    try:
        with ReadingList(fresh.paths.reading_list) as store:
            watches = Watches(store).all()
    except Exception:  # the update is done; an unreadable list only hides the watches' news
        return
    line = news_line(count_watches(fresh.index(), watches)) if watches else ""
    if line:
        app.call_from_thread(app.notify, f"{line} (W lists them)", title="Watches", timeout=15)


def show_news(app: App[int], ctx: Context) -> None:
    """Show, once, what the last update of each venue changed (run in a thread worker)."""
    from index_builder.feeds.changes import mark_seen, unseen

    for key, message in unseen(ctx.paths):
        app.call_from_thread(app.notify, message, title="Since the last update", timeout=15)
        mark_seen(ctx.paths, key)
