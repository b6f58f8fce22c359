"""A conference site on 127.0.0.1 for the feed tests: ``http.server`` in a thread.

Each file name (with its query string, if any: ``feed.json?page=2``) maps to an
:class:`Answer`; the server honours ``If-None-Match`` and ``If-Modified-Since`` (304)
and logs every request, so a test can count downloads. ``serve(tls=True)`` serves
HTTPS with a self-signed certificate for 127.0.0.1 (:func:`certificate`; a client
trusts it through ``SSL_CERT_FILE``).
"""

from __future__ import annotations

import contextlib
import functools
import os
import ssl
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


@dataclass
class Answer:
    """What the server sends for one file."""

    body: bytes
    status: int = 200
    content_type: str = "application/json"
    etag: str = ""
    last_modified: str = ""
    declared_length: int | None = None
    """A Content-Length to claim (larger than the body: the connection is cut short;
    -1: none, the end of the body is the end of the connection)."""
    hold: threading.Event | None = None
    """When set, the server sends the headers and waits on this event before the body."""
    location: str = ""
    """A ``Location`` header (with a 30x status: a redirect)."""
    trickle: float = 0.0
    """Seconds between the body's bytes (a server sending a byte a second)."""


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
            answer = answer if answer is not None else site.files.get(self.path)
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
            if length >= 0:
                self.send_header("Content-Length", str(length))
            if answer.etag:
                self.send_header("ETag", answer.etag)
            if answer.last_modified:
                self.send_header("Last-Modified", answer.last_modified)
            if answer.location:
                self.send_header("Location", answer.location)
            self.end_headers()
            if answer.hold is not None:
                self.wfile.flush()
                answer.hold.wait(10)
            with contextlib.suppress(OSError):  # the client may have gone (a cancel)
                if not answer.trickle:
                    self.wfile.write(answer.body)
                for byte in answer.body if answer.trickle else b"":
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(answer.trickle)

    return Handler


@functools.cache
def certificate() -> Path:
    """A self-signed certificate and key for 127.0.0.1 (one PEM file), made once per run."""
    folder = Path(tempfile.mkdtemp(prefix="paperscope-tls-"))
    key, cert = folder / "key.pem", folder / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    both = folder / "both.pem"
    both.write_bytes(cert.read_bytes() + key.read_bytes())
    os.chmod(both, 0o600)
    return both


def trust_env() -> dict[str, str]:
    """The environment under which a client trusts :func:`certificate` (and nothing else)."""
    return {
        "SSL_CERT_FILE": str(certificate().with_name("cert.pem")),
        "SSL_CERT_DIR": "/nonexistent",
    }


@contextmanager
def serve(files: dict[str, Answer] | None = None, *, tls: bool = False) -> Iterator[Site]:
    """A running site on 127.0.0.1 (a free port); stopped when the block ends."""
    site = Site(dict(files or {}))
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(site))
    server.daemon_threads = True
    if tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate())
        server.socket = context.wrap_socket(server.socket, server_side=True)
    # shutdown() is only seen when the loop's select() times out: check often, not twice a
    # second, so that stopping the site does not cost each test half a second.
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    scheme = "https" if tls else "http"
    site.url = f"{scheme}://127.0.0.1:{server.server_address[1]}/static/virtual/data/"
    try:
        yield site
    finally:
        for answer in site.files.values():
            if answer.hold is not None:
                answer.hold.set()
        server.shutdown()
        server.server_close()
        thread.join(5)
