"""The library: Zotero's three export formats read alike, kept in the reading list's
file (schema v3, migrated from v2), and matched against catalogue papers."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from index_builder.model import Paper
from index_builder.readinglist import library_files
from index_builder.readinglist.dismissed import Dismissals
from index_builder.readinglist.identify import APPLICATION_ID
from index_builder.readinglist.library import Library
from index_builder.readinglist.library_entry import LibraryEntry
from index_builder.readinglist.library_files import LibraryFormatError, read_library
from index_builder.readinglist.library_match import match_library
from index_builder.readinglist.migrations import MIGRATIONS
from index_builder.readinglist.store import ReadingList
from tests.helpers.library_files import ATTENTION, RUBRIC, TVI_COT, Item, bibtex, csl_json, ris

WRITERS = {"zotero.bib": bibtex, "zotero.ris": ris, "zotero.json": csl_json}


def _write(tmp_path: Path, name: str, text: str, encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_each_zotero_format_reads_the_same_entries(tmp_path: Path, name: str) -> None:
    read = read_library(_write(tmp_path, name, WRITERS[name]([ATTENTION, TVI_COT, RUBRIC])))
    assert read.problems == []
    by_key = {e.key: e for e in read.entries}
    assert set(by_key) == {
        "arxiv:1706.03762",
        "openreview:O4PweOea13",
        "title:rubricrobustness a simple framework for evaluating the robustness of rubrics "
        "based benchmarks",
    }
    attention = by_key["arxiv:1706.03762"]
    assert attention.title == "Attention Is All You Need"  # Zotero's {Is} braces gone
    assert attention.authors == ("Ashish Vaswani", "Noam Shazeer")
    assert attention.doi == "10.48550/arxiv.1706.03762" and attention.year == "2017"
    assert attention.abstract.startswith("The dominant sequence")
    assert by_key["openreview:O4PweOea13"].abstract == ""  # exported without abstracts


def test_formats_are_told_by_content_too(tmp_path: Path) -> None:
    for name, write in WRITERS.items():
        read = read_library(_write(tmp_path, name.replace(".", "_") + ".txt", write([ATTENTION])))
        assert [e.key for e in read.entries] == ["arxiv:1706.03762"], name


def test_mendeley_and_jabref_arxiv_fields(tmp_path: Path) -> None:
    text = (
        "@article{a, title = {Mendeley's}, author = {Doe, Jane}, arxivId = {2401.01234},"
        " year = {2024}}\n"
        "@article{b, title = {JabRef's}, author = {Roe, Rick}, eprint = {2402.05678},"
        " archivePrefix = {arXiv}, year = {2024}}\n"
    )
    read = read_library(_write(tmp_path, "lib.bib", text))
    assert {e.key for e in read.entries} == {"arxiv:2401.01234", "arxiv:2402.05678"}


def test_wrong_format_is_one_line(tmp_path: Path) -> None:
    for name, text in (("notes.txt", "just some notes\nabout papers\n"),
                       ("table.csv", "title,authors\nA,B\n")):  # fmt: skip
        with pytest.raises(LibraryFormatError) as caught:
            read_library(_write(tmp_path, name, text))
        assert "not a library export" in str(caught.value)
        assert "\n" not in str(caught.value)
    with pytest.raises(LibraryFormatError, match="not valid JSON"):
        read_library(_write(tmp_path, "broken.json", '[{"title": '))


def test_untitled_malformed_and_duplicates_are_counted_the_rest_kept(tmp_path: Path) -> None:
    twin = replace(ATTENTION, key="other_key", abstract="")
    text = bibtex([ATTENTION, TVI_COT, twin])
    text += "\n@article{untitled_2020,\n\tauthor = {Nobody, A.},\n\tyear = {2020},\n}\n"
    text += "\n@article{broken, title = {Unclosed\n"
    read = read_library(_write(tmp_path, "lib.bib", text))
    assert sorted(e.key for e in read.entries) == ["arxiv:1706.03762", "openreview:O4PweOea13"]
    kept = next(e for e in read.entries if e.arxiv)
    assert kept.abstract  # the copy that says more
    assert read.problems == [
        "1 entry without a title skipped",
        "1 malformed entry skipped",
        "1 duplicate entry (same DOI, arXiv id or title) kept once",
    ]


def test_csl_fields_of_the_wrong_shape_read_as_absent(tmp_path: Path) -> None:
    items = [
        {"title": "Dated oddly", "issued": {"date-parts": {"0": [2024]}}, "author": "Ann Lee"},
        {"title": True, "author": [{"literal": "Bo Chen"}]},
        {"title": "Dated", "issued": {"date-parts": [[2023, 5]]}, "author": [{"family": "Lee"}]},
    ]
    read = read_library(_write(tmp_path, "odd.json", json.dumps(items)))
    assert [(e.title, e.year, e.authors) for e in read.entries] == [
        ("Dated oddly", "", ()),
        ("Dated", "2023", ("Lee",)),
    ]
    assert read.problems == ["1 entry without a title skipped"]


def test_non_utf8_file_is_read_and_said(tmp_path: Path) -> None:
    item = Item("m", "Apprentissage profond à grande échelle", (("Müller", "Zoë"),))
    read = read_library(_write(tmp_path, "latin.bib", bibtex([item]), "cp1252"))
    assert read.entries[0].title == "Apprentissage profond à grande échelle"
    assert read.entries[0].authors == ("Zoë Müller",)
    assert read.problems == ["not UTF-8; read as cp1252, some characters may be wrong"]


def test_bibtex_is_read_in_blocks_without_losing_an_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large export is parsed a block at a time; entries across every cut are all kept."""
    items = [Item(f"k{n}", f"Paper number {n} on topic", (("Doe", "Jane"),)) for n in range(300)]
    monkeypatch.setattr(library_files, "BIB_BLOCK_CHARS", 1000)
    read = read_library(_write(tmp_path, "big.bib", bibtex(items)))
    assert len(read.entries) == 300 and read.problems == []


