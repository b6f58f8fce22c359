"""Joining abstracts to table rows: recall on the bundled lists, and never a wrong join."""

from __future__ import annotations

import random

import pytest

from index_builder.catalogue.joins.match import (
    AbstractMatcher,
    Join,
    _longest_increasing,
    _strong_joins,
    join_abstracts,
)
from index_builder.catalogue.joins.score import TitleIndex, compact_words, stems, title_names
from tests.helpers.catalogue_data import (
    bundled_files,
    event_ids,
    expected_rows,
    lists,
    matcher,
    posters,
    title_index,
)


def _wrong(joins: dict[int, Join]) -> list[tuple[int, int]]:
    """(abstract, row) pairs joined to a row that is not the abstract's own."""
    expected = expected_rows()
    return [(a, j.row) for a, j in joins.items() if j.row != expected[a]]


def test_bundled_lists_join_with_full_precision_and_high_recall() -> None:
    joins = matcher().join(event_ids(), bundled_files())
    assert _wrong(joins) == []
    assert len(joins) >= 74, f"only {len(joins)} of 76 joined"


def test_each_abstract_stays_unjoined_when_its_row_is_removed() -> None:
    """Nor is a wrong row joined, or offered by the list's order as "possibly the same as".

    A hint from the titles alone may then name the closest title: 3 times in these 76
    removals (a hint, shown as "possibly", never joined).
    """
    m, ids, files, expected = matcher(), event_ids(), bundled_files(), expected_rows()
    title_hints_wrong = 0
    for abstract, row in enumerate(expected):
        joins = m.join(ids, files, exclude={row})
        assert abstract not in joins, f"abstract {abstract} joined without its row"
        assert _wrong(joins) == [], f"a wrong join after removing row {row}"
        wrong = {a for a, r in m.possible.items() if expected[a] != r}
        assert wrong <= m.by_title, f"row {row} removed"
        title_hints_wrong += len(wrong)
    assert title_hints_wrong <= 3


@pytest.mark.parametrize("abstract", [0, 11, 17, 20, 41, 52, 64, 74])
def test_removal_from_a_rebuilt_table(abstract: int) -> None:
    """The same check with the row truly gone from the table (IDF recomputed)."""
    rows = posters()
    gone = expected_rows()[abstract]
    kept = [r for i, r in enumerate(rows) if i != gone]
    texts = [e.text for entries in lists() for e in entries]
    joins = join_abstracts(
        TitleIndex([r.paper.title_raw for r in kept]),
        [r.event_id for r in kept],
        texts,
        bundled_files(),
    )
    assert abstract not in joins
    truth_ids = [rows[i].event_id for i in expected_rows()]
    assert all(kept[j.row].event_id == truth_ids[a] for a, j in joins.items())


@pytest.mark.parametrize("seed", range(5))
def test_shuffled_lists_never_join_wrongly(seed: int) -> None:
    rng = random.Random(seed)
    files = [rng.sample(f, len(f)) for f in bundled_files()]
    joins = matcher().join(event_ids(), files)
    assert _wrong(joins) == []
    strong = {a for a, j in matcher().join(event_ids(), []).items() if j.evidence == "strong"}
    assert strong <= set(joins)


def test_reversed_lists_get_strong_joins_only() -> None:
    files = [f[::-1] for f in bundled_files()]
    joins = matcher().join(event_ids(), files)
    assert _wrong(joins) == []
    assert {j.evidence for j in joins.values()} == {"strong"}


@pytest.mark.parametrize("parts", [2, 3])
def test_split_merged_and_thinned_lists_stay_exact(parts: int) -> None:
    files = bundled_files()
    split = [f[i::parts] for f in files for i in range(parts)]
    merged = [[a for f in files for a in f]]
    thinned = [f[::parts] for f in files]
    for variant in (split, merged, thinned):
        assert _wrong(matcher().join(event_ids(), variant)) == []


def test_a_list_that_holds_no_table_paper_joins_nothing() -> None:
    """Every row of the bundled abstracts removed at once: nothing may join."""
    joins = matcher().join(event_ids(), bundled_files(), exclude=set(expected_rows()))
    assert joins == {}


def test_strong_joins_need_a_clear_winner_per_row() -> None:
    ranked = [[(90.0, 5), (10.0, 1)], [(85.0, 5), (12.0, 2)], [(95.0, 7), (5.0, 3)]]
    joins = _strong_joins(ranked)
    assert set(joins) == {2}, "row 5 is contested by two close claims"
    ranked[1] = [(44.0, 5), (12.0, 2)]  # below STRONG_SCORE: no claim
    assert set(_strong_joins(ranked)) == {0, 2}


