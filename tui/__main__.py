"""``paperscope``: the TUI when called bare, the command line otherwise."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from index_builder.catalogue.load import Catalogue
    from tui.peek import ForkedPeek


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run what it asks for; returns the exit status."""
    try:
        # Bare ``paperscope`` opens the TUI: its first papers are read from now on, in a
        # child, while the command line and Textual are imported (see tui.peek).
        peek = early_peek() if argv is None and not sys.argv[1:] else None
        from tui.cli.main import run

        status = run(sys.argv[1:] if argv is None else argv, peek=peek)
    except KeyboardInterrupt:  # Ctrl+C while still starting: no traceback
        status = 130
    if status == 130 and argv is None:
        from tui.quitting import leave

        # Interrupted: end now, without waiting for a command's worker threads.
        leave(status)
    return status


def early_peek() -> ForkedPeek:
    """The first screen of papers of the default sources, read in a forked child."""
    from tui.peek import ForkedPeek

    def read() -> Catalogue | None:
        from index_builder.paths import Paths
        from tui.context import Context

        return Context(paths=Paths.from_env()).peek_catalogue()

    return ForkedPeek(read)


if __name__ == "__main__":
    sys.exit(main())
