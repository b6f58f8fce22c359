"""Text made safe for a terminal, and folded for matching titles: no LaTeX, cheap to import.

Kept apart from :mod:`index_builder.text.render` (which loads pylatexenc) because the TUI
and the command line need these on the way to their first output.
"""

from __future__ import annotations

import re
from typing import Any

from index_builder.text.words import strip_accents

__all__ = ["fold", "safe", "safe_json"]

_ESCAPE_SEQ = re.compile(
    r"[\x1b][\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)"  # OSC, DCS, SOS, PM, APC strings
    r"|[\x9d\x90\x98\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)"  # their 8-bit forms
    # Unterminated (the ``ESC \`` lost, e.g. to LaTeX rendering): the payload goes too,
    # up to the next space, so "0;title" is not left visible.
    r"|(?:[\x1b][\]PX^_]|[\x9d\x90\x98\x9e\x9f])[^\x07\x1b\x9c\s]*"
    r"|(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b[ -/]*[0-~]",  # other escapes (charset selection, ESC c, ...)
    re.S,
)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_INTRODUCER = re.compile("[\x1b\x90\x98\x9b\x9d\x9e\x9f]")


def safe(text: str) -> str:
    """`text` made inert for a terminal: no escape sequences, controls or bidi overrides.

    Newlines and tabs are kept. A sequence goes whole, its payload with it (an OSC 8
    link keeps its visible text, loses its target).
    """
    if text.isprintable():  # no ESC, C0/C1 control or bidi override (Cf): nothing to drop
        return text
    # The sequence scan is the slow part (0.2 s on the 3 MB bundled table, whose only
    # controls are line ends): only text with an introducer needs it.
    if _INTRODUCER.search(text):
        text = _ESCAPE_SEQ.sub("", text)
    return _CONTROL.sub("", text)


def safe_json(data: Any) -> Any:
    """Parsed JSON with every string in it (keys too) made :func:`safe`."""
    if isinstance(data, str):
        return safe(data)
    if isinstance(data, list):
        return [safe_json(item) for item in data]
    if isinstance(data, dict):
        return {safe(str(k)): safe_json(v) for k, v in data.items()}
    return data


_PUNCTUATION = str.maketrans(
    {
        **dict.fromkeys("‐‑‒–—―−﹘﹣－", "-"),
        **dict.fromkeys("‘’‚‛′", "'"),
        **dict.fromkeys("“”„‟″«»", '"'),
    }
)


def fold(text: str) -> str:
    """Accents, dashes and quotes folded, case kept: "Wang–Landau é" → "Wang-Landau e".

    The letters fold as everywhere else (:func:`index_builder.text.words.strip_accents`).
    """
    # Dashes again after decomposing: compatibility forms (﹘) decompose to dashes.
    return strip_accents(text.translate(_PUNCTUATION)).translate(_PUNCTUATION)
