"""The renderer's substring checks answer as the expressions they stand for."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from index_builder.text import render

_PIECES = ["a", " ", "\\", "{", "}", "~", "$", "-", "'", "`", "é", "\U000f0001", "\U000ffffe"]
_TEXTS = st.lists(
    st.one_of(st.sampled_from(_PIECES), st.characters(codec="utf-8")), max_size=20
).map("".join)


@settings(max_examples=400)
@given(_TEXTS)
def test_the_latex_signs_are_found_as_the_expression_finds_them(text: str) -> None:
    expression = re.compile(r"[\\{}~$]|--|''|``")
    assert any(sign in text for sign in render._NEEDS_LATEX) == bool(expression.search(text))


@settings(max_examples=400)
@given(_TEXTS)
def test_a_text_said_to_hold_no_placeholder_holds_none(text: str) -> None:
    if not render._may_hold_placeholders(text):
        assert render._PH.search(text) is None
    assert render._Pieces().restore(text) == render._PH.sub("", text)


_MATH_TEXTS = st.lists(st.sampled_from(["$", "$$", "\\", "(", ")", "[", "]", "x", " ", "1"]))


@settings(max_examples=400)
@given(_MATH_TEXTS.map("".join))
def test_math_spans_are_found_as_the_expression_without_its_look_ahead_finds_them(
    text: str,
) -> None:
    without = re.compile(
        r"\$\$(.{1,1000}?)\$\$|\\\((.{1,1000}?)\\\)|\\\[(.{1,1000}?)\\\]"
        r"|(?<!\\)\$((?:\\.|[^$\\]){1,1000})\$(?!\d)"
    )
    found = [(m.span(), m.groups()) for m in render._MATH.finditer(text)]
    assert found == [(m.span(), m.groups()) for m in without.finditer(text)]


@settings(max_examples=300)
@given(_TEXTS)
def test_a_source_is_prepared_as_before_percent_and_braces_or_not(text: str) -> None:
    assert render._checked(text, str, lambda: True) == render._balance(
        render._ESCAPED.sub(lambda m: m.group(0) if len(m.group(0)) == 2 else "\\%", text)
    )
