"""Paper records of the user's structured files (JSON, JSONL, BibTeX), before merging.

A :class:`PaperRecord` is what one entry of such a file says about a paper (a
partial :class:`~index_builder.model.Paper`: raw (LaTeX) title and abstract,
authors, links and, for PaperScope's own ``dump`` output, the table fields and
event id) and where the entry stands. :func:`record_from_json` reads
one JSON object, accepting the usual spellings of each field; the BibTeX reader
builds records itself. How records join the catalogue is decided in
:mod:`index_builder.catalogue.merge_records`.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from index_builder.model import Event, Paper, pickled_as_call
from index_builder.sources import json_fields as fields
from index_builder.sources.join_lines import JOINS_FILE, JoinLine, NotAJoin, join_line
from index_builder.sources.json_fields import clean, event_id_of
from index_builder.text import render as text

_NON_WORD = re.compile(r"[\W_]+")
MAX_ID_CHARS = 64
"""A declared id longer than this is not an id worth keeping as an alias."""


class RecordError(ValueError):
    """One record of a file that cannot be used (it is skipped and counted)."""


@pickled_as_call
@dataclass(frozen=True, slots=True)
class PaperRecord:
    """What one entry of a JSON, JSONL or BibTeX file says about a paper, and where it stands.

    ``paper`` is the entry's partial :class:`~index_builder.model.Paper`: raw
    ``title_raw`` and ``abstract_raw`` (``""`` when absent; a title marked as derived
    is dropped), no id and no display text. Its ``aliases`` are the ids the file declares
    for the paper (its ``id``, ``paper_id`` and ``aliases``), kept so bookmarks resolve;
    its ``venue`` the conference the file names (a dump's), ``""`` when it says none.
    """

    file: str
    position: int
    paper: Paper
    apart: bool = False
    """A join taken apart by hand (``paperscope join --apart``), not a paper: the row of
    ``paper.event_id`` is not the paper of the abstracts whose ids ``paper.aliases``
    holds, so the automatic join never puts them together (see
    :mod:`index_builder.catalogue.joins.by_hand`)."""
    hand: bool = False
    """A join made by hand (a line of ``joins.jsonl``): its abstract goes on the row of
    ``paper.event_id`` whatever the row's title is now, and nowhere when there is no such
    row (:func:`index_builder.catalogue.merge_records.without_gone_joins`)."""

    @property
    def source(self) -> str:
        """``FILE:POSITION`` as shown in a paper's ``sources``."""
        return f"{self.file}:{self.position}"


def normalized(raw: str) -> str:
    """The text used to recognise the same abstract twice: NFKC, spaces collapsed, lowercase."""
    return " ".join(unicodedata.normalize("NFKC", raw).split()).lower()


def abstract_id(raw: str, length: int = 10) -> str:
    """The stable id of an abstract that stands alone: ``a`` + hex of its normalized text."""
    return "a" + hashlib.sha256(normalized(raw).encode("utf-8")).hexdigest()[:length]


@lru_cache(maxsize=1 << 16)
def title_key(raw: str) -> str:
    """A title reduced for exact matching: rendered, NFKC, accents folded, case and punctuation out.

    ``{P}ro{E}val: a {\\"U}ber--Test`` and ``ProEval - A Über Test`` give the same key.
    """
    display = unicodedata.normalize("NFKC", text.fold(text.render(clean(raw))))
    return " ".join(_NON_WORD.sub(" ", display.casefold()).split())


def title_id(raw: str, length: int = 10) -> str:
    """The stable id of a titled paper without abstract or row: ``b`` + hex of its title key."""
    return "b" + hashlib.sha256(title_key(raw).encode("utf-8")).hexdigest()[:length]


def split_people(value: str) -> tuple[str, ...]:
    """Names from one string: ``A; B``, ``A and B``, ``A, B and C`` or ``Last, First and ...``.

    Semicolons win; otherwise `` and `` separates names, and a comma inside each
    part is read BibTeX-style (``Last, First``) only when every part has exactly
    one comma; otherwise commas separate names too (a lone ``"Smith, John"`` is one name).
    """
    value = clean(value)
    if ";" in value:
        parts = value.split(";")
    else:
        parts = re.split(r"\s+and\s+", value)
        commas = [p.count(",") for p in parts]
        if all(c == 1 for c in commas) and (len(parts) > 1 or _inverted(parts[0])):
            parts = [" ".join(reversed([s.strip() for s in p.split(",")])) for p in parts]
        elif any(commas):
            parts = [s for p in parts for s in p.split(",")]
    names = (" ".join(p.split()) for p in parts)
    return tuple(text.render(n) if "\\" in n or "{" in n else n for n in names if n)


def _inverted(name: str) -> bool:
    """True for ``"Smith, John"`` (one name inverted), not ``"Alice Smith, Bob Jones"``."""
    last, _, first = name.partition(",")
    return (
        len(last.split()) <= 3
        and len(first.split()) <= 3
        and not (len(last.split()) > 1 and len(first.split()) > 1)
    )


_string = partial(fields.text, wrong=RecordError)
"""The text of the first of the keys present; a field of another type makes the record bad."""


def _names(data: dict[str, Any], key: str) -> tuple[str, ...]:
    """A list of names: a JSON list of strings (or of ``{"name": ...}``) or one string."""
    value = data.get(key)
    if value is None:
        return ()
    if isinstance(value, str):
        return split_people(value)
    if not isinstance(value, list):
        raise RecordError(f"field {key!r} is neither a list nor text")
    out = []
    for item in value:
        if isinstance(item, dict):
            item = item.get("name") or " ".join(
                str(item.get(k, "")) for k in ("given", "family") if item.get(k)
            )
        if not isinstance(item, str):
            raise RecordError(f"field {key!r} holds a non-text item")
        if clean(item):
            out.append(" ".join(clean(item).split()))
    return tuple(out)


def _events(data: dict[str, Any]) -> tuple[Event, ...]:
    """The ``events`` list of a dump record (poster session, talk); malformed items are dropped."""
    return tuple(
        Event(
            item["kind"],
            event_id=event_id_of(item.get("event_id")),
            **{k: fields.text(item, k) for k in _EVENT_TEXTS},
        )
        for item in fields.records(data, "events", first=16)
        if item.get("kind") in ("poster", "oral")
    )


_EVENT_TEXTS = ("session", "starts_at", "ends_at", "room", "poster_position")


def _ids(data: dict[str, Any]) -> tuple[str, ...]:
    """The ids a record declares: ``id``, ``paper_id`` and the ``aliases`` list."""
    ids = (fields.text(data, "id"), fields.text(data, "paper_id"), *fields.texts(data, "aliases"))
    return tuple(dict.fromkeys(i for i in ids if i and len(i) <= MAX_ID_CHARS))


def _foreign(data: dict[str, Any]) -> bool:
    """A dumped paper of another venue (id ``neurips2025:1``): not a row of the table's."""
    return ":" in str(data.get("id") or "")


def record_from_json(data: Any, file: str, position: int) -> PaperRecord:
    """One JSON object as a record; raises :class:`RecordError` when it is unusable.

    Accepted fields: ``title`` (``title_raw`` preferred, ignored when
    ``title_derived`` is true), ``abstract`` (``abstract_raw`` preferred),
    ``authors``/``author``, ``institutions``, ``url``, ``openreview``/
    ``openreview_url``, ``paper_url`` (OpenReview if it points there, else the
    page), ``pdf``, ``code``/``code_url``/``code_urls``, ``topic``, ``decision``,
    ``session``, ``starts_at``/``ends_at``, ``oral``, ``spotlight``, ``event_id``.
    """
    if file == JOINS_FILE or (isinstance(data, dict) and data.get("apart") is True):
        return _join_record(data, file, position)
    found = fields.record(data)
    if found is None:
        raise RecordError("not an object")
    data = fields.lower_keys(found)
    title = "" if data.get("title_derived") is True else _string(data, "title_raw", "title")
    abstract = _string(data, "abstract_raw", "abstract", "summary")
    if not title and not abstract:
        raise RecordError("no title and no abstract")
    paper_url = _string(data, "paper_url")
    openreview = _string(data, "openreview_url", "openreview")
    if not openreview and "openreview.net" in paper_url:
        openreview, paper_url = paper_url, ""
    decision = _string(data, "decision")
    paper = Paper(
        id="",
        title="",
        title_raw=title,
        abstract_raw=abstract,
        authors=_names(data, "authors") or _names(data, "author"),
        institutions=_names(data, "institutions"),
        topic=_string(data, "topic"),
        decision=decision,
        session=_string(data, "session"),
        starts_at=_string(data, "starts_at", "starttime"),
        ends_at=_string(data, "ends_at", "endtime"),
        url=_string(data, "url") or paper_url or _string(data, "pdf", "pdf_url"),
        openreview_url=openreview,
        code_urls=fields.texts(data, "code_urls", "code_url", "code"),
        oral=data.get("oral") is True,
        spotlight=data.get("spotlight") is True or decision.lower() == "accept (spotlight)",
        event_id=event_id_of(data.get("event_id")) if title and not _foreign(data) else None,
        aliases=_ids(data),
        events=_events(data) if title else (),
        venue=_string(data, "venue") if title else "",
        possibly_same_as=fields.texts(data, "possibly_same_as"),
    )
    return PaperRecord(file, position, paper)


def _join_record(data: Any, file: str, position: int) -> PaperRecord:
    """A line of the joins file, or a separation anywhere (:mod:`.join_lines` reads it)."""
    try:
        stated: JoinLine = join_line(data)
    except NotAJoin as exc:
        raise RecordError(str(exc)) from None
    title = clean(stated.title)
    if stated.apart:
        paper = Paper("", "", title_raw=title, event_id=stated.event_id,
                      aliases=stated.abstract_ids)  # fmt: skip
        return PaperRecord(file, position, paper, apart=True)
    paper = Paper("", "", title_raw=title, abstract_raw=clean(stated.abstract),
                  event_id=stated.event_id)  # fmt: skip
    return PaperRecord(file, position, paper, hand=True)
