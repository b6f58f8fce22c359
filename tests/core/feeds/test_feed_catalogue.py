"""Stored feeds as catalogue sources: ICML 2026 merged with the table, other venues beside it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from index_builder.catalogue.load import Catalogue, load_catalogue
from index_builder.model import Paper
from index_builder.paths import bundled_sources
from index_builder.sources.reading import read_source
from tests.helpers.catalogue_data import truth
from tests.helpers.cli_cut import bundled_cut
from tests.helpers.feed_data import (
    ICML_ABSTRACTS,
    ICML_FEED,
    bundled_texts,
    icml_abstracts,
    icml_feed,
    marker,
    write_icml,
    write_neurips,
)
from tests.helpers.shared_builds import build_once, copy_cache, home_paths


def fed_sources(folder: Path) -> list[Path]:
    """The bundled data plus the whole ICML 2026 feed and abstracts file kept in ``folder``."""
    return [*bundled_sources(), folder / ICML_FEED, folder / ICML_ABSTRACTS]


@pytest.fixture(scope="module")
def fed(tmp_path_factory: pytest.TempPathFactory) -> Catalogue:
    """The bundled data plus the whole ICML 2026 feed and abstracts file.

    Built from the sources once per run (:func:`build_once`), its catalogue cache kept;
    each worker whose share of these tests needs it loads a private copy of that cache
    (a module fixture is per worker: under xdist the build ran once for each)."""

    def build(folder: Path) -> None:
        write_icml(folder)
        load_catalogue(fed_sources(folder), cache_dir=folder / "cache")

    built = build_once(tmp_path_factory, "feed-catalogue", build)
    cache = copy_cache(built / "cache", tmp_path_factory.mktemp("feed-catalogue-cache"))
    cold: list[bool] = []
    catalogue = load_catalogue(
        fed_sources(built), cache_dir=cache, on_cold=lambda: cold.append(True)
    )
    assert not cold, "the shared catalogue cache was not fresh for its sources"
    return catalogue


@pytest.fixture
def warm_caches(warm_home: Path, tmp_path: Path) -> Path:
    """A copy of the warm home's catalogue caches (no index), for a test that adds a small
    source to the whole bundled data (the NeurIPS feed: every bundled paper is checked
    untouched) and checks how it merges, not how a build from nothing goes: the bundled
    sources' parsing and the join's rankings are kept there, so the build does the merge
    (~0.8 s of CPU, was ~1.2 s from nothing). A build through the caches equals one from
    nothing (``test_kept_papers.py``, ``test_join_scoring_cache.py``). The tests of the
    ICML feed's merge build from nothing beside a cut of the table (``bundled_cut``)."""
    return copy_cache(home_paths(warm_home).cache_dir, tmp_path / "cache", with_index=False)


def test_every_icml_paper_once_with_its_official_abstract(fed: Catalogue) -> None:
    icml = [p for p in fed if p.venue == "ICML 2026"]
    assert len(icml) == 6628 and len(fed) == 6628
    assert len({p.id for p in fed}) == len(fed)
    assert all(p.abstract for p in icml)
    assert not fed.problems


def test_every_earlier_id_still_resolves_to_its_paper(
    fed: Catalogue, bundled_catalogue: Catalogue
) -> None:
    before = bundled_catalogue
    for paper in before:
        found = fed.get(paper.id)
        assert found is not None, paper.id
        if paper.event_id is not None:
            assert found.id == paper.id
    for alias in (a for p in before for a in p.aliases):
        assert fed.get(alias) is not None, alias


def test_the_bundled_abstracts_sit_on_their_own_papers(fed: Catalogue) -> None:
    for abstract_key, event_id in truth().items():
        paper = fed.get(abstract_key)
        assert paper is not None and paper.id == str(event_id), abstract_key
        assert " ".join(paper.abstract_raw.split()) == " ".join(bundled_texts()[event_id].split())


def test_poster_and_talk_are_one_paper_with_rooms_and_boards(fed: Catalogue) -> None:
    paper = fed.get("71029")  # the talk of 65133
    assert paper is not None and paper.id == "65133" and paper.oral
    kinds = {e.kind: e for e in paper.events}
    assert kinds["poster"].poster_position.startswith("#") and kinds["poster"].room == "Hall D"
    assert kinds["oral"].room == "Auditorium 1" and kinds["oral"].event_id == 71029
    assert marker(65133) in paper.abstract


def test_the_feed_wins_where_both_have_a_value(
    tmp_path: Path, bundled_catalogue: Catalogue
) -> None:
    """Built from nothing beside the bundled lists and the bundled table's rows of the
    feed's 30 papers and of the lists' papers (:func:`bundled_cut`): how the feed's values
    and the table's merge, and where the lists' abstracts go, is the same as beside the
    whole table (6,628 papers, ~1.2 s of CPU a build, where the cut's takes ~0.1 s)."""
    feed = icml_feed()
    results = [dict(r) for r in feed["results"][:30]]
    target = next(r for r in results if r["eventtype"] == "Poster")
    target.update(name="A Renamed Title", session="Poster Session 9", topic=None)
    folder = tmp_path / "feeds"
    folder.mkdir()
    (folder / ICML_FEED).write_text(json.dumps({**feed, "results": results, "count": 30}))
    keep = {str(r["id"]) for r in results} | {str(e) for e in truth().values()}
    abstracts = {k: v for k, v in icml_abstracts().items() if k in keep}
    (folder / ICML_ABSTRACTS).write_text(json.dumps(abstracts))
    one_per_paper = {p.title: p.id for p in map(bundled_catalogue.get, sorted(keep)) if p}
    cut = bundled_cut(tmp_path / "cut", one_per_paper.values())
    table_only = load_catalogue([cut])
    before = table_only.get(str(target["id"]))
    cat = load_catalogue([cut, *bundled_sources()[1:], folder / ICML_FEED, folder / ICML_ABSTRACTS])
    paper = cat.get(str(target["id"]))
    assert before is not None and paper is not None
    assert (paper.title, paper.session) == ("A Renamed Title", "Poster Session 9")
    assert paper.topic == before.topic and paper.topic  # the feed has none: the table's stays
    # Every bundled abstract is on its paper: no duplicates left.
    assert len(cat) == len(table_only) == len(one_per_paper)
    assert all(cat.get(key) is cat.get(str(event)) for key, event in truth().items())


