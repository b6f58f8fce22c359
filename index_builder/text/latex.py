"""LaTeX fragments to Unicode with pylatexenc, plus a word-keeping fallback.

`latex_text` renders a text-mode fragment and `latex_math` the inside of one
``$...$`` span. Both use one shared `LatexNodes2Text` subclass that adds what
pylatexenc 2 lacks for abstracts: Unicode super/subscripts (``x^2`` → x²),
``~`` as a plain space, ``\\text``-like macros switching back to text mode,
and unknown macros kept by name instead of silently dropped. `plain_latex` is
the regex fallback used when pylatexenc fails or loses words. The renderer itself is in
:mod:`~index_builder.text.latex_engine`, imported on the first fragment rendered.
"""

from __future__ import annotations

import re

from index_builder.text.latex_macros import PLAIN_MACROS, SILENT_MACROS, TEXT_MACROS


def takes_argument(name: str) -> bool:
    """True when pylatexenc reads a mandatory argument after the macro ``\\name``."""
    from index_builder.text import latex_engine

    return latex_engine.takes_argument(name)


def latex_text(source: str) -> str:
    """Render a text-mode LaTeX fragment (may raise; callers fall back)."""
    from index_builder.text import latex_engine

    return latex_engine.latex_text(source)


def latex_math(source: str) -> str:
    """Render the inside of a math span (may raise; callers fall back)."""
    from index_builder.text import latex_engine

    return latex_engine.latex_math(source)


_FORMAT_NAMES = frozenset(
    TEXT_MACROS + PLAIN_MACROS.split() + SILENT_MACROS.split() + ["mathcal", "mathbb"]
)


def plain_latex(source: str) -> str:
    """Regex fallback: strip markup, keep every word (no pylatexenc involved)."""

    def token(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None:
            return _PLAIN_TOKENS[match.group(0)]
        if name in _FORMAT_NAMES:
            return ""
        if len(name) == 1:
            return name if name in "%&_#${}*^'\"`~" else " "
        return name + " "

    return re.sub(r"\\([A-Za-z]+|.)|---|--|[{}$~]", token, source, flags=re.S)


_PLAIN_TOKENS = {"---": "—", "--": "–", "~": " ", "{": "", "}": "", "$": ""}
