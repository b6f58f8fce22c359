"""The pre-pass renders exactly what pylatexenc makes of a whole paragraph, parsing less.

Differential: every paragraph that the renderer hands to the text-mode LaTeX step (from
the bundled abstracts and titles, and a seeded draw of the arXiv sample when the machine
has it) is rendered by :func:`index_builder.text.prepass.text` and by pylatexenc whole;
the two strings must be equal. The spans the pre-pass still sends to pylatexenc are
counted: a small part of the text, not the paragraphs.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index_builder.text import latex, prepass, render
from tests.benchmarks.realtext import sample, sample_path
from tests.core.text.test_text_seeds import abstracts, titles

TRICKY = [
    r"We get 5\% more -- and --- less, a~b, ``quoted'' and !`a ?`b",
    r"\textbf{Doublespeak} is \emph{in-context {nested} hijacking} of \textit{bomb}",
    r"\textbf {spaced} and \textbf x y and \underline{u} \uline{v}",
    r"\method is \method{} is \LaTeX{} is \ie, x \eg the \it x",
    r"a \times b, \times3, \ldots x, \cite{ab} x, \citep[p.~3]{k} y, \footnote{see X} y",
    r"\textcolor{red}{hi} x, \url{http://x.org/a_b}, \href{http://y.org}{label} z",
    r"Bird\u2019s Eye, (\hat\beta=1), \"o, \'e, \'{e}, \c c, a\,b, a\ b, \\ x",
    r"a & b # c ^ d _ e, \& \_ \# \$ \{ \} and \{unbalanced",
    r"\begin{itemize}\item one \item two\end{itemize} after",
    r"\verb|x| and \par next and \textsuperscript{2} x and \footnote text",
    "\\method\n{X} and \\frac12 and \\sqrt{2} and \\mathbf{x} and \\operatorname{op}",
    r"ends with a macro \alpha",
    r"{\bf X} y {\em Y} z \mbox{m} \hbox{h} \text{t}",
]


@pytest.mark.parametrize("source", TRICKY)
def test_tricky_markup_renders_as_pylatexenc_renders_it(source: str) -> None:
    assert prepass.text(source) == latex.latex_text(source)


@lru_cache(maxsize=1)
def latex_paragraphs() -> tuple[str, ...]:
    """What the renderer passes to the text-mode step for the real texts."""
    texts = [*abstracts(), *titles()]
    if sample_path() is not None:
        records = random.Random(41).sample(sample(), 1500)
        texts += [r["abstract"] for r in records] + [r["title"] for r in records]
    seen: list[str] = []
    original = prepass.text

    def spy(source: str, *span: Callable[[str], str]) -> str:
        seen.append(source)
        return original(source, *span)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(prepass, "text", spy)
        for text in texts:
            render.render(text)
    return tuple(seen)


def test_real_paragraphs_render_as_pylatexenc_renders_them() -> None:
    paragraphs = latex_paragraphs()
    assert len(paragraphs) >= 100
    different = [p for p in paragraphs if prepass.text(p) != latex.latex_text(p)]
    assert different == []


def test_pylatexenc_sees_spans_not_paragraphs() -> None:
    paragraphs = latex_paragraphs()
    parsed: list[str] = []

    def counting(source: str) -> str:
        parsed.append(source)
        return latex.latex_text(source)

    for paragraph in paragraphs:
        prepass.text(paragraph, counting)
    share = sum(map(len, parsed)) / sum(map(len, paragraphs))
    assert share < 0.1, f"pylatexenc parsed {share:.0%} of the paragraphs' characters"


_PIECES = [
    *["word", "Ünï", "x2", " ", "\n", "é", "ǣ", "²", "ﬁ", "α", "\u0301", "İ", "ß", "Ϲ", "ø"],
    *["--", "---", "~", "``", "''", "!`", "?`", "{", "}", "a{}b", "-", "'", "`", "!", "?"],
    *["\\%", "\\&", "\\_", "\\#", "\\$", "\\{", "\\}", "\\ ", "\\textbf{", "\\emph{", "\\mbox{"],
]


def _no_span_and_kept(source: str) -> bool | None:
    """Whether the words of ``source`` are kept, when the pre-pass sent no span (else None)."""
    prepared = render._balance(source)
    sent: list[str] = []
    out = prepass.text(prepared, lambda part: sent.append(part) or latex.latex_text(part))
    return None if sent else render._keeps_words(prepared, out)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
def test_a_paragraph_the_prepass_renders_alone_keeps_its_words(source: str) -> None:
    # The renderer does not look for the words of such a paragraph (render._text_mode).
    assert _no_span_and_kept(source) is not False


def test_real_paragraphs_the_prepass_renders_alone_keep_their_words() -> None:
    alone = [p for p in latex_paragraphs() if _no_span_and_kept(p) is not None]
    assert len(alone) >= 15  # 21 in the bundled data alone
    assert [p for p in alone if not _no_span_and_kept(p)] == []
