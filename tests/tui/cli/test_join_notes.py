"""``paperscope join`` and ``--apart`` note which papers they changed, and the next search
changes the index in place from that note: it digests those papers alone and answers as
a search whose change compared every paper (:mod:`index_builder.search.changed_papers`).
The kept table papers are served from the catalogue the command read before the change
(:func:`index_builder.catalogue.kept_papers.offer`): none of the kept file is unpickled.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from index_builder.search import changed_papers, in_place
from tests.helpers.catalogue_data import JOINED_ABSTRACT, JOINED_ROW, LONE_ABSTRACT, LONE_HINT
from tests.helpers.change_spies import count_derived, count_digests, count_unpickled
from tests.helpers.join_homes import Command, built_join_home, copied_join_home
from tests.tui.cli.test_join_cli import on_sources


@pytest.fixture
def digested(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the papers the change in place digested."""
    return count_digests(monkeypatch)


@pytest.fixture
def unpickled(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per time the kept table papers' file had its papers unpickled."""
    return count_unpickled(monkeypatch)


def homes(factory: pytest.TempPathFactory, root: Path) -> tuple[Command, Command]:
    """Two copies of the same built home: one that searches, one that searches with no note."""
    built = built_join_home(factory)
    calls = []
    for name in ("noted", "plain"):
        sources = copied_join_home(built, root / name, certain=False, marked=False)
        calls.append(on_sources(root / name, sources))
    return calls[0], calls[1]


def hits(call: Command) -> list[tuple[str, float]]:
    done = call("search", "learning", "--json", "--limit", "500")
    assert done.returncode == 0, done.stderr
    return [(h["id"], h["score"]) for h in json.loads(done.stdout)["hits"]]


@pytest.fixture
def derived(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Per catalogue build of a change, whether it was made from the catalogue before."""
    return count_derived(monkeypatch)


@pytest.mark.parametrize(
    ("change", "touched", "fast"),
    [(("join", LONE_ABSTRACT), {LONE_ABSTRACT, LONE_HINT}, True),
     (("join", "--apart", JOINED_ROW), {JOINED_ROW, JOINED_ABSTRACT}, False)],
)  # fmt: skip
def test_the_search_after_a_join_changes_the_index_from_its_note(
    tmp_path_factory: pytest.TempPathFactory,
    tmp_path: Path,
    digested: list[str],
    unpickled: list[int],
    derived: list[bool],
    change: tuple[str, ...],
    touched: set[str],
    fast: bool,
) -> None:
    noted, plain = homes(tmp_path_factory, tmp_path)
    for call in (noted, plain):
        hits(call)  # the index made for the catalogue before the change
        derived.clear()
        assert call(*change).returncode == 0
        assert derived == [fast]  # a join by hand merges nothing; a take-apart is built
    assert unpickled == []
    (tmp_path / "plain" / "cache" / changed_papers.NOTE).unlink()

    digested.clear()
    after_note = hits(noted)
    assert digested and set(digested) <= touched  # the changed row (the lone abstract went)
    digested.clear()
    assert hits(plain) == after_note and len(set(digested)) > 100
    folders = [tmp_path / home / "cache" / "index" for home in ("noted", "plain")]
    assert in_place.load_manifest(folders[0]) == in_place.load_manifest(folders[1])
