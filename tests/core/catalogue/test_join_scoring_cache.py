"""The automatic join's scoring kept between builds: a join by hand, a take-apart and an
undo through the cache give the very catalogue a build from nothing gives.

On the lone list beside a cut of the table (``lone_cut``, 45 papers; its abstracts get the
joins and hints of the whole table): what is checked is a build through the caches
against a build from nothing, and what each scored or decided again, the same code
whatever the table's size; a build of the whole table took 1.0-1.5 s of CPU, and each
test made two to six.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from index_builder.catalogue import official
from index_builder.catalogue.joins import match, score, scoring_cache
from index_builder.catalogue.joins.by_hand import add_join, plan_apart, plan_join, remove_joins
from index_builder.catalogue.load import CATALOGUE_VERSION, Catalogue, load_catalogue
from tests.helpers.catalogue_builds import from_nothing
from tests.helpers.catalogue_data import (
    JOINED_ROW,
    LONE_ABSTRACT,
    LONE_HINT,
    write_lone_list,
)
from tests.helpers.join_homes import join_sources
from tests.helpers.recording import record_calls

DAY = dt.date(2026, 12, 5)


def _through_cache(cache: Path, sources: list[Path]) -> Catalogue:
    """A build that may use every cache but the finished catalogue's own."""
    for old in cache.glob("catalogue-*"):
        old.unlink()
    return load_catalogue(sources, cache_dir=cache)


def _scored_from_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("scored again though the titles and abstracts did not change")

    monkeypatch.setattr(match, "score_one", refuse)
    monkeypatch.setattr(score.TitleIndex, "__init__", refuse)


def assert_same(cached: Catalogue, fresh: Catalogue) -> None:
    assert cached.papers == fresh.papers
    assert cached.problems == fresh.problems


def test_joins_by_hand_through_the_cache_equal_a_build_from_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lone_cut: list[Path], cut_cache_copy: Path
) -> None:
    (table, listed), joins = lone_cut, tmp_path / "joins.jsonl"
    cache = cut_cache_copy  # a cold build of the table and the list made it
    first = _through_cache(cache, [table, listed])
    assert scoring_cache.cache_file(cache).is_file()
    add_join(joins, plan_join(first.get, LONE_ABSTRACT, LONE_HINT, today=DAY))
    apart = plan_apart(first.get, JOINED_ROW, joins, today=DAY)
    add_join(joins, apart)
    sources = [table, listed, joins]
    with monkeypatch.context() as patch:
        _scored_from_cache(patch)
        joined = _through_cache(cache, sources)
    fresh = load_catalogue(sources)
    assert_same(joined, fresh)
    assert joined.get(LONE_ABSTRACT).id == LONE_HINT  # type: ignore[union-attr]
    assert not joined.get(JOINED_ROW).abstract  # type: ignore[union-attr]

    remove_joins(joins, joined.get, LONE_HINT)
    remove_joins(joins, joined.get, JOINED_ROW)
    with monkeypatch.context() as patch:
        _scored_from_cache(patch)
        undone = _through_cache(cache, [table, listed])
    assert_same(undone, from_nothing([table, listed]))
    assert_same(undone, first)


def test_other_abstracts_are_scored_and_decided_again(
    tmp_path: Path, lone_cut: list[Path], cut_cache_copy: Path
) -> None:
    """A rewritten abstract changes the decisions' digest as well: neither the kept
    decisions nor the old rankings serve, and the build is the one from nothing."""
    table = lone_cut[0]
    listed = write_lone_list(tmp_path / "mine.txt")  # the shared list's bytes, to change
    cache = cut_cache_copy
    _through_cache(cache, [table, listed])
    kept = scoring_cache.cache_file(cache).read_bytes()
    decided = scoring_cache.decisions_file(cache).read_bytes()
    text = listed.read_text(encoding="utf-8")
    listed.write_text(text.replace("the", "our", 3), encoding="utf-8")
    assert_same(_through_cache(cache, [table, listed]), load_catalogue([table, listed]))
    assert scoring_cache.cache_file(cache).read_bytes() != kept
    assert scoring_cache.decisions_file(cache).read_bytes() != decided


