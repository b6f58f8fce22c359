"""What changed (issue 27.5): papers added and removed, the bookmarked papers whose session,
room or time moved, listed by ``paperscope update``; ``is:new`` finds the papers the last
update added. The updates run in the test's process against 127.0.0.1. The home's table
is the bundled table's rows of the feed's papers (:mod:`tests.helpers.cli_cut`): as in the
bundled data, every paper the feed adds is in the table before the update.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import run_cli
from tests.helpers.cli_cut import bundled_cut, cut_flags
from tests.helpers.feed_cli import update_here
from tests.helpers.feed_data import ICML_ABSTRACTS, ICML_FEED, icml_abstracts, icml_feed
from tests.helpers.feed_server import Answer, serve


def files_of(results: list[dict]) -> dict[str, Answer]:
    ids = {str(r["id"]) for r in results}
    abstracts = {k: v for k, v in icml_abstracts().items() if k in ids}
    feed = {"count": len(results), "next": None, "previous": None, "results": results}
    return {ICML_FEED: Answer(json.dumps(feed).encode()),
            ICML_ABSTRACTS: Answer(json.dumps(abstracts).encode())}  # fmt: skip


def test_update_lists_moved_bookmarks_and_is_new_finds_the_added_papers(tmp_path: Path) -> None:
    home = tmp_path / "home"
    results = icml_feed()["results"]
    flags = cut_flags(bundled_cut(tmp_path / "cut", [str(r["id"]) for r in results[:75]]))
    posters = [r for r in results[:60] if r["eventtype"] == "Poster" and r["starttime"]]
    moved, still, dropped = posters[0], posters[1], posters[2]
    first = results[:60]
    with serve(files_of(first)) as site:
        assert update_here(home, *flags, "--from", site.url).returncode == 0
    added = run_cli(*flags, "reading-list", "add", str(moved["id"]), str(still["id"]), home=home)
    assert added.returncode == 0, added.stderr
    later = dict(
        moved,
        session="Poster Session 9",
        room_name="Hall Z",
        starttime="2026-07-10T09:00:00+09:00",
        endtime="2026-07-10T11:00:00+09:00",
    )
    second = [later if r["id"] == moved["id"] else r for r in first if r["id"] != dropped["id"]]
    second += results[60:75]
    with serve(files_of(second)) as site:
        done = update_here(home, *flags, "--from", site.url)
    assert done.returncode == 0, done.stderr
    new = {str(r["id"]) for r in results[60:75] if r["eventtype"] == "Poster"}
    assert f"({len(new)} added, 1 removed)" in done.stdout, done.stdout
    assert "1 bookmarked paper(s) moved:" in done.stdout
    line = next(x for x in done.stdout.splitlines() if x.strip().startswith(str(moved["id"])))
    assert "poster session" in line and "→ Poster Session 9" in line and "→ Hall Z" in line
    assert "→ Fri 10 Jul 09:00" in line and str(still["id"]) not in done.stdout
    searched = run_cli(*flags, "search", "is:new", "--limit", "100", "--json", home=home)
    assert searched.returncode == 0, searched.stderr
    found = {h["id"] for h in json.loads(searched.stdout)["hits"]}
    assert found == new
