"""The CPU time of an ``update`` that changes 25 papers, with the next search, for two
trees run in turn: :mod:`tests.benchmarks.changes`' ``--only updated`` figure when the
machine is too loaded for wall-clock figures to say much.

    PYTHONPATH=. python -m tests.benchmarks.update_cpu --tree main=/path/to/main/copy \
        --tree this=. --rounds 3

Each tree gets an updated home of its own (``update --from`` the site on 127.0.0.1 that
this script starts, then ``index``: every paper with a real-length abstract,
:mod:`tests.benchmarks.updated`). Each round, for each tree in turn: the feed that moves
20 posters and rewrites 5 abstracts (:func:`tests.benchmarks.changes.changed_feed`),
``update --from`` + ``search``; then the feed as it was, the same; in the first two
rounds ``index --rebuild`` (the vectors fitted again) + ``search`` as well. CPU seconds
are the user and system time of those processes (``getrusage(RUSAGE_CHILDREN)``), the
figures medians, the wall-clock medians beside them.
"""

from __future__ import annotations

from pathlib import Path

from tests.benchmarks.change_cpu import compare_trees, run, with_search
from tests.benchmarks.changes import changed_feed
from tests.benchmarks.updated import feed_files
from tests.helpers.feed_server import serve


def measure(trees: dict[str, Path], rounds: int, root: Path) -> dict[str, dict[str, list]]:
    """Every tree's ``(CPU, wall)`` pairs by what was run."""
    from index_builder.search.kept_vectors import KEY_FILE

    before = feed_files()
    after = changed_feed(before)
    kinds = ("update of 25 papers", "index --rebuild")
    out: dict[str, dict[str, list]] = {name: {k: [] for k in kinds} for name in trees}
    with serve(before) as site:
        homes = {name: root / name for name in trees}
        for name, tree in trees.items():
            run(tree, homes[name], "update", "--from", site.url)
            run(tree, homes[name], "index")
        for serial in range(rounds):
            for files in (after, before):
                site.files.update(files)
                for name, tree in trees.items():
                    changed = with_search(tree, homes[name], "update", "--from", site.url)
                    out[name]["update of 25 papers"].append(changed)
            if serial < 2:
                for name, tree in trees.items():
                    (homes[name] / "cache" / "index" / KEY_FILE).unlink(missing_ok=True)
                    rebuilt = with_search(tree, homes[name], "index", "--rebuild")
                    out[name]["index --rebuild"].append(rebuilt)
    return out


def main() -> None:
    """Measure each tree's update of 25 papers and its rebuild, each + search; print medians."""
    compare_trees(__doc__.split("\n\n")[0], measure, lambda kind: f"{kind} + search")


if __name__ == "__main__":
    main()
