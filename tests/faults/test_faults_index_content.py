"""Damage inside index files, found by content: overwritten blocks of postings and terms.

Fifty random 4 KB blocks of the ``.pst`` and ``.trm`` files are overwritten (sizes kept),
which earlier either raised an error missing from the list of damage errors or quietly
found nothing. The build marker records a checksum of every index file, checked on
opening: the real CLI must rebuild, say so on stderr, and answer as before. The index is
of the bundled table's first 400 rows (built once per run, copied): its postings and
terms files (1.6 MB) hold some 400 blocks of 4 KB, and the rebuild the test waits for takes
a moment instead of the whole catalogue's seconds.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers.cli import run_cli
from tests.helpers.shared_builds import build_once


def cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``paperscope ARGS`` on ``home``."""
    return run_cli(*args, home=home, env={"COLUMNS": "200"})  # in this process: the build
    # forks its vectors worker from here, where the libraries it needs are loaded


def overwrite_blocks(index_dir: Path, count: int = 50, seed: int = 7) -> int:
    """Overwrite ``count`` random 4 KB blocks of the .pst and .trm files; return how many."""
    rng = random.Random(seed)
    files = [p for p in index_dir.iterdir() if p.suffix in (".pst", ".trm")]
    assert files, "no .pst or .trm files to damage"
    for _ in range(count):
        path = rng.choice(files)
        size = path.stat().st_size
        at = rng.randrange(0, max(1, size - 4096))
        with path.open("r+b") as fh:
            fh.seek(at)
            fh.write(rng.randbytes(min(4096, size - at)))
    return count


ROWS = 400
QUERIES = ("learning", "models")


def _build_slice_home(folder: Path) -> None:
    """``rows.csv`` (the bundled table's header and first :data:`ROWS` rows) and ``home``,
    its catalogue cache and index built by a first ``search``."""
    from index_builder.paths import bundled_sources

    lines = bundled_sources()[0].read_text(encoding="utf-8").splitlines(keepends=True)
    folder.mkdir(parents=True)
    (folder / "rows.csv").write_text("".join(lines[: ROWS + 1]), encoding="utf-8")
    done = cli(folder / "home", *sliced(folder), "search", "--json", QUERIES[0])
    assert done.returncode == 0, done.stderr


def sliced(folder: Path) -> tuple[str, ...]:
    """The options that make the built folder's table the only source."""
    return ("--no-bundled", "--source", str(folder / "rows.csv"))


@pytest.fixture
def slice_home(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> tuple[Path, Path]:
    """A private copy of the slice's home, and the shared folder that holds its table."""
    built = build_once(tmp_path_factory, "faults-index-content-slice", _build_slice_home)
    return Path(shutil.copytree(built / "home", tmp_path / "home")), built


def test_overwritten_blocks_are_detected_and_rebuilt(slice_home: tuple[Path, Path]) -> None:
    home, built = slice_home
    options = sliced(built)

    def total(query: str) -> int:
        done = cli(home, *options, "search", "--json", query)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        return int(json.loads(done.stdout)["total"])

    before = {q: total(q) for q in QUERIES}  # the intact index's answers
    assert re.search(r"^  fresh +True$", cli(home, *options, "doctor").stdout, re.M)
    assert overwrite_blocks(home / "cache" / "index") == 50
    assert re.search(
        r"^  fresh +False$", cli(home, *options, "doctor").stdout, re.M
    )  # no longer called fresh
    for query in QUERIES:
        done = cli(home, *options, "search", "--json", query)
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        assert json.loads(done.stdout)["total"] == before[query] > 0
        if query == QUERIES[0]:  # the first search found the damage and rebuilt
            assert "The search index was damaged and has been rebuilt." in done.stderr
