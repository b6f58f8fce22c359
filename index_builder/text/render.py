"""Display text: LaTeX and Markdown to Unicode, links, terminal safety, folding.

`render` turns an abstract or title as written by its authors into readable
Unicode. It never raises and never loses prose: links and code spans are set
aside first, math spans are rendered one by one with pylatexenc, Markdown
emphasis is removed, then the text around them goes through pylatexenc; any
piece that fails or drops a word is redone by a plain regex cleanup.
An unescaped ``%`` is a percent sign (abstracts are not LaTeX files).
A Markdown or ``\\href`` link shows as ``label (url)`` so the address stays
visible; ``[url](url)`` shows once.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from index_builder.text import latex, links, prepass, render_cache
from index_builder.text.safe import fold, safe

__all__ = ["extract_code_urls", "extract_urls", "fold", "render", "safe"]

# Placeholders for set-aside pieces: one char each from Supplementary PUA-A.
_PH0 = 0xF0000
_PH = re.compile("[\U000f0000-\U000ffffd]")
_MARKUP = ("\\", "$", "*", "_", "`", "~", "{", "}", "[", '"', "--", "''")
"""What any markup needs: a text holding none of these is plain (most abstracts)."""
_PARAGRAPH = re.compile(r"\n[ \t\f\v]*\n\s*")
# Every kind starts with "$" or a backslash: looked for first, that one test at each
# position spares trying the four kinds there (a third of the expression's time).
_MATH = re.compile(
    r"(?=[$\\])(?:\$\$(.{1,1000}?)\$\$|\\\((.{1,1000}?)\\\)|\\\[(.{1,1000}?)\\\]"
    r"|(?<!\\)\$((?:\\.|[^$\\]){1,1000})\$(?!\d))"
)
_ESCAPED = re.compile(r"\\.|%", re.S)
# What only pylatexenc handles once links, code, math and emphasis are set aside:
# macros, groups, ties, dollars and TeX dashes/quotes. Text without any is left as is.
_NEEDS_LATEX = ("\\", "{", "}", "~", "$", "--", "''", "``")
_QUOTE1 = re.compile(r"(?<!`)`(?=[^`'\s])([^`'\n]{0,200}?)'(?![A-Za-z])")
_QUOTE2 = re.compile(r"(?<![\w\"'])(?:\"|'')(?=\w)([^\"\n]{0,300}?)''")
_CODE = re.compile(r"(?<!`)`(?!`)([^`\n]+?)(?<!`)`(?!`)")
_WORD = re.compile(r"[a-z0-9]+")
_PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~“”‘’–—"
LONG_TEXT = 30_000
"""Texts longer than this (no real abstract comes close) get the plain regex cleanup only:
pylatexenc costs tens of microseconds a character, so a 1 MB abstract took 20 s to load."""


def render(raw: str) -> str:
    """Readable Unicode for a title or abstract written in LaTeX/Markdown.

    Inside :func:`~index_builder.text.render_cache.using`, a text rendered before is
    served from the cache.
    """
    cache = render_cache.active()
    out = _render(raw) if cache is None else cache.get("render", raw, _render)
    # Most texts render as they are written: the paper then holds one string for both,
    # and each cache pickles it once (the catalogue's abstracts took 8 MB twice).
    return raw if out == raw else out


def _render(raw: str) -> str:
    try:
        text = raw.replace("\r\n", "\n").replace("\r", "\n")
        if _may_hold_placeholders(text):
            text = _PH.sub("", text)
        # Twelve substring searches cost a tenth of one scan by an expression of them.
        if not any(sign in text for sign in _MARKUP):
            return _squeeze(text)
        if len(text) > LONG_TEXT:
            return _squeeze(latex.plain_latex(text))
        parts = (_paragraph(p) for p in _PARAGRAPH.split(text.strip()))
        return "\n".join(p for p in parts if p)
    except Exception:  # a paper must never be lost to a rendering error
        return _squeeze(latex.plain_latex(raw))


def _squeeze(text: str) -> str:
    """Whitespace runs to one space; paragraph breaks to one newline."""
    # A printable text (no newline, tab or space other than " ") with no two spaces
    # running is that stripped: most titles and abstracts, spared splitting into words
    # (12 us an abstract, half of rendering a plain one).
    if "  " not in text and text.isprintable():
        return text.strip()
    parts = (" ".join(p.split()) for p in _PARAGRAPH.split(text))
    return "\n".join(p for p in parts if p)


class _Pieces:
    """Set-aside pieces of one paragraph, each standing in as one char."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, final_text: str) -> str:
        self.items.append(final_text)
        return chr(_PH0 + len(self.items) - 1)

    def restore(self, text: str) -> str:
        def back(match: re.Match[str]) -> str:
            index = ord(match.group(0)) - _PH0
            return self.restore(self.items[index]) if index < len(self.items) else ""

        return _PH.sub(back, text) if _may_hold_placeholders(text) else text


