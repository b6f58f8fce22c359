"""One HTTP(S) download: certificate checks, a User-Agent, timeouts, a size cap, 304s.

A download ends by a total ``deadline`` however slowly the bytes come; redirects are
followed to ``https://`` only (``http://`` too when the user asked for an http folder),
at most :data:`MAX_REDIRECTS` of them and never back to a URL already seen.

:func:`fetch` sends a GET (conditional when an ETag or Last-Modified date is known)
and returns the body, or ``None`` for 304 Not Modified. Every failure is a
:class:`FeedError` whose message is one line a person can act on. The socket is
read in a helper thread so that :func:`fetch` notices ``cancel`` within a tenth of
a second even while the network is silent; the helper is a daemon that stops at its
next chunk or its read timeout (closing a response another thread is reading blocks
on the reader's lock, so it is left to end by itself).
"""

from __future__ import annotations

import functools
import os
import queue
import socket
import ssl
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from http.client import HTTPException, IncompleteRead
from typing import Any
from urllib.parse import urlsplit

from index_builder import __version__

USER_AGENT = (
    f"PaperScope/{__version__} (terminal browser of conference papers; "
    "downloads the public orals-posters and abstracts feeds)"
)
MAX_BYTES = 64 * 1024 * 1024
"""A feed larger than this is not a feed (the ICML 2026 one is a few MB)."""
TIMEOUT = 15.0
"""Seconds to connect, and at most this long without a byte while reading."""
DEADLINE = 120.0
"""Seconds a whole update may spend downloading (``PAPERSCOPE_DOWNLOAD_DEADLINE`` overrides)."""
DEADLINE_ENV = "PAPERSCOPE_DOWNLOAD_DEADLINE"
MAX_REDIRECTS = 10
CHUNK = 64 * 1024
POLL = 0.1
"""How often the waiting thread looks at ``cancel``."""

Progress = Callable[[int, int], None]
"""``(bytes received, bytes expected or 0 when unknown)``."""


_DEFAULT_PORT = {"http": 80, "https": 443}


def origin(url: str) -> tuple[str, str, int]:
    """A URL's origin: its scheme, host and port (the scheme's own port when none is given)."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:
        port = None
    return scheme, (parts.hostname or "").lower(), port or _DEFAULT_PORT.get(scheme, 0)


class FeedError(Exception):
    """A download or feed that cannot be used; the message is one line for the user."""


class Cancelled(FeedError):
    """The user stopped the download."""


class Missing(FeedError):
    """The server has no such file (404)."""


def deadline_seconds() -> float:
    """The total download time allowed: :data:`DEADLINE`, or the environment's setting."""
    try:
        value = float(os.environ.get(DEADLINE_ENV, ""))
    except ValueError:
        return DEADLINE
    return value if 0 < value < 86400 else DEADLINE


@dataclass(frozen=True, slots=True)
class Fetched:
    """A download's answer: ``body`` is ``None`` when the server said Not Modified (304)."""

    body: bytes | None
    etag: str = ""
    last_modified: str = ""
    content_type: str = ""


def fetch(
    url: str,
    *,
    etag: str = "",
    last_modified: str = "",
    cancel: threading.Event | None = None,
    progress: Progress | None = None,
    max_bytes: int | None = None,
    timeout: float = TIMEOUT,
    deadline: float | None = None,
    allow_http: bool = False,
    origin: str = "",
) -> Fetched:
    """GET ``url`` (see the module doc); raises :class:`FeedError` or :class:`Cancelled`.

    ``max_bytes`` defaults to :data:`MAX_BYTES`; ``deadline`` is a ``time.monotonic()``
    instant (default: :func:`deadline_seconds` from now); ``allow_http`` lets redirects
    go to ``http://`` (for an ``http://`` folder the user chose); ``origin`` (a URL), when
    given, is the one origin every redirect must stay on.
    """
    max_bytes = MAX_BYTES if max_bytes is None else max_bytes
    deadline = time.monotonic() + deadline_seconds() if deadline is None else deadline
    outer = cancel or threading.Event()
    cancel = threading.Event()
    host = urlsplit(url).hostname or url
    headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    request = urllib.request.Request(url, headers=headers)
    answers: queue.Queue[tuple[str, object]] = queue.Queue()
    worker = threading.Thread(
        target=_read,
        args=(request, timeout, max_bytes, answers, cancel, _Redirects(allow_http, origin)),
        name="paperscope-download",
        daemon=True,
    )
    worker.start()
    try:
        return _wait(answers, outer, deadline, progress, url, host, timeout, max_bytes)
    finally:
        cancel.set()  # the reading thread stops at its next chunk


