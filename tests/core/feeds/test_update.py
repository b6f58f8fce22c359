"""Downloading and storing feeds from a site on 127.0.0.1: 304s, every fault, cancelling."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from index_builder import venues
from index_builder.feeds import download
from index_builder.feeds.download import Cancelled, FeedError, fetch
from index_builder.feeds.store import stored_sources, venue_dir
from index_builder.feeds.update import update
from index_builder.paths import Paths
from tests.helpers.feed_data import (
    ICML_ABSTRACTS,
    ICML_FEED,
    NEURIPS_FEED,
    good_files,
    icml_feed,
    neurips_feed,
    small_feed,
)
from tests.helpers.feed_server import Answer, Site, serve

ICML = venues.DEFAULT
NEURIPS = venues.venue("neurips2025")


@pytest.fixture
def paths(tmp_path: Path) -> Paths:
    return Paths(tmp_path / "config", tmp_path / "data", tmp_path / "cache").ensure()


@pytest.fixture
def site() -> Iterator[Site]:
    with serve(good_files()) as running:
        yield running


def snapshot(paths: Paths) -> dict[str, bytes]:
    folder = venue_dir(paths, ICML)
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())} if folder.is_dir() else {}


def test_update_stores_both_files_and_says_what_changed(paths: Paths, site: Site) -> None:
    change = update(ICML, paths, source=site.url)
    assert (change.papers, change.added, change.removed) == (40 - _orals(40), 40 - _orals(40), 0)
    assert change.abstracts == change.papers and not change.unchanged
    assert [p.name for p in stored_sources(paths)] == [ICML_ABSTRACTS, ICML_FEED]
    agent = site.requests[0][1]["user-agent"]
    assert agent.startswith("PaperScope/") and "authorization" not in site.requests[0][1]


def _orals(n: int) -> int:
    """Oral records among the first ``n`` whose poster is among them too (one paper each)."""
    results = icml_feed()["results"][:n]
    ids = {r["id"] for r in results}
    return sum(
        1 for r in results if r["eventtype"] == "Oral" and set(r["related_events_ids"]) & ids
    )


@pytest.mark.parametrize("etag", [True, False], ids=["etag", "last-modified"])
def test_a_second_update_downloads_nothing(paths: Paths, etag: bool) -> None:
    with serve(good_files(etag)) as site:
        update(ICML, paths, source=site.url)
        before = snapshot(paths)
        change = update(ICML, paths, source=site.url)
        answered = [h["x-answered"] for _, h in site.requests]
    assert answered == ["200", "200", "304", "304"]
    assert change.unchanged and change.downloaded == 0
    assert snapshot(paths) == before


def test_a_changed_abstracts_file_is_downloaded_and_counted(paths: Paths, site: Site) -> None:
    _, abstracts = small_feed()
    site.files[ICML_ABSTRACTS] = Answer(json.dumps(dict(list(abstracts.items())[:10])).encode())
    first = update(ICML, paths, source=site.url)
    site.files[ICML_ABSTRACTS] = Answer(json.dumps(abstracts).encode(), etag='"a2"')
    second = update(ICML, paths, source=site.url)
    assert first.abstracts < second.abstracts == second.papers
    assert second.abstracts_added == second.abstracts - first.abstracts
    assert [h["x-answered"] for _, h in site.requests[2:]] == ["304", "200"]


def _broken(kind: str) -> dict[str, Answer]:
    feed, abstracts = small_feed()
    body = json.dumps(feed).encode()
    files = good_files()
    if kind == "500":
        files[ICML_FEED] = Answer(b"oops", status=500, content_type="text/plain")
    elif kind == "html":
        files[ICML_FEED] = Answer(
            b"<!DOCTYPE html><title>Just a moment</title>", content_type="text/html"
        )
    elif kind == "html-as-json":
        files[ICML_FEED] = Answer(b"  <html><body>bot check</body></html>")
    elif kind == "truncated":
        files[ICML_FEED] = Answer(body[: len(body) // 2])
    elif kind == "cut-connection":
        files[ICML_FEED] = Answer(body[: len(body) // 2], declared_length=len(body))
    elif kind == "partial":
        files[ICML_FEED] = Answer(json.dumps({**feed, "count": 6796}).encode())
    elif kind == "abstracts-not-object":
        files[ICML_ABSTRACTS] = Answer(json.dumps(list(abstracts.values())).encode())
    elif kind in ("no-id", "no-name"):
        results = [dict(r) for r in feed["results"]]
        results[3].pop("id" if kind == "no-id" else "name")
        files[ICML_FEED] = Answer(json.dumps({**feed, "results": results}).encode())
    elif kind == "not-a-feed":
        files[ICML_FEED] = Answer(b'{"detail": "Not found."}')
    return files


FAULTS = {
    "500": "answered 500",
    "html": "HTML page",
    "html-as-json": "HTML page",
    "truncated": "not valid JSON",
    "cut-connection": "broke off",
    "partial": "partial: 40 of 6,796 records came",
    "abstracts-not-object": "not a JSON object",
    "no-id": "1 of 40 records skipped (1 no id)",
    "no-name": "1 of 40 records skipped (1 no name)",
    "not-a-feed": 'no "results" list',
}


@pytest.mark.parametrize("kind", list(FAULTS))
def test_every_fault_is_one_line_and_keeps_what_was_stored(paths: Paths, kind: str) -> None:
    with serve(good_files()) as site:
        update(ICML, paths, source=site.url)
    before = snapshot(paths)
    with serve(_broken(kind)) as site, pytest.raises(FeedError) as caught:
        update(ICML, paths, source=site.url)
    message = str(caught.value)
    assert FAULTS[kind] in message and "\n" not in message
    assert snapshot(paths) == before


def test_a_huge_response_is_cut_off(paths: Paths, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(download, "MAX_BYTES", 5000)
    with serve(good_files()) as site, pytest.raises(FeedError, match="larger than"):
        update(ICML, paths, source=site.url)
    big = Answer(b"[" + b"1," * 10_000 + b"1]", declared_length=0)
    with serve({"big.json": big}) as site, pytest.raises(FeedError, match="larger than 0 MB"):
        fetch(site.url + "big.json", max_bytes=100)
    assert snapshot(paths) == {}


def test_no_server_is_a_clear_error(paths: Paths) -> None:
    with serve() as site:
        url = site.url
    with pytest.raises(FeedError, match=r"refused the connection|cannot reach"):
        update(ICML, paths, source=url)


def test_a_download_stops_soon_after_cancel() -> None:
    hold = threading.Event()
    cancel = threading.Event()
    errors: list[BaseException] = []

    def run() -> None:
        try:
            fetch(site.url + ICML_FEED, cancel=cancel)
        except BaseException as exc:
            errors.append(exc)

    with serve({ICML_FEED: Answer(b"{}", hold=hold)}) as site:
        worker = threading.Thread(target=run)
        worker.start()
        while not site.requests:
            threading.Event().wait(0.01)
        cancel.set()
        worker.join(5)
        stopped_while_held = not worker.is_alive() and not hold.is_set()
    assert stopped_while_held and isinstance(errors[0], Cancelled)


def test_from_a_local_folder_and_a_neurips_feed(paths: Paths, tmp_path: Path) -> None:
    folder = tmp_path / "by-hand"
    folder.mkdir()
    (folder / NEURIPS_FEED).write_text(json.dumps(neurips_feed()), encoding="utf-8")
    assert NEURIPS is not None
    change = update(NEURIPS, paths, source=str(folder))
    assert (change.papers, change.abstracts) == (3, 3)
    assert update(NEURIPS, paths, source=str(folder)).unchanged
    with pytest.raises(FeedError, match=r"icml-2026-orals-posters\.json is missing"):
        update(ICML, paths, source=str(folder))
    with pytest.raises(FeedError, match="neither an http"):
        update(ICML, paths, source=str(tmp_path / "nowhere"))
