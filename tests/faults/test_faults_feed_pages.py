"""Issue 36.8 and 36.9: a paged feed's later pages, and where a next page's redirect goes.

``paperscope update`` runs as a process against sites on 127.0.0.1 (two sites are two
origins: the same host on another port). The 40-record feed comes in four pages of ten,
each page with its own ETag.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.helpers.faults_cli import forked_cli
from tests.helpers.feed_cli import one_line_error, pages, pair, stored
from tests.helpers.feed_data import ICML_ABSTRACTS, ICML_FEED, good_files, small_feed
from tests.helpers.feed_server import Answer, Site, serve

PAGE_3 = f"{ICML_FEED}?page=3"
RETITLED = "A Title the Update Must Not Miss"


def paged(url: str, feed: dict[str, Any] | None = None, **kw: Any) -> dict[str, Answer]:
    files = pages(feed or small_feed()[0], 10, url, **kw)
    files[ICML_ABSTRACTS] = good_files()[ICML_ABSTRACTS]
    return files


def retitle_on_page_3(site: Site) -> int:
    """Change a record of page 3 (its title and session) under a new ETag; its event id."""
    page = json.loads(site.files[PAGE_3].body)
    record = page["results"][5]
    record["name"], record["session"] = RETITLED, "Poster Session 6"
    site.files[PAGE_3] = Answer(json.dumps(page).encode(), etag='"p3-changed"')
    return int(record["id"])


def answered(site: Site, since: int) -> list[tuple[str, str]]:
    return [(p.rsplit("/", 1)[-1], h["x-answered"]) for p, h in site.requests[since:]]


def test_a_change_on_a_later_page_is_found_though_page_1_is_unchanged(tmp_path: Path) -> None:
    with serve() as site:
        site.files.update(paged(site.url))
        assert forked_cli("update", "--from", site.url, home=tmp_path).returncode == 0
        changed = retitle_on_page_3(site)
        since = len(site.requests)
        done = forked_cli("update", "--from", site.url, home=tmp_path)
        asked = answered(site, since)
    assert done.returncode == 0, done.stderr
    assert "unchanged" not in done.stdout, done.stdout
    # Every page revalidated with its own ETag; page 3 changed, so all came again.
    assert asked[:3] == [(ICML_FEED, "304"), (f"{ICML_FEED}?page=2", "304"), (PAGE_3, "200")]
    records = {r["id"]: r for r in json.loads(pair(tmp_path)[0] or b"")["results"]}
    assert records[changed]["name"] == RETITLED
    assert records[changed]["session"] == "Poster Session 6"


def test_every_page_unchanged_is_one_conditional_request_each(tmp_path: Path) -> None:
    with serve() as site:
        site.files.update(paged(site.url))
        assert forked_cli("update", "--from", site.url, home=tmp_path).returncode == 0
        before, since = stored(tmp_path), len(site.requests)
        again = forked_cli("update", "--from", site.url, home=tmp_path)
        asked = answered(site, since)
    assert again.returncode == 0 and "unchanged" in again.stdout, again.stdout
    assert [a for _, a in asked] == ["304"] * 5  # four pages and the abstracts
    assert stored(tmp_path) == before


def test_force_always_fetches_every_page(tmp_path: Path) -> None:
    with serve() as site:
        site.files.update(paged(site.url))
        assert forked_cli("update", "--from", site.url, home=tmp_path).returncode == 0
        since = len(site.requests)
        forced = forked_cli("update", "--from", site.url, "--force", home=tmp_path)
        requests = site.requests[since:]
    assert forced.returncode == 0, forced.stderr
    assert "ICML 2026: unchanged (40 papers, the same as stored)" in forced.stdout
    assert [h["x-answered"] for _, h in requests] == ["200"] * 5
    assert not any("if-none-match" in h or "if-modified-since" in h for _, h in requests)


def test_a_next_page_redirected_to_another_origin_is_refused(tmp_path: Path) -> None:
    with serve() as other, serve() as site:
        files = paged(site.url)
        other.files.update(paged(other.url))
        elsewhere = other.url + f"{ICML_FEED}?page=2"
        files[f"{ICML_FEED}?page=2"] = Answer(b"", status=302, location=elsewhere)
        site.files.update(files)
        done = forked_cli("update", "--from", site.url, home=tmp_path)
        followed = len(other.requests)
    one_line_error(done, "which is not on 127.0.0.1; refused")
    assert followed == 0 and stored(tmp_path) == {}


def test_a_redirect_on_the_same_origin_is_still_followed(tmp_path: Path) -> None:
    with serve() as site:
        files = paged(site.url)
        files["moved.json"] = files[f"{ICML_FEED}?page=2"]
        files[f"{ICML_FEED}?page=2"] = Answer(b"", status=302, location=site.url + "moved.json")
        site.files.update(files)
        done = forked_cli("update", "--from", site.url, home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(json.loads(pair(tmp_path)[0] or b"")["results"]) == 40


def test_records_beyond_the_count_are_refused(tmp_path: Path) -> None:
    with serve() as site:
        site.files.update(paged(site.url, count=30))  # four pages of ten, "count": 30
        done = forked_cli("update", "--from", site.url, home=tmp_path)
    one_line_error(done, "40 records came where its count states 30; refused")
    assert stored(tmp_path) == {}


def test_a_count_lower_than_one_page_holds_is_refused(tmp_path: Path) -> None:
    feed, abstracts = small_feed()
    folder = tmp_path / "from"
    folder.mkdir()
    (folder / ICML_FEED).write_text(json.dumps({**feed, "count": 25}), encoding="utf-8")
    (folder / ICML_ABSTRACTS).write_text(json.dumps(abstracts), encoding="utf-8")
    done = forked_cli("update", "--from", str(folder), home=tmp_path / "home")
    one_line_error(done, "40 records came where its count states 25; refused")