def _wait(
    answers: queue.Queue[tuple[str, object]],
    cancel: threading.Event,
    deadline: float,
    progress: Progress | None,
    url: str,
    host: str,
    timeout: float,
    max_bytes: int,
) -> Fetched:
    """The reading thread's answers put together, until done, an error, a cancel or the deadline."""
    chunks: list[bytes] = []
    received = 0
    expected = 0
    while True:
        if time.monotonic() > deadline:
            name = url.rstrip("/").rsplit("/", 1)[-1]
            raise FeedError(
                f"the download of {name} from {host} was not done within the "
                f"{deadline_seconds():g} s allowed ({received:,} bytes came); stopped"
            )
        try:
            kind, value = answers.get(timeout=POLL)
        except queue.Empty:
            if cancel.is_set():
                raise Cancelled("the download was stopped") from None
            continue
        if kind == "open":
            expected = int(value) if isinstance(value, int) else 0
        elif kind == "chunk":
            assert isinstance(value, bytes)
            chunks.append(value)
            received += len(value)
            if progress is not None:
                progress(received, expected)
        elif kind == "error":
            missing = isinstance(value, urllib.error.HTTPError) and value.code == 404
            raise (Missing if missing else FeedError)(
                _message(value, host, url, timeout, max_bytes)
            )
        elif kind == "done":
            assert isinstance(value, Fetched)
            if value.body is None:
                return value
            return Fetched(b"".join(chunks), value.etag, value.last_modified, value.content_type)
        if cancel.is_set():
            raise Cancelled("the download was stopped")


class _TooBig(Exception):
    pass


class _Refused(Exception):
    """A redirect not followed; the message is the user's line."""


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects to https (and http when allowed) only, never in a loop."""

    def __init__(self, allow_http: bool, home: str = "") -> None:
        self.allow_http = allow_http
        self.home = home
        self.seen: list[str] = []

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: Any,
        code: int,
        msg: str,
        headers: Any,
        newurl: str,
    ) -> urllib.request.Request | None:
        """The next request, or :class:`_Refused` for a scheme, a loop or too many hops."""
        name = req.full_url.rstrip("/").rsplit("/", 1)[-1]
        scheme = urlsplit(newurl).scheme.lower()
        allowed = ("https", "http") if self.allow_http else ("https",)
        if scheme not in allowed:
            raise _Refused(f"{name} redirected to {_short(newurl)}: only {allowed[0]}:// "
                           "is followed; refused")  # fmt: skip
        if self.home and origin(newurl) != origin(self.home):
            raise _Refused(f"{name} redirected to {_short(newurl)}, which is not on "
                           f"{origin(self.home)[1]}; refused")  # fmt: skip
        self.seen.append(req.full_url)
        if newurl in self.seen or len(self.seen) > MAX_REDIRECTS:
            raise _Refused(f"{name}: the redirects go round in a loop ({len(self.seen)} hops); "
                           "refused")  # fmt: skip
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _short(url: str) -> str:
    """A URL cut to fit in a message line."""
    return url if len(url) <= 80 else url[:77] + "..."


@functools.cache
def tls_context() -> ssl.SSLContext:
    """The certificate-checking context of every download, made once per process.

    Making one loads the system's certificate store (tens of milliseconds of CPU); one
    context serves any number of connections, from any thread.
    """
    return ssl.create_default_context()


def _read(
    request: urllib.request.Request,
    timeout: float,
    max_bytes: int,
    answers: queue.Queue[tuple[str, object]],
    cancel: threading.Event,
    redirects: _Redirects,
) -> None:
    """Open and read ``request`` in chunks, posting ``open``/``chunk``/``done``/``error``."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPSHandler(context=tls_context()), redirects
    )
    try:
        try:
            response = opener.open(request, timeout=timeout)
        except urllib.error.HTTPError as exc:
            if exc.code == 304:
                answers.put(("done", Fetched(None)))
                return
            raise
        with response:
            length = response.headers.get("Content-Length", "")
            size = int(length) if length.isascii() and length.isdigit() else 0
            if size > max_bytes:
                raise _TooBig
            answers.put(("open", size))
            total = 0
            while not cancel.is_set():
                # read1: what has come, at once (read() waits for a whole chunk).
                chunk = response.read1(CHUNK)
                if not chunk:
                    break
                total += len(chunk)
                if total > max_bytes:
                    raise _TooBig
                answers.put(("chunk", chunk))
            if size and total < size and not cancel.is_set():
                raise IncompleteRead(b"", size - total)
            headers = response.headers
            answers.put(("done", Fetched(b"", headers.get("ETag", ""),
                                         headers.get("Last-Modified", ""),
                                         headers.get("Content-Type", ""))))  # fmt: skip
    except BaseException as exc:  # every failure is reported to the waiting thread
        answers.put(("error", exc))


def _message(exc: object, host: str, url: str, timeout: float, max_bytes: int) -> str:
    """One line saying what went wrong with the download of ``url``."""
    name = url.rstrip("/").rsplit("/", 1)[-1]
    if isinstance(exc, _Refused):
        return str(exc)
    if isinstance(exc, _TooBig):
        return f"{name} from {host} is larger than {max_bytes // (1024 * 1024)} MB; stopped"
    if isinstance(exc, urllib.error.HTTPError):
        return f"{host} answered {exc.code} {exc.reason} for {name}"
    if isinstance(exc, urllib.error.URLError):
        exc = exc.reason
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"{host}'s certificate could not be verified ({exc.verify_message})"
    if isinstance(exc, TimeoutError | socket.timeout):
        return f"no answer from {host} within {timeout:g} s"
    if isinstance(exc, socket.gaierror):
        return f"cannot find {host} (no network, or a DNS failure)"
    if isinstance(exc, ConnectionRefusedError):
        return f"{host} refused the connection"
    if isinstance(exc, OSError):
        return f"cannot reach {host}: {exc.strerror or exc}"
    if isinstance(exc, HTTPException):
        return f"{host} broke off the answer for {name} ({exc.__class__.__name__})"
    return f"the download of {name} from {host} failed ({exc.__class__.__name__}: {exc})"
