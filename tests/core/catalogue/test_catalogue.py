"""The merged catalogue: counts, fields, ids that never move, problems, order and cache."""

from __future__ import annotations

import os
import pickle
import shutil
from pathlib import Path

import pytest

import index_builder.catalogue.load as catalogue_module
from index_builder.catalogue.derived_title import derive_title, shorten
from index_builder.catalogue.load import CATALOGUE_VERSION, Catalogue, load_catalogue
from index_builder.catalogue.merge import abstract_id
from index_builder.catalogue.order import _start_time
from index_builder.model import SourceProblem
from tests.helpers.catalogue_data import FIXTURES, LISTS, TABLE, truth

SMALL_TABLE = FIXTURES / "catalogue_table_small.csv"


def _ids(catalogue: Catalogue) -> set[str]:
    return {p.id for p in catalogue}


def test_bundled_counts(bundled_catalogue: Catalogue) -> None:
    cat = bundled_catalogue
    table = [p for p in cat if p.event_id is not None]
    assert len(table) == 6628
    assert sum(p.oral for p in cat) == 168
    assert sum(p.spotlight for p in cat) == 574
    assert sum(bool(p.abstract_raw) for p in cat) == 76
    joined = [p for p in table if p.abstract_raw]
    assert len(joined) >= 65
    assert len(cat) == 6628 + 76 - len(joined)
    assert cat.problems == () and cat.loaded_sources == (TABLE, *LISTS)


def test_joined_papers_match_the_truth(bundled_catalogue: Catalogue) -> None:
    cat, expected = bundled_catalogue, truth()
    for paper in cat:
        if paper.event_id is not None and paper.abstract_raw:
            assert expected[paper.aliases[0]] == paper.event_id


def test_table_fields(bundled_catalogue: Catalogue) -> None:
    paper = bundled_catalogue.get("64393")
    assert paper is not None
    assert paper.title.startswith("TVI-CoT: Text-Visual Interleaved")
    assert paper.authors == ("Lianyu Hu", "Xiaoyu Ma", "Zeqin Liao", "Yang Liu")
    assert paper.institutions[1] == "Nanyang Technology University, Singapore"
    assert (paper.starts_at, paper.ends_at) == (
        "2026-07-06T22:00:00-07:00",
        "2026-07-06T23:45:00-07:00",
    )
    assert paper.url == "https://icml.cc/virtual/2026/poster/64393"
    assert paper.openreview_url == "https://openreview.net/forum?id=O4PweOea13"
    assert paper.sources == ("icml2026_events.csv",) and paper.event_id == 64393


def test_a_joined_paper_has_display_text_raw_text_and_sources(bundled_catalogue: Catalogue) -> None:
    cat = bundled_catalogue
    paper = cat.get("62850")
    assert paper is not None and not paper.title_derived
    assert paper.title.startswith("ProEval:")
    assert "$" not in paper.abstract and r"$\pm1\%$" in paper.abstract_raw
    assert paper.sources == ("icml2026_events.csv", "000_579088213901f7bb.txt:1")
    assert cat.get(paper.aliases[0]) is paper


def test_code_links_are_extracted(bundled_catalogue: Catalogue) -> None:
    found = [p for p in bundled_catalogue if "TCSeg" in p.abstract_raw]
    assert found and found[0].code_urls == ("https://github.com/DirkLiii/TCSeg",)


def test_unjoined_abstracts_are_papers_with_derived_titles(bundled_catalogue: Catalogue) -> None:
    alone = [p for p in bundled_catalogue if p.event_id is None]
    for paper in alone:
        assert paper.title_derived and paper.id == abstract_id(paper.abstract_raw)
        assert paper.title and len(paper.title) <= 90 and not paper.authors
        assert len(paper.sources) == 1 and ":" in paper.sources[0]


def test_small_table_orals_spotlights_and_times(tmp_path: Path) -> None:
    cat = load_catalogue([SMALL_TABLE])
    assert [p.id for p in cat] == ["902", "103", "101", "102"]
    sobolev = cat.get("102")
    assert sobolev is not None and sobolev.oral and sobolev.session == ""
    talk = cat.get("901")
    assert talk is not None and talk.id != "901", "an Oral row repeats its poster"
    assert [e.kind for e in talk.events] == ["poster", "oral"], "the talk is kept as an event"
    lone = cat.get("902")
    assert lone is not None and lone.oral and lone.session == "Oral 1B"
    spot = cat.get("101")
    assert spot is not None and spot.spotlight and spot.kind == "spotlight"
    assert [p.fatal for p in cat.problems] == [False]


