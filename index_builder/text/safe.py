"""Text made safe for a terminal, and folded for matching titles: no LaTeX, cheap to import.

Kept apart from :mod:`index_builder.text.render` (which loads pylatexenc) because the TUI
and the command line need these on the way to their first output.
"""

from __future__ import annotations

import re

from index_builder.text.words import strip_accents

__all__ = ["fold", "safe"]

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


def safe(text: str) -> str:
    """`text` made inert for a terminal: no escape sequences, controls or bidi overrides."""
    if text.isprintable():  # no ESC, C0/C1 control or bidi override (Cf): nothing to drop
        return text
    return _CONTROL.sub("", _ESCAPE_SEQ.sub("", text))


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