@pytest.mark.parametrize("garbage", [b"", b"not a pickle", b"\x80\x05K"])
def test_a_damaged_scoring_cache_is_scored_again(
    lone_cut: list[Path], cut_cache_copy: Path, garbage: bytes
) -> None:
    """Every other cache of a build of these sources is there and fresh but the kept
    decisions (which would spare the scoring): the scoring is damaged, and made again."""
    (table, listed), cache = lone_cut, cut_cache_copy
    scoring_cache.cache_file(cache).write_bytes(garbage)
    scoring_cache.decisions_file(cache).unlink()
    assert_same(_through_cache(cache, [table, listed]), from_nothing([table, listed]))
    assert scoring_cache.cache_file(cache).read_bytes() != garbage


def _decided_from_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither the title index and rankings read nor anything scored or decided."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the join's decisions were made again on the same inputs")

    _scored_from_cache(monkeypatch)
    monkeypatch.setattr(scoring_cache, "_load", refuse)
    monkeypatch.setattr(match.AbstractMatcher, "join", refuse)


def test_joins_by_hand_read_the_kept_decisions_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lone_cut: list[Path], cut_cache_copy: Path
) -> None:
    """A join by hand, a take-apart and their undo hand the matcher the same titles,
    abstracts and orders: its joins and hints come from the small file of decisions."""
    (table, listed), joins = lone_cut, tmp_path / "joins.jsonl"
    cache = cut_cache_copy
    first = _through_cache(cache, [table, listed])
    assert scoring_cache.decisions_file(cache).is_file()
    add_join(joins, plan_join(first.get, LONE_ABSTRACT, LONE_HINT, today=DAY))
    sources = [table, listed, joins]
    with monkeypatch.context() as patch:
        _decided_from_file(patch)
        joined = _through_cache(cache, sources)
    assert_same(joined, from_nothing(sources))
    add_join(joins, plan_apart(joined.get, JOINED_ROW, joins, today=DAY))
    with monkeypatch.context() as patch:
        _decided_from_file(patch)
        apart = _through_cache(cache, sources)
    assert_same(apart, from_nothing(sources))
    remove_joins(joins, apart.get, LONE_HINT)
    remove_joins(joins, apart.get, JOINED_ROW)
    with monkeypatch.context() as patch:
        _decided_from_file(patch)
        undone = _through_cache(cache, [table, listed])
    assert_same(undone, first)


def test_a_retitled_row_is_decided_again(
    tmp_path: Path, lone_cut: list[Path], cut_cache_copy: Path
) -> None:
    """The titles are in the decisions' digest: a retitled row is not served the kept
    decisions, and the build is the one from nothing."""
    (cut, listed), cache = lone_cut, cut_cache_copy
    _through_cache(cache, lone_cut)
    decided = scoring_cache.decisions_file(cache).read_bytes()
    table = tmp_path / cut.name
    table.write_bytes(cut.read_bytes().replace(b"Attention", b"Retention", 1))
    assert table.read_bytes() != cut.read_bytes()
    assert_same(_through_cache(cache, [table, listed]), from_nothing([table, listed]))
    assert scoring_cache.decisions_file(cache).read_bytes() != decided


