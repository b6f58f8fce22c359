"""Issue 36.10, 36.11, 36.13: a join by hand is bound to its event id, read by one parser.

On a cut of the real table (copied, a row retitled or taken out, as an update of the feed
would) and real bundled abstracts (:func:`tests.helpers.catalogue_data.write_lone_list`):
the cut of ``lone_cut`` (45 papers), where the list gets the joins and hints of the whole
table (``test_hand_joins.py`` checks it); a join by hand binds one row, read alike at any
size, and each build of the whole table took 1.0-1.5 s of CPU.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from index_builder.catalogue.joins.by_hand import (
    HandJoin,
    JoinRefused,
    add_join,
    is_hand_joined,
    join_state,
    parse_apart,
    parse_line,
    plan_apart,
    plan_join,
    read_joins,
    remove_joins,
)
from index_builder.catalogue.load import Catalogue
from index_builder.sources.records import record_from_json
from tests.helpers.catalogue_builds import from_nothing
from tests.helpers.catalogue_data import (
    JOINED_ABSTRACT,
    JOINED_ROW,
    LONE_ABSTRACT,
    LONE_HINT,
    NEW_TITLE,
    UNHINTED_ROW,
    table_copy,
)

DAY = dt.date(2026, 12, 5)


@pytest.fixture
def cut(lone_cut: list[Path]) -> Path:
    """The cut of the table (shared, read only)."""
    return lone_cut[0]


@pytest.fixture
def build(lone_cut: list[Path]) -> Callable[..., Catalogue]:
    """The catalogue of ``table``, the lone list (shared, read only) and ``extra`` files."""

    def built(table: Path, *extra: Path) -> Catalogue:
        return from_nothing([table, lone_cut[1], *extra])

    return built


@pytest.fixture
def joined(tmp_path: Path, cut: Path, build: Callable[..., Catalogue]) -> Path:
    """``joins.jsonl`` holding the join of the lone abstract to its row, made on the table."""
    before = build(cut)
    joins = tmp_path / "joins.jsonl"
    add_join(joins, plan_join(before.get, LONE_ABSTRACT, LONE_HINT, today=DAY))
    return joins


def test_a_retitle_by_an_update_keeps_the_join(
    tmp_path: Path, cut: Path, joined: Path, build: Callable[..., Catalogue]
) -> None:
    table = table_copy(tmp_path / "feed", retitle=LONE_HINT, table=cut)
    after = build(table, joined)
    paper = after.get(LONE_ABSTRACT)
    assert paper is not None and paper.id == LONE_HINT and paper.title == NEW_TITLE
    assert paper.abstract and "joins.jsonl:1" in paper.sources
    assert [p for p in after.papers if p.abstract_raw == paper.abstract_raw] == [paper]
    assert is_hand_joined(paper, joined) and not after.problems
    assert join_state(after.get, read_joins(joined)[0]) == ""


def test_a_paper_gone_from_the_feed_leaves_the_abstract_alone_and_says_so(
    tmp_path: Path, cut: Path, joined: Path, build: Callable[..., Catalogue]
) -> None:
    table = table_copy(tmp_path / "feed", drop=LONE_HINT, table=cut)
    after = build(table, joined)
    assert after.get(LONE_HINT) is None  # no ghost paper of the join line
    assert not [p for p in after.papers if p.event_id == int(LONE_HINT)]
    alone = after.get(LONE_ABSTRACT)
    assert alone is not None and alone.event_id is None and alone.title_derived
    assert not any(s.startswith("joins.jsonl") for s in alone.sources)
    [problem] = after.problems
    assert not problem.fatal and problem.path == str(joined)
    assert f"your join to {LONE_HINT}" in problem.message
    assert "no longer in the table" in problem.message
    assert "not in force" in join_state(after.get, read_joins(joined)[0])
    # Taken back by the event id alone, though no paper has it any more.
    assert [j.event_id for j in remove_joins(joined, after.get, LONE_HINT)] == [int(LONE_HINT)]


def test_a_quoted_event_id_is_one_join_for_the_catalogue_and_the_join_commands(
    cut: Path, joined: Path, build: Callable[..., Catalogue]
) -> None:
    data = json.loads(joined.read_text(encoding="utf-8"))
    joined.write_text(json.dumps({**data, "event_id": f"{LONE_HINT}"}) + "\n", encoding="utf-8")
    line = joined.read_text(encoding="utf-8").strip()
    join = parse_line(line)
    assert join is not None and join.event_id == int(LONE_HINT) and parse_apart(line) is None
    after = build(cut, joined)
    row = after.get(LONE_HINT)
    assert row is not None and row.abstract and LONE_ABSTRACT in row.aliases
    with pytest.raises(JoinRefused, match="you joined"):  # not "no abstract to take apart"
        plan_apart(after.get, LONE_HINT, joined)
    assert [j.event_id for j in remove_joins(joined, after.get, LONE_HINT)] == [int(LONE_HINT)]
    assert not joined.exists()


def test_a_quoted_separation_is_read_alike_by_both(tmp_path: Path) -> None:
    line = json.dumps({"apart": True, "event_id": JOINED_ROW, "abstract_ids": [JOINED_ABSTRACT]})
    apart = parse_apart(line)
    assert apart is not None and apart.event_id == int(JOINED_ROW)
    record = record_from_json(json.loads(line), "joins.jsonl", 1)
    assert record.apart and record.paper.event_id == apart.event_id
    assert record.paper.aliases == apart.abstract_ids


def test_a_second_join_of_one_abstract_is_refused(
    tmp_path: Path, cut: Path, joined: Path, build: Callable[..., Catalogue]
) -> None:
    # The first join's paper left the table: the abstract stands alone again, so the
    # catalogue would let it be joined a second time.
    gone = build(table_copy(tmp_path / "feed", drop=LONE_HINT, table=cut), joined)
    second = plan_join(gone.get, LONE_ABSTRACT, UNHINTED_ROW, today=DAY)
    kept = joined.read_bytes()
    with pytest.raises(JoinRefused, match=f"{LONE_ABSTRACT} is already joined by hand to"):
        add_join(joined, second)
    assert joined.read_bytes() == kept


def test_two_join_lines_of_one_abstract_make_one_paper(
    cut: Path, joined: Path, build: Callable[..., Catalogue]
) -> None:
    first = read_joins(joined)[0]
    other = build(cut).get(UNHINTED_ROW)
    assert other is not None
    twice = HandJoin.of(int(UNHINTED_ROW), other.title_raw, first.abstract, "2026-12-06")
    with joined.open("a", encoding="utf-8") as out:
        out.write(twice.line() + "\n")
    after = build(cut, joined)
    holding = [p.id for p in after.papers if p.abstract_raw == first.abstract]
    assert holding == [LONE_HINT]
    assert not after.get(UNHINTED_ROW).abstract  # type: ignore[union-attr]
