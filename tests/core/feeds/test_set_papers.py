"""The papers an update made of the set it stored, kept for the next update
(:mod:`index_builder.feeds.set_papers`): the next update says the same with them as
when it reads the stored files, and never uses them for other bytes. Updates against a
site on 127.0.0.1."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from index_builder import venues
from index_builder.feeds import set_papers, store
from index_builder.feeds.update import Change, update
from index_builder.paths import Paths
from tests.helpers.feed_data import ICML_ABSTRACTS, ICML_FEED, icml_abstracts, icml_feed
from tests.helpers.feed_server import Answer, serve

ICML = venues.DEFAULT


def files_of(results: list[dict], rewritten: int = 0) -> dict[str, Answer]:
    """A feed of ``results`` and its abstracts, the first ``rewritten`` of them rewritten."""
    ids = [str(r["id"]) for r in results]
    abstracts = {k: v for k, v in icml_abstracts().items() if k in set(ids)}
    for key in ids[:rewritten]:
        abstracts[key] = "Rewritten. " + abstracts.get(key, "")
    feed = {"count": len(results), "next": None, "previous": None, "results": results}
    return {ICML_FEED: Answer(json.dumps(feed).encode()),
            ICML_ABSTRACTS: Answer(json.dumps(abstracts).encode())}  # fmt: skip


def second_feed() -> dict[str, Answer]:
    """The first feed (120 records) with one poster moved, one record gone, 15 added and
    three abstracts rewritten."""
    results = icml_feed()["results"]
    moved = next(r for r in results[1:120] if r["eventtype"] == "Poster" and r["starttime"])
    later = dict(moved, session="Poster Session 9", starttime="2026-07-10T09:00:00+09:00")
    second = [later if r["id"] == moved["id"] else r for r in results[1:120]]
    return files_of(second + results[120:135], rewritten=3)


def home(tmp_path: Path, name: str) -> Paths:
    return Paths(tmp_path / name / "config", tmp_path / name / "data", tmp_path / name / "cache")


def two_updates(paths: Paths, *, drop_summary: bool = False) -> Change:
    """The first feed, then the second one, the bookmarked moved poster among them."""
    results = icml_feed()["results"]
    moved = next(r for r in results[1:120] if r["eventtype"] == "Poster" and r["starttime"])
    with serve(files_of(results[:120])) as site:
        update(ICML, paths.ensure(), source=site.url)
    if drop_summary:
        (store.current(paths, ICML) / set_papers.NAME).unlink()  # type: ignore[operator]
    with serve(second_feed()) as site:
        return update(ICML, paths, source=site.url, bookmarked=[str(moved["id"])])


def test_the_next_update_says_the_same_from_the_kept_papers(tmp_path: Path) -> None:
    kept = two_updates(home(tmp_path, "kept"))
    read = two_updates(home(tmp_path, "read"), drop_summary=True)
    assert kept == read
    assert kept.removed == 1 and kept.added > 0 and len(kept.moved) == 1
    assert "Poster Session 9" in kept.moved[0]


def test_kept_papers_are_those_of_the_stored_files(tmp_path: Path) -> None:
    paths = home(tmp_path, "h")
    two_updates(paths)
    folder = store.current(paths, ICML)
    files = {n: store.read_stored(paths, ICML, n) for n in (ICML_FEED, ICML_ABSTRACTS)}
    records, papers = set_papers.read(folder, files)
    assert papers == set_papers.stored_papers(ICML, files)
    assert records == len(json.loads(files[ICML_FEED] or b"")["results"])
    assert [p.name for p in store.stored_sources(paths)] == [ICML_ABSTRACTS, ICML_FEED]


@pytest.mark.parametrize("damage", ["other bytes", "damaged", "not json", "gone"])
def test_kept_papers_for_other_bytes_or_damaged_are_not_used(tmp_path: Path, damage: str) -> None:
    paths = home(tmp_path, "h")
    results = icml_feed()["results"]
    with serve(files_of(results[:120])) as site:
        update(ICML, paths.ensure(), source=site.url)
    folder = store.current(paths, ICML)
    assert folder is not None
    kept = folder / set_papers.NAME
    files = {n: store.read_stored(paths, ICML, n) for n in (ICML_FEED, ICML_ABSTRACTS)}
    if damage == "other bytes":  # the feed edited by hand: 80 records where 120 were
        body = json.loads(files[ICML_FEED] or b"")
        body["results"] = body["results"][:80]
        body["count"] = 80
        files[ICML_FEED] = json.dumps(body).encode()
        (folder / ICML_FEED).write_bytes(files[ICML_FEED] or b"")
    elif damage == "damaged":
        data = json.loads(kept.read_bytes())
        data["papers"] = {k: [v[0]] for k, v in data["papers"].items()}
        kept.write_text(json.dumps(data))
    elif damage == "not json":
        kept.write_bytes(b"\xff{")
    else:
        kept.unlink()
    with pytest.raises(ValueError):
        set_papers.read(folder, files)
    expected = set_papers.stored_papers(ICML, files)
    assert set_papers.previous(ICML, folder, files) == (
        len(json.loads(files[ICML_FEED] or b"")["results"]),
        None,
    )
    second = second_feed()
    after = set_papers.stored_papers(ICML, {n: a.body for n, a in second.items()})
    with serve(second) as site:
        change = update(ICML, paths, source=site.url)
    assert (change.added, change.removed) == (
        len(after.keys() - expected.keys()),
        len(expected.keys() - after.keys()),
    )


def test_kept_abstracts_that_fail_their_check_leave_no_summary(tmp_path: Path) -> None:
    """When the new abstracts file is empty, the stored one is kept; if that one fails its
    check, the update counts no abstracts but reading the set again gives no papers at
    all: no summary is kept, so the next update reads the files as before."""
    paths = home(tmp_path, "h")
    results = icml_feed()["results"][:120]
    with serve(files_of(results)) as site:
        update(ICML, paths.ensure(), source=site.url)
    folder = store.current(paths, ICML)
    assert folder is not None
    # The stored abstracts made unfit (no id names an event of the feed), then an
    # update whose abstracts file is empty keeps them.
    stale = json.dumps({str(900000 + n): "text" for n in range(50)}).encode()
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    (copy / ICML_ABSTRACTS).write_bytes(stale)
    (copy / set_papers.NAME).unlink()
    for name in (ICML_ABSTRACTS, set_papers.NAME):
        (folder / name).unlink()
    shutil.copy(copy / ICML_ABSTRACTS, folder / ICML_ABSTRACTS)
    feed = files_of(results)
    feed[ICML_ABSTRACTS] = Answer(b"{}")
    with serve(feed) as site:
        change = update(ICML, paths, source=site.url, force=True)
    assert change.abstracts == 0
    assert not (store.current(paths, ICML) / set_papers.NAME).exists()  # type: ignore[operator]