@pytest.mark.parametrize("garbage", [b"", b"not a pickle", b"\x80\x05K"])
def test_damaged_decisions_are_made_again(
    lone_cut: list[Path], cut_cache_copy: Path, garbage: bytes
) -> None:
    (table, listed), cache = lone_cut, cut_cache_copy
    scoring_cache.decisions_file(cache).write_bytes(garbage)
    assert_same(_through_cache(cache, [table, listed]), from_nothing([table, listed]))
    assert scoring_cache.decisions_file(cache).read_bytes() != garbage


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ((["a", "b"], [("x",), ()]), (["a", "b"], [(), ("x",)])),  # an author moved row
        ((["ab"], [()]), (["a", "b"], [(), ()])),  # titles cut elsewhere
        ((["a"], [("x", "y")]), (["a"], [("xy",)])),  # names cut elsewhere
        ((["a", "bx"], [(), ()]), (["a", "b"], [(), ("x",)])),  # a title's end, an author
    ],
)
def test_the_titles_digest_tells_apart_what_the_scores_depend_on(
    one: tuple[list[str], list[tuple[str, ...]]], other: tuple[list[str], list[tuple[str, ...]]]
) -> None:
    assert scoring_cache.titles_digest(*one) != scoring_cache.titles_digest(*other)
    assert scoring_cache.titles_digest(*one) == scoring_cache.titles_digest(*one)


def test_a_join_by_hand_leaves_the_source_cache_as_it_was(
    tmp_path: Path, lone_cut: list[Path], cut_cache_copy: Path
) -> None:
    """``joins.jsonl`` is read again each time rather than kept: keeping it rewrote the
    whole source cache (every parsed feed and table) at each join."""
    (table, listed), joins, cache = lone_cut, tmp_path / "joins.jsonl", cut_cache_copy
    first = _through_cache(cache, [table, listed])
    parsed = cache / f"sources-v{CATALOGUE_VERSION}.pickle"
    kept = parsed.read_bytes()
    add_join(joins, plan_join(first.get, LONE_ABSTRACT, LONE_HINT, today=DAY))
    joined = _through_cache(cache, [table, listed, joins])
    assert joined.get(LONE_ABSTRACT).id == LONE_HINT  # type: ignore[union-attr]
    assert parsed.read_bytes() == kept


def test_official_texts_are_keyed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each official abstract's key (for the certain joins) is kept by its text: a build
    of the same official texts keys none of them again, and a rewritten one alone is
    keyed again; each catalogue is the one from nothing. (The list's own abstracts are
    keyed in every build: the count of a build with nothing kept tells them apart.)"""
    sources = join_sources(tmp_path, certain=True, marked=False)
    cache = tmp_path / "cache"
    first = _through_cache(cache, sources)
    certain = [p for p in first if p.event_id is not None and "mine.txt:" in " ".join(p.sources)]
    assert certain, "the fixture's list abstracts are joined by their official text"
    feed_abstracts = sources[2]
    texts = json.loads(feed_abstracts.read_text(encoding="utf-8"))

    def keyed_in_a_build() -> int:
        with monkeypatch.context() as patch:
            keyed = record_calls(patch, official, "text_key")
            assert_same(_through_cache(cache, sources), from_nothing(sources))
        return len(keyed)

    kept = keyed_in_a_build()
    (cache / f"joincertain-v{scoring_cache.SCORING_VERSION}.pickle").unlink()
    assert keyed_in_a_build() >= kept + len(certain)
    event = str(certain[0].event_id)
    texts[event] = "A rewritten abstract. " + texts[event]
    feed_abstracts.write_text(json.dumps(texts), encoding="utf-8")
    assert keyed_in_a_build() == kept + 1
    again = _through_cache(cache, sources)
    assert again.get(event).abstract_raw.startswith("A rewritten abstract.")  # type: ignore[union-attr]


def test_another_unicode_version_scores_and_decides_again(
    lone_cut: list[Path], cut_cache_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Titles are folded by the Unicode data of the running Python: another version's
    scoring and decisions are not served."""
    cache = cut_cache_copy
    _through_cache(cache, lone_cut)
    kept = scoring_cache.cache_file(cache).read_bytes()
    decided = scoring_cache.decisions_file(cache).read_bytes()
    monkeypatch.setattr(scoring_cache, "_UNICODE", b"unicode 99.0.0\n")
    assert_same(_through_cache(cache, lone_cut), from_nothing(lone_cut))
    assert scoring_cache.cache_file(cache).read_bytes() != kept
    assert scoring_cache.decisions_file(cache).read_bytes() != decided
