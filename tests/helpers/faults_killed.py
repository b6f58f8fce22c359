"""``paperscope ARGS`` in a forked child that the test kills at a moment of its choosing.

The kill tests need a process of their own (a SIGKILL must land in it, not in the test),
but not a fresh interpreter: a ``python -m tui`` started for each kill spent 0.2-1.5 s of
CPU starting and importing (the vector libraries too, for an index build) before its
first step. :func:`fork_cli` forks the test's process, where all of that is loaded, and
runs the command there with its standard error on a pipe the test reads line by line
(the steps of ``update -v``), so the kill is timed by an event: a line, or a file the
command made. What needs an ``exec`` (a terminal, a wall-clock moment of a starting
process) still uses :func:`tests.helpers.cli.spawn_cli`.
"""

from __future__ import annotations

import contextlib
import io
import os
import select
import signal
import subprocess
import sys
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn, TextIO

from index_builder.paths import HOME_ENV
from tests.helpers.cli import environment


class _StopAt(io.TextIOWrapper):
    """Standard error that stops its process (SIGSTOP) once a write holding ``line`` is
    flushed: the test that reads that line kills the child where the line was said, not
    at whatever later moment the signal lands (the command may have ended by then)."""

    def __init__(self, fd: int, line: str) -> None:
        super().__init__(open(fd, "wb", closefd=False), line_buffering=True)  # noqa: SIM115
        self.line = line

    def write(self, text: str) -> int:
        """Write ``text``; stop here when it holds the line (after it reached the pipe)."""
        written = super().write(text)
        if self.line in text:
            self.flush()
            os.kill(os.getpid(), signal.SIGSTOP)
        return written


def _child(
    args: tuple[str, ...], home: Path, env: Mapping[str, str], err: int, stop_at: str = ""
) -> NoReturn:
    """In the forked child: run the command, stdin and stdout on /dev/null, stderr on ``err``
    (stopping the child where it writes ``stop_at``, when that is given)."""
    status = 70
    try:
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)
        os.dup2(err, 2)
        sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 (ended by os._exit)
        if stop_at:
            sys.stderr = _StopAt(2, stop_at)
        else:
            sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
        from tui.cli.main import run

        with environment({HOME_ENV: str(home), **env}):
            try:
                status = run(list(args))
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # the test reads it on the pipe, and sees status 70
        traceback.print_exc()
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(status)  # never back into pytest, whatever happened


@dataclass
class Forked:
    """A command running in a forked child: its pid and its standard error, as text."""

    args: tuple[str, ...]
    pid: int
    stderr: TextIO
    returncode: int | None = None

    def ended(self) -> bool:
        """True once the child has ended (it is left to :meth:`wait` to collect)."""
        if self.returncode is not None:
            return True
        flags = os.WEXITED | os.WNOHANG | os.WNOWAIT
        return os.waitid(os.P_PID, self.pid, flags) is not None

    def kill(self) -> None:
        """SIGKILL the child (it may have ended already: then nothing happens)."""
        if self.returncode is None:
            os.kill(self.pid, signal.SIGKILL)

    def wait(self, timeout: float) -> int:
        """The child's status as ``subprocess`` gives it (``-9`` when killed); a child
        still running after ``timeout`` seconds is killed and ``TimeoutExpired`` raised."""
        if self.returncode is None:
            pidfd = os.pidfd_open(self.pid)
            try:
                ended, _, _ = select.select([pidfd], [], [], timeout)
            finally:
                os.close(pidfd)
            if not ended:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
                self.stderr.close()
                raise subprocess.TimeoutExpired(["paperscope", *self.args], timeout)
            _, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
            self.stderr.close()
        return self.returncode


def fork_cli(
    *args: str, home: Path, env: Mapping[str, str] | None = None, stop_at: str = ""
) -> Forked:
    """Start ``paperscope ARGS`` on ``home`` in a child forked from this process.

    With ``stop_at``, the child stops (SIGSTOP) right after it writes a line holding that
    text to its standard error, until the test kills it: the kill lands at that moment.
    """
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        _child(args, home, env or {}, write, stop_at)
    os.close(write)
    return Forked(args, pid, open(read, encoding="utf-8", errors="replace"))
