"""``paperscope similar`` and ``paperscope recommend`` on the bundled data: JSON shapes,
human output, exit codes, and the reading list's dismissed papers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from index_builder.paths import HOME_ENV
from index_builder.readinglist.dismissed import Dismissals
from index_builder.readinglist.store import ReadingList
from tests.helpers.cli import run_cli
from tests.helpers.cli_cut import bundled_cut, cut_flags
from tui.cli.main import run

MASSART = ("66407", "62914")
"""The two Massart-noise papers of the bundled data."""
LEARNING_THEORY = ("65618", "65322")


def test_similar_json_is_shaped_like_search(
    own_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["similar", MASSART[0], "--json", "--limit", "5"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["query", "total", "hits"]
    assert data["query"] == MASSART[0] and data["total"] >= 5
    ids = [h["id"] for h in data["hits"]]
    assert len(ids) == 5 and MASSART[0] not in ids
    assert MASSART[1] in ids[:2]  # the other Massart-noise paper
    scores = [h["score"] for h in data["hits"]]
    assert scores == sorted(scores, reverse=True) and scores[0] > 0
    assert {"title", "authors", "abstract"} <= set(data["hits"][0])


def test_similar_human_output_and_unknown_id(
    own_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["similar", MASSART[1], "--limit", "3"]) == 0
    out = capsys.readouterr().out
    assert "Massart" in out
    assert run(["similar", MASSART[1], "--json"]) == 0
    total = json.loads(capsys.readouterr().out)["total"]
    assert f"3 of {total:,} papers like {MASSART[1]} (sharing a word with it)" in out
    assert run(["similar", "no-such-paper"]) == 1
    assert "no paper with id 'no-such-paper'" in capsys.readouterr().err


def test_recommend_needs_three_bookmarks(own_home: Path) -> None:
    """The exit status and the message a script sees (run_cli: the real parsing, command,
    standard output and error, in this process)."""
    for args in (["reading-list", "add", *MASSART], ["recommend", "--json"]):
        done = run_cli(*args, home=own_home)
    assert done.returncode == 1 and done.stdout == ""
    assert "needs at least 3 bookmarked papers" in done.stderr and "3 of papers" not in done.stderr
    assert "you have 2: bookmark 1 more" in done.stderr


def test_recommend_ranks_by_the_reading_list_and_leaves_out_the_dismissed(
    own_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["reading-list", "add", *MASSART, *LEARNING_THEORY]) == 0
    capsys.readouterr()
    assert run(["recommend", "--json", "--limit", "10"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["query", "total", "explain", "seeds", "hits"]
    assert data["query"] == "for:you"
    assert data["total"] > 6600  # every paper of the catalogue but the 4 bookmarked
    # Real words (never stems) of the papers: "hanneke", "massart", not "massart_"/"nois".
    assert run(["show", MASSART[0], "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    text = " ".join(
        f"{h['title']} {h['abstract']} {' '.join(h['authors'])}" for h in [shown, *data["hits"]]
    ).lower()
    assert len(data["explain"]) >= 5
    assert sum(f" {w} " in f" {text} " for w in data["explain"]) >= 3
    # Words or word pairs ("massart noise"), each word a real one.
    parts = [p for w in data["explain"] for p in w.split()]
    assert all(p.isalpha() or p.replace("-", "").isalnum() for p in parts)
    ids = [h["id"] for h in data["hits"]]
    assert len(ids) == 10 and not set(ids) & {*MASSART, *LEARNING_THEORY}
    top = ids[0]
    with ReadingList(own_home / "data" / "reading_list.sqlite3") as store:
        Dismissals(store).add(top)
    assert run(["recommend", "--json", "--limit", "10"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert top not in [h["id"] for h in again["hits"]] and again["total"] == data["total"] - 1
    assert run(["recommend", "--limit", "3"]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]  # the words the ranking weighs most (it counts the dismissal)
    assert first.startswith("For you, by 4 bookmarks: papers about ") and first.count(", ") >= 4


def test_dismissed_papers_go_through_the_json_export_and_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """On a home whose only source is the bookmarked paper's table rows: the export and
    import carry the list, whatever the catalogue (each command read the bundled 6,628
    from the cache first, 0.1-0.2 s of CPU)."""
    home = tmp_path / "home"
    monkeypatch.setenv(HOME_ENV, str(home))
    flags = cut_flags(bundled_cut(tmp_path / "cut", [MASSART[0]]))
    assert run([*flags, "reading-list", "add", MASSART[0]]) == 0
    with ReadingList(home / "data" / "reading_list.sqlite3") as store:
        Dismissals(store).add("61835")
    exported = tmp_path / "list.json"
    assert run([*flags, "reading-list", "export", "--format", "json", "-o", str(exported)]) == 0
    data = json.loads(exported.read_text())
    assert [d["paper_id"] for d in data["dismissed"]] == ["61835"]
    (home / "data" / "reading_list.sqlite3").unlink()
    capsys.readouterr()
    assert run([*flags, "reading-list", "import", str(exported)]) == 0
    assert "1 more dismissed" in capsys.readouterr().out
    with ReadingList(home / "data" / "reading_list.sqlite3") as store:
        assert Dismissals(store).ids() == {"61835"} and store.is_bookmarked(MASSART[0])


def test_search_like_answers_as_similar(own_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 36.12: ``search 'like:ID'`` gave 0 of 0; it lists what ``similar`` lists."""
    assert run(["similar", MASSART[0], "--json", "--limit", "7"]) == 0
    similar = json.loads(capsys.readouterr().out)
    for query in (f"like:{MASSART[0]}", f"LIKE: {MASSART[0]}"):
        assert run(["search", query, "--json", "--limit", "7"]) == 0
        searched = json.loads(capsys.readouterr().out)
        assert [h["id"] for h in searched["hits"]] == [h["id"] for h in similar["hits"]]
        assert searched["total"] == similar["total"] > 7
    assert run(["search", "like:no-such-paper"]) == 1
    assert "no paper with id 'no-such-paper'" in capsys.readouterr().err


def test_search_for_you_answers_as_recommend(
    own_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 36.12: ``search for:you`` gave plain word matches; it ranks as ``recommend``."""
    assert run(["search", "for:you"]) == 1  # no bookmarks yet: what it needs, as recommend
    assert "needs at least 3" in capsys.readouterr().err
    assert run(["reading-list", "add", *MASSART, *LEARNING_THEORY]) == 0
    capsys.readouterr()
    assert run(["recommend", "--json", "--limit", "10"]) == 0
    recommended = json.loads(capsys.readouterr().out)
    assert run(["search", "for:you", "--json", "--limit", "10"]) == 0
    searched = json.loads(capsys.readouterr().out)
    assert searched == {**recommended, "hits": searched["hits"]}
    assert [h["id"] for h in searched["hits"]] == [h["id"] for h in recommended["hits"]]
