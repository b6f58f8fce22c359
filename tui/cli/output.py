"""Printing data to a terminal or a pipe without letting the data take control.

Text from data files may carry escape sequences; everything printed here goes
through :func:`index_builder.text.render.safe` (human output) or is JSON with every
control, C1 and bidi-override character written as a ``\\uXXXX`` escape.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, TextIO

from index_builder.text.safe import safe

# json.dumps(ensure_ascii=False) escapes C0 controls but passes C1 controls, DEL and
# bidi overrides through raw; a terminal would act on them.
_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def dumps(data: Any, *, indent: int | None = None) -> str:
    """JSON text that is valid, lossless, readable UTF-8 and inert in a terminal."""
    import json  # not on the TUI's way to its first frame

    text = json.dumps(data, ensure_ascii=False, indent=indent)
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def echo(text: str = "", *, stream: TextIO | None = None) -> None:
    """Print one line of human output, made safe for a terminal."""
    out = sys.stdout if stream is None else stream
    out.write(safe(text) + "\n")


def error(message: str) -> None:
    """Print ``paperscope: message`` on stderr (made safe: it may quote a file name)."""
    sys.stderr.write(f"paperscope: {safe(message)}\n")


class ProgressBar:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.enabled = self.stream.isatty()
        self._last = -1

    def __call__(self, done: int, total: int) -> None:
        """Report ``done`` of ``total`` units."""
        if not self.enabled or total <= 0:
            return
        percent = min(100, done * 100 // total)
        if percent == self._last:
            return
        self._last = percent
        width = 30
        filled = width * percent // 100
        bar = "█" * filled + "░" * (width - filled)
        self.stream.write(f"\r{self.label} {bar} {percent:3d}% ({done}/{total})")
        self.stream.flush()

    def finish(self) -> None:
        """End the line the bar was drawn on."""
        if self.enabled and self._last >= 0:
            self.stream.write("\n")
            self.stream.flush()


def write_out(path: Path | None, text: str, wrote: str) -> int:
    """``text`` to the file ``path`` (atomically; ``None`` or ``-``: standard output, made
    inert line by line on a terminal); ``wrote`` said on stderr after a file. The exit status:
    1 with one line when the file cannot be written."""
    from index_builder.atomic import write_atomic

    if path is None or str(path) == "-":
        if sys.stdout.isatty():
            text = "".join(safe(line) + "\n" for line in text.splitlines())
        sys.stdout.write(text)
        return 0
    try:
        write_atomic(path, text)
    except OSError as exc:
        error(f"cannot write {path}: {exc.strerror or exc}")
        return 1
    echo(wrote, stream=sys.stderr)
    return 0
