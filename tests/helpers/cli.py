"""The command line for tests: one way to run ``paperscope ARGS`` and read what it said.

:func:`run_cli` runs it in this process (the real argument parsing, commands and output,
without a Python start-up and its imports: about half a second a command saved), for
commands that need nothing of a process of their own. :func:`spawn_cli` starts a real
process, for what only a process shows: its exit on a signal, a time zone read at start
(``TZ``), file descriptors, a terminal, or a kill. Both return a ``CompletedProcess``.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

from index_builder.paths import HOME_ENV


def argv(*args: str) -> list[str]:
    """The argv of ``paperscope ARGS`` run from this checkout."""
    return [sys.executable, "-m", "tui", *args]


@contextlib.contextmanager
def environment(changes: Mapping[str, str]) -> Iterator[None]:
    """``os.environ`` with ``changes`` for the block, then as it was."""
    saved = {key: os.environ.get(key) for key in changes}
    os.environ.update(changes)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def run_cli(
    *args: str, home: Path, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``paperscope ARGS`` on ``home`` (PAPERSCOPE_HOME), run in this process."""
    from tui.cli.main import run

    out, err = io.StringIO(), io.StringIO()
    with (
        environment({HOME_ENV: str(home), **(env or {})}),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            code = run(list(args))
        except SystemExit as exc:  # argparse: --help, --version, a usage error
            code = exc.code if isinstance(exc.code, int) else 1
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def spawn_cli(
    *args: str, home: Path, env: Mapping[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """``paperscope ARGS`` on ``home`` (PAPERSCOPE_HOME), in a process of its own."""
    full = {**os.environ, HOME_ENV: str(home), **(env or {})}
    return subprocess.run(
        argv(*args), env=full, capture_output=True, text=True, timeout=timeout, check=False
    )
