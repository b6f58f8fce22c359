"""Joins by hand (``joins.jsonl``): made, read back as a source, refused, taken back.

Built on real bundled abstracts: one joins its row by itself, one stays on its own with a
right "possibly the same as" hint, one without (see
:func:`tests.helpers.catalogue_data.write_lone_list`). The joins by hand are made on a cut
of the real table (``lone_cut``, 45 papers), where the three get the joins and hints they
get on the whole table (checked here): a join by hand is one row and one abstract, read
alike at any size, and each build of the whole table took 1.0-1.5 s of CPU. What ranks a
paper among all others (the candidates offered) is checked on the whole table.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from index_builder.catalogue.joins.by_hand import (
    Apart,
    Candidates,
    HandJoin,
    JoinRefused,
    add_join,
    conference_text,
    is_hand_joined,
    joinable,
    listed_abstract_ids,
    parse_apart,
    parse_line,
    plan_apart,
    plan_join,
    read_aparts,
    read_joins,
    remove_joins,
)
from index_builder.catalogue.load import Catalogue, load_catalogue
from index_builder.model import Paper
from tests.helpers.catalogue_builds import from_nothing
from tests.helpers.catalogue_data import (
    JOINED_ABSTRACT,
    JOINED_ROW,
    LONE_ABSTRACT,
    LONE_HINT,
    TABLE,
    UNHINTED_ABSTRACT,
    UNHINTED_ROW,
    lists,
    truth,
)

DAY = dt.date(2026, 12, 5)


@pytest.fixture(scope="module")
def build(lone_cut: list[Path]) -> Callable[..., Catalogue]:
    """The catalogue of the cut table, the lone list (shared, read only) and ``extra`` files."""

    def built(*extra: Path) -> Catalogue:
        return from_nothing([*lone_cut, *extra])

    return built


@pytest.fixture(scope="module")
def before(build: Callable[..., Catalogue]) -> Catalogue:
    return build()


@pytest.fixture(scope="module")
def whole(lone_list: Path) -> Catalogue:
    """The catalogue of the whole table and the lone list."""
    return from_nothing([TABLE, lone_list])


def test_the_cut_gives_the_list_the_joins_and_hints_of_the_whole_table(
    before: Catalogue, whole: Catalogue
) -> None:
    for abstract in (JOINED_ABSTRACT, LONE_ABSTRACT, UNHINTED_ABSTRACT):
        on_cut, on_whole = before.get(abstract), whole.get(abstract)
        assert on_cut is not None and on_whole is not None
        assert (on_cut.id, on_cut.possibly_same_as) == (on_whole.id, on_whole.possibly_same_as)
    assert before.get(JOINED_ABSTRACT).id == JOINED_ROW  # type: ignore[union-attr]
    assert before.get(LONE_ABSTRACT).possibly_same_as == (LONE_HINT,)  # type: ignore[union-attr]
    assert before.get(UNHINTED_ABSTRACT).possibly_same_as == ()  # type: ignore[union-attr]


def test_the_lone_abstract_joins_its_hinted_row_and_keeps_its_id(
    tmp_path: Path, before: Catalogue, build: Callable[..., Catalogue]
) -> None:
    lone = before.get(LONE_ABSTRACT)
    assert lone is not None and lone.event_id is None and lone.possibly_same_as == (LONE_HINT,)
    row = before.get(LONE_HINT)
    assert row is not None and not row.abstract

    joins = tmp_path / "joins.jsonl"
    join = plan_join(before.get, LONE_ABSTRACT, LONE_HINT, today=DAY)
    assert (join.event_id, join.joined, join.abstract_id) == (64328, "2026-12-05", LONE_ABSTRACT)
    add_join(joins, join)
    assert json.loads(joins.read_text())["title"] == row.title_raw

    after = build(joins)
    paper = after.get(LONE_ABSTRACT)
    assert paper is not None and paper.id == LONE_HINT  # the old id is an alias
    assert paper.abstract == lone.abstract and paper.authors == row.authors
    assert paper.title == row.title and paper.session == row.session
    assert "mine.txt:2" in paper.sources and "joins.jsonl:1" in paper.sources
    assert not after.problems
    assert len(after) == len(before) - 1  # one paper fewer: the abstract has its row
    assert is_hand_joined(paper, joins) and not is_hand_joined(row, tmp_path / "none.jsonl")
    assert not is_hand_joined(after.get(JOINED_ROW), joins)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("abstract", "paper", "said"),
    [
        ("a0000000000", LONE_HINT, "no paper with id 'a0000000000'"),
        (LONE_ABSTRACT, "99999999", "no paper with id '99999999'"),
        (JOINED_ABSTRACT, LONE_HINT, f"{JOINED_ABSTRACT} is already joined to {JOINED_ROW}"),
        (LONE_HINT, LONE_ABSTRACT, f"{LONE_HINT} is a table paper"),
        (LONE_ABSTRACT, JOINED_ROW, f"{JOINED_ROW} (ProEval"),
        (LONE_ABSTRACT, LONE_ABSTRACT, "is not a paper of the ICML 2026 table"),
    ],
)
def test_a_join_that_cannot_be_right_is_refused(
    before: Catalogue, abstract: str, paper: str, said: str
) -> None:
    with pytest.raises(JoinRefused, match=None) as caught:
        plan_join(before.get, abstract, paper)
    assert said in str(caught.value)


def test_a_row_with_an_abstract_is_never_given_another(before: Catalogue) -> None:
    with pytest.raises(JoinRefused, match="already has an abstract; a join never replaces one"):
        plan_join(before.get, LONE_ABSTRACT, JOINED_ROW)


def test_taking_back_a_join_by_either_id_restores_the_lone_abstract(
    tmp_path: Path, before: Catalogue, build: Callable[..., Catalogue]
) -> None:
    joins = tmp_path / "joins.jsonl"
    add_join(joins, plan_join(before.get, LONE_ABSTRACT, LONE_HINT, today=DAY))
    joined = build(joins)
    removed = remove_joins(joins, joined.get, LONE_ABSTRACT)  # the abstract's id: an alias now
    assert [j.event_id for j in removed] == [64328]
    assert not joins.exists()  # an empty record file would be named as a bad source
    again = build()
    assert again.get(LONE_ABSTRACT).possibly_same_as == (LONE_HINT,)  # type: ignore[union-attr]

    add_join(joins, plan_join(before.get, LONE_ABSTRACT, LONE_HINT, today=DAY))
    assert [j.abstract_id for j in remove_joins(joins, joined.get, LONE_HINT)] == [LONE_ABSTRACT]
    with pytest.raises(JoinRefused, match="no join you made is on '64328'"):
        remove_joins(joins, joined.get, LONE_HINT)


def test_lines_it_cannot_read_are_kept_through_every_write(
    tmp_path: Path, before: Catalogue
) -> None:
    joins = tmp_path / "joins.jsonl"
    kept = ['{"event_id": "64328", "note": "mine"}', "not json at all"]
    joins.write_text("\n".join(kept) + "\n\n", encoding="utf-8")
    join = plan_join(before.get, LONE_ABSTRACT, LONE_HINT, today=DAY)
    add_join(joins, join)
    assert joins.read_text(encoding="utf-8").splitlines() == [*kept, join.line()]
    assert read_joins(joins) == [join]
    remove_joins(joins, before.get, LONE_HINT)
    assert joins.read_text(encoding="utf-8").splitlines() == kept


def test_a_file_that_is_not_utf8_is_named_and_left_alone(tmp_path: Path, before: Catalogue) -> None:
    joins = tmp_path / "joins.jsonl"
    joins.write_bytes(b'{"title": "caf\xe9"}\n')
    join = plan_join(before.get, LONE_ABSTRACT, LONE_HINT, today=DAY)
    with pytest.raises(JoinRefused, match=r"joins.jsonl is not UTF-8 text"):
        add_join(joins, join)
    assert joins.read_bytes() == b'{"title": "caf\xe9"}\n'


def test_a_line_round_trips_and_odd_lines_hold_no_join() -> None:
    join = HandJoin.of(1, "T \u201cq\u201d", "A $x^2$\nnext", "2026-12-05")
    assert parse_line(join.line()) == join and "\n" not in join.line()
    for line in ("[1]", '{"event_id": true, "title": "t", "abstract": "a"}', "{", '"x"'):
        assert parse_line(line) is None


def test_the_candidates_are_free_papers_the_hinted_one_first(whole: Catalogue) -> None:
    candidates = Candidates(whole.papers)
    hinted = candidates.of(whole.get(LONE_ABSTRACT))  # type: ignore[arg-type]
    unhinted = candidates.of(whole.get(UNHINTED_ABSTRACT))  # type: ignore[arg-type]
    assert hinted[0].id == LONE_HINT and unhinted[0].id == UNHINTED_ROW
    assert len(hinted) == len(unhinted) == 5
    assert all(joinable(p) for p in (*hinted, *unhinted))
    assert JOINED_ROW not in {p.id for p in candidates.papers}  # it has its abstract
    assert candidates.of(Paper("a1", "x", abstract_raw="zzzqqq xxyyzz")) == []


def test_a_paper_without_abstract_is_offered_the_lone_abstracts_hinted_first(
    whole: Catalogue,
) -> None:
    candidates = Candidates(whole.papers)
    assert {a.id for a in candidates.lone} == {LONE_ABSTRACT, UNHINTED_ABSTRACT}
    polyak = candidates.abstracts_for(whole.get(UNHINTED_ROW))  # type: ignore[arg-type]
    assert [a.id for a in polyak][:1] == [UNHINTED_ABSTRACT]
    hinted = candidates.abstracts_for(whole.get(LONE_HINT))  # type: ignore[arg-type]
    assert [a.id for a in hinted][:1] == [LONE_ABSTRACT]
    assert candidates.abstracts_for(whole.get(JOINED_ROW)) == []  # type: ignore[arg-type]


def test_the_right_paper_is_a_candidate_for_nearly_every_abstract_left_alone(
    tmp_path: Path, warm_cache_copy: Path
) -> None:
    """The 76 bundled abstracts shuffled into one file: of those left on their own, the
    right paper is the first candidate for 28 and among the five for 34 of 36.

    The catalogue is built through the bundled data's caches (the table read and its
    papers made from them; the list joined): the candidates are what this checks."""
    import random

    texts = [" ".join(e.text.split()) for entries in lists() for e in entries]
    random.Random(3).shuffle(texts)
    listed = tmp_path / "shuffled.txt"
    listed.write_text("ICML 2026 Papers\n\n" + "\n\n".join(texts) + "\n", encoding="utf-8")
    catalogue = load_catalogue([TABLE, listed], cache_dir=warm_cache_copy)
    owner = truth()
    candidates = Candidates(catalogue.papers)
    alone = [p for p in catalogue.papers if p.event_id is None]
    ranks = [[c.event_id for c in candidates.of(p)] for p in alone]
    firsts = sum(1 for p, r in zip(alone, ranks, strict=True) if r[:1] == [owner[p.id]])
    within = sum(1 for p, r in zip(alone, ranks, strict=True) if owner[p.id] in r)
    figures = (len(alone), firsts, within)
    assert len(alone) >= 30 and firsts >= 0.75 * len(alone), figures
    assert within >= 0.9 * len(alone), figures


def test_a_join_taken_apart_leaves_both_on_their_own_and_is_never_made_again(
    tmp_path: Path, before: Catalogue, build: Callable[..., Catalogue]
) -> None:
    joined = before.get(JOINED_ROW)
    assert joined is not None and joined.abstract and JOINED_ABSTRACT in joined.aliases
    assert listed_abstract_ids(joined) == (JOINED_ABSTRACT,)
    joins = tmp_path / "joins.jsonl"
    apart = plan_apart(before.get, JOINED_ABSTRACT, joins, today=DAY)  # either id names it
    assert (apart.event_id, apart.abstract_ids, apart.separated) == (
        int(JOINED_ROW),
        (JOINED_ABSTRACT,),
        "2026-12-05",
    )
    add_join(joins, apart)
    assert read_joins(joins) == []  # a separation is no join

    after = build(joins)
    row, alone = after.get(JOINED_ROW), after.get(JOINED_ABSTRACT)
    assert row is not None and not row.abstract and JOINED_ABSTRACT not in row.aliases
    assert row.authors == joined.authors and row.title == joined.title
    assert alone is not None and alone.id == JOINED_ABSTRACT and alone.event_id is None
    assert alone.abstract == joined.abstract and JOINED_ROW not in alone.possibly_same_as
    assert not after.problems and len(after) == len(before) + 1
    assert joinable(row)  # a join by hand may still put them together: the user's word
    assert Candidates(after.papers).of(alone)[0].id == JOINED_ROW  # by the titles alone
    offered = Candidates(after.papers, read_aparts(joins))
    assert JOINED_ROW not in [p.id for p in offered.of(alone)] and len(offered.of(alone)) == 5
    assert JOINED_ABSTRACT not in [a.id for a in offered.abstracts_for(row)]

    removed = remove_joins(joins, after.get, JOINED_ROW)
    assert removed == [apart] and not joins.exists()
    assert build().get(JOINED_ABSTRACT).id == JOINED_ROW  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("paper", "said"),
    [
        ("99999999", "no paper with id '99999999'"),
        (LONE_ABSTRACT, "is not a paper of the ICML 2026 table"),
        (UNHINTED_ROW, "holds no abstract of your lists to take apart"),
    ],
)
def test_only_an_automatic_join_of_a_listed_abstract_is_taken_apart(
    tmp_path: Path, before: Catalogue, paper: str, said: str
) -> None:
    with pytest.raises(JoinRefused) as caught:
        plan_apart(before.get, paper, tmp_path / "joins.jsonl")
    assert said in str(caught.value)


def test_a_join_made_by_hand_is_taken_back_not_apart(
    tmp_path: Path, before: Catalogue, build: Callable[..., Catalogue]
) -> None:
    joins = tmp_path / "joins.jsonl"
    add_join(joins, plan_join(before.get, LONE_ABSTRACT, LONE_HINT, today=DAY))
    joined = build(joins)
    with pytest.raises(JoinRefused, match=f"paperscope join --undo {LONE_HINT} takes that back"):
        plan_apart(joined.get, LONE_HINT, joins)


def test_a_separation_round_trips_and_bad_ones_are_named_and_skipped(
    tmp_path: Path, lone_cut: list[Path]
) -> None:
    cut = lone_cut[0]
    apart = Apart.of(62850, "T \u201cq\u201d", ("a63f9df05de", "a0123456789"), "2026-12-05")
    assert parse_apart(apart.line()) == apart and parse_line(apart.line()) is None
    assert parse_apart(HandJoin.of(1, "T", "A").line()) is None
    for line in ('{"apart": true, "event_id": 1, "abstract_ids": []}', '{"apart": 1}', "{"):
        assert parse_apart(line) is None
    joins = tmp_path / "joins.jsonl"
    joins.write_text(apart.line() + '\n{"apart": true, "event_id": 62850}\n', encoding="utf-8")
    built = load_catalogue([cut, joins])
    assert [p.message for p in built.problems] == [
        "1 of 2 records skipped (1 a join taken apart without its event_id and abstract_ids)"
    ]


def test_taking_back_a_join_by_hand_keeps_the_separation_before_it(
    tmp_path: Path, before: Catalogue, build: Callable[..., Catalogue]
) -> None:
    joins = tmp_path / "joins.jsonl"
    add_join(joins, plan_apart(before.get, JOINED_ROW, joins, today=DAY))
    apart = build(joins)
    add_join(joins, plan_join(apart.get, JOINED_ABSTRACT, LONE_HINT, today=DAY))  # elsewhere
    joined = build(joins)
    assert joined.get(JOINED_ABSTRACT).id == LONE_HINT  # type: ignore[union-attr]

    first = remove_joins(joins, joined.get, LONE_HINT)
    assert [type(r) for r in first] == [HandJoin]  # the separation stays
    again = build(joins)
    alone = again.get(JOINED_ABSTRACT)
    assert alone is not None and alone.event_id is None  # not joined back to its wrong row
    assert [type(r) for r in remove_joins(joins, again.get, JOINED_ABSTRACT)] == [Apart]
    assert not joins.exists()


def test_the_conference_own_text_is_a_join_no_separation_overrides(
    tmp_path: Path, lone_cut: list[Path], build: Callable[..., Catalogue]
) -> None:
    from tests.helpers.feed_data import ICML_ABSTRACTS, ICML_FEED

    folder = lone_cut[0].parent  # the cut's feed records, their abstracts the bundled texts
    catalogue = build(folder / ICML_FEED, folder / ICML_ABSTRACTS)
    row = catalogue.get(JOINED_ROW)
    assert row is not None and conference_text(row) and JOINED_ABSTRACT in row.aliases
    with pytest.raises(JoinRefused, match=f"{JOINED_ROW} keeps its abstract: the conference"):
        plan_apart(catalogue.get, JOINED_ROW, tmp_path / "joins.jsonl")
    without_feed = build().get(JOINED_ROW)  # the list's text, the same id
    assert without_feed is not None and not conference_text(without_feed)
    assert plan_apart(build().get, JOINED_ROW, tmp_path / "joins.jsonl").event_id == 62850
