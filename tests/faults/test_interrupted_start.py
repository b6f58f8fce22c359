"""Ctrl+C while ``paperscope`` is still starting: exit status 130, no traceback.

Before the app runs, Ctrl+C lands wherever Python is, most often inside an import. Two
ways it used to show a traceback (seen in tmux at 0.25 and 0.45 s after the start):

- the interrupt inside a class body came out as a ``RuntimeError`` whose cause is the
  ``KeyboardInterrupt`` (``__set_name__`` of a Textual reactive), which the start's
  ``except KeyboardInterrupt`` let through;
- the way out imported ``asyncio`` again after the interrupt had left it half-built:
  ``NameError: name 'coroutines' is not defined``.

Each case runs the real entry point (``tui.__main__.main``) in a child Python whose
command line is replaced by one that fails the way an interrupted start does; the real
moments are tried in tmux by ``test_quit.py``.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable

import pytest

from tui.lifecycle.exiting import is_interrupt

WRAPPED = """
    def run(argv, peek=None):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupt:
            raise RuntimeError("Error calling __set_name__") from interrupt
"""
"""The interrupt surfacing as another error, its cause (what a class body reports)."""

PLAIN = """
    def run(argv, peek=None):
        raise KeyboardInterrupt
"""

UNIMPORTABLE_ASYNCIO = """
    import sys
    sys.modules["asyncio"] = None  # importing it now fails, as a half-built one does
"""

NOT_AN_INTERRUPT = """
    def run(argv, peek=None):
        raise RuntimeError("a real bug")
"""


def run_main(replaced_run: str, before: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``paperscope search x`` through the real entry point with ``run`` replaced."""
    code = "\n".join(
        [
            "import sys",
            "import tui.cli.main",
            textwrap.dedent(replaced_run),
            "tui.cli.main.run = run",
            textwrap.dedent(before),
            "import tui.__main__",
            "sys.argv = ['paperscope', 'search', 'x']",
            "sys.exit(tui.__main__.main())",
        ]
    )
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )


@pytest.mark.parametrize(
    ("replaced_run", "before"),
    [(PLAIN, ""), (WRAPPED, ""), (PLAIN, UNIMPORTABLE_ASYNCIO), (WRAPPED, UNIMPORTABLE_ASYNCIO)],
    ids=["interrupt", "caused-by-interrupt", "interrupt-asyncio-broken", "caused-asyncio-broken"],
)
def test_an_interrupted_start_ends_with_130_and_no_traceback(
    replaced_run: str, before: str
) -> None:
    done = run_main(replaced_run, before)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and "Error" not in done.stderr, done.stderr


def test_an_error_that_is_not_an_interrupt_still_shows() -> None:
    done = run_main(NOT_AN_INTERRUPT)
    assert done.returncode == 1
    assert "RuntimeError: a real bug" in done.stderr


def test_is_interrupt_follows_causes_and_contexts() -> None:
    def raised(make: Callable[[], None]) -> BaseException:
        try:
            make()
        except BaseException as error:  # the error is the result
            return error
        raise AssertionError("nothing raised")

    def caused() -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupt:
            raise RuntimeError("wrapped") from interrupt

    def during() -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise NameError("coroutines")  # noqa: B904 - an error raised while handling one

    def unrelated() -> None:
        try:
            raise ValueError("first")
        except ValueError as first:
            raise RuntimeError("second") from first

    assert is_interrupt(KeyboardInterrupt())
    assert is_interrupt(raised(caused))
    assert is_interrupt(raised(during))
    assert not is_interrupt(raised(unrelated))
    assert not is_interrupt(SystemExit(0))
