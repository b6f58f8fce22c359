"""The user's own JSON, JSONL and BibTeX files: parsing, hostile files, bad records."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index_builder.catalogue.load import load_catalogue
from index_builder.sources.reading import read_source
from index_builder.sources.records import split_people, title_id, title_key
from index_builder.sources.structured import FormatError, bib_names, parse
from tests.helpers.formats_data import BIB, HOSTILE_BIB, PAPERS_JSON, SMALL_TABLE, write

# --- parsing -------------------------------------------------------------------------------


def test_pmlr_bib_entries_are_read_with_names_and_links() -> None:
    records, problems = parse(BIB, BIB.read_text(encoding="utf-8")) or ([], [])
    assert problems == [] and [r.position for r in records] == [1, 2, 3]
    first, second, _ = (r.paper for r in records)
    assert first.title_raw.startswith("{T}$^2${PO}: Uncertainty-Guided")
    assert first.authors == ("Haixin Wang", "Hejie Cui", "Chenwei Zhang")
    assert first.url == "https://proceedings.mlr.press/v300/wang26a.html"
    assert second.authors == ("Jörg Müller", "Anna van der Berg", "John Smith Jr.",
                              "Barnes and Noble Research")  # fmt: skip
    assert second.url.endswith("muller26b.pdf"), "the pdf stands in for a missing url"
    assert second.openreview_url == "https://openreview.net/forum?id=FixtureKoop"
    assert records[2].source == "formats_pmlr.bib:3"


@pytest.mark.parametrize(
    ("value", "names"),
    [
        ("Ada Lovelace; Charles Babbage", ("Ada Lovelace", "Charles Babbage")),
        ("Grace Hopper and Alan Turing", ("Grace Hopper", "Alan Turing")),
        ("Hopper, Grace and Turing, Alan", ("Grace Hopper", "Alan Turing")),
        ("Alice Smith, Bob Jones and Carol White", ("Alice Smith", "Bob Jones", "Carol White")),
        ("Alice Smith, Bob Jones", ("Alice Smith", "Bob Jones")),
        ("Smith, John", ("John Smith",)),
        ("Alexander Andersen", ("Alexander Andersen",)),
        (r"J{\"o}rg M{\"u}ller; Ren{\'e} Roe", ("Jörg Müller", "René Roe")),
    ],
)
def test_author_strings(value: str, names: tuple[str, ...]) -> None:
    assert split_people(value) == names


def test_bib_proceedings_name_the_venue_only_when_known(tmp_path: Path) -> None:
    from index_builder.citations.styles import cite

    pmlr = load_catalogue([BIB])
    assert {p.venue for p in pmlr} == {"ICML 2026"}
    entry = cite(next(iter(pmlr)), "bibtex")
    assert entry.startswith("@inproceedings") and "43rd International Conference" in entry
    other = write(tmp_path, "ws.bib", BIB.read_text().replace("43rd International", "Workshop"))
    [paper, *_] = load_catalogue([other])
    assert paper.venue == "" and cite(paper, "bibtex").startswith("@misc")


def test_bibtex_names() -> None:
    raw = (
        r"Erd\H{o}s, P{\'a}l and \v{C}ech, Eduard and G{\"{o}}del, Kurt and {\L}ukasz, K and others"
    )
    assert bib_names(raw) == ("Pál Erdős", "Eduard Čech", "Kurt Gödel", "K Łukasz")
    assert bib_names("{Barnes and Noble} and Doe, Jane") == ("Barnes and Noble", "Jane Doe")
    assert bib_names("") == ()


def test_json_fields_and_spellings() -> None:
    records, problems = parse(PAPERS_JSON, PAPERS_JSON.read_text(encoding="utf-8")) or ([], [])
    assert [r.position for r in records] == [1, 2, 3, 4, 5, 6]
    papers = [r.paper for r in records]
    assert papers[0].openreview_url == "https://openreview.net/forum?id=Loom1"
    assert papers[0].code_urls == ("https://github.com/example/loom",)
    assert papers[0].topic == "Theory" and papers[1].url == "https://example.org/paper2"
    assert papers[2].authors == ("Grace Hopper", "Alan Turing")
    assert papers[4].authors == ("Emmy Noether", "Sofia Kovalevskaya")
    assert papers[5].title_raw == "" and papers[5].abstract_raw.startswith("An abstract without")
    assert len(problems) == 1 and not problems[0].fatal
    assert problems[0].message.startswith("3 of 9 records skipped")


def test_title_key_is_exact_but_ignores_form() -> None:
    assert title_key(r"{T}$^2${PO}: A {\"U}ber--Test") == title_key("T$^2$PO - a Über Test")
    assert title_key("Learning, Fast!") == title_key("learning fast")
    assert title_key("Learning Fast") != title_key("Learning Faster")
    assert title_id("Learning, Fast!") == title_id("learning fast")
    assert title_id("x").startswith("b") and len(title_id("x")) == 11


# --- bad files and bad records -------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("bad.json", '[{"title": "x"', "not valid JSON"),
        ("deep.json", "[" * 100_000 + "]" * 100_000, "not valid JSON"),
        ("huge.json", '[{"title": "x", "event_id": ' + "9" * 5000 + "}]", "not valid JSON"),
        ("shape.json", '{"something": []}', "without a list of papers"),
        ("string.json", '"just a string"', "neither a list"),
        ("useless.json", '[1, 2, {"note": "x"}]', "no usable paper"),
        ("empty.jsonl", "\n\n", "no JSON lines"),
        ("junk.jsonl", "not json\nnor this\n", "no line is valid JSON"),
        ("none.bib", "% only a comment\n", "no BibTeX entries"),
        ("braces.bib", "{" * 5000, "no BibTeX entries"),
        ("broken.bib", "@article{x, title = {never closed\n", "no usable paper"),
    ],
    ids=lambda value: value[:12] if isinstance(value, str) else None,
)
def test_a_malformed_file_is_named_and_skipped(
    tmp_path: Path, name: str, content: str, reason: str
) -> None:
    bad = write(tmp_path, name, content)
    cat = load_catalogue([SMALL_TABLE, bad])
    (problem,) = [p for p in cat.problems if p.fatal]
    assert problem.path == str(bad) and reason in problem.message
    assert len(cat) > 0 and cat.loaded_sources == (SMALL_TABLE,)


def test_bad_records_in_a_good_file_are_counted(tmp_path: Path) -> None:
    lines = ['{"title": "One"}', "{broken", "", '{"title": "Two", "authors": 5}', '["list"]']
    path = write(tmp_path, "some.jsonl", "\n".join(lines))
    data = read_source(path, path.read_bytes())
    assert [r.paper.title_raw for r in data.records] == ["One"]
    (problem,) = data.problems
    assert not problem.fatal and problem.message.startswith("3 of 4 records skipped")
    assert "1 not valid JSON" in problem.message


def test_hostile_bib_keeps_the_good_entries_quietly(capfd: pytest.CaptureFixture[str]) -> None:
    data = read_source(HOSTILE_BIB, HOSTILE_BIB.read_bytes())
    titles = [r.paper.title_raw for r in data.records]
    assert titles[:2] == ["First {Good} Entry", "Second Good Entry"]
    assert "A Duplicate Key" in titles, "a duplicate key is still an entry"
    assert [p.message for p in data.problems] == [
        "2 of 6 records skipped (1 malformed entry; 1 no title and no abstract)"
    ]
    cat = load_catalogue([HOSTILE_BIB])
    assert all(p.abstract == "" or "\\" not in p.abstract for p in cat)
    assert capfd.readouterr().err == "", "the parser's warnings must not reach the terminal"


def test_lone_surrogates_and_controls_load(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "odd.json",
        r'[{"title": "Bad \ud800 surrogate\u001b[31m", "abstract": "x\u0000y"}]',
    )
    cat = load_catalogue([path])
    (paper,) = cat.papers
    assert "\ufffd" in paper.title and paper.title.encode("utf-8")


def test_formats_are_recognised_by_content(tmp_path: Path) -> None:
    as_text = write(tmp_path, "papers.txt", '[{"title": "In a txt file"}]')
    assert [r.paper.title_raw for r in read_source(as_text, as_text.read_bytes()).records] == [
        "In a txt file"
    ]
    bracket = write(tmp_path, "002_x.txt", "[ICML] abstracts\n\nFirst abstract here.\n")
    assert [e.text for e in read_source(bracket, bracket.read_bytes()).abstracts] == [
        "First abstract here."
    ]
    bib = write(tmp_path, "refs", "% refs\n@misc{k, title = {No Suffix}}\n")
    assert [r.paper.title_raw for r in read_source(bib, bib.read_bytes()).records] == ["No Suffix"]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["x.json", "x.jsonl", "x.bib", "x.txt"]),
    st.text(alphabet=st.sampled_from('@{}[]",:\\%=\n abtiler1{}\ud800'), max_size=200),
)
def test_no_text_breaks_the_readers(name: str, content: str) -> None:
    try:
        parsed = parse(Path(name), content)
    except FormatError as exc:
        assert str(exc)
        return
    for record in parsed[0] if parsed else []:
        paper = record.paper
        assert (paper.title_raw or paper.abstract_raw) and record.position >= 1
        (paper.title_raw + paper.abstract_raw + "".join(paper.authors)).encode("utf-8")
