"""Watches end to end: ``paperscope update`` against a site on 127.0.0.1 whose second
version adds papers names the watches with new matches; ``watch list --json``, ``is:new``
and ``recommend --new`` agree; the next update that adds nothing (even one that finds the
files not modified) leaves nothing new. The home's table is the bundled table's rows of
the feed's papers (:mod:`tests.helpers.cli_cut`): as in the bundled data, every paper an
update adds is in the table before it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import run_cli
from tests.helpers.cli_cut import bundled_cut, cut_flags
from tests.helpers.feed_data import ICML_ABSTRACTS, ICML_FEED, icml_abstracts, icml_feed, marker
from tests.helpers.feed_server import Answer, serve

FLAGS: list[str] = []
"""The global options of every command of the test (its source)."""


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = run_cli(*FLAGS, *args, home=home)  # in this process: nothing needs one of its own
    assert "Traceback" not in done.stderr, done.stderr
    return done


def _site(count: int, version: str) -> dict[str, Answer]:
    """The ICML feed's first ``count`` records and their abstracts, ETags of ``version``."""
    results = icml_feed()["results"][:count]
    ids = {str(r["id"]) for r in results}
    abstracts = {k: v for k, v in icml_abstracts().items() if k in ids}
    feed: dict[str, Any] = {"count": count, "next": None, "previous": None, "results": results}
    return {
        ICML_FEED: Answer(json.dumps(feed).encode(), etag=f'"f{version}"'),
        ICML_ABSTRACTS: Answer(json.dumps(abstracts).encode(), etag=f'"a{version}"'),
    }


def _synthetic(results: list[dict[str, Any]]) -> list[int]:
    """Ids of the records whose abstract is the synthetic one (with its marker word)."""
    texts = icml_abstracts()
    return [r["id"] for r in results if marker(r["id"]) in texts[str(r["id"])]]


def test_update_names_watches_with_new_papers_until_an_update_adds_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    results = icml_feed()["results"]
    cut = bundled_cut(tmp_path / "cut", [str(r["id"]) for r in results[:46]])
    monkeypatch.setattr(f"{__name__}.FLAGS", cut_flags(cut))
    old = _synthetic(results[:40])[:3]
    added = _synthetic(results[40:46])[:2]
    assert len(old) == 3 and len(added) == 2
    watch_new = f"{marker(added[0])} OR {marker(added[1])} OR {marker(old[0])}"
    assert _cli(home, "watch", "add", watch_new, "--name", "fresh").returncode == 0
    assert _cli(home, "watch", "add", marker(old[1])).returncode == 0
    for paper in old:
        assert _cli(home, "reading-list", "add", str(paper)).returncode == 0

    with serve(_site(40, "1")) as site:
        first = _cli(home, "update", "--from", site.url)
    assert first.returncode == 0, first.stderr
    assert f"watches: 1 new for fresh; 1 new for {marker(old[1])}" in first.stdout

    with serve(_site(46, "2")) as site:
        second = _cli(home, "update", "--from", site.url)
    assert second.returncode == 0, second.stderr
    assert "(6 added, 0 removed)" in second.stdout
    assert "watches: 2 new for fresh\n" in second.stdout  # the other watch has nothing new
    listed = json.loads(_cli(home, "watch", "list", "--json").stdout)
    assert listed == [
        {"name": "fresh", "query": watch_new, "total": 3,
         "new": sorted(map(str, added), key=lambda i: _title(i))},
        {"name": marker(old[1]), "query": marker(old[1]), "total": 1, "new": []},
    ]  # fmt: skip
    found = json.loads(_cli(home, "search", f"is:new {marker(added[1])}", "--json").stdout)
    assert [h["id"] for h in found["hits"]] == [str(added[1])]
    everything_new = json.loads(_cli(home, "search", "is:new", "--json", "--limit", "50").stdout)
    new_ids = {h["id"] for h in everything_new["hits"]}
    assert new_ids == {str(r["id"]) for r in results[40:46]}
    ranked = _cli(home, "recommend", "--new", "--json")
    assert ranked.returncode == 0, ranked.stderr
    data = json.loads(ranked.stdout)
    assert data["query"] == "for:you is:new" and data["seeds"] == "by 3 bookmarks"
    assert data["hits"] and {h["id"] for h in data["hits"]} <= new_ids

    with serve(_site(46, "2")) as site:  # the same files (another port): nothing added
        third = _cli(home, "update", "--from", site.url)
    assert third.returncode == 0 and "(0 added, 0 removed)" in third.stdout, third.stdout
    assert "watches:" not in third.stdout
    listed = json.loads(_cli(home, "watch", "list", "--json").stdout)
    assert [w["new"] for w in listed] == [[], []]


def _title(event_id: str) -> str:
    return next(r["name"] for r in icml_feed()["results"] if str(r["id"]) == event_id).lower()
