"""Copying text where the user is: OSC 52 through the terminal and the native clipboard.

In the TUI, :func:`tui.screens.copy_fallback.copy_and_report` runs it in a worker
(the native clipboard may take a moment, or hang), notifies the user of what
worked and, when nothing may have, shows the text to select by hand. For the
decision alone, ``outcome = await copy_text(app, text)`` returns a
:class:`CopyOutcome` (``.message``, ``.show_fallback``, ``.backends``).
The command line uses ``copy_outside_app(text) -> CopyOutcome``, which sends OSC
52 on stderr when stderr is a terminal. Nothing here raises, and the native
clipboard is given at most ``NATIVE_TIMEOUT`` seconds (it runs in a daemon thread).

OSC 52 cannot be confirmed: it is reported as *sent*, and as probably ignored
when the terminal is known to drop it (macOS Terminal, the Linux console, GNU
screen, tmux without ``set-clipboard on``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TextIO

if TYPE_CHECKING:
    pass

NATIVE_TIMEOUT = 2.0
"""Seconds the native clipboard may take before it counts as not working."""

Copier = Callable[[str], Any]
TmuxOption = Callable[[], str | None]


class ClipboardHost(Protocol):
    """What copying needs of the app (Textual's ``App`` has it)."""

    def copy_to_clipboard(self, text: str) -> None:
        """Send ``text`` to the terminal's clipboard (OSC 52)."""

    @property
    def is_headless(self) -> bool:
        """True when no real terminal is attached."""


@dataclass(frozen=True, slots=True)
class CopyOutcome:
    """Which clipboards took the text, and what to tell the user."""

    native: bool
    """The system clipboard took it (pyperclip returned without an error)."""
    osc52_sent: bool
    """The OSC 52 sequence was written to a terminal (whether it obeyed is unknown)."""
    osc52_blocker: str | None
    """Why the terminal probably ignores OSC 52, when that is known."""
    native_detail: str
    """Why the system clipboard failed (``""`` when it worked)."""
    message: str

    @property
    def osc52_maybe(self) -> bool:
        """OSC 52 was sent to a terminal not known to ignore it."""
        return self.osc52_sent and self.osc52_blocker is None

    @property
    def backends(self) -> tuple[str, ...]:
        """Names of the ways that worked or may have: ``"system clipboard"``, ``"OSC 52"``."""
        names = ("system clipboard",) if self.native else ()
        return names + (("OSC 52",) if self.osc52_maybe else ())

    @property
    def show_fallback(self) -> bool:
        """Neither way may have worked: offer the text to select by hand."""
        return not self.backends


def _pyperclip_copy(text: str) -> None:
    """The native copy (imported late: pyperclip probes the system on first use)."""
    import pyperclip

    pyperclip.copy(text)


def _describe(exc: BaseException) -> str:
    """A short reason for a native clipboard failure."""
    if type(exc).__name__ == "PyperclipException":
        return "no system clipboard (install xclip, xsel or wl-clipboard)"
    return f"system clipboard failed ({type(exc).__name__})"


def _run_native(text: str, copier: Copier, done: Callable[[str], None]) -> threading.Thread:
    """Run ``copier`` in a daemon thread; ``done("")`` on success, else ``done(reason)``."""

    def work() -> None:
        try:
            copier(text)
        except BaseException as exc:  # a clipboard failure of any kind is only reported
            done(_describe(exc))
        else:
            done("")

    thread = threading.Thread(target=work, name="paperscope-clipboard", daemon=True)
    thread.start()
    return thread


def copy_native(text: str, *, copier: Copier | None = None, timeout: float = NATIVE_TIMEOUT) -> str:
    """Copy with the native clipboard; ``""`` on success, else why not. Blocks up to ``timeout``."""
    result: list[str] = []
    thread = _run_native(text, copier or _pyperclip_copy, result.append)
    thread.join(timeout)
    return result[0] if result else f"the system clipboard did not answer in {timeout:g} s"


async def copy_native_async(
    text: str, *, copier: Copier | None = None, timeout: float = NATIVE_TIMEOUT
) -> str:
    """:func:`copy_native` without blocking the event loop."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str] = loop.create_future()

    def done(reason: str) -> None:
        def settle() -> None:
            if not future.done():
                future.set_result(reason)

        # The loop may have closed while the clipboard hung.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle)

    _run_native(text, copier or _pyperclip_copy, done)
    try:
        return await asyncio.wait_for(asyncio.shield(future), timeout)
    except TimeoutError:
        return f"the system clipboard did not answer in {timeout:g} s"


def tmux_set_clipboard() -> str | None:
    """tmux's ``set-clipboard`` option (``on``, ``external``, ``off``), or ``None`` if unknown."""
    try:
        out = subprocess.run(
            ["tmux", "show-options", "-gv", "set-clipboard"],
            capture_output=True,
            text=True,
            timeout=1.0,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    value = out.stdout.strip()
    return value if out.returncode == 0 and value else None


def osc52_blocker(environ: Mapping[str, str], tmux_option: TmuxOption) -> str | None:
    """Why this terminal probably ignores OSC 52, or ``None`` when it may obey."""
    if environ.get("TMUX"):
        option = tmux_option()
        if option in ("off", "external"):
            return f"tmux ignores it (set-clipboard {option}; add 'set -g set-clipboard on')"
        return None
    if environ.get("STY"):
        return "GNU screen does not pass it on"
    if environ.get("TERM_PROGRAM") == "Apple_Terminal":
        return "macOS Terminal does not support it"
    if environ.get("TERM") == "linux":
        return "the Linux console has no clipboard"
    return None


def describe(
    what: str,
    native_detail: str,
    osc52_sent: bool,
    blocker: str | None,
    remote: bool,
    *,
    fallback: str = "Select the text by hand.",
) -> CopyOutcome:
    """The outcome and its message from what each way did (``fallback`` ends a failure)."""
    native = not native_detail
    osc_maybe = osc52_sent and blocker is None
    where = "the system clipboard" + (" of the remote machine" if remote else "")
    if native and osc_maybe:
        message = f"{what} copied to {where} and sent to the terminal (OSC 52)"
    elif native:
        message = f"{what} copied to {where}"
        if remote:
            message += "; OSC 52 " + (blocker or "was not sent")
    elif osc_maybe:
        message = (
            f"{what} sent to the terminal's clipboard (OSC 52): if nothing was copied, "
            f"the terminal does not allow it; {native_detail}"
        )
    else:
        osc = f"OSC 52: {blocker}" if osc52_sent else "no terminal for OSC 52"
        message = f"Could not copy: {native_detail}; {osc}. {fallback}"
    return CopyOutcome(native, osc52_sent, blocker, native_detail, message)


def send_osc52(app: ClipboardHost, text: str) -> bool:
    """Hand ``text`` to the app's OSC 52 copy; True when a real terminal received it."""
    # Textual has no public "a driver is attached": a stopped app has _driver None.
    attached = getattr(app, "_driver", None) is not None and not app.is_headless
    try:
        app.copy_to_clipboard(text)
    except Exception:  # a broken terminal write must not crash the app
        return False
    return attached


async def copy_text(
    app: ClipboardHost,
    text: str,
    *,
    what: str = "Text",
    copier: Copier | None = None,
    environ: Mapping[str, str] | None = None,
    tmux_option: TmuxOption = tmux_set_clipboard,
    timeout: float = NATIVE_TIMEOUT,
) -> CopyOutcome:
    """Copy by OSC 52 and the native clipboard; never raises.

    The keywords after ``what`` replace the system (native copy, environment,
    tmux query) for tests.
    """
    env = os.environ if environ is None else environ
    sent = send_osc52(app, text)
    native_detail = await copy_native_async(text, copier=copier, timeout=timeout)
    blocker = await asyncio.to_thread(osc52_blocker, env, tmux_option) if sent else None
    return describe(what, native_detail, sent, blocker, bool(env.get("SSH_CONNECTION")))


def copy_outside_app(
    text: str,
    *,
    what: str = "Text",
    stream: TextIO | None = None,
    copier: Copier | None = None,
    environ: Mapping[str, str] | None = None,
    tmux_option: TmuxOption = tmux_set_clipboard,
    timeout: float = NATIVE_TIMEOUT,
) -> CopyOutcome:
    """Copy from the command line: OSC 52 on ``stream`` (stderr) if it is a terminal, and native."""
    env = os.environ if environ is None else environ
    out = sys.stderr if stream is None else stream
    sent = False
    try:
        if out.isatty():
            payload = base64.b64encode(text.encode("utf-8")).decode("ascii")
            out.write(f"\x1b]52;c;{payload}\a")
            out.flush()
            sent = True
    except (OSError, ValueError):
        sent = False
    native_detail = copy_native(text, copier=copier, timeout=timeout)
    blocker = osc52_blocker(env, tmux_option) if sent else None
    remote = bool(env.get("SSH_CONNECTION"))
    return describe(what, native_detail, sent, blocker, remote, fallback="Copy it from the output.")
