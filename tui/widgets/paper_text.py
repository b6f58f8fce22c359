"""Rich ``Text`` for the pieces of a paper: highlighted titles, short author lists, badges.

Every string from the data goes through :func:`index_builder.text.render.safe` and into a
``Text`` object (``Text(...)``, ``append``, ``stylize``), never into a markup
string, so ``[bold]``, ``[@click=…]`` or escape sequences in a file stay inert.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from index_builder.model import Paper, Span
from index_builder.text.safe import safe
from index_builder.times import DEFAULT_SETTING, event_kind, event_line, paper_events

DERIVED_MARK = "≈ "
TITLE_LIMIT = 1_000
"""Characters of a title shown; longer ones are cut (a title that long is broken data)."""
"""Shown before a title that was derived from the abstract's text."""


def clean(value: str) -> str:
    """Data text made safe for the terminal and flattened to one line."""
    return safe(value).replace("\n", " ").replace("\t", " ")


def highlighted(value: str, spans: Sequence[Span], style: Style | str, *, one_line: bool) -> Text:
    """``value`` as Text with ``spans`` (character offsets into ``value``) styled.

    When making the text terminal-safe changed it, the offsets no longer line up,
    so the text is shown without highlights rather than with wrong ones.
    """
    shown = safe(value)
    same = shown == value
    if one_line:
        shown = shown.replace("\n", " ").replace("\t", " ")
    text = Text(shown)
    if same:
        size = len(shown)
        for start, end in spans:
            if 0 <= start < end <= size:
                text.stylize(style, start, end)
    return text


def title_text(paper: Paper, spans: Sequence[Span], match: Style | str) -> Text:
    """The title with its matched words styled; a derived title is marked and italic."""
    text = highlighted(paper.title[:TITLE_LIMIT], spans, match, one_line=True)
    if paper.title_derived:
        text = Text(DERIVED_MARK, style="italic") + text
        text.stylize("italic")
    return text


def short_authors(authors: Sequence[str], first: int = 3) -> str:
    """``A, B, C +N`` for a long author list, or ``authors unknown``."""
    if not authors:
        return "authors unknown"
    names = ", ".join(clean(a) for a in authors[:first])
    extra = len(authors) - first
    return f"{names} +{extra}" if extra > 0 else names


def badges(
    paper: Paper, bookmarked: bool, styles: dict[str, Style], *, owned: bool = False
) -> Text:
    """Badges for bookmarked, in your library, oral/spotlight and has-abstract (empty when
    none apply)."""
    text = Text()
    if bookmarked:
        text.append("★ ", styles.get("bookmark", ""))
    if owned:
        text.append("LIB ", styles.get("library", ""))
    if paper.oral:
        text.append("ORAL ", styles.get("oral", ""))
    elif paper.spotlight:
        text.append("SPOT ", styles.get("spotlight", ""))
    if paper.has_abstract:
        text.append("¶ ", styles.get("abstract", ""))
    return text


def short_topic(topic: str) -> str:
    """The last part of a ``Area->Subarea`` topic."""
    return clean(topic.rsplit("->", 1)[-1].strip())


def session_rows(paper: Paper, setting: str = DEFAULT_SETTING) -> list[tuple[str, str]]:
    """``("Poster", "Poster Session 3 · Wed 8 Jul, 10:30–12:15 KST · board #12")`` per
    presentation (talks too), in the zone ``setting`` picks; data text made safe."""
    return [
        (event_kind(e), clean(event_line(e, setting, paper.venue))) for e in paper_events(paper)
    ]
