"""Hostile inputs of ``paperscope update``: local ``--from`` files that are not regular
files or too big (issue 29.13), a server that trickles (29.14), ids of non-ASCII digits
(29.15) and an empty ``--from`` (29.17). Where a hang is the fault, the update runs in a
process forked from the test's (``forked_cli``: its timeout detects the hang); where a
terminal is needed, in a process of its own; the others in the test's.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.helpers.cli import run_cli
from tests.helpers.faults import paperscope
from tests.helpers.faults_cli import forked_cli
from tests.helpers.feed_cli import one_line_error, stored, update_here
from tests.helpers.feed_data import ICML_ABSTRACTS, ICML_FEED, good_files, small_feed
from tests.helpers.feed_server import Answer, serve
from tests.helpers.shared_builds import copy_home
from tests.helpers.tmux import TmuxServer
from tests.helpers.waiting import wait_until


def local_folder(tmp_path: Path) -> Path:
    feed, abstracts = small_feed()
    folder = tmp_path / "by-hand"
    folder.mkdir()
    (folder / ICML_FEED).write_text(json.dumps(feed))
    (folder / ICML_ABSTRACTS).write_text(json.dumps(abstracts))
    return folder


def test_a_fifo_a_device_or_a_huge_local_file_is_refused_at_once(tmp_path: Path) -> None:
    folder = local_folder(tmp_path)
    (folder / ICML_FEED).unlink()
    os.mkfifo(folder / ICML_FEED)
    # "At once": read, the pipe would block and the device never end; the process's
    # timeout is the hang detector (no wall-clock budget here: that is the benchmark's).
    one_line_error(forked_cli("update", "--from", str(folder), home=tmp_path / "home",
                              timeout=30), "not a regular file (a named pipe)")  # fmt: skip
    (folder / ICML_FEED).unlink()
    (folder / ICML_FEED).symlink_to("/dev/zero")
    one_line_error(forked_cli("update", "--from", str(folder), home=tmp_path / "home",
                              timeout=30), "not a regular file (a device)")  # fmt: skip
    (folder / ICML_FEED).unlink()
    with (folder / ICML_FEED).open("wb") as big:
        big.truncate(73 * 1024 * 1024)
    one_line_error(forked_cli("update", "--from", str(folder), home=tmp_path / "home",
                              timeout=30), "larger than 64 MB")  # fmt: skip
    assert stored(tmp_path / "home") == {}


def test_a_server_sending_a_byte_a_second_meets_the_deadline(tmp_path: Path) -> None:
    files = good_files()
    files[ICML_FEED] = Answer(files[ICML_FEED].body, trickle=1.0)
    with serve(files) as site:
        # Without the deadline the trickle would take hours: the process's timeout (60 s)
        # is the hang detector, the message says the deadline ended it.
        done = forked_cli("update", "--from", site.url, home=tmp_path, timeout=60,
                          env={"PAPERSCOPE_DOWNLOAD_DEADLINE": "3"})  # fmt: skip
    one_line_error(done, "was not done within the 3 s allowed")
    assert stored(tmp_path) == {}


def test_a_slow_download_shows_a_progress_line_on_a_terminal(tmp_path: Path) -> None:
    files = good_files()
    files[ICML_FEED] = Answer(files[ICML_FEED].body, trickle=0.3, declared_length=-1)
    with serve(files) as site, TmuxServer() as tmux:
        command = " ".join(paperscope("update", "--from", site.url))
        tmux("new-session", "-d", "-x", "120", "-y", "36", "-e", f"PAPERSCOPE_HOME={tmp_path}",
             "-e", "PAPERSCOPE_DOWNLOAD_DEADLINE=4", f"{command}; sleep 30")  # fmt: skip
        shown = wait_until(lambda: f"Downloading {ICML_FEED} 0.0 MB (" in tmux.capture("0"))
        screen = tmux.capture("0")
        ended = wait_until(lambda: "was not done within" in tmux.capture("0"), timeout=30)
    assert shown and ended, screen


def _with_id(feed: dict, value: object, abstracts: dict[str, str], key: str) -> tuple[str, str]:
    results = [dict(r) for r in feed["results"]]
    results[3]["id"] = value
    return json.dumps({**feed, "results": results}), json.dumps({**abstracts, key: "text"})


def test_ids_of_non_ascii_digits_are_no_traceback(tmp_path: Path, warm_home: Path) -> None:
    feed, abstracts = small_feed()
    with serve() as site:
        body, marked = _with_id(feed, "6439²", abstracts, "6439²")
        site.files.update({ICML_FEED: Answer(body.encode()),
                           ICML_ABSTRACTS: Answer(marked.encode())})  # fmt: skip
        one_line_error(update_here(tmp_path, "--from", site.url), "1 no id")
        # An abstracts key of such digits alone names no event: the rest is stored.
        site.files[ICML_FEED] = good_files()[ICML_FEED]
        done = update_here(tmp_path, "--from", site.url)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    source = tmp_path / ICML_FEED
    source.write_text(body)
    # The feed read as a source, alone (``--no-bundled``): the reader of that file is what
    # is tested, not its merge with the 6,628 bundled papers, whose catalogue and index
    # the search made again beside it (~1.3 s of CPU, where the feed's own take ~0.1 s).
    searched = run_cli("search", "--no-bundled", "--source", str(source), "learning",
                       home=tmp_path / "feed-home")  # fmt: skip
    assert searched.returncode == 0 and "Traceback" not in searched.stderr, searched.stderr
    assert "Learning" in searched.stdout or "learning" in searched.stdout, searched.stdout
    # Each command on a copy of the home whose bundled catalogue and index are built: only
    # what its own sources change is built (the bundled data is not what is tested here).
    homes = (copy_home(warm_home, tmp_path / f"home-{n}") for n in range(2))
    table = tmp_path / "table.csv"
    table.write_text("event_id,event_type,title\n6439²,Poster,A paper\n6440,Poster,Another\n")
    for argv in (["search", "--no-bundled", "--source", str(table), "paper"],
                 ["agenda", "--day", "2026-07-08", "--at", "1²:30"]):  # fmt: skip
        done = run_cli(*argv, home=next(homes))
        assert "Traceback" not in done.stderr and done.returncode in (0, 1, 2), done.stderr


def test_an_empty_from_is_a_usage_error(tmp_path: Path) -> None:
    done = update_here(tmp_path, "--from", "")
    assert done.returncode == 2 and "--from needs" in done.stderr
    assert "Traceback" not in done.stderr and stored(tmp_path) == {}
