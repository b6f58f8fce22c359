"""A conference site on 127.0.0.1 for the feed tests: ``http.server`` in a thread.

Each file name maps to an :class:`Answer`; the server honours ``If-None-Match`` and
``If-Modified-Since`` (304) and logs every request, so a test can count downloads.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Answer:
    """What the server sends for one file."""

    body: bytes
    status: int = 200
    content_type: str = "application/json"
    etag: str = ""
    last_modified: str = ""
    declared_length: int | None = None
    """A Content-Length to claim (larger than the body: the connection is cut short)."""
    hold: threading.Event | None = None
    """When set, the server sends the headers and waits on this event before the body."""


@dataclass
class Site:
    """The files served, and the log of requests (path, headers)."""

    files: dict[str, Answer] = field(default_factory=dict)
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    url: str = ""

    def downloads(self) -> int:
        """How many requests were answered with a body (200)."""
        return sum(1 for _, headers in self.requests if headers.get("x-answered") == "200")


def _handler(site: Site) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            """Quiet: the tests read ``site.requests``."""

        def do_GET(self) -> None:
            """Serve ``site.files`` by file name."""
            headers = {k.lower(): v for k, v in self.headers.items()}
            site.requests.append((self.path, headers))
            answer = site.files.get(self.path.rsplit("/", 1)[-1])
            if answer is None:
                headers["x-answered"] = "404"
                self.send_error(404)
                return
            fresh = (answer.etag and headers.get("if-none-match") == answer.etag) or (
                answer.last_modified and headers.get("if-modified-since") == answer.last_modified
            )
            if fresh and answer.status == 200:
                headers["x-answered"] = "304"
                self.send_response(304)
                self.end_headers()
                return
            headers["x-answered"] = str(answer.status)
            self.send_response(answer.status)
            self.send_header("Content-Type", answer.content_type)
            length = answer.declared_length or len(answer.body)
            self.send_header("Content-Length", str(length))
            if answer.etag:
                self.send_header("ETag", answer.etag)
            if answer.last_modified:
                self.send_header("Last-Modified", answer.last_modified)
            self.end_headers()
            if answer.hold is not None:
                self.wfile.flush()
                answer.hold.wait(10)
            with contextlib.suppress(OSError):  # the client may have gone (a cancel)
                self.wfile.write(answer.body)

    return Handler


@contextmanager
def serve(files: dict[str, Answer] | None = None) -> Iterator[Site]:
    """A running site on 127.0.0.1 (a free port); stopped when the block ends."""
    site = Site(dict(files or {}))
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(site))
    server.daemon_threads = True
    # shutdown() is only seen when the loop's select() times out: check often, not twice a
    # second, so that stopping the site does not cost each test half a second.
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    site.url = f"http://127.0.0.1:{server.server_address[1]}/static/virtual/data/"
    try:
        yield site
    finally:
        for answer in site.files.values():
            if answer.hold is not None:
                answer.hold.set()
        server.shutdown()
        server.server_close()
        thread.join(5)
