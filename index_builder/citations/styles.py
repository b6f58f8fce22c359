"""Citations of one paper in four styles: BibTeX, APA 7, a Markdown link and plain text.

    from index_builder.citations.styles import STYLES, cite, CitationKeys
    keys = CitationKeys(catalogue.papers)            # unique keys over the whole catalogue
    text = cite(paper, "bibtex", key=keys.key(paper.id))
    cite(paper, "apa")  # "Huang, Y., Zeng, W., Kumaresan, A., & Wang, Z. (2026). ProEval: …"

Without ``key`` a BibTeX entry uses the paper's base key (unique only among
papers that do not share it: pass the key from :class:`CitationKeys`).

Decisions where the data is incomplete:

- **No known authors:** nobody is invented. BibTeX has no ``author`` field and
  ``note = {Authors unknown}``; APA puts the title in the author position (APA 7
  for works without an author); Markdown and plain text say "Authors unknown";
  the key starts with ``anonymous``.
- **Derived title** (made from the abstract by the catalogue): every style shows
  it as a bracketed description, ``[Untitled; title derived from the abstract:
  …]`` (APA 7's form for an untitled work), and BibTeX adds a note saying so.
- **"apa"** is APA 7 as plain text (no italics); names keep their published
  spelling and case; parenthesised nicknames are left out; 21+ authors give the
  first 19, ". . .", then the last.
- The URL is the OpenReview page, else the virtual-site page; only http(s).
- **Venue:** a known venue (:mod:`index_builder.venues`) gives its proceedings,
  series, publisher and year; another named venue is cited by its name (and a year
  in it); a paper with no venue is a BibTeX ``@misc`` with no venue or year invented
  (APA ``(n.d.)``).
- **Track:** the main track's papers are cited as before; another track is named
  (BibTeX ``note = {Position Paper Track}``, APA after the proceedings, Markdown and
  plain text beside the venue).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

from index_builder.citations.bibtex_escape import balanced, escape, latex_title, protect_text
from index_builder.citations.keys import (
    CitationKeys,
    PersonName,
    base_key,
    paper_year,
    split_name,
)
from index_builder.model import Paper
from index_builder.text.safe import safe
from index_builder.venues import venue_named

__all__ = ["STYLES", "CitationKeys", "citation_url", "cite", "display_title"]

STYLES: tuple[str, ...] = ("bibtex", "apa", "markdown", "plain")
"""Every style :func:`cite` accepts; the first is the default."""

AUTHORS_UNKNOWN = "Authors unknown"
DERIVED_NOTE = "Title derived from the abstract by PaperScope; not the paper's own title"


def _proceedings(paper: Paper) -> tuple[str, str, str]:
    """The paper's booktitle, series and publisher (``""`` for what is not known)."""
    known = venue_named(paper.venue) if paper.venue else None
    if known is not None:
        return known.booktitle, known.series, known.publisher
    return _clean(paper.venue), "", ""


_TRACK_NAMES = {"position": "Position Paper Track", "journal": "Journal Track"}


def track_name(paper: Paper) -> str:
    """The track a citation names: ``""`` for the main track (or none known), else
    ``Position Paper Track``, ``Journal Track`` or ``<Name> Track``."""
    track = _clean(paper.track).strip()
    if track.casefold() in ("", "main"):
        return ""
    return _TRACK_NAMES.get(track.casefold()) or f"{track[:1].upper()}{track[1:]} Track"


def _clean(text: str) -> str:
    """One line: whitespace collapsed, escape sequences, control and bidi characters dropped."""
    # Whole escape sequences go first: dropping only their ESC would leave "]52;c;..." behind.
    kept = safe(text)
    if not kept.isprintable():  # printable: no Cc or Cf in it (most titles and names)
        kept = "".join(
            ch for ch in kept if unicodedata.category(ch) not in ("Cc", "Cf") or ch in "\t\n"
        )
    return " ".join(kept.split())


def display_title(paper: Paper) -> str:
    """The title as cited in text styles: the paper's own, or a bracketed derived one."""
    title = _clean(paper.title) or "[Untitled]"
    if paper.title_derived:
        return f"[Untitled; title derived from the abstract: {title}]"
    return title


def citation_url(paper: Paper) -> str:
    """The OpenReview page, else the virtual-site page; ``""`` when neither is an http(s) URL."""
    for url in (paper.openreview_url, paper.url):
        url = url.strip()
        if re.match(r"https?://\S+$", url, re.IGNORECASE):
            return re.sub(r"[{}\\]", lambda m: f"%{ord(m.group()):02X}", url)
    return ""


def _authors(paper: Paper) -> list[str]:
    """The paper's author names, cleaned, empty ones dropped."""
    return [name for name in (_clean(a) for a in paper.authors) if name]


def _bibtex_name(person: PersonName) -> str:
    """``Family, Jr, Given`` with specials escaped and ``and`` and commas made inert."""

    def part(text: str, group: bool = False) -> str:
        words = [("{" + escape(w) + "}") if w.lower() == "and" else escape(w) for w in text.split()]
        out = " ".join(words)
        return f"{{{out}}}" if group or "," in out else out

    first_word = person.family.split()[0] if person.family else ""
    compound = " " in person.family and not first_word.islower()
    family = part(person.family, group=compound)
    given = part(" ".join(person.given))
    if not given:
        return family
    if person.suffix:
        return f"{family}, {part(person.suffix)}, {given}"
    return f"{family}, {given}"


