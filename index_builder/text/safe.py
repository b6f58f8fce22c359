"""Text made safe for a terminal, and folded for matching titles: no LaTeX, cheap to import.

Kept apart from :mod:`index_builder.text.render` (which loads pylatexenc) because the TUI
and the command line need these on the way to their first output.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from index_builder.text.words import each_non_ascii_run, strip_accents

__all__ = ["fold", "json_escapes_safe", "json_strings_safe", "safe", "safe_json"]

_ESCAPE_SEQ = re.compile(
    r"[\x1b][\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)"  # OSC, DCS, SOS, PM, APC strings
    r"|[\x9d\x90\x98\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)"  # their 8-bit forms
    # Unterminated (the ``ESC \`` lost, e.g. to LaTeX rendering): the payload goes too,
    # up to the next space, so "0;title" is not left visible.
    r"|(?:[\x1b][\]PX^_]|[\x9d\x90\x98\x9e\x9f])[^\x07\x1b\x9c\s]*"
    r"|(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b[ -/]*[0-~]",  # other escapes (charset selection, ESC c, ...)
    re.S,
)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_INTRODUCERS = "\x1b\x90\x98\x9b\x9d\x9e\x9f"
_ASCII_CONTROLS = bytes([*range(9), 11, 12, *range(14, 32), 127])
"""The ASCII controls :data:`_CONTROL` drops, but the carriage return (checked apart)."""
_C1_TAILS = frozenset(chr(c).encode()[1:] for c in range(0x80, 0xA0))
_BIDI_TAILS = frozenset(
    chr(c).encode()[1:] for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))
)
"""What follows the lead byte in the UTF-8 of a C1 control or a bidi override."""
_JSON_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.S)
_KEPT_ESCAPES = frozenset('"\\/nt')


def safe(text: str, utf8: bytes | None = None) -> str:
    """`text` made inert for a terminal: no escape sequences, controls or bidi overrides.

    Newlines and tabs are kept. A sequence goes whole, its payload with it (an OSC 8
    link keeps its visible text, loses its target). ``utf8``: the text's UTF-8 bytes
    (a BOM before them allowed), when the caller has them: a whole file read as UTF-8.
    """
    if utf8 is None:
        if text.isprintable():  # no ESC, C0/C1 control or bidi override (Cf): nothing to drop
            return text
        utf8 = text.encode("utf-8", "surrogatepass")
    # Whole files come here (the 3 MB bundled table, whose only controls are its CRLF
    # line ends; a 10 MB feed on one line): the regular expressions cost 0.2 s on the
    # table, these C-speed checks of its bytes 20 ms.
    if not _has_controls(utf8):
        return text.replace("\r", "") if b"\r" in utf8 else text
    if any(c in text for c in _INTRODUCERS):
        text = _ESCAPE_SEQ.sub("", text)
    return _CONTROL.sub("", text)


def _has_controls(raw: bytes) -> bool:
    """True when the UTF-8 ``raw`` holds a character :data:`_CONTROL` drops other than a
    carriage return (tab, newline and the harmless non-printables such as a no-break
    space do not count)."""
    # On the UTF-8 bytes, where the C library does the scanning: a C1 control is 0xC2
    # then 0x80-0x9F, a bidi override 0xE2 then two bytes; those leads are rare.
    if len(raw.translate(None, _ASCII_CONTROLS)) != len(raw):
        return True
    for lead, width, found in ((0xC2, 1, _C1_TAILS), (0xE2, 2, _BIDI_TAILS)):
        at = raw.find(lead)
        while at >= 0:
            if raw[at + 1 : at + 1 + width] in found:
                return True
            at = raw.find(lead, at + 1)
    return False


def json_strings_safe(text: str) -> bool:
    """True when every string of the JSON document ``text`` (keys too) is already :func:`safe`,
    so :func:`safe_json` would give its parsed data back unchanged.

    For a document ``json.loads`` accepts (strict: no raw control inside a string). A
    string is changed by :func:`safe` exactly when it holds a character of
    :data:`_CONTROL`. Raw, such a character can only be a C1 control, DEL or a bidi
    override (a raw CR, tab or newline lies between the values), and escaped, it is a
    ``\\b``, ``\\f``, ``\\r`` or a ``\\u`` escape of one.
    """
    return not _has_controls(text.encode("utf-8", "surrogatepass")) and json_escapes_safe(text)


def json_escapes_safe(text: str) -> bool:
    """:func:`json_strings_safe` for a document already :func:`safe` (a source file or a
    download made safe whole): only its escapes can stand for a control."""
    if "\\" not in text:
        return True
    # In a JSON document every backslash starts an escape, so matching from the left
    # reads each escape as the parser does (an escaped backslash is one match).
    for escape in set(_JSON_ESCAPE.findall(text)):
        if len(escape) == 1:
            if escape not in _KEPT_ESCAPES:
                return False
        elif _CONTROL.match(chr(int(escape[1:], 16))):
            return False
    return True


def safe_json(data: Any) -> Any:
    """Parsed JSON with every string in it (keys too) made :func:`safe`."""
    if isinstance(data, str):
        return safe(data)
    if isinstance(data, list):
        return [safe_json(item) for item in data]
    if isinstance(data, dict):
        return {safe(str(k)): safe_json(v) for k, v in data.items()}
    return data


_PUNCTUATION = str.maketrans(
    {
        **dict.fromkeys("‐‑‒–—―−﹘﹣－", "-"),
        **dict.fromkeys("‘’‚‛′", "'"),
        **dict.fromkeys("“”„‟″«»", '"'),
    }
)


def fold(text: str) -> str:
    """Accents, dashes and quotes folded, case kept: "Wang–Landau é" → "Wang-Landau e".

    The letters fold as everywhere else (:func:`index_builder.text.words.strip_accents`).
    """
    # A run is folded once, however often it comes (the dashes and quotes of every
    # rendered abstract).
    return each_non_ascii_run(text, _fold_run)


@lru_cache(maxsize=20_000)
def _fold_run(run: str) -> str:
    # Dashes again after decomposing: compatibility forms (﹘) decompose to dashes.
    return strip_accents(run.translate(_PUNCTUATION)).translate(_PUNCTUATION)
