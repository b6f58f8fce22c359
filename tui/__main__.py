"""``paperscope``: the TUI when called bare, the command line otherwise."""

from __future__ import annotations

import os
import signal
import sys

if __name__ == "__main__" or os.path.basename(sys.argv[0]) == "paperscope":
    # Ctrl+C while this module's own imports run (before main() catches it): end at once
    # and quietly, as main() would, not with a KeyboardInterrupt traceback from an import.
    signal.signal(signal.SIGINT, lambda _signal, _frame: os._exit(130))

from typing import TYPE_CHECKING

from tui.lifecycle.exiting import INTERRUPTED, is_interrupt, leave

if TYPE_CHECKING:
    from index_builder.catalogue.load import Catalogue
    from tui.lifecycle.peek import ForkedPeek


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run what it asks for; returns the exit status."""
    if argv is None:  # the process's own entry: KeyboardInterrupt from here on
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        # Bare ``paperscope`` opens the TUI: its first papers are read from now on, in a
        # child, while the command line and Textual are imported (see tui.lifecycle.peek).
        peek = early_peek() if argv is None and not sys.argv[1:] else None
        from tui.cli.main import run

        status = run(sys.argv[1:] if argv is None else argv, peek=peek)
    except BaseException as error:
        if not is_interrupt(error):
            raise
        status = INTERRUPTED  # Ctrl+C while still starting (often mid-import): no traceback
    if status == INTERRUPTED and argv is None:
        # Interrupted: end now, without waiting for a command's worker threads, and
        # without importing anything (an interrupted import may have left a module half-built).
        leave(status)
    return status


def early_peek() -> ForkedPeek:
    """The first screen of papers of the default sources, read in a forked child."""
    from tui.lifecycle.peek import ForkedPeek

    def read() -> Catalogue | None:
        from index_builder.paths import Paths
        from tui.shared.context import Context

        return Context(paths=Paths.from_env()).peek_catalogue()

    return ForkedPeek(read)


if __name__ == "__main__":
    sys.exit(main())
