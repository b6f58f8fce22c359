"""``paperscope ARGS`` in a process forked from the test's, for the fault tests.

A fault test often needs a process of its own only to survive what it checks: a command
that hangs on a named pipe must be ended from outside (the timeout is the hang detector),
and a command that crashes must not take the test with it. :func:`forked_cli` runs
:func:`tests.helpers.cli.run_cli` in a child forked from this process, where Python, the
app's modules and the vector libraries are already loaded: a fresh ``python -m tui``
spends about a second starting before it reads its first byte. What needs an ``exec``
(a terminal, ``TZ`` read at start, the encoding of the real standard output, a mount
namespace, a signal's exit status) still uses :func:`tests.helpers.cli.spawn_cli`.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import NoReturn

from tests.helpers.cli import run_cli
from tests.helpers.faults import paperscope


def _child(args: tuple[str, ...], home: Path, env: Mapping[str, str] | None, out: int) -> NoReturn:
    """In the forked child: run the command with stdin closed, send the result on ``out``."""
    status = 70
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)  # as ``stdin=DEVNULL``: nothing waits for the test's input
        done = run_cli(*args, home=home, env=env)
        with os.fdopen(out, "wb") as pipe:
            pickle.dump(done, pipe)
        status = 0
    finally:
        os._exit(status)  # never back into pytest, whatever happened


def forked_cli(
    *args: str, home: Path, env: Mapping[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``paperscope ARGS`` on ``home`` in a forked child, as :func:`run_cli` reports it.

    A child still running after ``timeout`` seconds is killed and ``TimeoutExpired`` is
    raised (as ``subprocess.run`` does); a child that ends without a result raises
    ``AssertionError`` with its exit status.
    """
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        _child(args, home, env, write)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        ready, _, _ = select.select([pipe], [], [], timeout)
        if not ready:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise subprocess.TimeoutExpired(["paperscope", *args], timeout)
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    assert data, f"paperscope {' '.join(args)} ended without a result (wait status {status})"
    done: subprocess.CompletedProcess[str] = pickle.loads(data)
    return done


def run_forked(
    home: Path, argv: list[str], timeout: float = 120, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """:func:`tests.helpers.faults.run` of a ``paperscope(...)`` argv, in a forked child."""
    prefix = paperscope()
    assert argv[: len(prefix)] == prefix, f"not a paperscope command: {argv}"
    return forked_cli(*argv[len(prefix) :], home=home, env=env, timeout=timeout)
