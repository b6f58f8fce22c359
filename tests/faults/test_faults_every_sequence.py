"""Every C0/C1 control and escape sequence, in every field, through every output (issue 36.1).

One paper whose title, authors, institutions, abstract, topic, session and room carry
all of :data:`SEQUENCES` (CSI; OSC ended by BEL, by ``ESC \\`` and by the 8-bit ST; an
OSC 8 link; DCS, SOS, PM, APC; their 8-bit introducers; every C0 bar tab and newline,
DEL and every C1), bookmarked with such a note. Every command-line output (human and
JSON, exports to stdout and to files) and every place the TUI shows text (the list, the
paper view, a notice, the note dialog, the palette) must hold none of them. The text is
made safe where it enters (a source's bytes, a JSON string, a stored bookmark) and where
a notice or a line is emitted.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from index_builder.paths import Paths
from index_builder.text.safe import safe
from tests.helpers.faults import paperscope
from tests.helpers.faults_cli import run_forked
from tests.helpers.faults_piped import piped_cli
from tests.helpers.hostile_data import unsafe_chars
from tests.helpers.notices import Notices
from tests.helpers.tui_helpers import main, ready, rendered_text, settle, type_query, until
from tui.app import PaperScopeApp
from tui.shared.config import Config
from tui.shared.context import Context

SEQUENCES = {
    "csi": "\x1b[31;1m",
    "csi-private": "\x1b[?1049h",
    "osc-bel": "\x1b]0;PWNED-TITLE\x07",
    "osc-st": "\x1b]52;c;UFdORUQ=\x1b\\",
    "osc-8bit-st": "\x1b]2;PWNED-TITLE\x9c",
    "osc8-link": "\x1b]8;;http://evil/\x1b\\link\x1b]8;;\x1b\\",
    "dcs": "\x1bP1$qPWNED\x1b\\",
    "sos": "\x1bXPWNED\x1b\\",
    "pm": "\x1b^PWNED\x1b\\",
    "apc": "\x1b_PWNED\x1b\\",
    "8bit-csi": "\x9b31m",
    "8bit-osc": "\x9d52;c;UFdORUQ=\x9c",
    "8bit-dcs": "\x90PWNED\x9c",
    "esc-c": "\x1bc",
    "c0": "".join(chr(c) for c in range(32) if chr(c) not in "\t\n"),
    "del-c1": "".join(chr(c) for c in range(0x7F, 0xA0)),
    "bidi": "\u202e\u2066",
}
ALL = "".join(f"<{seq}>" for seq in SEQUENCES.values())
IN_ARGV = ALL.replace("\x00", "")
"""What a command-line argument can carry (no NUL)."""
LEFTOVERS = ("PWNED", "UFdORUQ", "31m", "evil/", "1049h")
"""What each sequence would leave behind if only its controls were dropped. ``1049h``, not
``1049``: a moment of the clock (``agenda --json``'s microseconds) can hold ``1049``."""
PAPER_ID = "88123"


@pytest.mark.parametrize("name", SEQUENCES)
def test_safe_drops_each_sequence_whole(name: str) -> None:
    shown = safe(f"a{SEQUENCES[name]}b")
    assert unsafe_chars(shown) == [] and not any(x in shown for x in LEFTOVERS), repr(shown)
    if name not in ("c0", "del-c1"):  # runs of lone controls: an unended string eats "b"
        assert shown == ("alinkb" if name == "osc8-link" else "ab"), repr(shown)


def hostile_source(folder: Path) -> Path:
    """A JSON paper list whose one paper carries :data:`ALL` in every text field."""
    folder.mkdir(parents=True, exist_ok=True)
    record = {"event_id": int(PAPER_ID), "title": f"Zqevery title {ALL} end",
              "authors": [f"Ann {ALL} Lee", "Bo Chen"], "institutions": [f"Uni {ALL}"],
              "abstract": f"zqevery abstract {ALL} and the link text stays.",
              "topic": f"Topic {ALL}", "session": f"Poster Session 1 {ALL}",
              "room": f"Hall {ALL} D", "starts_at": "2026-07-08T10:30:00-07:00",
              "url": f"https://icml.cc/{ALL}"}  # fmt: skip
    path = folder / "every.json"
    path.write_text(json.dumps([record]), encoding="utf-8")
    return path


def clean(text: str, where: str) -> None:
    """``text`` holds no control character and no sequence's payload."""
    assert unsafe_chars(text) == [], (where, unsafe_chars(text), text[:400])
    for left in LEFTOVERS:
        assert left not in text, (where, left, text[:400])


def strings(data: Any) -> list[str]:
    """Every string in parsed JSON."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, list):
        return [s for item in data for s in strings(item)]
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in (k, *strings(v))]
    return []


@pytest.fixture(scope="module")
def home_and_argv(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A home whose list holds the hostile paper with a hostile note (made once)."""
    root = tmp_path_factory.mktemp("every-sequence")
    argv = paperscope("--no-bundled", "--source", str(hostile_source(root / "src")))
    for action in (["add", PAPER_ID], ["note", PAPER_ID, f"my note {IN_ARGV} end"]):
        done = run_forked(root / "home", [*argv, "reading-list", *action])
        assert done.returncode == 0, done.stderr
    return root / "home", argv


COMMANDS = [
    ["search", "zqevery"],
    ["search", "zqevery", "--json"],
    ["show", PAPER_ID],
    ["show", PAPER_ID, "--json"],
    ["cite", PAPER_ID],
    ["cite", PAPER_ID, "--style", "apa"],
    ["cite", PAPER_ID, "--style", "markdown"],
    ["dump", "--format", "csv"],
    ["dump", "--format", "jsonl"],
    ["reading-list", "list"],
    ["reading-list", "list", "--json"],
    ["reading-list", "export", "--format", "markdown"],
    ["reading-list", "export", "--format", "csv"],
    ["reading-list", "export", "--format", "bibtex"],
    ["reading-list", "export", "--format", "json"],
    ["reading-list", "export", "--format", "ics"],
    ["agenda", "--day", "2026-07-08"],
    ["agenda", "--json"],
    ["show", f"{PAPER_ID}{IN_ARGV}"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_line_output_is_clean(
    home_and_argv: tuple[Path, list[str]], command: list[str]
) -> None:
    home, argv = home_and_argv
    args = [*argv, *command][len(paperscope()) :]
    done = piped_cli(*args, home=home)  # its real pipes read as text (CRLF as \n)
    assert "Traceback" not in done.stderr, done.stderr
    if IN_ARGV in command[-1]:  # the message quotes the typed id, escaped, as text
        assert unsafe_chars(done.stderr) == [] and done.returncode == 1, done.stderr
        return
    clean(done.stdout + done.stderr, " ".join(command))
    if "--json" in command or "json" in command[-1]:
        lines = done.stdout.splitlines() if "jsonl" in command else [done.stdout]
        for line in lines:
            for text in strings(json.loads(line)):
                clean(text, f"{command}: a JSON string")
    if command[0] in ("show", "search"):
        assert "Zqevery title" in done.stdout and "end" in done.stdout, done.stdout


def test_an_export_to_a_file_is_clean(home_and_argv: tuple[Path, list[str]]) -> None:
    home, argv = home_and_argv
    for fmt in ("markdown", "csv", "bibtex", "json", "ics"):
        out = home.parent / f"out.{fmt}"
        done = run_forked(home, [*argv, "reading-list", "export", "--format", fmt, "-o", str(out)])
        assert done.returncode == 0, done.stderr
        text = out.read_text(encoding="utf-8")
        clean(text.replace("\r\n", "\n"), fmt)  # an .ics ends its lines with CRLF
        assert "Zqevery title" in text or "Zqevery title" in json.dumps(text), fmt


async def test_every_place_the_tui_shows_text_is_clean(
    tmp_path: Path, home_and_argv: tuple[Path, list[str]], notices: Notices
) -> None:
    home, _argv = home_and_argv
    source = home.parent / "src" / "every.json"
    mine = Path(shutil.copytree(home, tmp_path / "home"))
    paths = Paths(mine / "config", mine / "data", mine / "cache").ensure()
    ctx = Context(paths=paths, extra_sources=[source], use_bundled=False)
    app = PaperScopeApp(ctx, config=Config(path=paths.config_file))
    async with app.run_test(size=(200, 60)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "zqevery")
        await settle(pilot)
        assert screen.view.paper is not None
        shown = "\n".join(rendered_text(w) for w in screen.query("ResultList, PaperBody"))
        assert "Zqevery title" in shown and "link text stays" in shown, shown
        clean(shown, "list and paper view")
        app.notify(f"notice {ALL} end", title=f"title {ALL}")
        clean(" ".join(f"{n.title} {n.message}" for n in notices.of(app)), "notice")
        assert screen.view.paper.id in screen.bookmarked_ids()  # the fixture bookmarked it
        await pilot.press("escape")  # from the box to the list
        await until(pilot, lambda: app.focused is screen.results, what="the list's focus")
        await pilot.press("B")
        await until(pilot, lambda: app.screen is not screen, what="the reading list")
        listing = app.screen
        rows = "\n".join(rendered_text(w) for w in listing.query("DataTable, Static"))
        assert "Zqevery title" in rows, rows
        clean(rows, "reading list")
        await pilot.press("n")  # the note dialog, titled with the paper's title
        await until(pilot, lambda: app.screen is not listing, what="the note dialog")
        dialog = "\n".join(rendered_text(w) for w in app.screen.query("Label, Static, Input"))
        assert "Zqevery title" in dialog, dialog
        clean(dialog, "note dialog")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is listing, what="the reading list again")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, what="the papers again")
        await pilot.press("ctrl+p")
        await until(pilot, lambda: app.screen is not screen)
        await pilot.press(*"zqevery")
        await settle(pilot)
        palette = "\n".join(rendered_text(w) for w in app.screen.query("*"))
        clean(palette, "palette")
        main(pilot)


def test_an_osc8_link_in_an_abstract_keeps_its_text(tmp_path: Path) -> None:
    """Issue 36.2: the abstract showed ``inknd`` (LaTeX ate ``\\link``); now "link"."""
    abstract = "See \x1b]8;;http://evil/\x1b\\link \x1b]8;;\x1b\\and more."
    source = tmp_path / "osc8.json"
    source.write_text(json.dumps([{"event_id": 88124, "title": "Osc eight", "abstract": abstract}]))
    done = run_forked(
        tmp_path / "home", paperscope("--no-bundled", "--source", str(source), "show", "88124")
    )
    assert done.returncode == 0, done.stderr
    assert "See link and more." in done.stdout, done.stdout
    clean(done.stdout, "show")
