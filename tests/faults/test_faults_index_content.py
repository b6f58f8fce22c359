"""Damage inside index files, found by content: overwritten blocks of postings and terms.

Fifty random 4 KB blocks of the ``.pst`` and ``.trm`` files are overwritten (sizes kept),
which earlier either raised an error missing from the list of damage errors or quietly
found nothing. The build marker records a checksum of every index file, checked on
opening: the real CLI must rebuild, say so on stderr, and answer as before.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from tests.helpers.cli import run_cli

if TYPE_CHECKING:
    from index_builder.search.engine import SearchIndex


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


def test_overwritten_blocks_are_detected_and_rebuilt(
    warm_home: Path, bundled_index: SearchIndex, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    shutil.copytree(warm_home / "cache", home / "cache")
    queries = ("citation", "rethinking")
    # The totals before the damage, from the shared index of the home copied here (what
    # ``paperscope search`` answers: the query passed to ``search(query, limit=20)``).
    before = {q: bundled_index.search(q, limit=20).total for q in queries}
    assert re.search(r"^  fresh +True$", cli(home, "doctor").stdout, re.M)
    overwrite_blocks(home / "cache" / "index")
    assert re.search(
        r"^  fresh +False$", cli(home, "doctor").stdout, re.M
    )  # no longer called fresh
    for query in ("citation", "rethinking"):
        done = cli(home, "search", "--json", query)
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        assert json.loads(done.stdout)["total"] == before[query] > 0
        if query == "citation":  # the first search found the damage and rebuilt
            assert "The search index was damaged and has been rebuilt." in done.stderr