def test_strong_joins_need_a_margin_over_the_runner_up() -> None:
    assert _strong_joins([[(80.0, 1), (70.0, 2)]]) == {}
    assert set(_strong_joins([[(80.0, 1), (40.0, 2)]])) == {0}


def test_each_tier_is_one_way_to_a_strong_join() -> None:
    ranked = [[(41.0, 1), (34.0, 2)], [(31.0, 3), (18.0, 4)], [(80.0, 5), (70.0, 6)]]
    assert _strong_joins(ranked) == {}
    looser = ((45.0, 2.0), (40.0, 1.15), (30.0, 1.6))
    assert set(_strong_joins(ranked, tiers=looser)) == {0, 1}


def test_longest_increasing_subsequence() -> None:
    values = [5, 1, 6, 2, 7, 3, 8]
    picked = [values[i] for i in _longest_increasing(values)]
    assert picked == sorted(picked) and len(picked) == 4
    assert _longest_increasing([]) == []


def test_names_and_stems() -> None:
    assert {"ProEval"} <= title_names("ProEval: Proactive Failure Discovery")
    assert "RL4RLA" in title_names("RL4RLA: Teaching ML")
    assert "LS2MCGDA" in title_names("LS$^{2}$MC-GDA: A Smoothed Algorithm")
    assert "LS2MCGDA" in compact_words("a novel algorithm, LS$^2$MC-GDA, that")
    assert not title_names("A Fundamental Trade-Off in Non-Uniform Settings")
    assert title_names("Llama3 Goes Medical: Tuning at Scale") == {"Llama3"}  # letters, digits
    assert not title_names("Scaling to 2048 Experts in 3D")  # digits alone, or too short
    assert stems("Évaluation of Models") == stems("evaluation of model")
    assert stems(r"\textbf{PRISM} and **P**lasticity") == ["prism", "and", "plastic"]


def test_matcher_on_a_tiny_table_is_cautious() -> None:
    """With three titles every word is equally rare: no score reaches a strong join."""
    index = TitleIndex(["Alpha Methods", "Beta Methods", "Gamma Rays"])
    joins = AbstractMatcher(index, ["We study alpha methods."]).join([1, 2, 3])
    assert joins == {}


def test_joins_are_deterministic() -> None:
    """Scoring is done once per matcher; every join over it gives the same answer."""
    m = matcher()
    first = m.join(event_ids(), bundled_files())
    assert m.join(event_ids(), bundled_files()) == first
    assert len(title_index()) == 6628


def _synthetic_list(seed: int, size: int) -> tuple[list[int], list[str]]:
    """Abstract-like texts made from random titles (half their words, shuffled filler)."""
    rng = random.Random(seed)
    rows, ids = posters(), event_ids()
    picked = sorted(rng.sample(range(len(rows)), size), key=lambda i: ids[i])
    filler = ["We", "study", "this", "problem", "and", "report", "experiments", "on", "data."]
    texts = []
    for row in picked:
        kept = [w for w in rows[row].paper.title_raw.split() if rng.random() < 0.5]
        texts.append(" ".join([*kept, *rng.sample(filler, 6), *kept[::-1]]))
    return picked, texts


@pytest.mark.parametrize("seed", [1, 2])
def test_unseen_synthetic_lists_join_exactly(seed: int) -> None:
    """Lists never seen by the tuning: ordered, shuffled, and with every true row gone."""
    picked, texts = _synthetic_list(seed, 300)
    m = AbstractMatcher(title_index(), texts)
    in_order = list(range(len(texts)))
    for files in ([in_order], [random.Random(seed).sample(in_order, len(in_order))]):
        joins = m.join(event_ids(), files)
        assert joins and all(j.row == picked[a] for a, j in joins.items())
    assert m.join(event_ids(), [in_order], exclude=set(picked)) == {}


def test_possible_rows_are_right_and_never_offered_for_a_removed_row() -> None:
    """ "Possibly the same as" is shown, not joined: it must still be the right row.

    With each row removed in turn, the possible rows are checked in
    :func:`test_each_abstract_stays_unjoined_when_its_row_is_removed` (the same joins).
    """
    m, ids, files, expected = matcher(), event_ids(), bundled_files(), expected_rows()
    joins = m.join(ids, files)
    assert m.possible and not set(m.possible) & set(joins)
    assert all(expected[a] == row for a, row in m.possible.items())
    shuffled = [random.Random(7).sample(f, len(f)) for f in files]
    joins = m.join(ids, shuffled)
    assert len(m.possible) >= 10 and m.by_title == set(m.possible)
    assert all(expected[a] == row for a, row in m.possible.items())
