"""Text-mode LaTeX without parsing whole paragraphs: cheap markup by hand, the rest by span.

pylatexenc costs tens of microseconds a character, and nearly every abstract that reaches
it holds only cheap markup: ``\\%``, dashes, ``~``, TeX quotes, ``\\textbf{…}``-style
text macros and plain braces. :func:`text` renders those itself, exactly as
:func:`~index_builder.text.latex.latex_text` would, and sends pylatexenc only the spans
that still need it: one macro with its arguments (and the blank after it, which a known
macro swallows), or an ``&``. A paragraph holding what a span cannot stand for
(environments, ``\\verb``, ``\\item``) goes to pylatexenc whole. The output is the same
string pylatexenc makes of the whole paragraph; ``tests/core/text/test_prepass.py``
checks that on every title and abstract of the arXiv sample.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from index_builder.text import latex, latex_macros

# Macros whose one braced argument is plain text in text mode: a group, as far as output goes.
_GROUP_MACROS = frozenset(latex_macros.TEXT_MACROS) | frozenset(latex_macros.PLAIN_MACROS.split())
_ESCAPES = {"%": "%", "&": "&", "_": "_", "#": "#", "$": "$", "{": "{", "}": "}", " ": " "}
_SPECIALS = {"---": "—", "--": "–", "~": " ", "``": "“", "''": "”", "!`": "¡", "?`": "¿"}
_TOKEN = re.compile(r"\\([A-Za-z]+|.)|---|--|``|''|!`|\?`|[~&{}]", re.S)
_BLANKS = re.compile(r"\s*")
_WHOLE = frozenset({"begin", "end", "verb", "item", "par"})


class _Whole(Exception):
    """The paragraph holds something a span cannot stand for: render it whole."""


def text(source: str, render_span: Callable[[str], str] = latex.latex_text) -> str:
    """``source`` (balanced braces, no bare ``%`` or ``$``) rendered as pylatexenc would."""
    try:
        return _fast(source, render_span)
    except Exception:  # _Whole, or a span pylatexenc refuses: the paragraph decides
        return render_span(source)


def _fast(source: str, render_span: Callable[[str], str]) -> str:
    out: list[str] = []
    pos = 0
    while match := _TOKEN.search(source, pos):
        out.append(source[pos : match.start()])
        pos = match.end()
        token, name = match.group(0), match.group(1)
        if name is None:
            if token in "{}":
                continue
            if token == "&":
                out.append(render_span(token))
                continue
            out.append(_SPECIALS[token])
        elif name in _ESCAPES:
            out.append(_ESCAPES[name])
        elif name in _GROUP_MACROS and source.startswith("{", pos):
            pos += 1  # the argument's closing brace is dropped like any other
        elif name in _WHOLE:
            raise _Whole
        else:
            end = _span_end(source, pos, name)
            out.append(render_span(source[match.start() : end]))
            pos = end
    out.append(source[pos:])
    return "".join(out)


def _span_end(source: str, pos: int, name: str) -> int:
    """Where the macro ``name`` ending at ``pos`` ends with its arguments."""
    if not name.isalpha():
        # An accent or spacing macro takes one group or one character (``\\'e``).
        if source.startswith("{", pos):
            return _group_end(source, pos)
        return pos + 1 if pos < len(source) and not source[pos].isspace() else pos
    after = _BLANKS.match(source, pos).end()  # type: ignore[union-attr]  # matches empty
    if latex.takes_argument(name) and source[after : after + 1] not in ("{", "[", "*"):
        raise _Whole  # an argument without braces (``\\hat\\beta``): only the parser knows it
    while True:
        blank = _BLANKS.match(source, pos).end()  # type: ignore[union-attr]
        if source.startswith("{", blank):
            pos = _group_end(source, blank)
        elif source.startswith("[", blank) and (close := source.find("]", blank)) > 0:
            if "{" in source[blank:close] or "}" in source[blank:close]:
                raise _Whole
            pos = close + 1
        else:
            return blank  # the blank after a macro belongs to it


def _group_end(source: str, start: int) -> int:
    """The index after the ``}`` closing the group opened at ``start``."""
    depth = 0
    for match in re.finditer(r"\\.|[{}]", source[start:], re.S):
        if match.group(0) == "{":
            depth += 1
        elif match.group(0) == "}":
            depth -= 1
            if depth == 0:
                return start + match.end()
    raise _Whole
