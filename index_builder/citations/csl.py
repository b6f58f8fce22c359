"""CSL-JSON, the data format of citeproc processors, Zotero, Mendeley and pandoc.

    csl_item(reference(paper, key))        # -> {"id": ..., "type": "paper-conference", ...}
    to_csl_json([ref, ...])                # -> a JSON array, one item per paper

Field names follow the CSL 1.0.2 specification's variables: ``title``, ``author``
(``{family, given}``, a lower-case particle as ``non-dropping-particle``, a one-word
name as a family name alone), ``issued`` (``date-parts``), ``container-title`` (the
proceedings), ``event-title`` (the conference), ``event-place``, ``URL``, ``DOI``,
``abstract``, ``note`` (the user's note) and ``keyword`` (the tags, comma-separated).
A paper without a venue is an ``article`` with no container or date. Text is plain:
nothing is escaped, so ``&`` and ``%`` stay as they are.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from index_builder.citations.exchange import Reference, particle_split
from index_builder.citations.keys import PersonName


def csl_name(person: PersonName) -> dict[str, str]:
    """One author as a CSL name object."""
    particle, family = particle_split(person.family)
    name = {"family": family}
    if given := " ".join(person.given):
        name["given"] = given
    if particle:
        name["non-dropping-particle"] = particle
    if person.suffix:
        name["suffix"] = person.suffix
    return name


def csl_item(ref: Reference) -> dict[str, Any]:
    """The CSL-JSON object of one reference; fields that are not known are left out."""
    item: dict[str, Any] = {
        "id": ref.key,
        "type": "paper-conference" if ref.in_proceedings else "article",
        "title": ref.title,
    }
    if ref.people:
        item["author"] = [csl_name(p) for p in ref.people]
    if ref.year:
        item["issued"] = {"date-parts": [[int(ref.year)]]}
    optional = (
        ("container-title", ref.proceedings),
        ("event-title", ref.conference),
        ("event-place", ref.place),
        ("URL", ref.url),
        ("DOI", ref.doi),
        ("abstract", ref.abstract),
        ("note", ref.note),
        ("keyword", ", ".join(ref.tags)),
    )
    item.update((name, value) for name, value in optional if value)
    return item


def to_csl_json(refs: Iterable[Reference]) -> str:
    """A CSL-JSON document (an array of items), indented, UTF-8 characters kept."""
    return json.dumps([csl_item(r) for r in refs], ensure_ascii=False, indent=2) + "\n"
