"""``paperscope``: the TUI when called bare, the command line otherwise."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run what it asks for; returns the exit status."""
    try:
        from tui.cli.main import run

        status = run(sys.argv[1:] if argv is None else argv)
    except KeyboardInterrupt:  # Ctrl+C while still starting: no traceback
        status = 130
    if status == 130 and argv is None:
        from tui.quitting import leave

        # Interrupted: end now, without waiting for a command's worker threads.
        leave(status)
    return status


if __name__ == "__main__":
    sys.exit(main())
