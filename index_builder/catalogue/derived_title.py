"""A title for an abstract that has none: the method it introduces, or its first clause.

``We propose ProEval, a proactive evaluation framework that ...`` gives
``ProEval: a proactive evaluation framework that ...``; an abstract that names no
method gives its first sentence. Either is cut to about :data:`MAX_CHARS`
characters at a word boundary, with an ellipsis when cut.
"""

from __future__ import annotations

import re

MAX_CHARS = 90
_VERB = r"(?:propose|introduce|present|develop|design|build|release|study|call)s?"
_NAME = r"[A-Za-z0-9][\w\-–²³⁴$^.+@×/]*"
_INTRO = re.compile(
    rf"\b[Ww]e\s+(?:also\s+|further\s+|then\s+|therefore\s+|first\s+)?{_VERB}\s+"
    rf"(?:(?:a|an|the)\s+(?:new|novel)?\s*(?:\w+[\s-]){{0,4}}?(?:called|named|dubbed|termed)\s+)?"
    rf"(?P<name>{_NAME}(?:\s+{_NAME}){{0,5}}?)"
    r"(?:\s*\((?P<short>[^()]{2,20})\))?"
    r"\s*[,:]\s*(?P<what>(?:a|an|the)\s[^.;]+)"
)
_TRAILING = re.compile(
    rf"\b[Ww]e\s+{_VERB}\s+(?P<what>(?:a|an)\s[^.;]{{5,120}}?)\s+"
    r"(?:(?:called|named|dubbed|termed)\s+)?(?P<name>[A-Z][\w\-]*[A-Z0-9][\w\-]*)\s*[.,;]"
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9“\"(])")


def _is_name(words: str) -> bool:
    """True for a method-like name: 1-6 words, one with an inner capital or a digit."""
    parts = words.split()
    if not 1 <= len(parts) <= 6:
        return False
    return any(re.search(r"[A-Z0-9]", p[1:]) or (len(parts) > 1 and p[:1].isupper()) for p in parts)


def shorten(sentence: str, limit: int = MAX_CHARS) -> str:
    """``sentence`` cut at a word boundary to at most ``limit`` characters, ellipsis added."""
    sentence = " ".join(sentence.split()).rstrip(" ,;:")
    if len(sentence) <= limit:
        return sentence.rstrip(".")
    cut = sentence[: limit - 1]
    if " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:-–—(") + "…"


def derive_title(abstract: str) -> str:
    """A short title for an abstract (display text); never empty for a non-empty abstract."""
    flat = " ".join(abstract.split())
    if not flat:
        return "Untitled abstract"
    for match in _INTRO.finditer(flat):
        name = match.group("short") or re.sub(r"^(?:the|our)\s+", "", match.group("name"))
        if _is_name(match.group("name")) or match.group("short"):
            what = match.group("what").split(", which ")[0]
            return shorten(f"{name.strip()}: {what}")
    trailing = _TRAILING.search(flat)
    if trailing:
        return shorten(f"{trailing.group('name')}: {trailing.group('what')}")
    first = _SENTENCE_END.split(flat, maxsplit=1)[0]
    return shorten(first)
