"""``paperscope``: the TUI when called bare, the command line otherwise."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run what it asks for; returns the exit status."""
    try:
        from tui.cli.main import run

        return run(sys.argv[1:] if argv is None else argv)
    except KeyboardInterrupt:  # Ctrl+C while still starting: no traceback
        return 130


if __name__ == "__main__":
    sys.exit(main())
