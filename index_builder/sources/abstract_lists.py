"""Abstract lists: a header line, then one abstract per blank-line-separated paragraph."""

from __future__ import annotations

from index_builder.model import SourceProblem
from index_builder.sources.types import AbstractEntry, SourceData, SourceError, SourceText

HEADER_MAX_CHARS = 160
"""A first line longer than this is an abstract, not a list's header."""


def read_abstract_list(source: SourceText) -> SourceData | None:
    """Read an abstract list: a header line, then one abstract per blank-line-separated paragraph.

    Lines inside a paragraph are joined. A first line too long to be a header is
    taken as the first abstract's text.
    """
    paragraphs = _paragraphs(source.text)
    data = SourceData(source.path)
    if not paragraphs:
        raise SourceError("the file is empty")
    first = paragraphs[0]
    if len(first[0]) <= HEADER_MAX_CHARS:
        rest = first[1:]
        paragraphs = ([rest] if rest else []) + paragraphs[1:]
    name = source.path.name
    for position, lines in enumerate(paragraphs, start=1):
        data.abstracts.append(AbstractEntry(name, position, _join_lines(lines)))
    if not data.abstracts:
        note = "no abstracts after the header line"
        data.problems.append(SourceProblem(str(source.path), note, fatal=False))
    return data


def _paragraphs(text: str) -> list[list[str]]:
    """Split text into paragraphs of stripped, non-empty lines."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\ufeff", "")
    paragraphs: list[list[str]] = []
    current: list[str] = []
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped:
            current.append(stripped)
        elif current:
            paragraphs.append(current)
            current = []
    if current:
        paragraphs.append(current)
    return paragraphs


def _join_lines(lines: list[str]) -> str:
    """Join a paragraph's lines with spaces; a line ending in a hyphen joins without one."""
    out = lines[0]
    for line in lines[1:]:
        if out.endswith("-") and len(out) > 1 and out[-2].isalpha():
            out += line
        else:
            out += " " + line
    return " ".join(out.split())
