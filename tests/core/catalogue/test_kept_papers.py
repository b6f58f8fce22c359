"""The table papers kept between builds: joins by hand, take-aparts, undos and changed
sources through the kept papers give the very catalogue a build from nothing gives, and a
join by hand makes again only the rows it touches.

On the lone list beside a cut of the table (``lone_cut``, 45 papers; its abstracts get the
joins and hints of the whole table): what is checked is one build against another and
which rows each made, the same code for every row whatever the table's size; a build of
the whole table took 1.0-1.5 s of CPU, and each test made four to six.
"""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from index_builder import model
from index_builder.atomic import read_pickle
from index_builder.catalogue import after_join, kept_papers, merge
from index_builder.catalogue.joins.by_hand import add_join, plan_apart, plan_join, remove_joins
from index_builder.catalogue.load import CATALOGUE_VERSION, Catalogue, load_catalogue
from tests.core.test_analysis_versions import sources as analysis_sources
from tests.helpers.catalogue_builds import from_nothing
from tests.helpers.catalogue_data import (
    JOINED_ROW,
    LONE_ABSTRACT,
    LONE_HINT,
    table_copy,
)
from tests.helpers.change_spies import count_unpickled

DAY = dt.date(2026, 12, 5)


def kept_file(cache: Path) -> Path:
    return cache / f"tablepapers-v{CATALOGUE_VERSION}.pickle"


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The event ids of the table papers made (not served kept) by each build."""
    seen: list[str] = []
    original = merge._table_paper

    def counting(item: merge.TablePaper, *args: object, **kwargs: object) -> object:
        seen.append(str(item.row.event_id))
        return original(item, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(merge, "_table_paper", counting)
    yield seen


def through_cache(cache: Path, sources: list[Path], made: list[str]) -> tuple[Catalogue, list[str]]:
    """A build that may use every cache but the finished catalogue's own, and the rows whose
    papers it made."""
    for old in cache.glob("catalogue-*"):
        old.unlink()
    made.clear()
    catalogue = load_catalogue(sources, cache_dir=cache)
    return catalogue, list(made)


def assert_same(cached: Catalogue, fresh: Catalogue) -> None:
    assert cached.papers == fresh.papers
    assert cached.problems == fresh.problems


def table_rows(catalogue: Catalogue) -> list[str]:
    """The event ids of the catalogue's table papers (one made per table entry)."""
    return sorted(str(p.event_id) for p in catalogue.papers if p.event_id is not None)


def test_joins_by_hand_through_kept_papers_equal_a_build_from_nothing(
    tmp_path: Path, made: list[str], lone_cut: list[Path]
) -> None:
    table, listed = lone_cut
    cache, joins = tmp_path / "cache", tmp_path / "joins.jsonl"
    first, again = through_cache(cache, [table, listed], made)
    assert kept_file(cache).is_file() and sorted(again) == table_rows(first)

    add_join(joins, plan_join(first.get, LONE_ABSTRACT, LONE_HINT, today=DAY))
    joined, again = through_cache(cache, [table, listed, joins], made)
    assert_same(joined, load_catalogue([table, listed, joins]))
    assert again == [LONE_HINT]  # the one row whose inputs changed
    assert joined.get(LONE_ABSTRACT).id == LONE_HINT  # type: ignore[union-attr]

    add_join(joins, plan_apart(joined.get, JOINED_ROW, joins, today=DAY))
    apart, again = through_cache(cache, [table, listed, joins], made)
    assert_same(apart, load_catalogue([table, listed, joins]))
    assert sorted(again) == sorted([LONE_HINT, JOINED_ROW])
    assert not apart.get(JOINED_ROW).abstract  # type: ignore[union-attr]

    remove_joins(joins, apart.get, LONE_HINT)
    remove_joins(joins, apart.get, JOINED_ROW)
    assert not joins.exists()  # its last line taken back
    undone, again = through_cache(cache, [table, listed], made)
    assert_same(undone, from_nothing([table, listed]))
    assert again == []
    assert_same(undone, first)


def test_a_changed_table_makes_every_paper_again(
    tmp_path: Path, made: list[str], lone_cut: list[Path], cut_cache_copy: Path
) -> None:
    (table, listed), cache = lone_cut, cut_cache_copy  # the kept papers of a build of the table
    first, again = through_cache(cache, [table, listed], made)
    assert again == []
    retitled = table_copy(tmp_path / "table", retitle=LONE_HINT, table=table)
    changed, again = through_cache(cache, [retitled, listed], made)
    assert_same(changed, load_catalogue([retitled, listed]))
    assert sorted(again) == table_rows(first)
    assert changed.get(LONE_HINT) != first.get(LONE_HINT)


def test_records_and_lists_through_kept_papers_equal_a_build_from_nothing(
    tmp_path: Path, made: list[str]
) -> None:
    folder = tmp_path / "src"
    folder.mkdir()
    for path in analysis_sources():
        shutil.copy(path, folder / path.name)
    sources = sorted(folder.iterdir())
    cache = tmp_path / "cache"
    first = through_cache(cache, sources, made)[0]
    assert_same(first, load_catalogue(sources))
    edited = next(p for p in sources if p.suffix == ".txt")
    edited.write_text(edited.read_text(encoding="utf-8").replace("the", "our", 5), "utf-8")
    assert_same(through_cache(cache, sources, made)[0], load_catalogue(sources))


