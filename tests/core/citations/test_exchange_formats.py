"""RIS and CSL-JSON read back by real readers: rispy, jsonschema, citeproc-py.

The CSL-JSON schema is ``tests/fixtures/csl_data_schema.json``, written from the CSL
1.0.2 specification's variable list (see its README: no installable package ships the
current ``csl-data.json``); citeproc-py reads the same data and renders it with the
style it ships, so a field it cannot read fails there as well.
"""

from __future__ import annotations

import io
import json
import warnings
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import rispy
from citeproc import (
    Citation,
    CitationItem,
    CitationStylesBibliography,
    CitationStylesStyle,
    formatter,
)
from citeproc.source.json import CiteProcJSON

from index_builder.citations.documents import cite, exchange_text
from index_builder.citations.exchange import Reference, reference
from index_builder.citations.keys import CitationKeys, split_name
from index_builder.model import Paper

SCHEMA = Path(__file__).parents[2] / "fixtures" / "csl_data_schema.json"
ICML = "ICML 2026"
HARD = (
    Paper("p1", "Stochastic & Robust %-Quantiles", authors=("Mihaela van der Schaar",),
          venue=ICML, openreview_url="https://openreview.net/forum?id=a1"),
    Paper("p2", "μP for Transformers", title_raw="$\\mu P$ for Transformers",
          authors=("Plato", "José Martínez-Ñúñez", "Ludwig van Beethoven Jr")),
    Paper("p3", "A paper with no authors and no venue"),
    Paper("p4", "Seeing clearly", authors=("Zoë Ünal", "Jean-François de la Fontaine"),
          venue=ICML, abstract="First line.\nSecond line with $x$ & 50%.",
          title_derived=True),
    Paper("p5", "Escapes\x1b[31m and [bold]markup[/bold]", authors=("David Van Valen",),
          venue="Some Workshop 2024", url="https://doi.org/10.1000/xyz123"),
)  # fmt: skip


