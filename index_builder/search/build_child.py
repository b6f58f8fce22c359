"""The child side of :mod:`index_builder.search.builder`: build one index, report progress.

Run as ``python -m index_builder.search.build_child FOLDER`` with ``pickle((index_dir,
papers, fingerprint, declared venues))`` on stdin; prints ``done total`` lines, then
``ok``. It asks Linux to kill it when its parent ends, so a quitting app never leaves a
build running.
"""

from __future__ import annotations

import os
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path

from index_builder.search.parallel import die_with_parent


def main(argv: Sequence[str]) -> int:
    """The child: read the papers from stdin, build into ``argv[0]``, report on stdout."""
    if not die_with_parent(os.getppid()):
        return 1
    from index_builder import venues
    from index_builder.search.store import IndexStore

    index_dir, papers, fingerprint, declared = pickle.load(sys.stdin.buffer)
    venues.declare(declared)  # the parent's venues: days and sites are indexed in their zones
    out = sys.stdout

    def report(done: int, total: int) -> None:
        out.write(f"{done} {total}\n")
        out.flush()

    store = IndexStore(Path(index_dir), papers, fingerprint)
    store._write(Path(argv[0]), report)
    out.write("ok\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
