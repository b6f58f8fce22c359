"""A tmux server of the test's own: a socket name unique to this process and test.

Tests never touch the user's tmux server or another test run's: each gets
``tmux -L paperscope-test-<pid>-<n>``, and the server is killed at the end even when
the test fails (use the ``tmux_server`` fixture, or :class:`TmuxServer` as a context).
"""

from __future__ import annotations

import itertools
import os
import subprocess
from pathlib import Path
from types import TracebackType

_numbers = itertools.count()


class TmuxServer:
    """One private tmux server; call it with a tmux command's arguments to run them."""

    def __init__(self) -> None:
        """Pick a socket name no other test (of this or another run) uses."""
        self.socket = f"paperscope-test-{os.getpid()}-{next(_numbers)}"

    def __call__(self, *args: str) -> str:
        """Run ``tmux -L <socket> ARGS``; return its standard output."""
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        return done.stdout

    def capture(self, target: str) -> str:
        """The visible text of the pane ``target``."""
        return self("capture-pane", "-p", "-t", target)

    def kill(self) -> None:
        """Stop the server and everything running in it, and remove its socket file."""
        self("kill-server")
        folder = Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}"
        (folder / self.socket).unlink(missing_ok=True)

    def __enter__(self) -> TmuxServer:
        """The server, to be killed when the block ends."""
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Kill the server, whatever happened in the block."""
        self.kill()
