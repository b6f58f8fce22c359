"""Running the app so that quitting is immediate, whatever runs in the background.

``App.run()`` ends with ``asyncio.run``, which waits for every thread of the default
executor: a first-run index build, an export or a hung clipboard kept the process (and
the user's shell) for many seconds after the screen was cleared. Closing every widget
one by one also took 0.15–0.3 s on a busy machine. Under :func:`run_until_quit`,
:func:`quit_now` restores the terminal (what Textual's driver does last) and ends the
process with ``os._exit`` without waiting for any of it; the index build runs in a
child process (:mod:`index_builder.search.builder`), killed on the way out.

Nothing is lost by not waiting: an index build writes into a temporary folder that the
next start removes (and builds again), exports and the config are written atomically, and
the reading list commits each change as it is made.
"""

from __future__ import annotations

import asyncio
import signal
import sys
import termios
import traceback
from typing import TYPE_CHECKING, Any, NoReturn

from tui.lifecycle.exiting import INTERRUPTED, leave
from tui.lifecycle.startup import SWITCH_INTERVAL_S

if TYPE_CHECKING:
    from textual.app import App

EXIT_SIGNALS = {signal.SIGINT: INTERRUPTED, signal.SIGTERM: 143}
"""Signals that quit the app the same way as ``q`` (the terminal is restored first)."""

_immediate = False


def exit_status(app: App[int], result: int | None) -> int:
    """The process's exit status from what the app returned."""
    if app.return_code not in (None, 0):
        return int(app.return_code or 1)
    return int(result or 0)


def quit_now(app: App[int], status: int = 0) -> None:
    """Quit ``app``: at once under :func:`run_until_quit`, else by ``app.exit`` (tests)."""
    driver = app._driver
    if not _immediate or driver is None:
        app.exit(status)
        return
    try:
        restore_terminal(driver)
    finally:
        leave(status)


def restore_terminal(driver: Any) -> None:
    """What ``LinuxDriver.stop_application_mode`` does, without joining the input thread.

    That join waits for the thread's next 0.1 s poll and for the interpreter lock:
    0.2 s on a busy machine. The process ends right after, so the thread is left.
    """
    steps = ("_disable_mouse_support", "_disable_bracketed_paste", "_enable_line_wrap",
             "_disable_in_band_window_resize")  # fmt: skip
    attrs = getattr(driver, "attrs_before", None)
    fileno = getattr(driver, "fileno", None)
    if not all(hasattr(driver, name) for name in steps) or fileno is None:
        driver.stop_application_mode()  # another driver (or Textual changed): its own way
        driver.close()
        return
    driver.exit_event.set()
    for name in steps:
        getattr(driver, name)()
    if attrs is not None:
        try:
            termios.tcsetattr(fileno, termios.TCSANOW, attrs)
            termios.tcflush(fileno, termios.TCIFLUSH)
        except termios.error:
            pass
    # Kitty keyboard protocol off, main screen back, cursor shown, focus events off.
    driver.write("\x1b[<u\x1b[?1049l\x1b[?25h\x1b[?1004l")
    driver.close()  # the writer thread writes the queue out, then stops


def run_until_quit(app: App[int]) -> NoReturn:
    """Run ``app`` until it exits, then end the process at once (see the module docstring)."""
    global _immediate
    _immediate = True
    # A busy thread (the first run's catalogue) holds the interpreter lock up to this long
    # each time the input thread or the event loop wants it: 1 ms instead of 5 keeps keys
    # (and quitting) prompt.
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    for signum, status in EXIT_SIGNALS.items():
        # Outside raw mode Ctrl+C is a signal; `kill` sends SIGTERM: quit the same way.
        loop.add_signal_handler(signum, quit_now, app, status)
    try:
        result = loop.run_until_complete(app.run_async())
    except BaseException:
        traceback.print_exc()
        leave(1)
    leave(exit_status(app, result))
