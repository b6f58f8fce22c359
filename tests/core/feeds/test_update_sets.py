"""The feed, its abstracts and ``meta.json`` are one unit (issue 29.12): one lock per venue,
a new set swapped in whole, kill -9 at any step leaves the old or the new set, and what a
killed update left is cleaned by the next one. Against 127.0.0.1; the updates that race or
are killed run as processes of their own (those killed forked from the test's), the others
in the test's process (``run_cli``).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import threading
from pathlib import Path

import pytest

from index_builder.paths import HOME_ENV
from tests.helpers.cli import run_cli
from tests.helpers.faults import paperscope
from tests.helpers.faults_killed import fork_cli
from tests.helpers.feed_cli import feeds, pair, update_here
from tests.helpers.feed_data import ICML_ABSTRACTS, ICML_FEED, icml_abstracts, icml_feed
from tests.helpers.feed_server import Answer, serve
from tests.helpers.waiting import wait_until


def files_of(first: int, last: int, tag: str) -> dict[str, Answer]:
    """Records ``first:last`` of the ICML feed and their abstracts (text marked with ``tag``)."""
    results = icml_feed()["results"][first:last]
    ids = {str(r["id"]) for r in results}
    abstracts = {k: f"{tag} {v}" for k, v in icml_abstracts().items() if k in ids}
    feed = {"count": len(results), "next": None, "previous": None, "results": results}
    return {
        ICML_FEED: Answer(json.dumps(feed).encode(), etag=f'"{tag}f"'),
        ICML_ABSTRACTS: Answer(json.dumps(abstracts).encode(), etag=f'"{tag}a"'),
    }


def bodies(files: dict[str, Answer]) -> tuple[bytes, bytes]:
    return files[ICML_FEED].body, files[ICML_ABSTRACTS].body


def start(home: Path, url: str) -> subprocess.Popen[str]:
    """``paperscope update -v --from URL`` running, its steps readable on stderr."""
    env = {**os.environ, HOME_ENV: str(home)}
    return subprocess.Popen(paperscope("update", "-v", "--from", url), env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip


def read_until(proc: subprocess.Popen[str], wanted: str) -> list[str]:
    """The lines of ``proc``'s stderr up to the first holding ``wanted``; fails at its end."""
    assert proc.stderr is not None
    lines: list[str] = []
    for line in proc.stderr:
        lines.append(line)
        if wanted in line:
            return lines
    raise AssertionError(f"stderr ended without {wanted!r}: {''.join(lines)}")


def test_two_concurrent_updates_never_mix_their_files(tmp_path: Path) -> None:
    old, mine = files_of(0, 40, "old"), files_of(0, 40, "mine")
    mine[ICML_FEED] = old[ICML_FEED]  # unchanged: answered 304
    hold = threading.Event()
    mine[ICML_ABSTRACTS].hold = hold
    theirs = files_of(40, 80, "theirs")
    with serve(old) as first, serve(theirs) as second:
        assert update_here(tmp_path, "--from", first.url).returncode == 0
        first.files.update(mine)
        slow = start(tmp_path, first.url)
        assert wait_until(lambda: any(ICML_ABSTRACTS in p for p, _ in first.requests[2:]))
        fast = start(tmp_path, second.url)
        # The second update must say it waits for the first (which holds the lock); were
        # there no lock, it would end without saying so and the wait below would fail.
        waited = read_until(fast, "icml2026: waiting for another update of icml2026 to end")
        hold.set()
        outs = [slow.communicate(timeout=60), fast.communicate(timeout=60)]
    assert slow.returncode == 0 and fast.returncode == 0, outs
    assert "waiting for another update" in waited[-1], waited
    assert pair(tmp_path) == bodies(theirs)


STEPS = [
    "locked",
    f"downloading {ICML_ABSTRACTS}",
    "checked",
    f"writing {ICML_FEED}",
    f"writing {ICML_ABSTRACTS}",
    "writing meta.json",
    "stored",
]


@pytest.fixture(scope="module")
def old_and_new(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Answer]]:
    """A home holding the first 30 records as stored by an update, and the 40 records the
    next update finds: made once for the kill moments, each of which copies the home.

    The update is stopped where it says the moment and killed there, so the feed need not
    be long for the kill to land before the update ends (it was 3,000 and 4,000 records,
    whose parsing, twice for each moment, was most of the test's CPU)."""
    old, new = files_of(0, 30, "old"), files_of(0, 40, "new")
    home = tmp_path_factory.mktemp("sets-old") / "home"
    with serve(old) as site:
        first = run_cli("update", "--from", site.url, home=home)
    assert first.returncode == 0, first.stderr
    assert pair(home) == bodies(old)
    return home, new


@pytest.mark.parametrize("moment", STEPS)
def test_kill_9_at_any_step_leaves_one_whole_set_and_the_next_update_cleans(
    old_and_new: tuple[Path, dict[str, Answer]], tmp_path: Path, moment: str
) -> None:
    stored_home, new = old_and_new
    home = Path(shutil.copytree(stored_home, tmp_path / "home", symlinks=True))
    old = pair(home)
    with serve(new) as site:
        # A process of its own, as it is killed: forked from this one, where Python and
        # the app are loaded (a fresh interpreter spent ~0.2 s of CPU starting). It stops
        # when it says the moment, and is killed there.
        said = f"icml2026: {moment}"
        update = fork_cli("update", "-v", "--from", site.url, home=home, stop_at=said)
        seen = []
        for line in update.stderr:
            seen.append(line.strip())
            if line.strip() == said:
                update.kill()
                break
        assert update.wait(30) == -signal.SIGKILL, seen  # stopped there: never ended
        assert pair(home) in (old, bodies(new))
        json.loads((feeds(home) / "icml2026" / "meta.json").read_text())
        again = run_cli("update", "--from", site.url, home=home)
    assert again.returncode == 0, again.stderr
    assert pair(home) == bodies(new)
    left = sorted(p.name for p in (feeds(home) / ".icml2026").iterdir())
    # "quiet": the update after the kill found nothing new to store (is:new ends then).
    sets = [n for n in left if n not in ("lock", "quiet")]
    assert len(sets) <= 2 and all(n.isdigit() for n in sets), left
    assert not [p for p in feeds(home).iterdir() if p.name.endswith(".swap")]


def test_a_feed_stored_by_an_older_version_is_kept_as_the_backup(tmp_path: Path) -> None:
    old, new = files_of(0, 40, "old"), files_of(0, 50, "new")
    legacy = feeds(tmp_path) / "icml2026"
    legacy.mkdir(parents=True)
    for name, answer in old.items():
        (legacy / name).write_bytes(answer.body)
    (legacy / "meta.json").write_text('{"base": "https://icml.cc/static/virtual/data/"}')
    (legacy / f".{ICML_FEED}.abcd.tmp").write_bytes(b"x" * 1000)  # a killed write's leftover
    with serve(new) as site:
        done = update_here(tmp_path, "--from", site.url)
    assert done.returncode == 0, done.stderr
    assert pair(tmp_path) == bodies(new) and legacy.is_symlink()
    assert not list(feeds(tmp_path).rglob("*.tmp"))
    assert update_here(tmp_path, "--undo").returncode == 0
    assert pair(tmp_path) == bodies(old)