@cache
def validator() -> jsonschema.Draft7Validator:
    """The CSL data schema, loaded once, with its references written out in place.

    A draft-7 ``$ref`` stands for the definition it names (the keywords beside it are
    ignored), so the schema validates alike; resolving the references item by item was
    40 % of the validation of the bundled catalogue's 6,630 items.
    """
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    definitions = schema.pop("definitions")

    def inlined(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return inlined(definitions[node["$ref"].removeprefix("#/definitions/")])
            return {key: inlined(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inlined(value) for value in node]
        return node

    return jsonschema.Draft7Validator(inlined(schema))


SCHEMA_WORDS = {
    "$schema",
    "$ref",
    "definitions",
    "description",
    "type",
    "properties",
    "items",
    "additionalProperties",
    "required",
    "enum",
    "minItems",
    "maxItems",
}
"""The keywords of the CSL data schema: none constrains a string's content or a number's
value (no ``pattern``, ``format``, length or bound), and its one ``enum`` is the item's
``type`` (:func:`test_the_schema_judges_an_item_by_its_skeleton`)."""


def skeleton(node: Any, top: bool = True) -> object:
    """What the CSL data schema can see of an item: its keys, each value's JSON type, the
    length of each array, and the value of its ``type`` (the schema's one ``enum``)."""
    if isinstance(node, dict):
        return tuple(sorted(
            (key, value if top and key == "type" else skeleton(value, top=False))
            for key, value in node.items()
        ))  # fmt: skip
    if isinstance(node, list):
        return ("array", tuple(skeleton(value, top=False) for value in node))
    return type(node).__name__


def one_per_skeleton(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first item of each :func:`skeleton`: the schema's verdict on an item depends on
    its skeleton alone (:data:`SCHEMA_WORDS`), so validating these validates every item.
    The bundled catalogue's 6,630 items have ~150 skeletons; validating all of them took
    ~2.5 s of CPU, these ~0.1 s."""
    firsts: dict[object, dict[str, Any]] = {}
    for item in items:
        firsts.setdefault(skeleton(item), item)
    return list(firsts.values())


def rendered(items: list[dict[str, Any]]) -> list[str]:
    """Every item rendered by citeproc-py as a bibliography entry (plain text)."""
    with warnings.catch_warnings():
        # citeproc-py knows CSL 1.0.1: it warns that it ignores 1.0.2's event-title.
        warnings.filterwarnings("ignore", message=".*unsupported: event_title")
        source = CiteProcJSON(items)
        style = CitationStylesStyle("harvard-cite-them-right", validate=False)
        bibliography = CitationStylesBibliography(style, source, formatter.plain)
        for item in items:
            bibliography.register(Citation([CitationItem(item["id"])]))
        return [str(entry) for entry in bibliography.bibliography()]


def check_csl(
    papers: list[Paper],
    text: str,
    render: list[int] | None = None,
    refs: Sequence[Reference] | None = None,
) -> list[dict[str, Any]]:
    """The CSL-JSON ``text`` is valid, holds each paper's title (its reference's: ``refs``
    when given, made again otherwise), and citeproc-py renders the items at ``render``
    (all by default) naming each one's first author."""
    items = json.loads(text)
    errors = [e.message for e in validator().iter_errors(one_per_skeleton(items))]
    assert not errors, errors[:5]
    expected = refs if refs is not None else [reference(p) for p in papers]
    assert [i["title"] for i in items] == [r.title for r in expected]
    chosen = [items[n] for n in (range(len(items)) if render is None else render)]
    out = rendered(chosen)
    assert len(out) == len(chosen)
    for item, entry in zip(chosen, out, strict=True):
        if item.get("author"):
            assert item["author"][0]["family"] in entry
    return items


def hard_kinds(paper: Paper) -> tuple[str, ...]:
    """What in a paper's names or title tests the formats: letters beyond ASCII (in the
    title, in the names), LaTeX in the title, ``&`` or ``%``, a name of one word, a suffix,
    a family name of several words (a particle). Empty for a plain paper."""
    people = [split_name(a) for a in paper.authors]
    marks = {
        "title beyond ASCII": not paper.title_raw.isascii(),
        "names beyond ASCII": not "".join(paper.authors).isascii(),
        "one word": any(not p.given for p in people),
        "suffix": any(p.suffix for p in people),
        "family of words": any(" " in p.family for p in people),
    }
    text = " ".join((paper.title_raw, *paper.authors))
    marks.update({f"{c} written": c in text for c in "&%$\\"})
    return tuple(kind for kind, found in marks.items() if found)


def hard_names(paper: Paper) -> bool:
    """A paper whose names or title test the formats (:func:`hard_kinds`)."""
    return bool(hard_kinds(paper))


def csl_shape(item: dict[str, Any]) -> tuple[object, ...]:
    """A CSL-JSON item's fields and, per author, the name parts it has."""
    return (tuple(sorted(item)), tuple(tuple(sorted(a)) for a in item.get("author", ())))


def check_ris(
    papers: list[Paper], text: str, refs: Sequence[Reference] | None = None
) -> list[dict[str, Any]]:
    """The RIS ``text`` has CRLF lines only and rispy reads every paper back (as its
    reference says: ``refs`` when given, made again otherwise)."""
    assert "\n" not in text.replace("\r\n", "")
    entries = rispy.load(io.StringIO(text.replace("\r\n", "\n")))
    assert len(entries) == len(papers)
    expected = refs if refs is not None else [reference(p) for p in papers]
    for entry, ref in zip(entries, expected, strict=True):
        assert entry["title"] == ref.title
        assert len(entry.get("authors", [])) == len(ref.people)
    return entries


def test_hard_cases_pass_the_readers_with_names_split_as_cited() -> None:
    keys = CitationKeys(HARD)
    refs = [reference(p, keys.key(p.id)) for p in HARD]
    items = check_csl(list(HARD), exchange_text(refs, "csljson"))
    entries = check_ris(list(HARD), exchange_text(refs, "ris"))
    assert items[0]["author"] == [
        {"family": "Schaar", "given": "Mihaela", "non-dropping-particle": "van der"}
    ]
    assert items[0]["title"] == "Stochastic & Robust %-Quantiles"
    assert entries[0]["authors"] == ["van der Schaar, Mihaela"]
    assert items[1]["author"][0] == {"family": "Plato"}
    assert items[1]["author"][2] == {"family": "Beethoven", "given": "Ludwig",
                                     "non-dropping-particle": "van", "suffix": "Jr"}  # fmt: skip
    assert entries[1]["authors"] == ["Plato", "Martínez-Ñúñez, José", "van Beethoven, Ludwig, Jr"]
    assert items[1]["title"] == "μP for Transformers"
    assert items[1]["type"] == "article" and "issued" not in items[1]
    assert entries[1]["type_of_reference"] == "GEN"
    assert "author" not in items[2] and "authors" not in entries[2]
    assert items[3]["title"].startswith("[Untitled; title derived from the abstract")
    assert items[3]["abstract"] == "First line.\nSecond line with $x$ & 50%."
    assert entries[3]["abstract"] == "First line. Second line with $x$ & 50%."
    assert items[3]["event-place"] == "Seoul, South Korea" and entries[3]["place_published"]
    assert items[4]["title"] == "Escapes and [bold]markup[/bold]"
    # One name rule for BibTeX, RIS and CSL: whatever split_name makes of a capitalised
    # particle ("Van Valen"), every format says the same.
    person = split_name("David Van Valen")
    assert items[4]["author"] == [{"family": person.family, "given": " ".join(person.given)}]
    assert entries[4]["authors"] == [f"{person.family}, {' '.join(person.given)}"]
    # BibTeX braces a family name of several words ({Van Valen}) so it is not split again.
    family = f"{{{person.family}}}" if " " in person.family else person.family
    assert f"author = {{{family}, " in cite(HARD[4], "bibtex")
    assert items[4]["DOI"] == entries[4]["doi"] == "10.1000/xyz123"
    assert items[4]["event-title"] == "Some Workshop 2024" and items[4]["issued"]


def test_the_schema_judges_an_item_by_its_skeleton() -> None:
    """Why :func:`one_per_skeleton` validates every item: the schema holds no keyword
    beyond :data:`SCHEMA_WORDS`, its one ``enum`` is the item's ``type``, and an item
    the schema refuses has another skeleton than one it accepts."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    words: set[str] = set()
    enums: list[tuple[str, ...]] = []

    def walk(node: Any, path: tuple[str, ...], named: bool) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if not named:
                    words.add(key)
                    if key == "enum":
                        enums.append(path)
                walk(value, (*path, key), key in ("properties", "definitions") and not named)
        elif isinstance(node, list):
            for value in node:
                walk(value, path, False)

    walk(schema, (), False)
    assert words <= SCHEMA_WORDS, words - SCHEMA_WORDS
    assert enums == [("items", "properties", "type")]
    good: dict[str, Any] = {
        "id": "k",
        "type": "paper-conference",
        "issued": {"date-parts": [[2026]]},
    }
    bad = [
        {**good, "issued": {"date-parts": [[]]}},
        {**good, "type": "talk"},
        {**good, "issued": {"date-parts": [["2026"]], "day": 1}},
        {**good, "id": None},
    ]
    assert not list(validator().iter_errors([good]))
    for item in bad:
        assert list(validator().iter_errors([item])), item
        assert one_per_skeleton([good, item]) == [good, item]


def test_one_paper_as_cite_gives_it() -> None:
    text = cite(HARD[0], "ris", key="k")
    assert text.startswith("TY  - CPAPER\r\nTI  - Stochastic & Robust %-Quantiles\r\n")
    assert text.endswith("ER  - ")
    assert json.loads(cite(HARD[0], "csljson", key="k"))[0]["id"] == "k"


@pytest.fixture(scope="module")
def bundled_refs(bundled_catalogue: Any) -> tuple[list[Paper], list[Reference]]:
    """The bundled papers and their references under the catalogue's keys, made once for
    both formats and their checks (each made them, and each check again: ~0.6 s of CPU
    a time; a reference's title does not depend on its key)."""
    papers = list(bundled_catalogue.papers)
    keys = CitationKeys(papers)
    return papers, [reference(p, keys.key(p.id)) for p in papers]


@pytest.mark.parametrize("fmt", ["csljson", "ris"])
def test_every_bundled_paper_passes_the_readers(
    bundled_refs: tuple[list[Paper], list[Reference]], fmt: str
) -> None:
    papers, refs = bundled_refs
    text = exchange_text(refs, fmt)
    if fmt == "ris":
        entries = check_ris(papers, text, refs)
        kinds = ["CPAPER" if r.in_proceedings else "GEN" for r in refs]
        assert [e["type_of_reference"] for e in entries] == kinds
        assert kinds.count("CPAPER") > 6000
    else:
        # Every item is checked against the schema and by its title; citeproc-py (5-7 ms
        # an item) renders a sample that takes each of its paths: an item's shape (its
        # fields, each author's name parts) chooses the path, and for a hard item what is
        # hard in it (:func:`hard_kinds`) too, the rest of its text does not. So the first
        # item of each shape among the plain ones and of each shape and kinds among the
        # hard ones, then every tenth hard item and every hundredth plain one (the whole
        # catalogue rendered took 5-6 s more of CPU, and no item the sample leaves out
        # takes a path it does not).
        items = json.loads(text)
        firsts: dict[tuple[object, ...], int] = {}
        seen = {True: 0, False: 0}  # hard items and plain ones so far
        every = set()
        for n, p in enumerate(papers):
            kinds = hard_kinds(p)
            firsts.setdefault((csl_shape(items[n]), kinds), n)
            if seen[bool(kinds)] % (10 if kinds else 100) == 0:
                every.add(n)
            seen[bool(kinds)] += 1
        render = sorted(every | set(firsts.values()))
        hard = seen[True]
        items = check_csl(papers, text, render, refs)
        assert len({i["id"] for i in items}) == len(papers)
        assert hard > 800 and len(firsts) > 200 and len(render) > 300


def test_a_reading_list_of_50_with_notes_and_tags(bundled_catalogue: Any, tmp_path: Path) -> None:
    from index_builder.readinglist.exports import export
    from index_builder.readinglist.store import ReadingList

    papers = [p for p in bundled_catalogue.papers if hard_names(p)][:50]
    with ReadingList(tmp_path / "list.sqlite3") as store:
        for n, paper in enumerate(papers):
            store.add(paper)
            store.set_note(paper.id, f"note {n}: read § 3 & 50%\nsecond line [b]x[/b]")
            store.tag(paper.id, ["zotero", f"group {n % 3}"])
        marks = store.all(sort="title")
    shown = [bundled_catalogue.get(b.paper_id) for b in marks]
    kwargs = {"lookup": bundled_catalogue.get, "all_papers": bundled_catalogue.papers}
    items = check_csl(shown, export(marks, "csljson", **kwargs))
    entries = check_ris(shown, export(marks, "ris", **kwargs))
    for bm, item, entry in zip(marks, items, entries, strict=True):
        assert item["note"] == bm.note and item["keyword"] == ", ".join(bm.tags)
        assert entry["notes"] == [bm.note.replace("\n", " / ")]
        assert entry["keywords"] == list(bm.tags)
