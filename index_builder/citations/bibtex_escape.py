"""Text as BibTeX field values: special characters escaped, LaTeX kept valid, capitals protected.

    latex_title(raw, display)  # -> "{ProEval}: Proactive ..."; "{$\\mu$}pscaling small models"
    escape(text)               # -> "Task \\& Data"; braces and backslashes made inert

``raw`` is the title as the source wrote it. Its ``$…$`` math and a few text
commands (``\\emph{…}``, ``\\texttt{…}``, …) are kept; everything else is text and
its special characters (``& % $ # _ { } ~ ^ \\``) are escaped, including a ``$``
that does not open valid math (pandoc's rule: ``$x$`` is math, ``$5 and $10`` is
not; math with unbalanced braces or a ``%`` is not kept) and a command whose
group is never closed. The display title is used only when there is no raw one.
Words with a capital after their first letter (``ProEval``, ``LLMs``,
``Multi-Turn``), the word ``I``, and words holding math or commands are wrapped
in braces so that styles which change case leave them alone.
Every value this module returns has balanced braces (BibTeX counts ``\\{`` too,
so literal braces become ``\\textbraceleft{}``/``\\textbraceright{}``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ESCAPES = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
}
TEXT_COMMANDS = frozenset(
    ("emph", "textbf", "textit", "texttt", "textsc", "textsf", "textrm", "textup", "textsl",
     "underline", "mbox")
)  # fmt: skip
_KEPT_ESCAPES = frozenset("&%#_${}")
# Pandoc's rule: no space inside either dollar, no digit after the closing one ("$5 and $10").
_MATH = re.compile(r"\$(?=\S)((?:\\.|[^$\\])+?)(?<=\S)\$(?!\d)")
_COMMAND = re.compile(r"\\([A-Za-z]+)\{")
_BRACE = re.compile(r"[{}]")
_PLAIN = re.compile(r'[^\s$\\"]+')
_LEAD = re.compile(r"^[^\w]+")
_TRAIL = re.compile(r"[^\w]+$")


_QUOTES = {"\u201c": "``", "\u201d": "''", "\u2018": "`", "\u2019": "'"}
_ESCAPE_TABLE = str.maketrans({**_ESCAPES, **_QUOTES})
"""Curly quotes and special characters to their LaTeX (no replacement holds either)."""
_OPENS_AFTER = frozenset(" \t\n([{-\u2013\u2014/")


def curly_quotes(text: str, before: str = " ") -> str:
    """Straight double quotes turned to curly ones: opening at the start (``before`` is the
    character preceding ``text``) or after a space or an opening bracket, else closing."""
    if '"' not in text:
        return text
    out = []
    prev = before
    for ch in text:
        if ch == '"':
            ch = "\u201c" if prev in _OPENS_AFTER else "\u201d"
        out.append(ch)
        prev = ch
    return "".join(out)


def escape(text: str) -> str:
    """``text`` with every BibTeX/LaTeX special character written so that it prints as itself.

    Quotes become LaTeX's: \u201c and an opening ``"`` give two backquotes, \u201d and a
    closing ``"`` two apostrophes (a straight ``"`` is an umlaut command in some styles),
    \u2019 an apostrophe.
    """
    return curly_quotes(text).translate(_ESCAPE_TABLE)


def balanced(value: str) -> bool:
    """True when braces balance the way BibTeX counts them (every ``{`` and ``}``)."""
    if "}" not in value:
        return "{" not in value
    depth = 0
    for ch in _BRACE.findall(value):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


@dataclass(frozen=True, slots=True)
class _Piece:
    """A run of one title word: plain text (escaped when written) or kept LaTeX."""

    text: str
    latex: bool = False


def _valid_math(body: str) -> bool:
    """Math that is safe to keep: braces balanced, no comment, no alignment or parameter."""
    return balanced(body) and not re.search(r"(?<!\\)[%&#]", body) and not body.endswith("\\")


def _group_end(raw: str, start: int) -> int:
    """Index just past the brace group opened at ``raw[start - 1]``; -1 if it is never closed."""
    depth = 1
    i = start
    while i < len(raw):
        if raw[i] == "\\":
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(raw[i], 0)
        i += 1
        if depth == 0:
            return i
    return -1


def _add_text(word: list[_Piece], text: str) -> None:
    """Append plain text to a word, joining it to a plain piece before it."""
    if word and not word[-1].latex:
        word[-1] = _Piece(word[-1].text + text)
    else:
        word.append(_Piece(text))


def _parse(raw: str) -> list[list[_Piece]]:
    """Split a raw title into words made of pieces; LaTeX that cannot be kept becomes text."""
    words: list[list[_Piece]] = [[]]
    i = 0
    while i < len(raw):
        if plain := _PLAIN.match(raw, i):  # a run of characters no rule below looks at
            _add_text(words[-1], plain.group())
            i = plain.end()
            continue
        ch = raw[i]
        if ch.isspace():
            if words[-1]:
                words.append([])
            i += 1
            continue
        if ch == "$" and (m := _MATH.match(raw, i)) and _valid_math(m.group(1)):
            words[-1].append(_Piece(m.group(), latex=True))
            i = m.end()
            continue
        if ch == "\\":
            m = _COMMAND.match(raw, i)
            end = _group_end(raw, m.end()) if m and m.group(1) in TEXT_COMMANDS else -1
            if m and end > 0:
                inner = _render(_parse(raw[m.end() : end - 1]), protect=False)
                words[-1].append(_Piece(f"\\{m.group(1)}{{{inner}}}", latex=True))
                i = end
                continue
            if raw[i + 1 : i + 2] in _KEPT_ESCAPES and raw[i + 1 : i + 2]:
                _add_text(words[-1], raw[i + 1])
                i += 2
                continue
        if ch == '"':  # the raw title decides: a word's start opens, elsewhere closes
            ch = curly_quotes(ch, raw[i - 1] if i else " ")
        _add_text(words[-1], ch)
        i += 1
    return [w for w in words if w]


def _needs_protection(word: list[_Piece]) -> bool:
    """A word whose case a style must not change."""
    if any(p.latex for p in word):
        return True
    chars = [ch for p in word for ch in p.text if ch.isalnum()]
    if chars == ["I"]:
        return True
    return any(ch.isupper() for ch in chars[1:])


def _write(word: list[_Piece]) -> str:
    """The LaTeX of a word's pieces."""
    return "".join(p.text if p.latex else escape(p.text) for p in word)