def test_display_order(bundled_catalogue: Catalogue) -> None:
    papers = bundled_catalogue.papers
    groups = [0 if _start_time(p) is not None else 1 if p.event_id else 2 for p in papers]
    assert groups == sorted(groups)
    times = [_start_time(p) for p in papers if _start_time(p) is not None]
    assert times == sorted(times)
    assert papers[-1].event_id is None


def test_ids_survive_reordered_and_added_files(
    tmp_path: Path, bundled_catalogue: Catalogue
) -> None:
    base = bundled_catalogue
    reordered = load_catalogue([*LISTS[::-1], TABLE])
    assert reordered.papers == base.papers
    extra = tmp_path / "005_mine.txt"
    extra.write_text("My list\n\nA brand new abstract about nothing in the table at all.\n")
    grown = load_catalogue([TABLE, *LISTS, extra])
    assert _ids(base) < _ids(grown)
    for paper in base:
        assert grown.get(paper.id) == paper


def test_an_abstract_keeps_its_id_when_a_join_appears_later(bundled_catalogue: Catalogue) -> None:
    before = load_catalogue(LISTS)
    assert len(before) == 76 and all(p.title_derived for p in before)
    after = bundled_catalogue
    moved = 0
    for paper in before:
        now = after.get(paper.id)
        assert now is not None and now.abstract_raw == paper.abstract_raw
        moved += now.id != paper.id
    assert moved >= 65


def test_the_same_abstract_in_two_files_is_one_paper(
    tmp_path: Path, bundled_catalogue: Catalogue, warm_cache_copy: Path
) -> None:
    copy = tmp_path / "copy_of_000.txt"
    shutil.copy(LISTS[0], copy)
    cat = load_catalogue([TABLE, *LISTS, copy], cache_dir=warm_cache_copy)
    assert len(cat) == len(bundled_catalogue)
    paper = cat.get("62850")
    assert paper is not None
    assert paper.sources[1:] == ("000_579088213901f7bb.txt:1", "copy_of_000.txt:1")


def test_bad_files_are_reported_and_skipped(tmp_path: Path) -> None:
    binary = tmp_path / "image.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    wrong = tmp_path / "other.csv"
    wrong.write_text("a,b\n1,2\n")
    folder = tmp_path / "folder"
    folder.mkdir()
    legacy = tmp_path / "legacy.txt"
    legacy.write_bytes("Header\n\nAn abstract about caf\xe9 latt\xe9s.\n".encode("latin-1"))
    seen: list[SourceProblem] = []
    cat = load_catalogue([binary, LISTS[0], wrong, folder, legacy], on_problem=seen.append)
    assert seen == list(cat.problems)
    fatal = {Path(p.path).name for p in cat.problems if p.fatal}
    assert fatal == {"image.png", "other.csv", "folder"}
    assert [Path(p.path).name for p in cat.problems if not p.fatal] == ["legacy.txt"]
    assert len(cat) == 20 and cat.loaded_sources == (LISTS[0], legacy)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file_is_reported(tmp_path: Path) -> None:
    locked = tmp_path / "locked.txt"
    locked.write_text("Header\n\nText.\n")
    locked.chmod(0)
    cat = load_catalogue([locked])
    assert len(cat) == 0 and "cannot read" in cat.problems[0].message


def test_warm_load_equals_cold_load(tmp_path: Path) -> None:
    cold = load_catalogue([SMALL_TABLE, *LISTS], cache_dir=tmp_path)
    assert (tmp_path / f"catalogue-v{CATALOGUE_VERSION}.pickle").is_file()
    warm = load_catalogue([SMALL_TABLE, *LISTS], cache_dir=tmp_path)
    assert warm.papers == cold.papers and warm.problems == cold.problems
    assert warm.fingerprint == cold.fingerprint and warm.loaded_sources == cold.loaded_sources
    assert warm.get(cold.papers[0].id) == cold.papers[0]


