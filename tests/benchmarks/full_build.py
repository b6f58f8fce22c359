"""Where a full build's time goes: CPU seconds of each step, in one process, no fork.

The steps of ``paperscope index --rebuild`` (:meth:`SearchIndex._write
<index_builder.search.store.SearchIndex._write>`) one after the other on the updated home
(:mod:`tests.benchmarks.updated`: every paper with a real-length abstract), each timed
with ``time.process_time`` (CPU, so that the other jobs of a shared machine count less
than in wall time): reading the catalogue, the documents' words, the postings grouped
and encoded, the segment written, the vectors, the manifest, the seal. The real command
splits the Whoosh part between two processes and computes the vectors and the manifest
in a third; here they add up.

Run: ``PYTHONPATH=. .venv/bin/python -m tests.benchmarks.full_build [HOME]`` (HOME: an
updated home; by default the one kept under ``tests/benchmarks/.cache``). To compare two
trees, run this file by its path with ``PYTHONPATH`` naming the other tree: it imports
only what both have.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path


def steps(home: Path) -> dict[str, float]:
    """CPU seconds of each step of a full build of ``home``'s catalogue."""
    clock = time.process_time
    started = clock()
    from whoosh import index as whoosh_index

    from index_builder.search import folder as indexfiles
    from index_builder.search import in_place
    from index_builder.search.documents import PaperDocs
    from index_builder.search.schema import make_schema
    from index_builder.search.segment import SegmentBuilder, write
    from index_builder.search.vector_build import write_vectors
    from tests.benchmarks.updated import papers_of

    papers, _ = papers_of(home)
    out = {"imports, catalogue read from its cache": clock() - started}
    folder = Path(tempfile.mkdtemp(prefix="full-build-"))
    try:
        started = clock()
        ix = whoosh_index.create_in(str(folder), make_schema())
        writer = ix.writer(procs=1, timeout=10.0, compound=False)
        builder = SegmentBuilder(writer.schema)
        for doc in PaperDocs(papers):
            builder.add(doc)
        out["documents: words tokenized and numbered"] = clock() - started
        started = clock()
        gathered = builder.gathered()
        out["postings grouped, blocks encoded"] = clock() - started
        started = clock()
        write(writer, gathered)
        ix.close()
        out["segment written (term table, commit)"] = clock() - started
        started = clock()
        write_vectors(papers, folder)
        out["vectors (fit and save)"] = clock() - started
        started = clock()
        in_place.save_manifest(folder, papers)
        out["manifest"] = clock() - started
        started = clock()
        indexfiles.seal(folder, {"doc_count": len(papers)})
        out["seal (sizes, CRC-32)"] = clock() - started
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return out


def main() -> None:
    """Print each step's CPU seconds and share, and the total."""
    if len(sys.argv) > 1:
        home = Path(sys.argv[1])
    else:
        from tests.benchmarks.updated import cached_home

        home = cached_home()
    found = steps(home)
    total = sum(found.values())
    for name, seconds in found.items():
        print(f"  {name}: {seconds:.2f} s ({seconds / total:.0%})")
    print(f"  total: {total:.2f} s CPU")


if __name__ == "__main__":
    main()
