"""A fake Zotero connector on 127.0.0.1 that answers as Zotero's own server does.

Read from ``chrome/content/zotero/xpcom/server/server.js`` and ``server_connector.js``
(zotero/zotero): every answer carries ``X-Zotero-Version`` and
``X-Zotero-Connector-API-Version``; a request that looks like a browser's (a
``Mozilla/`` user agent or an ``Origin``) without ``X-Zotero-Connector-API-Version`` or
``Zotero-Allowed-Request`` is dropped without an answer; ``GET /connector/ping`` is 200
with an HTML page; ``POST`` without a Content-Length is 400; ``POST /connector/import``
is 400 when no import translator recognises the body (here: it is neither RIS nor
BibTeX), 500 ``{"libraryEditable": false}`` for a read-only library, 409
``{"error": "SESSION_EXISTS"}`` for a session already used, else 201 with the items.

``library`` picks the behaviour: ``"ok"``, ``"read-only"``; ``api_version`` is the
connector API version it announces (Zotero 5.0 announced 2). Every request is recorded.
"""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import bibtexparser
import rispy


@dataclass
class Received:
    """One request the fake got."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class FakeZotero:
    """The fake's settings and what it received."""

    library: str = "ok"
    api_version: int = 3
    received: list[Received] = field(default_factory=list)
    sessions: set[str] = field(default_factory=set)
    url: str = ""

    def imports(self) -> list[Received]:
        """The import requests, in order."""
        return [r for r in self.received if r.path.startswith("/connector/import")]


def translate(text: str) -> list[dict[str, str]] | None:
    """The items an import translator would make of ``text``; None when none reads it."""
    if text.lstrip().startswith("TY  -"):
        entries = rispy.load(io.StringIO(text.replace("\r\n", "\n")))
        return [{"itemType": "conferencePaper", "title": e.get("title", "")} for e in entries]
    if text.lstrip().startswith("@"):
        library = bibtexparser.parse_string(text)
        return [{"itemType": "conferencePaper", "title": e.get("title").value}
                for e in library.entries]  # fmt: skip
    return None


def _handler(fake: FakeZotero) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def _answer(self, status: int, ctype: str = "", body: str = "") -> None:
            data = body.encode("utf-8")
            self.send_response(status)
            self.send_header("X-Zotero-Version", "7.0.11")
            self.send_header("X-Zotero-Connector-API-Version", str(fake.api_version))
            if ctype:
                self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _record(self, body: bytes) -> bool:
            headers = {k.lower(): v for k, v in self.headers.items()}
            fake.received.append(Received(self.command, self.path, headers, body))
            browser = headers.get("user-agent", "").startswith("Mozilla/") or "origin" in headers
            allowed = "x-zotero-connector-api-version" in headers or (
                "zotero-allowed-request" in headers
            )
            return not browser or allowed

        def do_GET(self) -> None:
            if not self._record(b""):
                return  # dropped, as Zotero does for a browser's request
            if urlsplit(self.path).path == "/connector/ping":
                self._answer(
                    200, "text/html", "<!DOCTYPE html><html><body>Zotero is running</body></html>"
                )
            else:
                self._answer(404, "text/plain", "No endpoint found\n")

        def do_POST(self) -> None:
            length = self.headers.get("Content-Length", "")
            body = self.rfile.read(int(length)) if length.isdigit() else b""
            if not self._record(body):
                return
            if not length.isdigit():
                self._answer(400, "text/plain", "Content-length not provided\n")
                return
            parts = urlsplit(self.path)
            if parts.path != "/connector/import":
                self._answer(404, "text/plain", "No endpoint found\n")
                return
            items = translate(body.decode("utf-8", "replace"))
            if items is None:
                self._answer(400)
                return
            if fake.library == "read-only":
                self._answer(500, "application/json", json.dumps({"libraryEditable": False}))
                return
            session = parse_qs(parts.query).get("session", [""])[0]
            if session and session in fake.sessions:
                self._answer(409, "application/json", json.dumps({"error": "SESSION_EXISTS"}))
                return
            fake.sessions.add(session)
            self._answer(201, "application/json", json.dumps(items))

    return Handler


@contextmanager
def fake_zotero(library: str = "ok", api_version: int = 3) -> Iterator[FakeZotero]:
    """A running fake connector on 127.0.0.1 (a free port); stopped on exit."""
    fake = FakeZotero(library=library, api_version=api_version)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
