"""A change in place computes rows with numpy alone: the same arrays scipy made."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
from scipy import sparse

from index_builder.vectors import storage, tfidf
from tests.core.search.test_vectors_api import OUTSIDE, catalogue, sample


def _scipy_with_rows(vectors: tfidf.PaperVectors, rows: dict[str, object], order: list[str]):  # type: ignore[no-untyped-def]
    """What ``with_rows`` made with scipy before: stacked rows, picked, by paper and word."""
    at = {pid: i for i, pid in enumerate(vectors.ids)}
    new = [sparse.csr_matrix(r, dtype=np.float32) for r in rows.values() if r is not None]
    extra = {
        pid: vectors.rows + n for n, pid in enumerate(p for p, r in rows.items() if r is not None)
    }
    every = sparse.vstack([vectors.matrix, *new], format="csr")
    matrix = every[np.array([extra.get(pid, at.get(pid)) for pid in order], dtype=np.int64)]
    by_word = matrix.tocsc()
    by_word.sort_indices()
    return matrix, by_word


def test_rows_and_their_transpose_equal_scipys() -> None:
    vectors = catalogue()
    ids = list(vectors.ids)
    changed = replace(sample().papers[3], title="Quantum error correction with surface codes")
    added = [*sample().papers[-OUTSIDE:]]
    written = [changed, *added]
    lines = tfidf.vectorize_lines(vectors, written)
    matrix = tfidf.vectorize(vectors, written)
    for i in range(len(written)):
        at, values = lines.line(i)
        assert np.array_equal(at, matrix[i].indices) and np.array_equal(values, matrix[i].data)
    order = [*ids[:3], *ids[4:20], *(p.id for p in added), ids[3], *ids[21:]]
    rows = {p.id: lines.line(i) for i, p in enumerate(written)} | {ids[20]: None}
    ours = vectors.with_rows(rows, order)
    theirs, by_word = _scipy_with_rows(
        vectors, {p.id: matrix[i] for i, p in enumerate(written)}, order
    )
    assert np.array_equal(ours.by_paper.values, theirs.data)
    assert np.array_equal(ours.by_paper.at, theirs.indices)
    assert np.array_equal(ours.by_paper.start, theirs.indptr)
    assert np.array_equal(ours.by_word.values, by_word.data)
    assert np.array_equal(ours.by_word.at, by_word.indices)
    assert np.array_equal(ours.by_word.start, by_word.indptr)


def test_rows_in_place_import_no_scipy(tmp_path: Path) -> None:
    """The child starts from the stored vectors, as a change in place does (``storage.load``
    imports numpy alone), not from a fit of its own: the fit took ~0.6 s of its CPU."""
    storage.save(catalogue(), tmp_path)
    papers = tmp_path / "papers.json"
    papers.write_text(json.dumps([p.to_json() for p in sample().papers[:2]]), encoding="utf-8")
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from index_builder.model import Paper\n"
        "from index_builder.vectors import storage, tfidf\n"
        "v = storage.load(Path(sys.argv[1]))\n"
        "papers = [Paper.from_json(d) for d in json.loads(Path(sys.argv[2]).read_text('utf-8'))]\n"
        "sys.modules.pop('scipy', None)\n"
        "[m for m in list(sys.modules) if m.startswith('scipy') and sys.modules.pop(m)]\n"
        "lines = tfidf.vectorize_lines(v, papers)\n"
        "v.with_rows({v.ids[0]: lines.line(0), v.ids[1]: None}, [v.ids[0], *v.ids[2:]])\n"
        "print(any(m.startswith('scipy') for m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path), str(papers)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "False"


def test_stop_words_are_scikit_learns_without_importing_it() -> None:
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    assert tfidf.english_stop_words() == tuple(sorted(ENGLISH_STOP_WORDS))
    code = (
        "import sys\n"
        "from index_builder.vectors import tfidf\n"
        "words = tfidf.default_analysis().stop_words\n"
        "assert len(words) > 300, len(words)\n"
        "assert 'sklearn' not in sys.modules, 'sklearn was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
