"""One HTTP(S) download: certificate checks, a User-Agent, timeouts, a size cap, 304s.

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
import queue
import socket
import ssl
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from http.client import HTTPException, IncompleteRead
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
CHUNK = 64 * 1024
POLL = 0.1
"""How often the waiting thread looks at ``cancel``."""

Progress = Callable[[int, int], None]
"""``(bytes received, bytes expected or 0 when unknown)``."""


class FeedError(Exception):
    """A download or feed that cannot be used; the message is one line for the user."""


class Cancelled(FeedError):
    """The user stopped the download."""


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
) -> Fetched:
    """GET ``url`` (see the module doc); raises :class:`FeedError` or :class:`Cancelled`.

    ``max_bytes`` defaults to :data:`MAX_BYTES`.
    """
    max_bytes = MAX_BYTES if max_bytes is None else max_bytes
    cancel = cancel or threading.Event()
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
        args=(request, timeout, max_bytes, answers, cancel),
        name="paperscope-download",
        daemon=True,
    )
    worker.start()
    chunks: list[bytes] = []
    received = 0
    expected = 0
    while True:
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
            raise FeedError(_message(value, host, url, timeout, max_bytes))
        elif kind == "done":
            assert isinstance(value, Fetched)
            if value.body is None:
                return value
            return Fetched(b"".join(chunks), value.etag, value.last_modified, value.content_type)
        if cancel.is_set():
            raise Cancelled("the download was stopped")


class _TooBig(Exception):
    pass


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
) -> None:
    """Open and read ``request`` in chunks, posting ``open``/``chunk``/``done``/``error``."""
    context = tls_context()
    try:
        try:
            response = urllib.request.urlopen(request, timeout=timeout, context=context)
        except urllib.error.HTTPError as exc:
            if exc.code == 304:
                answers.put(("done", Fetched(None)))
                return
            raise
        with response:
            length = response.headers.get("Content-Length", "")
            size = int(length) if length.isdigit() else 0
            if size > max_bytes:
                raise _TooBig
            answers.put(("open", size))
            total = 0
            while not cancel.is_set():
                chunk = response.read(CHUNK)
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
