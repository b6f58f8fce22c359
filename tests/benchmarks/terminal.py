"""A real terminal for the start-up and typing figures: a private tmux server per run.

The clock starts just before tmux is asked to start the program, and the
screen is read with ``capture-pane`` every ~10 ms: what a user would see,
including Textual's own start-up and first paint.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable
from pathlib import Path

POLL_S = 0.01


def available() -> bool:
    """True when tmux is installed."""
    return shutil.which("tmux") is not None


class Terminal:
    """One program running in its own tmux server, ``width`` × ``height`` cells."""

    def __init__(self, cmd: list[str], env: dict[str, str], width: int = 120, height: int = 36):
        self.name = f"psbench-{uuid.uuid4().hex[:8]}"
        self._tmux = ["tmux", "-L", self.name]
        assignments = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        program = " ".join(shlex.quote(c) for c in cmd)
        line = f"env {assignments} {program}; echo __EXITED__$?; sleep 30"
        self.started = time.perf_counter()
        size = ("-x", str(width), "-y", str(height))
        start = ("-f", "/dev/null", "new-session", "-d", "-s", self.name, *size)
        subprocess.run([*self._tmux, *start, "bash", "-c", line], check=True)

    def screen(self) -> str:
        """The visible screen as text."""
        out = subprocess.run(
            [*self._tmux, "capture-pane", "-p", "-t", self.name], capture_output=True, text=True
        )
        return out.stdout

    def wait(
        self, test: Callable[[str], bool], timeout: float, since: float | None = None
    ) -> float | None:
        """Seconds from ``since`` (default: the start) until ``test(screen)``; None on timeout."""
        origin = self.started if since is None else since
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            if test(self.screen()):
                return time.perf_counter() - origin
            time.sleep(POLL_S)
        return None

    def send_text(self, text: str) -> float:
        """Send ``text`` as one burst of keys; returns the time it was sent."""
        sent = time.perf_counter()
        subprocess.run([*self._tmux, "send-keys", "-t", self.name, "-l", text], check=True)
        return sent

    def send_key(self, *keys: str) -> None:
        """Send named keys (``Escape``, ``C-u``, ``q``) in one go."""
        subprocess.run([*self._tmux, "send-keys", "-t", self.name, *keys], check=True)

    def program_pid(self) -> int | None:
        """The pid of the program (the child of the pane's shell), once it runs."""
        out = subprocess.run(
            [*self._tmux, "list-panes", "-t", self.name, "-F", "#{pane_pid}"],
            capture_output=True,
            text=True,
        ).stdout.split()
        if not out:
            return None
        children = Path(f"/proc/{out[0]}/task/{out[0]}/children")
        try:
            kids = children.read_text().split()
        except OSError:
            return None
        return int(kids[0]) if kids else None

    def close(self) -> None:
        """Stop the program and its tmux server."""
        subprocess.run([*self._tmux, "kill-server"], capture_output=True)

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class StatusSpotter:
    """Sees the list filled by the status line's count (``6,630 papers``)."""

    COUNT = re.compile(r"([\d,]+) papers? ·")

    def shows(self, minimum: int = 3) -> Callable[[str], bool]:
        """A screen test: the status line counts at least ``minimum`` papers shown."""

        def test(screen: str) -> bool:
            found = self.COUNT.search(screen)
            return found is not None and int(found.group(1).replace(",", "")) >= minimum

        return test


class TitleSpotter:
    """Counts how many distinct titles of the table are on a screen."""

    KEY = 22

    def __init__(self, titles: list[str]) -> None:
        plain = (t for t in titles if t.isascii() and not set(t) & set("$\\{}*`"))
        self.keys = {t[: self.KEY] for t in plain if len(t) >= self.KEY}

    def count(self, screen: str) -> int:
        """Distinct title beginnings visible anywhere on the screen."""
        seen = set()
        k = self.KEY
        for line in screen.splitlines():
            for j in range(len(line) - k + 1):
                if line[j : j + k] in self.keys:
                    seen.add(line[j : j + k])
        return len(seen)

    def shows(self, minimum: int = 3) -> Callable[[str], bool]:
        """A screen test: at least ``minimum`` titles visible."""
        return lambda screen: self.count(screen) >= minimum
