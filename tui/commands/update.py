""" "Update from the conference site" in the command palette: ``paperscope update`` in a worker.

The download runs in a thread worker with its progress on the status line; the app
stays usable. It reads from where the last update did (``--from``), else the site.
When something changed, a fresh catalogue and index are built (still in
the worker) and swapped into the main screen; a fault is one notification and the
stored data stays in use. Quitting sets ``cancel``, which stops a download at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from tui.commands.listed import Command, ListedCommands

if TYPE_CHECKING:
    from textual.app import App

    from index_builder.catalogue.load import Catalogue
    from index_builder.search.engine import SearchIndex
    from tui.shared.context import Context

COMMAND = "Update from the conference site"
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
        return lambda done, total: show(f"downloading {name}", done, total or done)

    # From where the last ``paperscope update --from`` took it, else the site itself.
    source = read_meta(ctx.paths, DEFAULT).get("base") or None
    try:
        change = update(DEFAULT, ctx.paths, source=source, cancel=cancel, progress=downloading)
    except Cancelled:
        return
    except FeedError as exc:
        show("index ready")
        app.call_from_thread(
            app.notify, f"{exc}; the stored data is unchanged", title="Update", severity="error"
        )
        return
    app.call_from_thread(app.notify, change.summary(), title="Update")
    if change.unchanged:
        show("index ready")
        return
    show("loading the new papers")
    fresh = Fresh(ctx.paths, list(ctx.extra_sources), ctx.use_bundled)
    catalogue = fresh.catalogue()
    index = fresh.index()
    notice = index.ensure(progress=lambda done, total: show("building index", done, total))
    if not cancel.is_set():
        app.call_from_thread(adopt, fresh)
        app.call_from_thread(swap_in, fresh.index, catalogue, index, notice)
