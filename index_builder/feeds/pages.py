"""Getting one feed file whole: from a site (every page of a paged feed) or a local folder.

A site's feed is a page, ``{"count": N, "next": URL, "previous": URL, "results": [...]}``.
:func:`remote_feed` follows ``next`` on the folder's own origin only (its scheme, host
and port; an ``http://`` link to the host of an ``https://`` folder is upgraded; a
redirect of a next page must stay there too), at most :data:`MAX_PAGES` pages, never a
page twice, every page stating the same whole number ``count`` and no more records than
it; the pages' records are put together into one document. The last update's pages are
each revalidated with their own validator: the feed is unchanged only when every one
answers 304, else (or with ``--force``) every page is fetched again.
:func:`local_file` reads a ``--from`` folder's file as ``--source`` files are read:
regular files only, at most :data:`~index_builder.feeds.download.MAX_BYTES`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

from index_builder.atomic import gc_paused
from index_builder.feeds import download
from index_builder.feeds.download import FeedError, Fetched, Progress, fetch, origin
from index_builder.sources.feed import NOT_A_FEED, feed_document, loads
from index_builder.sources.files import read_regular_file
from index_builder.sources.types import SourceError
from index_builder.text.safe import safe

MAX_PAGES = 100
MAX_RECORDS = 100_000
"""The most records one venue's feed may hold (ICML 2026 has 6,796)."""


@dataclass(frozen=True, slots=True)
class Asking:
    """What every download of one update shares: the folder asked, and how to stop, show
    progress, and give up in time."""

    folder: str
    cancel: threading.Event | None = None
    progress: Callable[[str], Progress] | None = None
    deadline: float = float("inf")
    step: Callable[[str], None] = lambda _: None

    @property
    def allow_http(self) -> bool:
        """An ``http://`` folder was asked for on purpose (a local test site, say)."""
        return self.folder.startswith("http://")

    def get(self, url: str, label: str, **kw: Any) -> Fetched:
        """``url``, said as ``label`` in the steps and the progress bar."""
        self.step(f"downloading {label}")
        on = self.progress(label) if self.progress else None
        return fetch(url, cancel=self.cancel, progress=on, deadline=self.deadline,
                     allow_http=self.allow_http, **kw)  # fmt: skip


Validator = tuple[str, str, str]
"""One page's ``(URL, ETag, Last-Modified)``, as the last update got it."""


@dataclass(frozen=True, slots=True)
class Got:
    """One file as it came: ``body`` is ``None`` when unchanged (304) or ``absent``."""

    body: bytes | None
    etag: str = ""
    last_modified: str = ""
    content_type: str = "application/json"
    absent: bool = False
    pages: int = 1
    notes: tuple[str, ...] = field(default=())
    validators: tuple[Validator, ...] = ()
    """Each page's validator (a paged feed's), to revalidate every page next time."""
    document: Any = field(default=None, compare=False, repr=False)
    """A one-page feed's parsed document (:func:`~index_builder.feeds.checks.parse`
    of ``body``): parsing 10 MB again for the checks cost a tenth of an update."""


def stored_validators(old: dict[str, Any]) -> list[Validator]:
    """The feed's stored validators, one per page (none from an older ``meta.json``)."""
    found = old.get("pages")
    if not isinstance(found, list):
        return []
    out = [v for v in found if isinstance(v, list) and len(v) == 3]
    if len(out) != len(found) or not all(isinstance(x, str) for v in out for x in v):
        return []
    return [(v[0], v[1], v[2]) for v in out]


def whole_count(value: Any) -> bool:
    """True for a JSON whole number (``50``; not ``"50"``, ``50.0`` or ``true``)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def not_beyond_count(name: str, came: int, count: int) -> None:
    """:class:`FeedError` when more records came than the feed's ``count`` states."""
    if came > count:
        raise FeedError(f"{name}: {came:,} records came where its count states {count:,}; "
                        "refused")  # fmt: skip


def next_page(link: Any, page_url: str, folder: str, name: str) -> str:
    """The URL ``next`` names, on the folder's origin; :class:`FeedError` for any other."""
    if not isinstance(link, str) or not link.strip():
        raise FeedError(f"{name}: its next page is not a URL ({str(link)[:40]!r}); refused")
    url = urljoin(page_url, link.strip())
    scheme, host, port = origin(url)
    home = origin(folder)
    if scheme == "http" and home[0] == "https" and host == home[1] and port in (80, home[2]):
        parts = urlsplit(url)
        url = urlunsplit(("https", urlsplit(folder).netloc, parts.path, parts.query, ""))
    elif (scheme, host, port) != home:
        shown = url if len(url) <= 80 else url[:77] + "..."
        raise FeedError(f"{name}: its next page {shown} is not on {home[1]}; refused")
    return url


def _page(body: bytes, name: str, number: int) -> dict[str, Any]:
    """One page's top level, checked: an object with a ``results`` list."""
    data = parse(body, name, f" (page {number})" if number > 1 else "")
    document = feed_document(data)
    if document is None:
        raise FeedError(f"{name}: {NOT_A_FEED}")
    return document


