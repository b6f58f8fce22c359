"""The user's own files in the catalogue: exact-title joins, stable ids, CLI round trips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import index_builder.catalogue.load as catalogue_module
from index_builder.catalogue.load import Catalogue, load_catalogue
from index_builder.catalogue.merge import abstract_id
from index_builder.paths import bundled_sources
from index_builder.sources.records import title_id
from tests.helpers.catalogue_builds import from_nothing
from tests.helpers.catalogue_data import TABLE
from tests.helpers.formats_data import BIB, SMALL_TABLE, by_title, paperscope, write
from tests.helpers.shared_builds import home_paths


def bundled_with_bib() -> Catalogue:
    """The bundled data plus the PMLR-like bib, built from nothing once per run for every
    worker (``from_nothing``: the module's tests are spread over the workers, and each
    built it again, ~1 s of CPU; read it, never change it)."""
    return from_nothing([*bundled_sources(), BIB])


# --- merging -------------------------------------------------------------------------------


def test_a_bib_entry_with_a_table_title_joins_that_row(bundled_catalogue: Catalogue) -> None:
    cat, bundled = bundled_with_bib(), bundled_catalogue
    paper, before = cat.get("63090"), bundled.get("63090")
    assert paper is not None and before is not None and before.abstract == ""
    assert paper.abstract.startswith("Fixture abstract. Multi-turn")
    assert paper.authors == before.authors and len(paper.authors) == 10, "the table wins"
    assert paper.title == before.title and not paper.title_derived
    assert paper.sources == ("icml2026_events.csv", "formats_pmlr.bib:1")
    assert "https://github.com/example/t2po" in paper.code_urls
    assert cat.get(abstract_id(paper.abstract_raw)) is paper
    assert len(cat) == len(bundled) + 2 and cat.problems == ()


def test_other_bib_entries_are_papers_with_their_real_titles() -> None:
    cat = bundled_with_bib()
    (koopman,) = by_title(cat, "Sparse Koopman Operators")
    assert koopman.title == "Sparse Koopman Operators for Streaming Control under 𝒪(n) Memory"
    assert not koopman.title_derived and koopman.event_id is None
    assert koopman.id == abstract_id(koopman.abstract_raw)
    assert koopman.authors[0] == "Jörg Müller" and "50% saving" in koopman.abstract
    assert koopman.sources == ("formats_pmlr.bib:2",)
    (near,) = by_title(cat, "TVI-CoT: Robust")
    assert near.event_id is None and near.authors == ("Lianyu Hu", "Xiaoyu Ma")
    row = cat.get("64393")
    assert row is not None and row.abstract == "", "one word off is not the same title"


def test_ids_do_not_move_with_file_order_or_without_the_table() -> None:
    again = load_catalogue([BIB, *reversed(bundled_sources())])
    assert [p.id for p in again] == [p.id for p in bundled_with_bib()]
    alone = load_catalogue([BIB])
    ids = {p.title[:20]: p.id for p in alone}
    assert ids["Sparse Koopman Opera"] == by_title(bundled_with_bib(), "Sparse Koopman")[0].id
    assert len(alone) == 3 and all(not p.title_derived for p in alone)


def test_a_titled_record_outranks_the_list_abstract_of_its_row(
    tmp_path: Path, bundled_catalogue: Catalogue, warm_cache_copy: Path
) -> None:
    bundled = bundled_catalogue
    row = bundled.get("62850")
    assert row is not None and row.abstract_raw
    record = {"title": row.title_raw, "abstract": "Fixture: the camera-ready abstract."}
    extra = write(tmp_path, "camera.json", json.dumps([record]))
    cat = load_catalogue([*bundled_sources(), extra], cache_dir=warm_cache_copy)
    paper = cat.get("62850")
    assert paper is not None and paper.abstract == "Fixture: the camera-ready abstract."
    assert cat.get(row.aliases[0]) is paper, "the list abstract is folded in, not a duplicate"
    assert "camera.json:1" in paper.sources and "000_579088213901f7bb.txt:1" in paper.sources
    assert len(cat) == len(bundled)


def test_a_list_abstract_in_a_differently_titled_record_keeps_its_join(
    tmp_path: Path, bundled_catalogue: Catalogue, warm_cache_copy: Path
) -> None:
    bundled = bundled_catalogue
    row = bundled.get("62850")
    assert row is not None
    record = {"title": "Another Title Entirely", "abstract": row.abstract_raw}
    extra = write(tmp_path, "x.jsonl", json.dumps(record))
    cat = load_catalogue([*bundled_sources(), extra], cache_dir=warm_cache_copy)
    paper = cat.get("62850")
    assert paper is not None and paper.abstract_raw == row.abstract_raw
    assert "x.jsonl:1" in paper.sources and len(cat) == len(bundled)


def test_title_only_records(tmp_path: Path) -> None:
    rows = [
        {"title": "TVI-CoT: Text-Visual Interleaved Chain-of-Thought Reasoning for Multimodal "
                  "Understanding", "id": "old-id"},
        {"title": "A Paper Nobody Has Heard Of", "authors": ["A B"], "paper_id": "17"},
        {"title": "Derived, so ignored", "title_derived": True, "paper_id": "a0000000000"},
    ]  # fmt: skip
    extra = write(tmp_path, "list.json", json.dumps({"bookmarks": rows}))
    cat = load_catalogue([TABLE, extra])
    assert len(cat) == 6628 + 1
    assert cat.get("old-id") is cat.get("64393") and "list.json:1" in cat.get("64393").sources  # type: ignore[union-attr]
    alone = cat.get(title_id("A Paper Nobody Has Heard Of"))
    assert alone is not None and alone.authors == ("A B",) and cat.get("17") is alone
    assert [p.message for p in cat.problems] == [
        "1 of 3 records skipped (1 no title and no abstract)"
    ]


def test_a_record_abstract_equal_to_a_list_abstract_is_one_paper(tmp_path: Path) -> None:
    text = "We propose FooNet, a network that foos. It foos twice as fast as the baseline."
    listing = write(tmp_path, "001_list.txt", "Header\n\n" + text + "\n")
    titled = write(tmp_path, "mine.json", json.dumps([{"title": "FooNet", "abstract": text}]))
    cat = load_catalogue([listing, titled])
    (paper,) = cat.papers
    assert paper.title == "FooNet" and not paper.title_derived and paper.id == abstract_id(text)
    assert paper.sources == ("001_list.txt:1", "mine.json:1")


def test_a_placeholder_abstract_does_not_merge_different_papers(tmp_path: Path) -> None:
    entries = "".join(
        f"@inproceedings{{k{n}, title = {{{title}}}, abstract = {{Abstract not available.}}}}\n"
        for n, title in enumerate(["First Paper", "Second Paper", "Second Paper"])
    )
    cat = load_catalogue([write(tmp_path, "placeholders.bib", entries)])
    assert sorted(p.title for p in cat) == ["First Paper", "Second Paper"]
    assert {p.id for p in cat} == {title_id("First Paper"), title_id("Second Paper")}
    (second,) = by_title(cat, "Second")
    assert second.sources == ("placeholders.bib:2", "placeholders.bib:3")


# --- round trips through the real command line and cache freshness -------------------------


@pytest.mark.slow
def test_dump_round_trip_through_the_cli(
    warm_home_copy: Path, tmp_path: Path, bundled_catalogue: Catalogue
) -> None:
    home = warm_home_copy  # the bundled catalogue cached: only the dump's own loads build
    first = paperscope("dump", "--format", "jsonl", home=home).stdout
    dump = write(tmp_path, "dump.jsonl", first)
    again = paperscope("--no-bundled", "--source", str(dump), "dump", "--format", "jsonl",
                       home=home)  # fmt: skip
    both = paperscope("--source", str(dump), "dump", "--format", "jsonl", home=home)
    before = [json.loads(line) for line in first.splitlines()]
    assert len(before) == len(bundled_catalogue)
    for run in (again, both):
        after = [json.loads(line) for line in run.stdout.splitlines()]
        assert run.stderr == ""
        assert [p["id"] for p in after] == [p["id"] for p in before]
        for old, new in zip(before, after, strict=True):
            assert {**old, "sources": []} == {**new, "sources": []}
    assert json.loads(again.stdout.splitlines()[0])["sources"] == ["dump.jsonl:1"]


def test_reading_list_export_loads_back(
    warm_home_copy: Path, tmp_path: Path, bundled_catalogue: Catalogue
) -> None:
    home = warm_home_copy  # the bundled catalogue cached: the commands do not build it
    paperscope("reading-list", "add", "63090", "64393", home=home)
    out = tmp_path / "list.json"
    paperscope("reading-list", "export", "--format", "json", "-o", str(out), home=home)
    cat = load_catalogue([out])
    assert sorted(p.title[:7] for p in cat) == ["TVI-CoT", "T²PO: U"]
    assert cat.get("63090") is not None and cat.get("64393") is not None, "ids kept as aliases"
    # Through the home's caches (the bundled sources' parsing and rankings kept there).
    both = load_catalogue([*bundled_sources(), out], cache_dir=home_paths(home).cache_dir)
    assert len(both) == len(bundled_catalogue)


def test_the_fingerprint_follows_the_version_and_sources_not_the_code(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    source = tmp_path / "table.csv"
    source.write_bytes(SMALL_TABLE.read_bytes())
    first = load_catalogue([source]).fingerprint
    assert load_catalogue([source]).fingerprint == first
    monkeypatch.setattr(
        catalogue_module, "CATALOGUE_VERSION", catalogue_module.CATALOGUE_VERSION + 1
    )
    assert load_catalogue([source]).fingerprint != first
    monkeypatch.undo()
    source.write_bytes(SMALL_TABLE.read_bytes() + b"\n")
    assert load_catalogue([source]).fingerprint != first
    assert not hasattr(catalogue_module, "_CODE_MODULES")  # versions, not code digests