def _may_hold_placeholders(text: str) -> bool:
    """False when ``text`` cannot hold a placeholder: ASCII, or no character past U+EFFFF."""
    # Both checks run at C speed over the string; the expression's scan took 10x longer.
    return not text.isascii() and max(text) >= "\U000f0000"


def _paragraph(text: str) -> str:
    """Render one paragraph (no blank lines inside)."""
    pieces = _Pieces()

    def link(original: str, url: str, label: str) -> str:
        label = label.strip()
        bare = links.BARE_URL.fullmatch(original)
        shown = pieces.add(re.sub(r"\\([_%#&~])", r"\1", original) if bare else url)
        if not label or links.clean_url(label) == url:
            return shown
        return f"{label} ({shown})"

    text = links.scan(text, link)
    # Each expression only where the characters it needs are (most paragraphs have no
    # backquote, no '' and no dollar): a scan spared is 10-30 us a paragraph.
    if "`" in text:
        text = _QUOTE1.sub("‘\\1’", text)
    if "''" in text:
        text = _QUOTE2.sub("“\\1”", text)
    if "`" in text:
        text = _CODE.sub(lambda m: pieces.add(m.group(1)), text)
    if "$" in text or "\\" in text:
        text = _MATH.sub(lambda m: pieces.add(_math(next(g for g in m.groups() if g))), text)
    text = _emphasis(text)
    # Substring searches: an expression of these alternatives scanned 8x slower.
    if not any(sign in text for sign in _NEEDS_LATEX):
        return _squeeze(pieces.restore(text))
    text = re.sub(r"(?<!\\)\$", r"\\$", text)
    return _squeeze(pieces.restore(_text_mode(text)))


def _text_mode(source: str) -> str:
    """A paragraph's text-mode LaTeX by the pre-pass (:func:`_checked`).

    When the pre-pass sent pylatexenc no span (most paragraphs), its words are not
    looked for: it only drops braces and the names of text macros, and puts a sign for
    a sign (``--``, ``~``, ``\\%``), so every word of the paragraph is in the output
    (``test_a_paragraph_the_prepass_renders_alone_keeps_its_words``).
    """
    sent: list[str] = []

    def span(part: str) -> str:
        sent.append(part)
        return latex.latex_text(part)

    return _checked(source, lambda prepared: prepass.text(prepared, span), lambda: not sent)


def _math(source: str) -> str:
    """One math span (without its delimiters) as Unicode."""
    cache = render_cache.active()
    if cache is None:
        return _checked(source, latex.latex_math)
    # Abstracts repeat their spans ($k$, $\\times$): one build renders each once.
    done = cache.spans.get(source)
    if done is None:
        done = cache.spans[source] = _checked(source, latex.latex_math)
    return done


