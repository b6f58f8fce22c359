"""Sending papers to Zotero desktop through its local connector (the browser extension's door).

    connector = ZoteroConnector("http://127.0.0.1:23119")
    connector.ping()              # ZoteroError("Zotero is not running (127.0.0.1:23119)")
    sent = connector.send(ris)    # how many items Zotero imported

What Zotero's own server does (``chrome/content/zotero/xpcom/server/server.js`` and
``server_connector.js`` in zotero/zotero): ``GET /connector/ping`` answers 200 with an
HTML page; ``POST /connector/import`` takes any body (a Content-Length is required),
picks an import translator for it and answers 201 with a JSON array of the items it
made; 400 when no translator recognises the text, 500 ``{"libraryEditable": false}``
when the selected library is read-only, 409 ``{"error": "SESSION_EXISTS"}`` when the
``session`` of the query is already used. Requests that look like a browser's (a
``Mozilla/`` user agent or an ``Origin``) are dropped unless they carry
``X-Zotero-Connector-API-Version`` or ``Zotero-Allowed-Request``: both are sent. Every
answer names Zotero's connector API version in ``X-Zotero-Connector-API-Version``; one
below :data:`API_VERSION` is an older Zotero than this client was written for.
"""

from __future__ import annotations

import json
import secrets
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from http.client import HTTPResponse

from index_builder.model import Paper
from index_builder.readinglist.bookmark import Bookmark, Lookup

API_VERSION = 3
"""The connector API version this client speaks (Zotero 5.0.x spoke 2)."""
HEADERS = {
    "X-Zotero-Connector-API-Version": str(API_VERSION),
    "Zotero-Allowed-Request": "1",
    "User-Agent": "PaperScope",
}


class ZoteroError(RuntimeError):
    """Zotero could not take the papers; the message says why in one line."""


class ZoteroConnector:
    """Zotero desktop's connector at ``url`` (``http://127.0.0.1:23119`` by default)."""

    def __init__(self, url: str, *, timeout: float = 30.0) -> None:
        self.url = url.rstrip("/")
        self.timeout = timeout
        self.where = urllib.parse.urlsplit(self.url).netloc or self.url

    def _open(self, request: urllib.request.Request) -> tuple[int, dict[str, str], bytes]:
        """Status, headers (lower-case names) and body; ``ZoteroError`` when nobody answers."""
        try:
            response: HTTPResponse = urllib.request.urlopen(request, timeout=self.timeout)
        except urllib.error.HTTPError as exc:
            with exc:
                return exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read()
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise ZoteroError(f"Zotero is not running ({self.where})") from exc
        with response:
            return (
                response.status,
                {k.lower(): v for k, v in response.headers.items()},
                (response.read()),
            )

    def ping(self) -> None:
        """Check that Zotero answers; ``ZoteroError`` when it does not, or is too old."""
        request = urllib.request.Request(f"{self.url}/connector/ping", headers=HEADERS)
        status, headers, _body = self._open(request)
        if status != 200:
            raise ZoteroError(f"Zotero is not running ({self.where}): the ping got {status}")
        self._check_version(headers)

    def _check_version(self, headers: dict[str, str]) -> None:
        version = headers.get("x-zotero-connector-api-version", "")
        if version.isdigit() and int(version) < API_VERSION:
            raise ZoteroError(
                f"Zotero at {self.where} is too old (connector API {version}, "
                f"{API_VERSION} needed): update Zotero"
            )

    def send(self, text: str, *, session: str = "") -> int:
        """Import ``text`` (RIS or BibTeX) into the library selected in Zotero; return how
        many items Zotero made. ``ZoteroError`` names what Zotero said otherwise.

        ``session`` names the import for Zotero (a fresh random one by default)."""
        session = session or secrets.token_hex(8)
        request = urllib.request.Request(
            f"{self.url}/connector/import?session={session}",
            data=text.encode("utf-8"),
            headers={**HEADERS, "Content-Type": "text/plain; charset=utf-8"},
            method="POST",
        )
        status, headers, body = self._open(request)
        self._check_version(headers)
        if status == 201:
            try:
                items = json.loads(body or b"[]")
            except ValueError:
                items = None
            return len(items) if isinstance(items, list) else 0
        raise ZoteroError(refusal(status, body))


def refusal(status: int, body: bytes) -> str:
    """One line for a refused import, naming what Zotero said."""
    said = _said(body)
    if status == 400:
        return f"Zotero could not read the papers sent (400{said})"
    if status == 403:
        return f"Zotero refused the request (403{said}): allow other applications in its settings"
    if status == 409:
        return f"Zotero is busy with an import of the same session (409{said}): try again"
    if status == 500 and '"libraryEditable":false' in body.decode("utf-8", "replace").replace(
        " ", ""
    ):
        return "Zotero's selected library is read-only (500): select My Library and try again"
    return f"Zotero failed to import the papers ({status}{said})"


def _said(body: bytes) -> str:
    """``: <Zotero's words>`` from an answer's body (one line, at most 120 characters)."""
    text = " ".join(body.decode("utf-8", "replace").split())
    return f": {text[:120]}" if text else ""


def send_bookmarks(
    connector: ZoteroConnector,
    bookmarks: Sequence[Bookmark],
    lookup: Lookup | None = None,
    all_papers: Sequence[Paper] = (),
) -> int:
    """Ping Zotero, then import ``bookmarks`` as RIS (notes and tags with them); return how
    many items Zotero made. Nothing is sent when the ping fails."""
    from index_builder.readinglist.exports import to_exchange

    connector.ping()
    return connector.send(to_exchange(bookmarks, "ris", lookup, all_papers))
