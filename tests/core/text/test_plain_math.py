"""Math spans of characters alone are rendered without pylatexenc, exactly as it renders them.

Differential: :func:`index_builder.text.latex.plain_math` against pylatexenc's math mode
(:func:`index_builder.text.latex_engine.latex_math`) on every math span of the bundled
abstracts and titles and of the whole arXiv sample (when the machine has it), and on
Hypothesis strings of the characters such spans hold.
"""

from __future__ import annotations

from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from index_builder.text import latex, latex_engine, render
from tests.benchmarks.realtext import sample, sample_path
from tests.core.text.test_text_seeds import abstracts, titles


@lru_cache(maxsize=1)
def real_spans() -> tuple[str, ...]:
    """The inside of every math span of the real texts, each once, in order met."""
    texts = [*abstracts(), *titles()]
    if sample_path() is not None:
        texts += [r["abstract"] for r in sample()] + [r["title"] for r in sample()]
    found: dict[str, None] = {}
    for text in texts:
        for match in render._MATH.finditer(text):
            found[next(g for g in match.groups() if g)] = None
    return tuple(found)


def test_every_real_plain_span_renders_as_pylatexenc_renders_it() -> None:
    spans = real_spans()
    plain = [s for s in spans if latex.plain_math(s) is not None]
    assert len(plain) >= 20
    different = [s for s in plain if latex.plain_math(s) != latex_engine.latex_math(s)]
    assert different == []


def test_spans_with_markup_are_left_to_pylatexenc() -> None:
    for span in [r"\alpha", "x^{2}", "a--b", "a&b", "~x", "5%", "``x''", r"\$"]:
        assert latex.plain_math(span) is None


_CHARS = "ab xyzAN0129 \t^_^_+-=<>()[],.;:/|!?'*@#\"≤→×αβ∞é\n"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_CHARS, max_size=24))
def test_plain_spans_render_as_pylatexenc_renders_them(span: str) -> None:
    plain = latex.plain_math(span)
    if plain is not None:
        assert plain == latex_engine.latex_math(span)


def test_a_plain_span_is_rendered_with_its_scripts_and_spaced_operators() -> None:
    assert latex.latex_math("x^2 + y_i ^ n") == "x² + yᵢ ⁿ"
    assert latex.latex_math("n ×m") == "n × m"