def parse(body: bytes, name: str, where: str = "") -> Any:
    """A feed file's JSON as the catalogue reads it: UTF-8 (not another encoding, unlike
    any other source), made terminal-safe whole before it is parsed
    (:func:`~index_builder.sources.reading.decode`); :class:`FeedError` when it is not."""
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FeedError(f"{name} is not UTF-8 text") from None
    try:
        with gc_paused():  # some 100,000 lists and dicts, all kept: nothing to collect
            return loads(safe(text, body), made_safe=True)
    except SourceError as exc:
        raise FeedError(f"{name}{where}: {exc} (cut short?)") from exc


def _unchanged(url: str, asking: Asking, known: Sequence[Validator]) -> bool:
    """True when every page of the last update answers 304 to its own validator.

    A page without a validator, a feed whose first page is not ``url``, or any page that
    answers with a body may have changed: the caller fetches the whole feed again.
    """
    if not known or known[0][0] != url or not all(etag or since for _, etag, since in known):
        return False
    name = url.rsplit("/", 1)[-1]
    for number, (page_url, etag, since) in enumerate(known, 1):
        if number > 1:  # a stored page URL is held to the rule its next link was
            page_url = next_page(page_url, url, asking.folder, name)
        label = name if number == 1 else f"{name} (page {number}, checked)"
        answer = asking.get(page_url, label, etag=etag, last_modified=since,
                            origin=asking.folder if number > 1 else "")  # fmt: skip
        if answer.body is not None:
            return False
    return True


def remote_feed(url: str, asking: Asking, *, known: Sequence[Validator] = ()) -> Got:
    """The feed at ``url`` with all its pages (see the module doc).

    ``known``: each page's validator from the last update; when every page is unchanged
    the answer is ``Got(None)``; else (and without ``known``) every page is fetched.
    """
    if _unchanged(url, asking, known):
        return Got(None, pages=len(known), validators=tuple(known))
    name = url.rsplit("/", 1)[-1]
    folder = asking.folder

    def get(page_url: str, number: int, used: int) -> Fetched:
        label = name if number == 1 else f"{name} (page {number})"
        # A next page's redirects stay on the folder's origin, as its link must.
        return asking.get(page_url, label, max_bytes=download.MAX_BYTES - used,
                          origin=folder if number > 1 else "")  # fmt: skip

    first = get(url, 1, 0)
    if first.body is None:
        raise FeedError(f"{name}: answered 304 Not Modified to a plain request; refused")
    head = first.body.lstrip()[:64].lower()
    if "html" in first.content_type.lower() or head.startswith(b"<"):
        return Got(first.body, content_type=first.content_type)  # refused by the checks
    data = _page(first.body, name, 1)
    validators = [(url, first.etag, first.last_modified)]
    if data.get("next") in (None, ""):
        return Got(first.body, first.etag, first.last_modified, first.content_type,
                   validators=tuple(validators), document=data)  # fmt: skip
    count = data.get("count")
    if not isinstance(count, int) or not whole_count(count):
        raise FeedError(f'{name}: a paged feed without a whole-number "count" '
                        f"({json.dumps(count)[:20]}); refused")  # fmt: skip
    results: list[Any] = list(data["results"])
    not_beyond_count(name, len(results), count)
    seen = {url}
    used = len(first.body)
    page_url = url
    while data.get("next") not in (None, ""):
        page_url = next_page(data.get("next"), page_url, folder, name)
        if page_url in seen:
            raise FeedError(f"{name}: its pages loop back to one already fetched; refused")
        if len(seen) >= MAX_PAGES:
            raise FeedError(f"{name}: more than {MAX_PAGES} pages; refused")
        seen.add(page_url)
        answer = get(page_url, len(seen), used)
        body = answer.body or b""
        used += len(body)
        data = _page(body, name, len(seen))
        if data.get("count") != count:
            raise FeedError(f"{name}: its count changed while its pages were fetched "
                            f"({count:,}, then {json.dumps(data.get('count'))[:20]}); "
                            "try again")  # fmt: skip
        results.extend(data["results"])
        not_beyond_count(name, len(results), count)
        if len(results) > MAX_RECORDS:
            raise FeedError(f"{name}: more than {MAX_RECORDS:,} records; refused")
        validators.append((page_url, answer.etag, answer.last_modified))
    merged = {"count": count, "next": None, "previous": None, "results": results}
    body = json.dumps(merged, ensure_ascii=False).encode("utf-8")
    note = f"{name} came in {len(seen)} pages"
    return Got(body, first.etag, first.last_modified, pages=len(seen), notes=(note,),
               validators=tuple(validators))  # fmt: skip


def remote_file(url: str, asking: Asking, *, etag: str = "", last_modified: str = "") -> Got:
    """A file that is not paged (the abstracts); ``absent`` when the site has none (404)."""
    name = url.rsplit("/", 1)[-1]
    try:
        answer = asking.get(url, name, etag=etag, last_modified=last_modified)
    except download.Missing:
        return Got(None, absent=True)
    return Got(answer.body, answer.etag, answer.last_modified, answer.content_type)


def local_file(path: Path) -> Got:
    """A file of a local ``--from`` folder, as if downloaded (``absent`` when missing)."""
    try:
        body = read_regular_file(path, download.MAX_BYTES)
    except FileNotFoundError:
        return Got(None, absent=True)
    except OSError as exc:
        raise FeedError(f"{path}: {exc.strerror or exc}; refused") from None
    return Got(body)
