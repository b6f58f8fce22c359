"""Finding links in raw abstract text, and telling which ones point at code.

Links are found before any LaTeX or Markdown processing so that nothing
mangles them: plain ``https://...`` text, ``\\url{...}``, ``\\href{url}{text}``,
Markdown ``[text](url)`` and schemeless ``github.com/...``-style code links.

Code hosts: GitHub (not ``*.github.io``: a project page is a website that may
or may not link code; it stays in `extract_urls`), GitLab (also self-hosted
``gitlab.*``), Bitbucket, Codeberg, SourceForge, Hugging Face and the
anonymised-review mirror ``anonymous.4open.science``. A bare host without a
path (``https://github.com``) is not a code link.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import urlsplit

# A URL character, or a LaTeX-escaped one (\_ \% \# \& \~) that belongs to it.
_URLCHAR = r"(?:[^\s<>\"{}`\\|^\[\]]|\\[_%#&~])"
_CODE_HOSTS = r"(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|huggingface\.co)"
BARE_URL = re.compile(rf"(?:https?://|www\.|(?<![\w./@-]){_CODE_HOSTS}/){_URLCHAR}+", re.I)
LINK_KINDS = (
    r"\\url\s*\{(?P<url>[^{}]*)\}"
    r"|\\href\s*\{(?P<href>[^{}]*)\}\s*\{(?P<label>(?:[^{}]|\{[^{}]*\})*)\}"
    r"|\[(?P<mdlabel>[^\[\]\n]*)\]\((?P<md>https?://[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)\)"
    rf"|(?P<bare>{BARE_URL.pattern})"
)
"""Every kind of link :data:`LINK` finds (case folded)."""
# Each kind starts with a backslash, "[", "http", "www." or a code host's first letter:
# looked for first, that one test at each position spares trying every kind there
# (a third of the time on abstracts that may hold a link), and matches nothing else.
LINK = re.compile(rf"(?=[\\\[hwgbc])(?:{LINK_KINDS})", re.I)
_TRAILING = ".,;:!?'\"*_"


def clean_url(url: str) -> str:
    """Unescape LaTeX escapes, drop trailing punctuation and unbalanced ``)``."""
    url = re.sub(r"\\([_%#&~])", r"\1", url.strip())
    url = url[: _kept_length(url)]
    if url.lower().startswith("www.") or not re.match(r"https?://", url, re.I):
        url = "https://" + url if url else url
    return url


def scan(text: str, link: Callable[[str, str, str], str]) -> str:
    """Replace every link in `text` by ``link(original, url, label)``.

    `label` is the visible text of ``\\href`` and Markdown links, else "".
    A bare URL's trailing punctuation stays outside the replacement.
    """

    if not may_link(text):
        return text

    def replace(match: re.Match[str]) -> str:
        whole = match.group(0)
        if match.group("bare") is not None:
            url = clean_url(whole)
            kept = _kept_length(whole)
            if not url or kept == 0:
                return whole
            return link(whole[:kept], url, "") + whole[kept:]
        raw = match.group("url") or match.group("href") or match.group("md") or ""
        label = match.group("label") or match.group("mdlabel") or ""
        url = clean_url(raw)
        if not url or not re.match(r"https?://\S", url):
            return whole
        return link(whole, url, label)

    return LINK.sub(replace, text)


def may_link(text: str) -> bool:
    """False only when :data:`LINK` cannot match ``text``: each of its kinds needs a
    ``\\url`` or ``\\href``, ``](`` (Markdown), ``://``, ``www.`` or a code host's
    ``.co``/``.org``. Most abstracts hold none of them, and these look-ups cost far less
    than the expression's scan (0.8 s of a catalogue's first build). Case is folded as
    the expression's: none of these letters has another letter folding to it."""
    if "](" in text or "://" in text:
        return True
    lowered = text.lower()
    # A backslash alone is no sign: the LaTeX of most abstracts with math has some.
    return any(sign in lowered for sign in ("\\url", "\\href", "www.", ".co", ".org"))


def _kept_length(raw: str) -> int:
    """How much of a bare match is URL (trailing punctuation excluded)."""
    end = len(raw)
    while end:
        char = raw[end - 1]
        unbalanced = char == ")" and raw[:end].count("(") < raw[:end].count(")")
        if char not in _TRAILING and not unbalanced:
            break
        end -= 1
    return end


def find_urls(raw: str) -> tuple[str, ...]:
    """Every link in `raw`, cleaned, deduplicated, in order of appearance."""
    found: dict[str, None] = {}

    def collect(original: str, url: str, label: str) -> str:
        found.setdefault(url, None)
        return original

    scan(raw, collect)
    return tuple(found)


def is_code_url(url: str) -> bool:
    """True when `url` points at a code (or model) repository."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    host = (parts.hostname or "").lower().removeprefix("www.")
    path = parts.path.strip("/")
    if not path:
        return False
    if host in {"github.com", "gist.github.com", "gitlab.com", "bitbucket.org"}:
        return True
    if host in {"codeberg.org", "huggingface.co", "anonymous.4open.science"}:
        return True
    return host.startswith("gitlab.") or host.endswith(("sourceforge.net", "sourceforge.io"))


def openreview_pdf(forum_url: str) -> str | None:
    """The PDF address of an OpenReview forum page (``/forum?id=X`` -> ``/pdf?id=X``).

    None unless ``forum_url`` is an http(s) OpenReview forum address with an id.
    """
    from urllib.parse import parse_qs, quote

    parts = urlsplit(forum_url.strip())
    host = (parts.hostname or "").lower()
    if parts.scheme.lower() not in ("http", "https") or host not in (
        "openreview.net",
        "www.openreview.net",
    ):
        return None
    ids = parse_qs(parts.query).get("id", [])
    if parts.path.rstrip("/") != "/forum" or len(ids) != 1 or not ids[0].strip():
        return None
    return f"https://openreview.net/pdf?id={quote(ids[0].strip(), safe='')}"
