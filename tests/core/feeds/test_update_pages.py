"""Paged feeds and redirects, with ``paperscope update`` against 127.0.0.1: in the test's
process, but in a forked child over TLS (the certificate trusted through its environment,
``update_forked``) and as a process of its own for a ``--from`` relative to its working
folder.

Issue 27.1 (follow ``next`` on the folder's origin, at most 100 pages, never a page twice,
the records checked against ``count``) and issue 29.16 (redirect loops, ``ftp://`` and
https→http redirects refused in one line; a relative ``--from`` stored absolute).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from index_builder.feeds.download import FeedError
from tests.helpers.feed_cli import (
    feeds,
    one_line_error,
    pages,
    pair,
    stored,
    update_cli,
    update_here,
)
from tests.helpers.feed_data import ICML_ABSTRACTS, ICML_FEED, good_files, small_feed
from tests.helpers.feed_forked import update_forked
from tests.helpers.feed_server import Answer, serve, trust_env

needs_openssl = pytest.mark.skipif(shutil.which("openssl") is None, reason="no openssl here")


def paged_site_files(url: str, size: int = 10) -> dict[str, Answer]:
    """The 40-record feed in pages of ``size`` and its abstracts, as ``serve`` takes them."""
    files = pages(small_feed()[0], size, url)
    files[ICML_ABSTRACTS] = good_files()[ICML_ABSTRACTS]
    return files


def test_a_paged_feed_is_fetched_whole_and_checked_again_page_by_page(
    tmp_path: Path,
) -> None:
    with serve() as site:
        site.files.update(paged_site_files(site.url))
        first = update_here(tmp_path, "--from", site.url)
        asked = [path.rsplit("/", 1)[-1] for path, _ in site.requests]
        again = update_here(tmp_path, "--from", site.url)
        answered = [h["x-answered"] for _, h in site.requests[len(asked) :]]
    assert first.returncode == 0, first.stderr
    assert "came in 4 pages" in first.stdout and "papers (" in first.stdout
    feed = json.loads(pair(tmp_path)[0] or b"")
    assert [r["id"] for r in feed["results"]] == [r["id"] for r in small_feed()[0]["results"]]
    assert asked == [ICML_FEED] + [f"{ICML_FEED}?page={n}" for n in (2, 3, 4)] + [ICML_ABSTRACTS]
    # The second run revalidates every page with its own ETag (issue 36.8: a 304 on the
    # first page says nothing of the others), and stores nothing new.
    assert again.returncode == 0 and "unchanged" in again.stdout
    assert answered == ["304"] * 5


def _refused_next(site_url: str, kind: str) -> dict[str, Answer]:
    files = paged_site_files(site_url)
    page = json.loads(files[f"{ICML_FEED}?page=2"].body)
    if kind == "other-host":
        page["next"] = site_url.replace("127.0.0.1", "localhost") + f"{ICML_FEED}?page=3"
    elif kind == "ftp":
        page["next"] = f"ftp://127.0.0.1/{ICML_FEED}?page=3"
    elif kind == "loop":
        page["next"] = site_url + ICML_FEED
    elif kind == "count-changed":
        page["count"] = 44
    elif kind == "page-403":
        files[f"{ICML_FEED}?page=2"] = Answer(b"forbidden", status=403, content_type="text/plain")
        return files
    elif kind == "short":
        return {**pages(small_feed()[0], 10, site_url, count=50),
                ICML_ABSTRACTS: files[ICML_ABSTRACTS]}  # fmt: skip
    elif kind == "count-string":
        for name in [n for n in files if n.startswith(ICML_FEED)]:
            files[name] = Answer(
                json.dumps({**json.loads(files[name].body), "count": "40"}).encode()
            )
        return files
    files[f"{ICML_FEED}?page=2"] = Answer(json.dumps(page).encode())
    return files


REFUSED = {
    "other-host": "is not on 127.0.0.1; refused",
    "ftp": "is not on 127.0.0.1; refused",
    "loop": "loop back to one already fetched",
    "count-changed": "count changed while its pages were fetched",
    "count-string": 'a paged feed without a whole-number "count" ("40")',
    "page-403": "answered 403 Forbidden",
    "short": "is partial: 40 of 50 records came",
}


@pytest.mark.parametrize("kind", list(REFUSED))
def test_a_bad_next_page_is_one_line_and_keeps_the_stored_feed(tmp_path: Path, kind: str) -> None:
    with serve(good_files()) as site:
        assert update_here(tmp_path, "--from", site.url).returncode == 0
    before = stored(tmp_path)
    with serve() as site:
        site.files.update(_refused_next(site.url, kind))
        done = update_here(tmp_path, "--from", site.url)
    one_line_error(done, REFUSED[kind])
    assert stored(tmp_path) == before


def test_at_most_100_pages(tmp_path: Path) -> None:
    feed, _ = small_feed()
    with serve() as site:
        for n in range(1, 130):
            name = ICML_FEED if n == 1 else f"{ICML_FEED}?page={n}"
            page = {"count": 1000, "next": f"{site.url}{ICML_FEED}?page={n + 1}",
                    "results": feed["results"][:1]}  # fmt: skip
            site.files[name] = Answer(json.dumps(page).encode())
        done = update_here(tmp_path, "--from", site.url)
        fetched = len(site.requests)
    one_line_error(done, "more than 100 pages")
    assert fetched == 100 and stored(tmp_path) == {}


def test_the_next_rule() -> None:
    from index_builder.feeds.pages import next_page

    folder = "https://icml.cc/static/virtual/data/"
    page = folder + ICML_FEED
    assert next_page("http://icml.cc/x.json?page=2", page, folder, "f") == (
        "https://icml.cc/x.json?page=2"
    )
    assert next_page("?page=2", page, folder, "f") == page + "?page=2"
    for bad in ("http://evil.example/x", "https://icml.cc:8443/x", "ftp://icml.cc/x",
                "http://icml.cc:8080/x", "", None, 3):  # fmt: skip
        with pytest.raises(FeedError, match="refused"):
            next_page(bad, page, folder, "f")
    local = "http://127.0.0.1:8000/data/"
    with pytest.raises(FeedError, match=r"not on 127\.0\.0\.1"):
        next_page("http://127.0.0.1:8001/x", local + "f", local, "f")


@needs_openssl
def test_an_http_next_link_of_an_https_site_is_followed_over_https(tmp_path: Path) -> None:
    with serve(tls=True) as site:
        files = paged_site_files(site.url, size=20)
        page = json.loads(files[ICML_FEED].body)
        page["next"] = page["next"].replace("https://", "http://")
        files[ICML_FEED] = Answer(json.dumps(page).encode())
        site.files.update(files)
        done = update_forked(tmp_path, "--from", site.url, env=trust_env())
    assert done.returncode == 0, done.stderr
    assert "came in 2 pages" in done.stdout


def _redirects(url: str, kind: str, other: str = "") -> dict[str, Answer]:
    files = good_files()
    if kind == "loop":
        files[ICML_FEED] = Answer(b"", status=302, location=url + "elsewhere.json")
        files["elsewhere.json"] = Answer(b"", status=301, location=url + ICML_FEED)
    elif kind == "ftp":
        files[ICML_FEED] = Answer(b"", status=302, location=f"ftp://127.0.0.1/{ICML_FEED}")
    elif kind == "to-http":
        files[ICML_FEED] = Answer(b"", status=302, location=other + ICML_FEED)
    return files


@pytest.mark.parametrize(("kind", "words"), [("loop", "go round in a loop"),
                                             ("ftp", "redirected to ftp://")])  # fmt: skip
def test_a_bad_redirect_is_one_line(tmp_path: Path, kind: str, words: str) -> None:
    with serve() as site:
        site.files.update(_redirects(site.url, kind))
        done = update_here(tmp_path, "--from", site.url)
    one_line_error(done, words)
    assert stored(tmp_path) == {}


@needs_openssl
def test_an_https_folder_never_follows_a_redirect_to_http(tmp_path: Path) -> None:
    with serve(good_files()) as plain, serve(tls=True) as site:
        site.files.update(_redirects(site.url, "to-http", plain.url))
        done = update_forked(tmp_path, "--from", site.url, env=trust_env())
        followed = len(plain.requests)
    one_line_error(done, "only https:// is followed")
    assert followed == 0 and stored(tmp_path) == {}


def test_a_relative_from_is_stored_as_an_absolute_folder(tmp_path: Path) -> None:
    feed, abstracts = small_feed()
    (tmp_path / "good").mkdir()
    (tmp_path / "good" / ICML_FEED).write_text(json.dumps(feed))
    (tmp_path / "good" / ICML_ABSTRACTS).write_text(json.dumps(abstracts))
    done = update_cli(tmp_path / "home", "--from", "./good", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    meta = json.loads((feeds(tmp_path / "home") / "icml2026" / "meta.json").read_text())
    assert meta["base"] == str(tmp_path / "good")
