"""Copying: OSC 52 only, the system clipboard only, neither, and a clipboard that hangs."""

from __future__ import annotations

import io
import threading
from typing import Any

import pyperclip
import pytest
from textual.app import App

from tui.shared.clipboard import (
    CopyOutcome,
    copy_native,
    copy_outside_app,
    copy_text,
    osc52_blocker,
)


class FakeApp:
    """Stands in for a Textual app attached (or not) to a real terminal."""

    def __init__(self, *, attached: bool = True, broken: bool = False) -> None:
        self._driver: object | None = object() if attached else None
        self.is_headless = False
        self.broken = broken
        self.sent: list[str] = []

    def copy_to_clipboard(self, text: str) -> None:
        if self.broken:
            raise OSError("terminal gone")
        self.sent.append(text)


def no_backend(text: str) -> None:
    """What pyperclip does on a system without xclip, xsel or wl-copy."""
    raise pyperclip.PyperclipException("Pyperclip could not find a copy/paste mechanism")


class Recorder:
    """A working native clipboard."""

    def __init__(self) -> None:
        self.text: str | None = None

    def __call__(self, text: str) -> None:
        self.text = text


def never_asked() -> str | None:
    raise AssertionError("tmux must not be asked outside tmux")


PLAIN_ENV: dict[str, str] = {"TERM": "xterm-256color"}


async def test_osc52_only_when_pyperclip_has_no_backend() -> None:
    app = FakeApp()
    outcome = await copy_text(app, "cite me", copier=no_backend, environ=PLAIN_ENV)
    assert app.sent == ["cite me"]
    assert outcome.osc52_sent and outcome.osc52_maybe and not outcome.native
    assert outcome.backends == ("OSC 52",)
    assert not outcome.show_fallback
    assert "OSC 52" in outcome.message and "no system clipboard" in outcome.message


async def test_pyperclip_only_when_no_terminal_is_attached() -> None:
    app = FakeApp(attached=False)
    native = Recorder()
    outcome = await copy_text(app, "cite me", copier=native, environ=PLAIN_ENV)
    assert native.text == "cite me"
    assert outcome.native and not outcome.osc52_sent
    assert outcome.backends == ("system clipboard",)
    assert outcome.message == "Text copied to the system clipboard"
    assert not outcome.show_fallback


async def test_both_work() -> None:
    native = Recorder()
    outcome = await copy_text(FakeApp(), "x", what="BibTeX", copier=native, environ=PLAIN_ENV)
    assert outcome.backends == ("system clipboard", "OSC 52")
    assert outcome.message.startswith("BibTeX copied to the system clipboard and sent")


async def test_neither_asks_for_the_fallback_dialog() -> None:
    outcome = await copy_text(
        FakeApp(broken=True), "x", copier=no_backend, environ=PLAIN_ENV, tmux_option=never_asked
    )
    assert outcome.backends == () and outcome.show_fallback
    assert "Select the text by hand" in outcome.message


async def test_headless_textual_app_counts_as_no_terminal() -> None:
    app: App[Any] = App()
    async with app.run_test():
        outcome = await copy_text(app, "x", copier=no_backend, environ=PLAIN_ENV)
        assert app.clipboard == "x"
    assert not outcome.osc52_sent and outcome.show_fallback


async def test_terminal_known_to_ignore_osc52_needs_the_fallback() -> None:
    env = {"TERM": "xterm", "TMUX": "/tmp/tmux-1/default,1,0"}
    outcome = await copy_text(
        FakeApp(), "x", copier=no_backend, environ=env, tmux_option=lambda: "external"
    )
    assert outcome.osc52_sent and not outcome.osc52_maybe and outcome.show_fallback
    assert "set -g set-clipboard on" in outcome.message


async def test_hanging_pyperclip_is_given_up_on() -> None:
    release = threading.Event()

    def hang(text: str) -> None:
        release.wait(30)

    try:
        outcome = await copy_text(FakeApp(), "x", copier=hang, environ=PLAIN_ENV, timeout=0.2)
    finally:
        release.set()
    assert not outcome.native and "did not answer" in outcome.native_detail
    assert outcome.backends == ("OSC 52",)


def test_sync_native_copy_bounded_and_reported() -> None:
    release = threading.Event()
    try:
        assert "did not answer in 0.1 s" in copy_native(
            "x", copier=lambda t: release.wait(30), timeout=0.1
        )
    finally:
        release.set()
    assert copy_native("x", copier=Recorder()) == ""
    assert "no system clipboard" in copy_native("x", copier=no_backend)
    assert "RuntimeError" in copy_native(
        "x", copier=lambda t: (_ for _ in ()).throw(RuntimeError())
    )


@pytest.mark.parametrize(
    ("env", "tmux", "blocked"),
    [
        ({"TERM": "xterm-kitty"}, None, False),
        ({"TERM_PROGRAM": "Apple_Terminal"}, None, True),
        ({"TERM": "linux"}, None, True),
        ({"STY": "123.pts-0"}, None, True),
        ({"TMUX": "x"}, "on", False),
        ({"TMUX": "x"}, "external", True),
        ({"TMUX": "x"}, "off", True),
        ({"TMUX": "x"}, None, False),
    ],
)
def test_osc52_blockers(env: dict[str, str], tmux: str | None, blocked: bool) -> None:
    assert (osc52_blocker(env, lambda: tmux) is not None) is blocked


class TTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_command_line_copy_sends_osc52_to_a_terminal() -> None:
    stream = TTY()
    outcome = copy_outside_app(
        "héllo", stream=stream, copier=no_backend, environ=PLAIN_ENV, tmux_option=never_asked
    )
    assert stream.getvalue() == "\x1b]52;c;aMOpbGxv\a"
    assert isinstance(outcome, CopyOutcome) and outcome.backends == ("OSC 52",)


def test_command_line_copy_into_a_pipe_uses_only_the_native_clipboard() -> None:
    stream = io.StringIO()
    native = Recorder()
    outcome = copy_outside_app("x", stream=stream, copier=native, environ=PLAIN_ENV)
    assert stream.getvalue() == "" and native.text == "x"
    assert outcome.backends == ("system clipboard",)
    over_ssh = copy_outside_app("x", stream=stream, copier=native, environ={"SSH_CONNECTION": "a"})
    assert "remote machine" in over_ssh.message