def _render(words: list[list[_Piece]], *, protect: bool = True) -> str:
    """Words as LaTeX, protected words wrapped in braces (punctuation at the edges left out)."""
    out = []
    for word in words:
        if not (protect and _needs_protection(word)):
            out.append(_write(word))
            continue
        lead = trail = ""
        core = list(word)
        if not core[0].latex and (m := _LEAD.search(core[0].text)):
            lead, core[0] = m.group(), _Piece(core[0].text[m.end() :])
        if not core[-1].latex and (m := _TRAIL.search(core[-1].text)):
            trail, core[-1] = m.group(), _Piece(core[-1].text[: m.start()])
        body = _write([p for p in core if p.text])
        wrapped = f"{{{{{body}}}}}" if body.startswith("\\") else f"{{{body}}}"
        out.append(escape(lead) + wrapped + escape(trail))
    return " ".join(out)


def protect_text(text: str) -> str:
    """Plain text escaped, with words whose case matters protected."""
    return _render([[_Piece(w)] for w in text.split()])


def latex_title(raw: str, display: str) -> str:
    """A BibTeX ``title`` value from the raw title, or from the display title if it is broken."""
    source = " ".join(raw.split())
    if source and balanced(value := _render(_parse(source))):
        return value
    return protect_text(" ".join(display.split()))
