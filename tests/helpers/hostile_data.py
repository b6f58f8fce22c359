"""Hostile source files for the hardening tests (not a test module).

:func:`write_sources` writes an abstract list and a paper table full of markup,
escape sequences, control characters, bidi overrides, a 1 MB abstract, a
10,000-word title, empty fields and formula cells, plus a file with early NUL
bytes that must be skipped by name. Each hostile paper carries a unique search
word (``zqmarkup``, ``zqansi``, ...) so tests can find it.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from index_builder.paths import Paths
from index_builder.sources.table import TABLE_COLUMNS
from tui.shared.context import Context

OSC52 = "\x1b]52;c;aGFja2Vk\x07"
"""An OSC 52 clipboard write of the text ``hacked``."""
MARKUP = ("[bold red]", "[@click=app.quit]", "[link=file:///etc/passwd]")

ABSTRACTS = {
    "zqmarkup": "zqmarkup [bold red]RED[/bold red] and [@click=app.quit]quit[/] and "
    "[link=file:///etc/passwd]x[/link] and [/] [[ ]] [b]unclosed markup in an abstract.",
    "zqansi": "zqansi \x1b[31mred\x1b[0m \x1b[2J\x1b[H cleared, then " + OSC52 + " and an OSC 8 "
    "\x1b]8;;file:///etc/passwd\x1b\\link\x1b]8;;\x1b\\ and a title \x1b]0;pwned\x07 end.",
    "zqcontrol": "zqcontrol bell\x07 backspace\x08 vtab\x0b formfeed\x0c del\x7f "
    "nel\x85 csi\x9b31m osc\x9d52;c;aGFja2Vk\x9c end of the control characters.",
    "zqbidi": "zqbidi \u202eevil reversed text\u202c \u2066isolate\u2069 \u200frlm\u200e "
    "\u2028line\u2029para zero\u200bwidth end.",
    "zqlatex": "zqlatex $\\x1b$ {{{{ unbalanced \\textbf{ \\url{javascript:alert(1)} "
    "\\href{file:///etc/passwd}{click} [md](javascript:alert(1)) end.",
}
HUGE_WORD = "zqhuge"
HUGE_CHARS = 1_000_000
LONG_TITLE_WORDS = 10_000
LONG_TITLE_WORD = "zqlongtitle"


def huge_abstract() -> str:
    """A 1 MB abstract (words with some markup mixed in)."""
    chunk = "lorem ipsum [bold]dolor[/bold] sit amet \x1b[1mconsectetur "
    body = chunk * (HUGE_CHARS // len(chunk))
    return f"{HUGE_WORD} {body}end"


def long_title() -> str:
    """A title of 10,000 words."""
    words = [LONG_TITLE_WORD, *(f"w{i}" for i in range(LONG_TITLE_WORDS - 2)), "[bold]end[/]"]
    return " ".join(words)


TABLE_ROWS = [
    # event_id, title, authors, institutions, topic, url, paper_url, event_type
    ("900001", "zqtitlemarkup [bold red]Title[/] [@click=app.quit]Q[/] " + OSC52,
     "[bold]Eve[/bold]; \x1b[31mMallory\x1b[0m", "[link=file:///etc/passwd]U[/link]",
     "Topic [i]x[/i]", "javascript:alert(1)", "file:///etc/passwd", "Oral"),
    ("900002", "=cmd|' /C calc'!A0 zqformula", "+1; -1; @SUM(A1:A2)", "\tTab Inc",
     "\rCR topic", "data:text/html,<script>alert(1)</script>", "https://openreview.net/x",
     "Poster"),
    ("900003", long_title(), "A. Author", "", "", "https://icml.cc/virtual/2026/poster/900003",
     "", "Poster"),
    ("900004", "zqempty", "", "", "", "", "", ""),
    ("900006", "zqwide 中文标题的论文 🙂🙂🙂 가나다라 ＦＵＬＬＷＩＤＴＨ e\u0301\u0301 "
     "zalgo z\u0336\u0337",
     "王小明; 🙂 Emoji", "清华大学", "", "https://example.org/[/]", "", "Poster"),
    ("900005", "zqbraces } { \\ @comment{x} \\end{document} %", "Back\\slash; {Brace",
     "", "", "https://example.org/[@click=app.quit]x[/]", "", "Poster"),
]  # fmt: skip
COLUMNS = list(TABLE_COLUMNS)


def write_sources(folder: Path, *, huge: bool = True) -> list[Path]:
    """Write the hostile list, table and a binary file into ``folder``; return their paths.

    ``huge=False`` leaves the 1 MB abstract out (for runs that only need the rest).
    """
    folder.mkdir(parents=True, exist_ok=True)
    listing = folder / "hostile_list.txt"
    paragraphs = ["Hostile \x1b[31mheader\x1b[0m [bold]list[/]", *ABSTRACTS.values()]
    # The NUL bytes must come after the first 8 KB, which are checked for binary data.
    paragraphs.append(huge_abstract() if huge else "zqfiller " + "filler words " * 800)
    paragraphs.append("zqnul late NUL bytes \x00 inside \x00 an abstract after 8 KB.")
    listing.write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")
    table = folder / "hostile_table.csv"
    with table.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        for eid, title, authors, insts, topic, url, purl, kind in TABLE_ROWS:
            writer.writerow(
                [eid, kind, title, "Accept", topic, "Poster Session 1", "", "", url, purl,
                 authors, insts]
            )  # fmt: skip
    binary = folder / "binary.txt"
    binary.write_bytes(b"Header\n\n\x00\x01\x02 zqbinary " * 50)
    return [listing, table, binary]


# What must never reach a terminal: ESC, BEL, other C0 controls (bar \t \n), DEL, C1
# controls and the bidi overrides/isolates.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def unsafe_chars(text: str) -> list[str]:
    """The characters of ``text`` that a terminal would act on (as ``repr``s)."""
    return sorted({repr(c) for c in UNSAFE.findall(text)})


HOSTILE_BUILD = "hostile-tui"
"""The name of :func:`build_hostile`'s folder, built once per test run
(:func:`tests.helpers.shared_builds.build_once`) for every test of the hostile data."""


def build_hostile(root: Path) -> None:
    """The hostile sources and their catalogue cache and index, under ``root``.

    ``root/sources`` holds the files of :func:`write_sources` (their paths, in order, in
    ``root/sources.json``); ``root/cache`` the catalogue cache and index that
    ``paperscope --no-bundled --source ...`` of them makes. The sources stay where they
    are: their paths are in the catalogue's fingerprint, so a copy of the cache elsewhere
    stays fresh.
    """
    sources = write_sources(root / "sources")
    (root / "sources.json").write_text(json.dumps([str(p) for p in sources]))
    paths = Paths(root / "config", root / "data", root / "cache").ensure()
    ctx = Context(paths=paths, extra_sources=sources, use_bundled=False)
    ctx.index().ensure()
    ctx.index().close()


def built_sources(root: Path) -> list[Path]:
    """The source files of a folder made by :func:`build_hostile`, in order."""
    return [Path(p) for p in json.loads((root / "sources.json").read_text())]
