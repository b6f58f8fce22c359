"""The LaTeX macros PaperScope renders its own way, and Unicode super/subscripts.

Shared by the renderer (:mod:`~index_builder.text.latex_engine`), the word-keeping
fallback (:mod:`~index_builder.text.latex`) and the pre-pass; imports nothing heavy.
"""

from __future__ import annotations

import re

_SUP = dict(
    zip(
        "0123456789+-−=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVWαβγδεθιφχ*′⊤",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵅᵝᵞᵟᵋᶿᶥᵠᵡ*′ᵀ",
        strict=True,
    )
)
_SUB = dict(
    zip(
        "0123456789+-−=()aehijklmnoprstuvxβγρφχ",
        "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ",
        strict=True,
    )
)
TEXT_MACROS = [
    "text",
    "textrm",
    "textit",
    "textbf",
    "textsf",
    "texttt",
    "textsc",
    "textup",
    "textnormal",
    "textmd",
    "textsl",
    "emph",
    "mbox",
    "hbox",
]
"""Macros whose argument is text even inside math."""
PLAIN_MACROS = "mathrm mathit mathbf mathsf mathtt boldsymbol bm operatorname underline uline"
"""Macros that only change the look of their argument."""
SILENT_MACROS = (
    "xspace noindent relax protect ignorespaces displaystyle textstyle scriptstyle left right "
    "big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr limits nolimits"
)
"""Macros that render as nothing."""
SYMBOLS = {"colon": ":", "vert": "|", "lvert": "|", "rvert": "|", "Vert": "‖", "lVert": "‖"}
SYMBOLS |= {"rVert": "‖", "coloneqq": "≔", "eqqcolon": "≕", "lesssim": "≲", "gtrsim": "≳"}
"""Symbol macros pylatexenc 2 does not know, and the character each stands for."""


def script(kind: str, body: str) -> str:
    """``^``/``_`` + body as Unicode super/subscript when every char has one."""
    body = "".join(body.split())
    table = _SUP if kind == "^" else _SUB
    if body and all(c in table for c in body):
        return "".join(table[c] for c in body)
    if len(body) == 1:
        return kind + body
    return kind + "{" + body + "}"


def scripted(chars: str, out: list[str], pending: str) -> str:
    """Append ``chars`` of math mode to ``out``: a ``^``/``_`` (``pending``, carried in and
    returned) scripts the next character that is not a space, the spaces between dropped."""
    for char in chars:
        if pending and not char.isspace():
            out.append(script(pending, char))
            pending = ""
        elif char in "^_" and not pending:
            pending = char
        elif not pending:
            out.append(char)
    return pending


_OPERATOR = re.compile(r"(?<=\S)( ?)([←→↔⇐⇒⇔↦≤≥≠≈≡∼≃∈∉⊂⊆⊃⊇·×±∓∝])( ?)(?=\S)")


def space_operators(text: str) -> str:
    """A relation or operator spaced on one side is spaced on both (``n →∞`` → ``n → ∞``)."""

    def fix(match: re.Match[str]) -> str:
        before, op, after = match.groups()
        return f" {op} " if before != after else match.group(0)

    return _OPERATOR.sub(fix, text)