def test_warm_load_does_not_rebuild(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    load_catalogue([SMALL_TABLE], cache_dir=tmp_path)

    def refuse(*args: object) -> None:
        raise AssertionError("rebuilt despite a fresh cache")

    import index_builder.catalogue.merge as build_module

    monkeypatch.setattr(build_module, "build_papers", refuse)
    seen: list[SourceProblem] = []
    warm = load_catalogue([SMALL_TABLE], cache_dir=tmp_path, on_problem=seen.append)
    assert len(warm) == 4 and len(seen) == 1, "cached problems are reported again"


@pytest.mark.parametrize("garbage", [b"", b"not a pickle", pickle.dumps({"a": 1}), b"\x80\x05K"])
def test_a_corrupt_cache_is_rebuilt(tmp_path: Path, garbage: bytes) -> None:
    (tmp_path / f"catalogue-v{CATALOGUE_VERSION}.pickle").write_bytes(garbage)
    cat = load_catalogue([SMALL_TABLE], cache_dir=tmp_path)
    assert len(cat) == 4
    assert load_catalogue([SMALL_TABLE], cache_dir=tmp_path).papers == cat.papers


def test_the_fingerprint_follows_the_sources(tmp_path: Path) -> None:
    table = tmp_path / "table.csv"
    shutil.copy(SMALL_TABLE, table)
    first = load_catalogue([table], cache_dir=tmp_path)
    assert load_catalogue([table]).fingerprint == first.fingerprint
    with table.open("a") as handle:
        handle.write("104,Poster,A Late Addition,,,,,,,,,\n")
    second = load_catalogue([table], cache_dir=tmp_path)
    assert second.fingerprint != first.fingerprint and second.get("104") is not None


def test_the_fingerprint_follows_the_code_version(monkeypatch: pytest.MonkeyPatch) -> None:
    before = load_catalogue([SMALL_TABLE]).fingerprint
    monkeypatch.setattr(catalogue_module, "CATALOGUE_VERSION", CATALOGUE_VERSION + 1)
    assert load_catalogue([SMALL_TABLE]).fingerprint != before


def test_catalogue_protocol() -> None:
    cat = load_catalogue([SMALL_TABLE])
    assert len(cat) == 4 and list(cat) == list(cat.papers)
    assert cat.get("nope") is None and cat.get(" 101 ") is cat.papers[2]


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (
            "Evaluating models is costly. We propose ProEval, a proactive evaluation framework "
            "that leverages transfer learning.",
            "ProEval: a proactive evaluation framework that leverages transfer learning",
        ),
        (
            "Continual learning is hard. We propose Plasticity Activation via Polar Operator "
            "(PAPO), a plug-in that preserves directions.",
            "PAPO: a plug-in that preserves directions",
        ),
        (
            "We introduce a new multimodal forecasting benchmark TimesX. It is big.",
            "TimesX: a new multimodal forecasting benchmark",
        ),
        ("Symmetry is everywhere in nature and society. Geometric deep learning...", None),
    ],
)
def test_derived_titles(abstract: str, title: str | None) -> None:
    expected = title or "Symmetry is everywhere in nature and society"
    assert derive_title(abstract) == expected


def test_derived_titles_are_short_and_never_empty() -> None:
    assert derive_title("") == "Untitled abstract"
    long = derive_title("word " * 100)
    assert len(long) <= 90 and long.endswith("…") and " wor…" not in long
    assert shorten("Short sentence.") == "Short sentence"


@pytest.mark.parametrize(
    ("event_id", "abstract_id", "ending"),
    [(62896, "ab7f8485a01", ""), (63109, "ab76024c601", ""), (63185, "", 'as "slop".')],
)
def test_abstracts_with_a_clear_row_in_their_gap_join_it(
    event_id: int, abstract_id: str, ending: str, bundled_catalogue: Catalogue
) -> None:
    """Issue 11's duplicates: the abstract joins its row instead of standing beside it."""
    cat = bundled_catalogue
    paper = cat.get(str(event_id))
    assert paper is not None and paper.abstract_raw and not paper.title_derived
    assert paper.abstract_raw.rstrip().endswith(ending)
    if abstract_id:
        assert cat.get(abstract_id) == paper
    assert sum(p.title_derived for p in cat) <= 2


def test_unjoined_abstracts_name_the_row_they_possibly_are(bundled_catalogue: Catalogue) -> None:
    cat, expected = bundled_catalogue, truth()
    possibly = {p.id: p.possibly_same_as for p in cat if p.possibly_same_as}
    assert possibly, "the two abstracts left unjoined each point at their row"
    for paper_id, others in possibly.items():
        paper = cat.get(paper_id)
        assert paper is not None and paper.title_derived and paper.event_id is None
        assert [str(expected[paper_id])] == list(others)
        assert cat.get(others[0]) is not None