@pytest.mark.parametrize("garbage", [b"", b"not a pickle", b"\x80\x05K"])
def test_a_damaged_file_of_kept_papers_is_ignored(
    made: list[str], lone_cut: list[Path], cut_cache_copy: Path, garbage: bytes
) -> None:
    """Every other cache of a build of these sources is there and fresh: only the kept
    papers are damaged, and every table paper is made again."""
    cache = cut_cache_copy
    kept_file(cache).write_bytes(garbage)
    built, again = through_cache(cache, lone_cut, made)
    assert_same(built, from_nothing(lone_cut))
    assert sorted(again) == table_rows(built)
    assert kept_file(cache).read_bytes() != garbage


def test_few_rows_made_again_leave_the_file_as_it_was(
    tmp_path: Path, made: list[str], lone_cut: list[Path], cut_cache_copy: Path
) -> None:
    cache, joins = cut_cache_copy, tmp_path / "joins.jsonl"
    first, again = through_cache(cache, lone_cut, made)
    stored = kept_file(cache).read_bytes()
    add_join(joins, plan_join(first.get, LONE_ABSTRACT, LONE_HINT, today=DAY))
    _, again = through_cache(cache, [*lone_cut, joins], made)
    assert 0 < len(again) < kept_papers.REWRITE_AFTER
    assert kept_file(cache).read_bytes() == stored


def test_the_kept_papers_of_other_sources_are_not_unpickled(
    tmp_path: Path, lone_cut: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    load_catalogue(lone_cut, cache_dir=cache)
    stored_key = read_pickle(kept_file(cache))[1]
    unpickled: list[object] = []
    real = model.Paper

    def counting(*values: object) -> object:  # pickle finds the class by its module's name
        unpickled.append(values[0])
        return real(*values)  # type: ignore[arg-type]

    monkeypatch.setattr(model, "Paper", counting)
    assert kept_papers.KeptPapers(kept_file(cache), b"a feed changed").stored == []
    assert unpickled == []
    assert kept_papers.KeptPapers(kept_file(cache), stored_key).stored
    assert unpickled  # the same file, for its own key: its papers served


@pytest.fixture
def unpickled(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per time a build unpickled the kept file's papers (not their rows' inputs).

    The join is built from the sources: made from the catalogue before it
    (:mod:`~index_builder.catalogue.after_join`, ``test_after_join.py``), it would ask the
    kept papers nothing; they serve the builds that path leaves to the merge."""
    monkeypatch.setattr(after_join, "catalogue_after", lambda *_: None)
    return count_unpickled(monkeypatch)


def join_offered(
    tmp_path: Path, made: list[str], sources: list[Path], damage: bytes | None = None
) -> tuple[Catalogue, Catalogue, list[str]]:
    """A build of ``sources``, then a join by hand built with that catalogue offered (the
    places of its kept papers overwritten with ``damage`` first): both, and the rows the
    join's build made."""
    cache, joins = tmp_path / "cache", tmp_path / "joins.jsonl"
    first, _ = through_cache(cache, sources, made)
    if damage is not None:
        kept_file(cache).with_suffix(".into.pickle").write_bytes(damage)
    add_join(joins, plan_join(first.get, LONE_ABSTRACT, LONE_HINT, today=DAY))
    with kept_papers.offer(first):
        joined, again = through_cache(cache, [*sources, joins], made)
    assert_same(joined, load_catalogue([*sources, joins]))
    return first, joined, again


def test_a_join_offered_the_catalogue_before_serves_its_papers(
    tmp_path: Path, made: list[str], unpickled: list[int], lone_cut: list[Path]
) -> None:
    first, joined, again = join_offered(tmp_path, made, lone_cut)
    assert again == [LONE_HINT] and unpickled == []
    kept_rows = [p for p in first.papers if p.event_id is not None and str(p.event_id) != LONE_HINT]
    assert all(joined.get(p.id) is p for p in kept_rows)  # the very objects, not copies


def test_a_row_the_last_join_made_again_is_not_served_from_its_catalogue(
    tmp_path: Path,
    made: list[str],
    unpickled: list[int],
    lone_cut: list[Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The join's catalogue holds the joined row's new paper, the file the row's paper from
    before the join: an undo built from the join's catalogue must not take the new one,
    and unpickles the chunk of stored papers that holds it, alone."""
    monkeypatch.setattr(kept_papers, "CHUNK", 8)
    first, joined, _ = join_offered(tmp_path, made, lone_cut)
    remove_joins(tmp_path / "joins.jsonl", joined.get, LONE_HINT)
    with kept_papers.offer(joined):
        undone, again = through_cache(tmp_path / "cache", lone_cut, made)
    assert_same(undone, from_nothing(lone_cut))
    assert again == [] and len(unpickled) == 1 < len(table_rows(first)) // 8
    assert undone.get(LONE_HINT) == first.get(LONE_HINT) != joined.get(LONE_HINT)


@pytest.mark.parametrize("garbage", [b"", b"not a pickle", b"\x80\x05K"])
def test_damaged_places_of_the_kept_papers_are_ignored(
    tmp_path: Path, made: list[str], unpickled: list[int], lone_cut: list[Path], garbage: bytes
) -> None:
    _, _, again = join_offered(tmp_path, made, lone_cut, garbage)
    assert again == [LONE_HINT] and unpickled  # the stored papers served instead
