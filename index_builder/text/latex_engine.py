"""pylatexenc behind :mod:`index_builder.text.latex`: imported on the first span it renders.

pylatexenc and the logging module it brings cost about 40 ms to import, and a build whose
texts all come from the render cache (a join by hand, a warm catalogue build) renders
none; :mod:`~index_builder.text.latex` keeps the constants, the super/subscripts and the
word-keeping fallback, and loads this module only when a span goes to pylatexenc.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any

from pylatexenc import latexwalker
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, SpecialsTextSpec
from pylatexenc.latex2text import get_default_latex_context_db as _l2t_db
from pylatexenc.latexwalker import get_default_latex_context_db as _walker_db

from index_builder.text.latex_macros import (
    PLAIN_MACROS,
    SILENT_MACROS,
    SYMBOLS,
    TEXT_MACROS,
    script,
    scripted,
    space_operators,
)

# Tolerant parsing logs every oddity of the input; for abstracts that is noise on stderr.
logging.getLogger("pylatexenc").setLevel(logging.ERROR)


def _wrap(text: str) -> str:
    """Parenthesise a fraction part or root unless it is one simple token."""
    text = text.strip()
    if re.fullmatch(r"[\w.′]+|\(.*\)", text):
        return text
    return f"({text})"


def _frac(node: Any, l2tobj: Any) -> str:
    return _wrap(l2tobj.node_arg_to_text(node, 0)) + "/" + _wrap(l2tobj.node_arg_to_text(node, 1))


def _sqrt(node: Any, l2tobj: Any) -> str:
    degree = l2tobj.node_arg_to_text(node, 0).strip()
    root = {"3": "∛", "4": "∜"}.get(degree, "√" if not degree else f"{script('^', degree)}√")
    return root + _wrap(l2tobj.node_arg_to_text(node, 1))


def _as_text(node: Any, l2tobj: Any) -> str:
    return str(l2tobj.text_mode_arg(node))


def _link(node: Any, l2tobj: Any) -> str:
    # URLs are normally protected before parsing; this is only a safety net.
    url = l2tobj.node_arg_to_text(node, 0)
    label = l2tobj.node_arg_to_text(node, 1) if node.macroname == "href" else ""
    return f"{label} ({url})" if label and label != url else url


def _cite(node: Any, l2tobj: Any) -> str:
    args = node.nodeargd.argnlist if node.nodeargd else []
    last = max((i for i, arg in enumerate(args) if arg is not None), default=None)
    return "" if last is None else f"[{l2tobj.node_arg_to_text(node, last)}]"


def _contexts() -> tuple[Any, Any]:
    walker_db = _walker_db()
    db = _l2t_db()
    macros = [MacroTextSpec(name, simplify_repl=_as_text) for name in TEXT_MACROS]
    macros += [MacroTextSpec(name, discard=False) for name in PLAIN_MACROS.split()]
    macros += [MacroTextSpec(name, simplify_repl="") for name in SILENT_MACROS.split()]
    macros += [MacroTextSpec(name, simplify_repl=char) for name, char in SYMBOLS.items()]
    macros += [
        MacroTextSpec("frac", simplify_repl=_frac),
        MacroTextSpec("dfrac", simplify_repl=_frac),
        MacroTextSpec("tfrac", simplify_repl=_frac),
        MacroTextSpec("sqrt", simplify_repl=_sqrt),
        MacroTextSpec("url", simplify_repl=_link),
        MacroTextSpec("href", simplify_repl=_link),
        MacroTextSpec("cite", simplify_repl=_cite),
        MacroTextSpec("citep", simplify_repl=_cite),
        MacroTextSpec("citet", simplify_repl=_cite),
        MacroTextSpec("\\", simplify_repl=" "),
    ]
    specials = [SpecialsTextSpec("~", " ")]
    db.add_context_category("paperscope", macros=macros, specials=specials, prepend=True)
    return walker_db, db


class _Renderer(LatexNodes2Text):
    """LatexNodes2Text with math scripts, spacing and unknown-macro rules."""

    def __init__(self, walker_db: Any, db: Any) -> None:
        super().__init__(latex_context=db, math_mode="text")
        self.walker_db = walker_db
        self.in_math = False

    def render(self, source: str, *, math: bool) -> str:
        """Parse `source` and render it in text or math mode."""
        walker = latexwalker.LatexWalker(
            source, latex_context=self.walker_db, tolerant_parsing=True
        )
        nodes, _, _ = walker.get_latex_nodes()
        self.in_math = math
        try:
            return str(self.nodelist_to_text(nodes))
        finally:
            self.in_math = False

    def text_mode_arg(self, node: Any) -> str:
        """The first argument of `node`, rendered in text mode."""
        saved, self.in_math = self.in_math, False
        try:
            return str(self.node_arg_to_text(node, 0))
        finally:
            self.in_math = saved

    def macro_node_to_text(self, node: Any) -> str:
        """Known macros as pylatexenc says; unknown ones keep their name."""
        if self.latex_context.get_macro_spec(node.macroname) is None:
            args = node.nodeargd.argnlist if node.nodeargd else []
            if any(args):
                return "".join(self._groupnodecontents_to_text(arg) for arg in args)
            return f"{node.macroname}{node.macro_post_space}"
        return str(super().macro_node_to_text(node))

    def nodelist_to_text(self, nodelist: Any) -> str:
        """Text mode as usual; math mode with scripts and TeX-like spacing."""
        if not self.in_math:
            return str(super().nodelist_to_text(nodelist))
        out: list[str] = []
        pending = ""
        nodes = [n for n in nodelist if n is not None]
        for i, node in enumerate(nodes):
            if node.isNodeType(latexwalker.LatexCharsNode):
                pending = scripted(node.chars, out, pending)
                continue
            text = str(self.node_to_text(node))
            if pending:
                out.append(script(pending, text))
                pending = ""
            else:
                out.append(text)
            if _is_bare_macro(node) and node.macro_post_space:
                following = nodes[i + 1] if i + 1 < len(nodes) else None
                # "\mu P" is μP, but "\log N" is log N.
                if (text[-1:].isascii() and text[-1:].isalpha()) or not (
                    following is not None
                    and following.isNodeType(latexwalker.LatexCharsNode)
                    and following.chars[:1].isalnum()
                ):
                    out.append(" ")
        out.append(pending)
        return space_operators("".join(out))


def _is_bare_macro(node: Any) -> bool:
    if not node.isNodeType(latexwalker.LatexMacroNode):
        return False
    return node.nodeargd is None or not any(node.nodeargd.argnlist or ())


_local = threading.local()
_SHARED: list[tuple[Any, Any]] = []


def _renderer() -> _Renderer:
    """One renderer per thread (it keeps math state); contexts built once."""
    renderer: _Renderer | None = getattr(_local, "renderer", None)
    if renderer is None:
        if not _SHARED:
            _SHARED.append(_contexts())
        renderer = _Renderer(*_SHARED[0])
        _local.renderer = renderer
    return renderer


def takes_argument(name: str) -> bool:
    """True when pylatexenc reads a mandatory argument after the macro ``\\name``."""
    spec = _renderer().walker_db.get_macro_spec(name)
    return "{" in (getattr(getattr(spec, "args_parser", None), "argspec", None) or "")


def latex_text(source: str) -> str:
    """Render a text-mode LaTeX fragment (may raise; callers fall back)."""
    return _renderer().render(source, math=False)


def latex_math(source: str) -> str:
    """Render the inside of a math span (may raise; callers fall back)."""
    return _renderer().render(source, math=True).strip()