def _checked(
    source: str, render_fn: Callable[[str], str], kept: Callable[[], bool] = lambda: False
) -> str:
    """Render with pylatexenc; fall back to plain cleanup if it fails or drops words
    (``kept``: True when the rendering kept every word by construction)."""
    if "%" in source:  # else every match would be put back as it is
        source = _ESCAPED.sub(lambda m: m.group(0) if len(m.group(0)) == 2 else "\\%", source)
    prepared = _balance(source) if "{" in source or "}" in source else source
    try:
        out = render_fn(prepared)
    except Exception:
        return latex.plain_latex(prepared)
    if kept() or _keeps_words(prepared, out):
        return out
    return latex.plain_latex(prepared)


def _balance(source: str) -> str:
    """Drop stray ``}``; close ``{`` left open at the end."""
    depth = 0
    out: list[str] = []
    for token in re.findall(r"\\.|[{}]|[^\\{}]+|\\", source, re.S):
        if token == "{":
            depth += 1
        elif token == "}":
            if depth == 0:
                continue
            depth -= 1
        out.append(token)
    return "".join(out) + "}" * depth


def _keeps_words(source: str, out: str) -> bool:
    """Every word of the source (macro names aside) appears in the output."""
    source = re.sub(r"\\(?:begin|end)\s*\{[^{}]*\}|\\[A-Za-z]+", " ", source)
    found = _WORD.findall(fold(out).lower())
    # A word the output has whole is in it; only the others are looked for inside the
    # output's words run together (a paragraph's hundred searches were a third of it).
    missing = set(_WORD.findall(fold(source).lower())).difference(found)
    if not missing:
        return True
    haystack = "".join(found)
    return all(word in haystack for word in missing)


def _emphasis_pattern(marker: str) -> re.Pattern[str]:
    # Bounded spans keep a paragraph full of unmatched markers linear.
    m, c = re.escape(marker), re.escape(marker[0])
    return re.compile(rf"(?<![{c}\\])({m})(?![{c}\s])(.{{1,{_SPAN}}}?)(?<![{c}\s\\]){m}(?!{c})")


_SPAN = 1000
_EMPHASIS = [(marker[0], _emphasis_pattern(marker)) for marker in ("***", "**", "*", "__", "_")]


def _emphasis(text: str) -> str:
    """Remove Markdown ``*``/``_`` emphasis markers that CommonMark would honour."""
    for char, pattern in _EMPHASIS:
        if char in text:  # most paragraphs have neither: five scans spared
            text = pattern.sub(_unmark, text)
    return text


def _unmark(match: re.Match[str]) -> str:
    """The inner text when the delimiters are properly flanking, else unchanged."""
    text, (start, end) = match.string, match.span()
    marker, inner = match.group(1), match.group(2)
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    opens_ok = not (inner[0] in _PUNCT and not (before.isspace() or before in _PUNCT))
    closes_ok = not (inner[-1] in _PUNCT and not (after.isspace() or after in _PUNCT))
    if marker[0] == "_":
        word_edge = not before.isalnum() and not after.isalnum()
        if not word_edge or (marker == "__" and " " not in inner):
            return match.group(0)
    return inner if opens_ok and closes_ok else match.group(0)


def extract_urls(raw: str) -> tuple[str, ...]:
    """Every http(s) link in `raw` (plain, ``\\url``, ``\\href``, Markdown), in order."""
    try:
        return links.find_urls(raw)
    except Exception:
        return ()


def extract_code_urls(raw: str) -> tuple[str, ...]:
    """The links of `raw` that point at code: GitHub, GitLab, Hugging Face, ...

    Served from the render cache inside :func:`~index_builder.text.render_cache.using`.
    """
    cache = render_cache.active()
    return _code_urls(raw) if cache is None else cache.get("code", raw, _code_urls)


def _code_urls(raw: str) -> tuple[str, ...]:
    return tuple(url for url in extract_urls(raw) if links.is_code_url(url))