def _v2_file(path: Path) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    for version in (1, 2):
        MIGRATIONS[version](conn)
    conn.execute("PRAGMA user_version = 2")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(
        "INSERT INTO bookmarks (paper_id, added_at, updated_at, title) "
        "VALUES ('64393', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'TVI-CoT')"
    )
    conn.execute("INSERT INTO dismissed VALUES ('65214', '2026-01-02T00:00:00Z')")
    conn.close()


def test_v2_list_gains_library_and_watches_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "reading_list.sqlite3"
    _v2_file(path)
    with ReadingList(path) as store:
        assert store.ids() == frozenset({"64393"})
        assert Dismissals(store).ids() == frozenset({"65214"})
        library = Library(store)
        assert library.entries() == []
        assert library.add([ATTENTION_ENTRY, TITLE_ENTRY]) == (2, 0)
        assert library.add([replace(ATTENTION_ENTRY, abstract="")]) == (0, 1)
    with ReadingList(path) as store:
        entries = Library(store).entries()
        assert [e.key for e in entries] == [ATTENTION_ENTRY.key, TITLE_ENTRY.key]
        assert entries[0].abstract == ATTENTION_ENTRY.abstract  # not lost to a poorer copy
        assert Library(store).remove([TITLE_ENTRY.key]) == 1
        assert Library(store).clear() == 1
        assert store.ids() == frozenset({"64393"})  # the bookmarks stay


ATTENTION_ENTRY = LibraryEntry(
    "Attention Is All You Need", ("Ashish Vaswani",), "Abstract.", arxiv="1706.03762"
)
TITLE_ENTRY = LibraryEntry("Zeta: A Study", ("Jane Q. Doe",))


def test_matching_by_ids_and_by_title_with_a_shared_author() -> None:
    papers = [
        Paper("p1", "Attention is all you need", authors=("A. Vaswani",),
              url="https://arxiv.org/abs/1706.03762v5"),
        Paper("p2", "Unrelated", openreview_url="https://openreview.net/forum?id=O4PweOea13"),
        Paper("p3", "ZETA: a study", authors=("Jane Doe", "Max Roe")),
        Paper("p4", "Zeta: A Study", authors=("Someone Else",)),  # same title, nobody shared
        Paper("p5", "Another", url="https://doi.org/10.1145/12345.678"),
    ]  # fmt: skip
    entries = [
        ATTENTION_ENTRY,
        LibraryEntry("Whatever title", openreview="O4PweOea13"),
        TITLE_ENTRY,
        LibraryEntry("Another paper", doi="10.1145/12345.678"),
        LibraryEntry("Not in the catalogue", ("Nobody Here",)),
    ]
    match = match_library(papers, entries)
    assert match.paper_ids == frozenset({"p1", "p2", "p3", "p5"})
    assert match.rows == (0, 1, 2, 4)
    assert [e.title for e in match.outside] == ["Not in the catalogue"]
    assert match_library(papers, []).paper_ids == frozenset()