def bibtex(paper: Paper, key: str | None = None, tags: Sequence[str] = ()) -> str:
    """A BibTeX ``@inproceedings`` entry (see the module docstring); ``tags`` (the reading
    list's) go into ``keywords``, comma-separated as Zotero and JabRef read them."""
    notes = []
    if paper.title_derived:
        title = protect_text(display_title(paper))
        notes.append(DERIVED_NOTE)
    else:
        title = latex_title(_clean(paper.title_raw), display_title(paper))
    fields: list[tuple[str, str]] = [("title", title)]
    names = [_bibtex_name(split_name(a)) for a in _authors(paper)]
    if names:
        fields.append(("author", " and ".join(names)))
    else:
        notes.insert(0, AUTHORS_UNKNOWN)
    if track := track_name(paper):
        notes.insert(0, track)
    booktitle, series, publisher = _proceedings(paper)
    fields += [
        (name, value)
        for name, value in (("booktitle", booktitle), ("series", series),
                            ("publisher", publisher), ("year", paper_year(paper)))
        if value
    ]  # fmt: skip
    if url := citation_url(paper):
        fields.append(("url", url))
    if notes:
        fields.append(("note", escape(". ".join(notes))))
    if words := [word for word in (_clean(t) for t in tags) if word]:
        fields.append(("keywords", escape(", ".join(words))))
    fields = [(name, value if balanced(value) else escape(value)) for name, value in fields]
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    kind = "inproceedings" if booktitle else "misc"
    return f"@{kind}{{{key or base_key(paper)},\n{body}\n}}"


def _apa_name(person: PersonName) -> str:
    """``Family, G. N.`` (``Family, G., Jr.``); a one-word name stays as it is."""
    initials = person.initials()
    if not initials:
        return person.family
    suffix = f", {person.suffix.rstrip('.')}." if person.suffix else ""
    return f"{person.family}, {initials}{suffix}"


def _apa_authors(names: list[str]) -> str:
    """APA 7 author list: ``A, B., & C, D.``; 21+ authors: first 19, ``. . .``, last."""
    people = [_apa_name(split_name(n)) for n in names]
    if len(people) == 1:
        return people[0]
    if len(people) <= 20:
        return ", ".join(people[:-1]) + ", & " + people[-1]
    return ", ".join(people[:19]) + ", . . . " + people[-1]


def _sentence(text: str) -> str:
    """``text`` ending with a full stop (unless it already ends with . ? or !)."""
    return text if text.endswith((".", "?", "!")) else text + "."


def apa(paper: Paper) -> str:
    """APA 7 reference as plain text."""
    title = _sentence(display_title(paper))
    booktitle, series, publisher = _proceedings(paper)
    source = f"In {booktitle}" + (f" ({series})" if series else "") + "."
    source = (source + (f" {publisher}." if publisher else "")) if booktitle else ""
    if track := track_name(paper):
        source = f"{source} {track}.".lstrip()
    year = paper_year(paper) or "n.d."
    names = _authors(paper)
    head = f"{_sentence(_apa_authors(names))} ({year}). {title}" if names else f"{title} ({year})."
    head = f"{head} {source}".rstrip()
    url = citation_url(paper)
    return head + (f" {url}" if url else "")


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")


def _md(text: str) -> str:
    """Markdown-escaped text."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def markdown(paper: Paper) -> str:
    """``[Title](url) — Authors (ICML 2026)``."""
    title = _md(display_title(paper))
    url = citation_url(paper).replace("(", "%28").replace(")", "%29").replace(" ", "%20")
    link = f"[{title}]({url})" if url else title
    names = _authors(paper)
    who = _md(", ".join(names)) if names else AUTHORS_UNKNOWN
    venue = ", ".join(v for v in (_clean(paper.venue), track_name(paper)) if v)
    return f"{link} — {who}" + (f" ({_md(venue)})" if venue else "")


def plain(paper: Paper) -> str:
    """``Authors. Title. ICML 2026. url``."""
    names = _authors(paper)
    who = ", ".join(names) if names else AUTHORS_UNKNOWN
    parts = [_sentence(who), _sentence(display_title(paper))]
    if venue := ", ".join(v for v in (_clean(paper.venue), track_name(paper)) if v):
        parts.append(_sentence(venue))
    if url := citation_url(paper):
        parts.append(url)
    return " ".join(parts)


_FORMATTERS: dict[str, Callable[[Paper], str]] = {"apa": apa, "markdown": markdown, "plain": plain}


def cite(paper: Paper, style: str, key: str | None = None) -> str:
    """The citation of ``paper`` in ``style`` (one of :data:`STYLES`); ``key`` is for BibTeX.
    (:func:`index_builder.citations.documents.cite` takes RIS and CSL-JSON too.)

    Raises ``ValueError`` for an unknown style.
    """
    if style == "bibtex":
        return bibtex(paper, key)
    try:
        return _FORMATTERS[style](paper)
    except KeyError:
        raise ValueError(
            f"unknown citation style {style!r}; use one of {', '.join(STYLES)}"
        ) from None


def clean_line(text: str) -> str:
    """``text`` as one line of plain text: escape sequences, control and bidi characters
    dropped, whitespace collapsed (what every citation style puts in a field)."""
    return _clean(text)
