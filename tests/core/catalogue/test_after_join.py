"""A join by hand made from the catalogue before it (:mod:`index_builder.catalogue.after_join`)
gives the catalogue a build from nothing gives, and runs where it should: no parsed
source unpickled, no merge.

Random chains of joins, take-aparts and undos (as ``paperscope join`` and ``J`` make
them, through :func:`~index_builder.search.changed_papers.rebuilt_after`) on a cut of the
table, and two joins made so one after the other on the whole bundled table, each step
compared with a build from nothing; then each case the fast path must leave to the build
(it must fall back, and the build it falls back to must agree).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from index_builder import venues
from index_builder.catalogue import load, merge
from index_builder.catalogue.joins.by_hand import (
    Apart,
    JoinRefused,
    add_join,
    apart_took,
    is_hand_joined,
    joinable,
    listed_abstract_ids,
    plan_apart,
    plan_join,
    read_lines,
    remove_joins,
)
from index_builder.catalogue.load import Catalogue, load_catalogue
from index_builder.catalogue.source_cache import SourceCache
from index_builder.paths import bundled_sources
from index_builder.search.changed_papers import rebuilt_after
from index_builder.sources.records import abstract_id
from index_builder.venue_config import from_table
from tests.helpers.catalogue_builds import from_nothing
from tests.helpers.catalogue_data import LONE_ABSTRACT, LONE_HINT
from tests.helpers.change_spies import count_derived, count_unpickled

DAY = dt.date(2026, 12, 7)
_WORDS = " ".join(
    [
        "garden soil compost harvest orchard pruning trellis mulch seedling greenhouse",
        "sourdough crumb proofing kneading oven crust rye barley bakery flour",
        "lighthouse harbour tide ferry anchor keel sail rope knot gull",
    ]
).split()
"""Words no ICML title holds: an abstract of them stays alone, without a hint."""


def colliding_pair() -> tuple[str, str]:
    """Two abstracts whose ids share their 40 bits (``a1423a89b4a``): the build gives the
    second a lengthened id. Found once by a birthday search over 1,008,438 texts of
    ``_WORDS`` (a second of CPU), kept here as its two endings."""
    rng = random.Random(41)
    start = "We study " + " ".join(rng.choice(_WORDS) for _ in range(40))
    return (
        f"{start} compost sail greenhouse gull garden garden.",
        f"{start} barley oven sourdough mulch soil garden.",
    )


def synthetic_list(path: Path, seed: int, authors: tuple[str, ...] = ()) -> Path:
    """An abstract list no table paper is: texts of words no ICML title holds (lone, no
    hint), one with a code link and LaTeX, a twin pair (one under an author line), one
    abstract twice, and, given ``authors``, one opening with that author line."""
    rng = random.Random(seed)

    def text() -> str:
        words = [rng.choice(_WORDS) for _ in range(45)]
        return "We study " + " ".join(words) + "."

    texts = [text() for _ in range(6)]
    texts.append(text()[:-1] + r" with $\mu$ steps, code at https://github.com/example/bread.")
    twin = text()
    texts += [twin, "Ada Lovelace, Charles Babbage. " + twin]
    texts.append(texts[0])  # the same abstract in a second place
    if authors:
        texts.append(", ".join(authors) + ". " + text())
    path.write_text("Mine\n\n" + "\n\n".join(texts) + "\n", encoding="utf-8")
    return path


def digest(catalogue: Catalogue) -> str:
    """Every field of every paper and problem, as the analysis-version test digests them:
    the JSON of ``dataclasses.asdict`` of each paper, its dataclasses written as dicts by the
    encoder (the same text; ``asdict``'s deep copy of every field took 0.4 s of CPU a
    catalogue of the whole table, 45 % of the bundled chain's test, this 0.17 s)."""
    problems = [(p.path, p.message, p.fatal) for p in catalogue.problems]
    text = json.dumps(
        [list(catalogue.papers), problems], sort_keys=True, default=_fields, ensure_ascii=False
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _fields(value: object) -> object:
    """A dataclass's fields by name (as ``asdict`` gives them), anything else as text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    return str(value)


def assert_same(made: Catalogue, fresh: Catalogue) -> None:
    assert made.fingerprint == fresh.fingerprint
    assert made.papers == fresh.papers
    assert made.problems == fresh.problems
    assert digest(made) == digest(fresh)


class Spy:
    """What each build did: the fast path's answers, the merges and the sources unpickled."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.fast = count_derived(monkeypatch)
        self.merges = 0
        self.unpickled = 0
        real_merge, real_get = merge.build_papers, SourceCache.get

        def merged(*args: object) -> object:
            self.merges += 1
            return real_merge(*args)  # type: ignore[arg-type]

        def get(cache: SourceCache, *args: object) -> object:
            self.unpickled += 1
            return real_get(cache, *args)  # type: ignore[arg-type]

        monkeypatch.setattr(merge, "build_papers", merged)
        monkeypatch.setattr(SourceCache, "get", get)

    def clear(self) -> None:
        self.fast.clear()
        self.merges = self.unpickled = 0


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    return Spy(monkeypatch)


class Home:
    """Sources, a joins file and a cache, changed as the command changes them."""

    def __init__(self, tmp: Path, sources: list[Path], cache: Path | None = None) -> None:
        self.sources, self.joins = sources, tmp / "data" / "joins.jsonl"
        self.cache = cache or tmp / "cache"
        self.shown = load_catalogue(self.all(), cache_dir=self.cache)

    def all(self) -> list[Path]:
        """The sources as the command lists them: the joins file only when it exists."""
        return [*self.sources, *([self.joins] if self.joins.is_file() else [])]

    def rebuilt(self) -> Catalogue:
        """The catalogue after a change, as ``join`` and ``J`` build it."""

        def build() -> Catalogue:
            return load_catalogue(self.all(), cache_dir=self.cache)

        self.shown = rebuilt_after(self.cache / "index", self.shown, build)
        return self.shown

    def check(self) -> None:
        """The catalogue shown is the one a build from nothing gives (kept per process by
        the sources' bytes: an undo's sources are those of a step before)."""
        assert_same(self.shown, from_nothing(self.all()))


def random_step(home: Home, rng: random.Random) -> str:
    """One change as a user makes it (a join, a take-apart or an undo), rebuilt; what it was."""
    cat = home.shown
    lone = [p for p in cat.papers if p.event_id is None and p.abstract_raw]
    rows = [p for p in cat.papers if joinable(p)]
    parted = [p for p in cat.papers if listed_abstract_ids(p) and not is_hand_joined(p, home.joins)]
    lines = read_lines(home.joins)
    kinds = ["join"] * 3 + ["apart"] * bool(parted) + ["undo"] * 2 * bool(lines)
    kind = rng.choice(kinds) if lone and rows else "undo" if lines else "apart"
    try:
        if kind == "join":
            abstract = rng.choice(lone)
            hint = abstract.possibly_same_as
            row = hint[0] if hint and rng.random() < 0.5 else rng.choice(rows).id
            add_join(home.joins, plan_join(cat.get, abstract.id, row, today=DAY))
        elif kind == "apart":
            apart = plan_apart(cat.get, rng.choice(parted).id, home.joins, today=DAY)
            add_join(home.joins, apart)
            if not apart_took(home.joins, home.rebuilt().get, apart):
                home.rebuilt()
            return kind
        else:
            wanted = json.loads(rng.choice(lines))["event_id"]
            remove_joins(home.joins, cat.get, str(wanted))
    except JoinRefused:
        return "refused"
    home.rebuilt()
    return kind


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_changes_on_a_cut_equal_builds_from_nothing(
    tmp_path: Path, lone_cut: list[Path], spy: Spy, seed: int
) -> None:
    extra = synthetic_list(tmp_path / "extra.txt", seed)
    home = Home(tmp_path, [*lone_cut, extra])
    rng, done = random.Random(seed), []
    for _ in range(12):
        done.append(random_step(home, rng))
        home.check()
    assert "join" in done and any(spy.fast), done  # the fast path ran in the chain


def test_random_changes_on_the_bundled_table_equal_builds_from_nothing(
    tmp_path: Path, lone_list: Path, warm_cache_copy: Path, spy: Spy
) -> None:
    """Two joins on the whole table, each made from the catalogue before it (the second
    from one the first made so), each equal to a build of the table from nothing (~0.65 s
    of CPU). The steps that go through the build (a join the fast path cannot prove, an
    undo, a take-apart, a refusal) are the cut chains': their 36 steps hold each kind."""
    extra = synthetic_list(tmp_path / "extra.txt", 2)
    home = Home(tmp_path, [*bundled_sources(), lone_list, extra], warm_cache_copy)
    rng, done = random.Random(2), []
    spy.clear()
    for _ in range(2):
        done.append(random_step(home, rng))
        home.check()
    assert done == ["join", "join"] and spy.fast == [True, True], (done, spy.fast)


def test_a_join_by_hand_merges_nothing_and_unpickles_no_source(
    tmp_path: Path, lone_cut: list[Path], spy: Spy
) -> None:
    home = Home(tmp_path, list(lone_cut))
    add_join(home.joins, plan_join(home.shown.get, LONE_ABSTRACT, LONE_HINT, today=DAY))
    spy.clear()
    joined = home.rebuilt()
    assert spy.fast == [True] and spy.merges == 0 and spy.unpickled == 0
    assert joined.get(LONE_ABSTRACT).id == LONE_HINT  # type: ignore[union-attr]
    home.check()
    second = synthetic_list(tmp_path / "extra.txt", 5)  # a new source: built, not derived
    home.sources.append(second)
    spy.clear()
    home.rebuilt()
    assert spy.fast == [False] and spy.merges == 1
    home.check()


def lone_of(cat: Catalogue, start: str) -> str:
    """The id of the lone paper whose abstract opens with ``start``."""
    return next(p.id for p in cat.papers if p.event_id is None and p.abstract.startswith(start))


def a_joinable_row(cat: Catalogue, authors: int = 0) -> str:
    """A table paper a join may fill (not the lone abstract's hinted one)."""
    found = (p for p in cat.papers if joinable(p) and p.id != LONE_HINT)
    return next(p.id for p in found if len(p.authors) >= authors)


def join_by_hand(home: Home, abstract: str, row: str) -> Catalogue:
    add_join(home.joins, plan_join(home.shown.get, abstract, row, today=DAY))
    return home.rebuilt()


def test_an_abstract_with_its_author_line_joins_without_it(
    tmp_path: Path, lone_cut: list[Path], spy: Spy
) -> None:
    home = Home(tmp_path, list(lone_cut))
    row = home.shown.get(a_joinable_row(home.shown, authors=2))
    assert row is not None
    home.sources.append(synthetic_list(tmp_path / "extra.txt", 3, row.authors))
    home.rebuilt()
    spy.clear()
    joined = join_by_hand(home, lone_of(home.shown, row.authors[0]), row.id)
    assert spy.fast == [True]
    assert not joined.get(row.id).abstract.startswith(row.authors[0])  # type: ignore[union-attr]
    home.check()


def an_apart(cat: Catalogue, joins: Path) -> Apart:
    """The first take-apart the catalogue allows."""
    for paper in cat.papers:
        if listed_abstract_ids(paper):
            try:
                return plan_apart(cat.get, paper.id, joins, today=DAY)
            except JoinRefused:
                continue
    raise AssertionError("no join to take apart")


def joined_twice(home: Home, *changes: Callable[[Catalogue], tuple[str, str]]) -> None:
    """Each change (an abstract and a row) written alone, then the rebuild."""
    for change in changes:
        abstract, row = change(home.shown)
        add_join(home.joins, plan_join(home.shown.get, abstract, row, today=DAY))
    home.rebuilt()


@pytest.mark.parametrize(
    "case",
    [
        "two lines",
        "hinted row",
        "two places",
        "bare twin",
        "longer twin",
        "lengthened",
        "take-apart",
        "stale",
        "venue",
        "version",
    ],
)
def test_what_the_fast_path_cannot_prove_is_built(
    tmp_path: Path,
    lone_cut: list[Path],
    spy: Spy,
    monkeypatch: pytest.MonkeyPatch,
    case: str,
) -> None:
    home = Home(tmp_path, [*lone_cut, synthetic_list(tmp_path / "extra.txt", 11)])
    cat = home.shown
    twin = next(p for p in cat.papers if p.event_id is None and p.aliases)
    row = a_joinable_row(cat)
    spy.clear()
    if case == "two lines":  # two joins written before one rebuild
        joined_twice(home, lambda c: (LONE_ABSTRACT, LONE_HINT), lambda c: (twin.id, row))
    elif case == "hinted row":  # another lone abstract's hinted row: that hint goes
        other = next(
            p.id
            for p in cat.papers
            if p.event_id is None and p.sources == ("extra.txt:2",)  # one place, no twin
        )
        join_by_hand(home, other, LONE_HINT)
        assert not home.shown.get(LONE_ABSTRACT).possibly_same_as  # type: ignore[union-attr]
    elif case == "two places":  # the same abstract twice in the list
        twice = next(p for p in cat.papers if p.event_id is None and len(p.sources) == 2)
        join_by_hand(home, twice.id, row)
    elif case == "bare twin":  # the bare text, its longer twin merged into it
        join_by_hand(home, twin.id, row)
    elif case == "longer twin":  # a lone abstract whose longer twin stands alone
        longer = "Ada Lovelace, Charles Babbage. " + twin.abstract_raw
        (tmp_path / "more.json").write_text(
            json.dumps([{"title": "A Titled Twin", "abstract": longer}]), encoding="utf-8"
        )
        home.sources.append(tmp_path / "more.json")
        home.rebuilt()
        spy.clear()
        assert home.shown.get(twin.id).aliases == ()  # type: ignore[union-attr]
        join_by_hand(home, twin.id, row)
    elif case == "lengthened":  # the short id's paper leaves: the longer one gets it back
        first, second = colliding_pair()
        assert abstract_id(first) == abstract_id(second) == "a1423a89b4a"
        (tmp_path / "pair.txt").write_text(f"Pair\n\n{first}\n\n{second}\n", encoding="utf-8")
        home.sources.append(tmp_path / "pair.txt")
        home.rebuilt()
        spy.clear()
        assert home.shown.get("a1423a89b4a") is not None
        assert home.shown.get(abstract_id(second, 20)) is not None
        join_by_hand(home, "a1423a89b4a", row)
        assert home.shown.get(abstract_id(second, 20)) is None  # it has the short id again
    elif case == "take-apart":
        add_join(home.joins, an_apart(cat, home.joins))
        home.rebuilt()
    elif case == "stale":  # the catalogue offered is not the one of the sources before
        home.shown = load_catalogue(lone_cut)
        spy.clear()
        join_by_hand(home, LONE_ABSTRACT, LONE_HINT)
    elif case == "venue":  # a venue declared since: the feeds may be read otherwise
        venues.declare([from_table("colm2027", {"host": "colm.cc", "timezone": "UTC"})])
        join_by_hand(home, LONE_ABSTRACT, LONE_HINT)
    else:  # the catalogue's version moved: every source is another catalogue's
        monkeypatch.setattr(load, "CATALOGUE_VERSION", load.CATALOGUE_VERSION + 100)
        join_by_hand(home, LONE_ABSTRACT, LONE_HINT)
    assert spy.fast and not any(spy.fast) and spy.merges == len(spy.fast)
    home.check()


def test_a_build_after_a_join_made_so_is_served_from_its_papers(
    tmp_path: Path, lone_cut: list[Path], spy: Spy, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kept table papers' places are carried over to the catalogue the join made: a
    take-apart built next (offered that catalogue) unpickles none of the stored papers."""
    home = Home(tmp_path, list(lone_cut))
    join_by_hand(home, LONE_ABSTRACT, LONE_HINT)
    assert spy.fast[-1]
    unpickled = count_unpickled(monkeypatch)
    add_join(home.joins, an_apart(home.shown, home.joins))
    home.rebuilt()
    assert not spy.fast[-1] and spy.merges and unpickled == []
    home.check()
