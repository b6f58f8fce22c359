"""Issue 36.5: ``update`` and a first ``search``/``similar``/``recommend`` on a full disk.

The disk is a small tmpfs filled to the last block, in a private mount namespace
(``unshare -m``, as the reading list's full-disk test does); where no namespace can be
made the test is skipped and says why. Each command must end in one line and exit 1,
leave no half-written files behind, and keep what was stored before in use.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from tests.helpers.cli import run_cli
from tests.helpers.faults import namespace_problem, paperscope, run
from tests.helpers.feed_cli import update_here
from tests.helpers.feed_data import ICML_ABSTRACTS, ICML_FEED, small_feed

NO_NAMESPACE = namespace_problem()
pytestmark = pytest.mark.skipif(NO_NAMESPACE is not None, reason=str(NO_NAMESPACE))

FULL_DISK = """
set -e
folder="$1"; shift
mkdir -p "$folder"
cp -a "$folder" "$folder.copy"
mount -t tmpfs -o "size=$SIZE" tmpfs "$folder"
cp -a "$folder.copy/." "$folder/"
dd if=/dev/zero of="$folder/filler" bs=4k 2>/dev/null || true
set +e
for command in "$@"; do
  sh -c "$command"
  echo "exit=$?"
done
echo "left:"
ls -a "$folder/data/feeds/.icml2026" 2>/dev/null
ls -a "$folder/cache/index" 2>/dev/null
echo "stored:"; cat "$folder/data/feeds/icml2026/$FEED" 2>/dev/null | sha256sum
"""


def write_feed(folder: Path, n: int) -> Path:
    feed, abstracts = small_feed(n)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ICML_FEED).write_text(json.dumps(feed), encoding="utf-8")
    (folder / ICML_ABSTRACTS).write_text(json.dumps(abstracts), encoding="utf-8")
    return folder


def write_papers(path: Path) -> Path:
    """A paper list of three diffusion papers (JSON, as a user's ``--source``)."""
    records = [
        {"event_id": 91000 + i, "title": f"Diffusion models {word}", "abstract": f"{word} noise"}
        for i, word in enumerate(("denoise", "sample", "score"))
    ]
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


def on_full_disk(home: Path, *commands: list[str], size: str = "4m") -> tuple[str, str]:
    """Run each command (an argv) with ``home`` on a full tmpfs of ``size`` (room for what
    ``home`` holds); stdout and stderr."""
    lines = [" ".join(f"'{a}'" for a in argv) for argv in commands]
    argv = ["unshare", "-m", "--propagation", "private", "sh", "-c", FULL_DISK, "sh",
            str(home), *lines]  # fmt: skip
    done = run(home, argv, timeout=600, env={"FEED": ICML_FEED, "SIZE": size})
    shutil.rmtree(f"{home}.copy", ignore_errors=True)
    return done.stdout, done.stderr


def test_update_on_a_full_disk_is_one_line_and_keeps_the_stored_feed(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert update_here(home, "--from", str(write_feed(tmp_path / "first", 40))).returncode == 0
    kept = hashlib.sha256((home / "data/feeds/icml2026" / ICML_FEED).read_bytes()).hexdigest()
    second = write_feed(tmp_path / "second", 30)
    out, err = on_full_disk(home, paperscope("update", "--from", str(second)))
    assert "exit=1" in out, out + err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "No space left on device" in lines[0], err
    assert "cannot store the new feed" in lines[0] and "the stored data is unchanged" in lines[0]
    left = out.split("left:")[1].split("stored:")[0].split()
    assert not [name for name in left if name.startswith(".new-")], left
    assert out.split("stored:")[1].split()[0] == kept  # the old feed still in use


def test_a_first_search_on_a_full_disk_is_one_line(tmp_path: Path) -> None:
    """The first ``search`` on a new home, whose catalogue cache cannot be written either
    (that is silent: the catalogue is built in memory); then ``similar`` and ``recommend``
    on a home that holds the catalogue's cache and no index. Each reaches the index the
    same way (the context's catalogue, then the index's first build): the two need not
    build the catalogue from the sources again to meet the full disk there (it cost ~2 s
    of CPU a command). Every home has three papers of its own (``--no-bundled``): a
    catalogue built from sources, or read from its cache, meets the full disk the same
    way whatever its size; the bundled table's build cost the first search ~1.5 s of CPU,
    and reading the bundled cache and starting the index of its 6,628 papers cost
    ``similar`` and ``recommend`` ~0.3 s each."""
    new_home = tmp_path / "new"
    source = write_papers(tmp_path / "papers.json")
    own = ["--no-bundled", "--source", str(source)]
    first, first_err = on_full_disk(new_home, paperscope(*own, "search", "diffusion"))
    catalogued = tmp_path / "catalogued"
    assert run_cli(*own, "dump", home=catalogued).returncode == 0  # its catalogue cache
    assert list((catalogued / "cache").glob("catalogue-*")), "no catalogue cache was written"
    assert not (catalogued / "cache" / "index").exists()
    room = f"{sum(p.stat().st_size for p in catalogued.rglob('*') if p.is_file()) // 2**20 + 4}m"
    then, then_err = on_full_disk(
        catalogued, paperscope(*own, "similar", "91000"), paperscope(*own, "recommend"), size=room
    )
    out, err = first + then, first_err + then_err
    assert first.count("exit=1") == 1 and then.count("exit=1") == 2, out + err
    assert "Traceback" not in err and "whoosh" not in err.lower()
    lines = err.strip().splitlines()
    assert len(lines) == 3, err
    for line in lines:
        assert "cannot write the search index in" in line and "No space left on device" in line
    for said in (first, then):
        index_left = said.split("left:")[1].split("stored:")[0].split()
        assert set(index_left) <= {".", ".."}, index_left  # no half-built index kept