def test_an_official_abstract_overrides_the_heuristic_join(
    tmp_path: Path, bundled_catalogue: Catalogue
) -> None:
    """A bundled abstract put (by its official text) on another paper goes there, for sure.

    Built beside the bundled lists and the bundled table's rows of the lists' papers and
    of the other paper (:func:`bundled_cut`), where every list abstract is joined to its
    paper as beside the whole table (``test_the_feed_wins_where_both_have_a_value``)."""
    key, event_id = next(iter(truth().items()))
    other = next(p for p in bundled_catalogue if p.event_id and p.id != str(event_id))
    text = bundled_texts()[event_id]
    path = tmp_path / ICML_ABSTRACTS
    path.write_text(json.dumps({other.id: "  " + text.replace(" ", "\n", 3)}))
    ids = {str(e) for e in truth().values()} | {other.id}
    one_per_paper = {p.title: p.id for p in map(bundled_catalogue.get, sorted(ids)) if p}
    cut = bundled_cut(tmp_path / "cut", one_per_paper.values())
    cat = load_catalogue([cut, *bundled_sources()[1:], path])
    moved = cat.get(key)
    assert moved is not None and moved.id == other.id
    own = cat.get(str(event_id))
    assert own is not None and not own.abstract


def test_neurips_papers_come_beside_icml_without_touching_them(
    tmp_path: Path, bundled_catalogue: Catalogue, warm_caches: Path
) -> None:
    feed = write_neurips(tmp_path) / "neurips-2025-orals-posters.json"
    cat = load_catalogue([*bundled_sources(), feed], cache_dir=warm_caches)
    neurips = [p for p in cat if p.venue == "NeurIPS 2025"]
    assert sorted(p.id for p in neurips) == [
        "neurips2025:119718", "neurips2025:119719", "neurips2025:119720"
    ]  # fmt: skip
    assert [p for p in cat if p.venue != "NeurIPS 2025"] == list(bundled_catalogue)
    talk = cat.get("neurips2025:129720")
    assert talk is not None and talk.id == "neurips2025:119720" and talk.oral
    assert {e.room for e in talk.events} == {"Exhibit Hall C,D,E", "Ballroom 20"}
    sparse = cat.get("neurips2025:119719")
    assert sparse is not None
    assert sparse.title == "Texas A&M Sparse Transformers" and sparse.authors == ("Ann D'souza",)
    assert "3×" in sparse.abstract.replace(" ", "") and sparse.url.startswith("https://neurips.cc/")


def test_a_renamed_feed_is_read_as_records_without_a_venue(tmp_path: Path) -> None:
    path = write_neurips(tmp_path) / "neurips-2025-orals-posters.json"
    renamed = path.rename(tmp_path / "downloaded.json")
    data = read_source(renamed, renamed.read_bytes())
    assert not data.rows and len(data.records) == 4
    cat = load_catalogue([renamed])
    assert sorted(p.title for p in cat) == [
        "Coloring Learning for Heterophilic Graph Representation",
        "Diffusion Models Dream of Electric Sheep",
        "Texas A&M Sparse Transformers",
    ]
    assert all(p.venue == "" and p.abstract for p in cat)


def test_broken_feed_files_are_reported_and_skipped(tmp_path: Path) -> None:
    (tmp_path / ICML_FEED).write_text('{"count": 3, "results": [{"id": 1')
    (tmp_path / ICML_ABSTRACTS).write_text("[1, 2]")
    healthy = write_neurips(tmp_path / "ok") / "neurips-2025-orals-posters.json"
    cat = load_catalogue([healthy, tmp_path / ICML_FEED, tmp_path / ICML_ABSTRACTS])
    messages = {Path(p.path).name: p.message for p in cat.problems}
    assert set(messages) == {ICML_FEED, ICML_ABSTRACTS}
    assert "not valid JSON" in messages[ICML_FEED]
    assert "not a JSON object" in messages[ICML_ABSTRACTS]
    assert cat.loaded_sources == (healthy,) and len(cat) == 3


def test_a_paper_id_implies_its_venue() -> None:
    from index_builder.readinglist.bookmark import Bookmark
    from index_builder.venues import venue_of_id

    assert venue_of_id("65133") == "ICML 2026"
    assert venue_of_id("neurips2025:119718") == "NeurIPS 2025"
    assert venue_of_id("ab7f8485a01") == venue_of_id("nope2030:1") == ""
    orphan = Bookmark(Paper("neurips2025:119718", "T"), added_at="", updated_at="")
    assert orphan.to_paper().venue == "NeurIPS 2025"
