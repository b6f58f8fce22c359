"""``paperscope ARGS`` forked from the test's process, writing to real pipes.

A fault test that checks the bytes a command puts on its standard output (every escape
sequence dropped, the lines an ``.ics`` export ends with CRLF) reads them from a pipe as
text, as ``subprocess.run(..., text=True)`` gives them. :func:`piped_cli` runs the
command's real entry (``tui.__main__.main``) in a child forked from this process, where
Python and the app are loaded (a fresh ``python -m tui`` cost ~0.1 s of CPU more a
command): its file descriptors 1 and 2 are pipes, its ``sys.stdout`` and ``sys.stderr``
are made over them with the encoding and error handlers of this interpreter's own (as a
fresh one with this environment has), an uncaught exception is printed as a fresh
interpreter prints it, and the parent decodes both as ``subprocess`` does.
"""

from __future__ import annotations

import io
import locale
import os
import selectors
import signal
import subprocess
import sys
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import NoReturn

from index_builder.paths import HOME_ENV


def _stream(fd: int, like: io.TextIOWrapper, *, line_buffering: bool) -> io.TextIOWrapper:
    """A text stream over ``fd`` with the encoding and error handler of ``like``."""
    raw = io.FileIO(fd, "w", closefd=False)
    return io.TextIOWrapper(
        io.BufferedWriter(raw), encoding=like.encoding, errors=like.errors,
        line_buffering=line_buffering,
    )  # fmt: skip


def _child(
    args: tuple[str, ...], home: Path, env: Mapping[str, str] | None, out: int, err: int
) -> NoReturn:
    """In the forked child: run ``paperscope ARGS`` on the pipes, then end with its status."""
    status = 1
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)  # as ``stdin=DEVNULL``: nothing waits for the test's input
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.environ.update({HOME_ENV: str(home), **(env or {})})
        assert isinstance(sys.__stdout__, io.TextIOWrapper)
        assert isinstance(sys.__stderr__, io.TextIOWrapper)
        sys.stdout = _stream(1, sys.__stdout__, line_buffering=False)
        sys.stderr = _stream(2, sys.__stderr__, line_buffering=True)
        sys.argv = ["paperscope", *args]
        from tui.__main__ import main

        status = main()
    except SystemExit as exc:  # argparse: --help, a usage error
        status = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # what a fresh interpreter prints before it ends with 1
        traceback.print_exc()
        status = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                status = status or 120  # as Python's own exit when a flush fails
        os._exit(status)  # never back into pytest


def _text(data: bytes) -> str:
    """``data`` decoded as ``subprocess.run(..., text=True)`` decodes a pipe."""
    text = data.decode(locale.getpreferredencoding(False))
    return text.replace("\r\n", "\n").replace("\r", "\n")


def piped_cli(
    *args: str, home: Path, env: Mapping[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``paperscope ARGS`` on ``home`` in a forked child whose standard output and error
    are pipes; as ``subprocess.run(..., capture_output=True, text=True)`` reports it.

    A child still running after ``timeout`` seconds is killed and ``TimeoutExpired`` is
    raised (as ``subprocess.run`` does)."""
    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(out_read)
        os.close(err_read)
        _child(args, home, env, out_write, err_write)
    os.close(out_write)
    os.close(err_write)
    got: dict[int, list[bytes]] = {out_read: [], err_read: []}
    with selectors.DefaultSelector() as selector:
        for fd in got:
            selector.register(fd, selectors.EVENT_READ)
        while selector.get_map():
            ready = selector.select(timeout)
            if not ready:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                for fd in got:
                    os.close(fd)
                raise subprocess.TimeoutExpired(["paperscope", *args], timeout)
            for key, _ in ready:
                chunk = os.read(key.fd, 1 << 16)
                if chunk:
                    got[key.fd].append(chunk)
                else:
                    selector.unregister(key.fd)
                    os.close(key.fd)
    _, status = os.waitpid(pid, 0)
    code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    out, err = (_text(b"".join(got[fd])) for fd in (out_read, err_read))
    return subprocess.CompletedProcess(["paperscope", *args], code, out, err)
