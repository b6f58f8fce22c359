"""``paperscope zotero send`` against a fake Zotero connector on 127.0.0.1 (its answers
read from Zotero's server source: tests/helpers/zotero_server.py)."""

from __future__ import annotations

import argparse
import io
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import rispy

from index_builder.paths import HOME_ENV
from index_builder.readinglist.store import ReadingList
from index_builder.readinglist.zotero import ZoteroConnector, ZoteroError
from tests.helpers.cli import run_cli
from tests.helpers.cli_cut import bundled_cut, cut_flags
from tests.helpers.zotero_server import fake_zotero
from tests.tui.cli.test_cli_readinglist import make_ctx, rl
from tui.cli import zotero as cli_zotero
from tui.shared.context import Context


def send(ctx: Context, *argv: str) -> int:
    """Parse ``zotero send ARGV`` and run it."""
    parser = argparse.ArgumentParser(prog="paperscope")
    cli_zotero.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["zotero", "send", *argv])
    return int(args.func(args, ctx))


@pytest.fixture
def ctx(tmp_path: Path) -> Context:
    ctx = make_ctx(tmp_path)
    assert rl(ctx, "add", "p1", "p2") == 0
    assert rl(ctx, "note", "p1", "read", "§3") == 0
    assert rl(ctx, "tag", "p1", "zotero", "thesis") == 0
    return ctx


def free_port() -> int:
    """A port on 127.0.0.1 nobody listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_reading_list_goes_in_with_notes_and_tags(
    ctx: Context, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_zotero() as fake:
        assert send(ctx, "--url", fake.url) == 0
    assert capsys.readouterr().out.strip() == "Zotero imported 2 of 2 papers"
    ping, (sent,) = fake.received[0], fake.imports()
    assert (ping.method, ping.path) == ("GET", "/connector/ping")
    assert sent.headers["x-zotero-connector-api-version"] == "3"
    assert sent.headers["zotero-allowed-request"] == "1"
    assert sent.headers["content-type"].startswith("text/plain")
    entries = rispy.load(io.StringIO(sent.body.decode("utf-8").replace("\r\n", "\n")))
    by_title = {e["title"]: e for e in entries}
    first = by_title["ProEval: Proactive Failure Discovery"]
    assert first["keywords"] == ["thesis", "zotero"] and first["notes"] == ["read §3"]
    assert first["authors"][0] == "Huang, Yizheng"


def test_tag_status_and_ids_choose_what_goes(
    ctx: Context, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_zotero() as fake:
        assert send(ctx, "--url", fake.url, "--tag", "ZOTERO") == 0
        assert "imported 1 of 1 paper" in capsys.readouterr().out
        assert send(ctx, "--url", fake.url, "p3") == 0  # not bookmarked: sent all the same
        assert send(ctx, "--url", fake.url, "--status", "read") == 1
        assert "no bookmark matches" in capsys.readouterr().err
        assert send(ctx, "--url", fake.url, "nope") == 1
    assert len(fake.imports()) == 2


@pytest.mark.parametrize(
    ("library", "version", "words"),
    [
        ("read-only", 3, "Zotero's selected library is read-only (500)"),
        ("ok", 2, "is too old (connector API 2, 3 needed)"),
    ],
)
def test_zotero_refusing_says_why_in_one_line(
    ctx: Context, capsys: pytest.CaptureFixture[str], library: str, version: int, words: str
) -> None:
    with fake_zotero(library, version) as fake:
        assert send(ctx, "--url", fake.url) == 1
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err
    with ReadingList(ctx.paths.reading_list) as store:
        assert len(store) == 2 and store.get("p1").tags == ("thesis", "zotero")  # type: ignore[union-attr]


def test_bad_input_and_a_used_session_get_zoteros_words() -> None:
    with fake_zotero() as fake:
        connector = ZoteroConnector(fake.url)
        with pytest.raises(ZoteroError, match=r"could not read the papers sent \(400\)"):
            connector.send("not a reference file")
        fake.sessions.add("taken")
        with pytest.raises(ZoteroError, match="409"):
            connector.send("TY  - GEN\r\nTI  - x\r\nER  - \r\n", session="taken")


def test_zotero_absent_is_one_line(ctx: Context, capsys: pytest.CaptureFixture[str]) -> None:
    port = free_port()
    assert send(ctx, "--url", f"http://127.0.0.1:{port}") == 1
    assert capsys.readouterr().err == f"paperscope: Zotero is not running (127.0.0.1:{port})\n"


def test_end_to_end_from_the_config(tmp_path: Path) -> None:
    """The command as a user runs it: bookmarks, then ``zotero send`` with the config's URL.

    The home's only source is the bundled table's rows of the bookmarked paper: each
    process read the bundled 6,628 papers from the cache first (and the test copied the
    shared home's cache and index), for a send that reads the one bookmark."""
    home = tmp_path / "home"
    flags = cut_flags(bundled_cut(tmp_path / "cut", ["65617"]))
    env = {"PATH": "/usr/bin:/bin", HOME_ENV: str(home), "PYTHONPATH": sys.path[0]}

    def paperscope(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tui", *flags, *argv], env=env, text=True,
                              capture_output=True, timeout=300)  # fmt: skip

    # The bookmark is set-up (in this process); ``zotero send`` runs as a user runs it.
    assert run_cli(*flags, "reading-list", "add", "65617", home=home).returncode == 0
    with fake_zotero() as fake:
        config = home / "config" / "config.toml"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(f'zotero_url = "{fake.url}"\n', encoding="utf-8")
        done = paperscope("zotero", "send")
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "Zotero imported 1 of 1 paper"
    config.write_text(f'zotero_url = "http://127.0.0.1:{free_port()}"\n', encoding="utf-8")
    done = paperscope("zotero", "send")
    assert done.returncode == 1 and done.stderr.startswith("paperscope: Zotero is not running")
    entry = rispy.load(io.StringIO(fake.imports()[0].body.decode().replace("\r\n", "\n")))[0]
    assert entry["authors"] == ["Amad, Harry", "van der Schaar, Mihaela"]
