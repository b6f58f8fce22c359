"""Errors of background workers, never silent: said on screen and written to a log.

The thread workers run with ``exit_on_error=False`` (one failed search must not end the
app), so Textual only records their errors. Textual tells a worker's node when its state
changes; the app and each screen that runs workers hand an ``ERROR`` to :func:`report`,
which says what failed in the status line and a toast, and appends the traceback to
``paperscope.log`` in the cache folder (:func:`log_error`: at most :data:`MAX_BYTES`, then
rotated, with :data:`BACKUPS` older files kept).
"""

from __future__ import annotations

import os
import threading
import time
import traceback
from pathlib import Path
from typing import Any

from textual.worker import Worker, WorkerState

LOG_NAME = "paperscope.log"
MAX_BYTES = 256 * 1024
BACKUPS = 2
WHAT = {
    "search": "search",
    "more": "loading more results",
    "similar": "similar papers",
    "load": "loading the papers",
    "bookmark": "bookmark",
    "rl-watch": "watching the reading list",
    "rl-export": "export",
    "update": "update",
    "copy": "copy",
    "cite": "citation",
    "browser": "opening the browser",
}
"""Worker group -> the words that name what failed (other groups are named as they are)."""

_log_lock = threading.Lock()


def log_error(cache_dir: Path, text: str) -> Path:
    """Append ``text`` (with the time) to ``cache_dir/paperscope.log``; return its path.

    Past :data:`MAX_BYTES` the log is rotated (``.1``, ``.2``; the oldest dropped), so it
    never grows without bound. Raises ``OSError`` when the cache folder cannot be written.
    """
    path = cache_dir / LOG_NAME
    entry = f"{time.strftime('%Y-%m-%dT%H:%M:%S%z')} {text.rstrip()}\n"
    with _log_lock:
        cache_dir.mkdir(parents=True, exist_ok=True)
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            size = 0
        if size and size + len(entry.encode("utf-8")) > MAX_BYTES:
            for n in range(BACKUPS, 0, -1):
                older = path.with_name(f"{LOG_NAME}.{n - 1}") if n > 1 else path
                if older.exists():
                    os.replace(older, path.with_name(f"{LOG_NAME}.{n}"))
        with path.open("a", encoding="utf-8") as fh:
            fh.write(entry[-MAX_BYTES:])
    return path


def failed(event: Worker.StateChanged) -> bool:
    """True when ``event`` says a worker ended with an error."""
    return event.state is WorkerState.ERROR and event.worker.error is not None


def report(app: Any, worker: Worker[Any]) -> str:
    """Say that ``worker`` failed (status line, toast) and log its traceback; the line said.

    ``app`` is the running PaperScope app (passed in: this module never imports it); the
    log goes to its cache folder (``app.services.paths.cache_dir``).
    """
    cache_dir: Path = app.services.paths.cache_dir
    error = worker.error
    assert error is not None
    what = WHAT.get(worker.group, worker.group or worker.name or "a background task")
    line = f"{what} failed: {type(error).__name__}: {error}"
    details = "".join(traceback.format_exception(error))
    try:
        where = str(log_error(cache_dir, f"{line} (worker {worker.name!r})\n{details}"))
    except OSError as exc:  # an unwritable cache folder: the screen still says it
        where = f"not logged ({exc.strerror or exc})"
    from tui.widgets.status_bar import StatusBar

    for bar in app.screen.query(StatusBar):
        bar.set_error(line)
    app.notify(f"{line}\nDetails: {where}", title="Error", severity="error")
    return line
