"""The paper vectors' file in the index folder: one read, no parsing of arrays.

``vectors.bin`` is a line naming the format, the length of a JSON header (8 bytes, little
endian), the header (the format's version, the matrix's shape, the features, the papers'
ids, the analysis settings, and where each array starts), then the sparse matrix's
arrays, by paper and by word (:class:`PaperVectors`), and each feature's idf, as raw
little endian bytes, each at an offset that is a multiple of 16. Reading it is one
``read`` of the file and ``numpy.frombuffer`` views, with numpy alone (the ``.npz``
archive it replaced needed scipy as well, and numpy decoded its words and ids one by one).

Every size, offset and index is checked against the header and the file's length, and
every value must be finite, so a damaged file is a ``ValueError`` (the index is then
rebuilt), never a wrong answer. The file is written to a temporary file that replaces
it, as every index file.
"""

from __future__ import annotations

import json
import os
import struct
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from index_builder.vectors.analysis import Analysis, is_author

VECTORS_FILE = "vectors.bin"
VECTORS_VERSION = 4
"""Bump when what is computed or how it is stored changes: an index built with another
version is rebuilt (version 1 was ``vectors.npz``; 3 keeps the idf and the analysis; 4
adds word pairs and authors as people)."""
MAGIC = b"paperscope paper vectors\n"
ALIGN = 16
ARRAYS = (("values", "<f4"), ("at", "<i4"), ("start", "<i8"))
"""The arrays of a :class:`Compressed` matrix and how each is stored."""
PARTS = ("by_paper", "by_word")


@dataclass(frozen=True, eq=False)
class Compressed:
    """A sparse matrix compressed by lines: line ``i``'s entries are
    ``values[start[i]:start[i + 1]]``, at the positions ``at[start[i]:start[i + 1]]``."""

    values: Any
    at: Any
    start: Any

    def line(self, i: int) -> tuple[Any, Any]:
        """The positions and values of line ``i``."""
        begin, end = int(self.start[i]), int(self.start[i + 1])
        return self.at[begin:end], self.values[begin:end]


@dataclass(frozen=True, eq=False)
class PaperVectors:
    """One unit-length TF-IDF row per paper (``ids[i]`` is row ``i``), over ``words``.

    The matrix is kept twice, by paper (scipy's CSR arrays) and by word (CSC): a paper's
    similar papers are found from the papers of its words alone, with numpy only.
    ``words`` are the features (words, word pairs, and authors, see
    :func:`~index_builder.vectors.analysis.is_author`); ``idf`` their weights and
    ``analysis`` the settings that made them, what vectorizing another paper needs.
    """

    by_paper: Compressed
    by_word: Compressed
    words: tuple[str, ...]
    ids: tuple[str, ...]
    idf: Any
    analysis: Analysis

    @classmethod
    def from_matrix(
        cls, matrix: Any, words: Sequence[str], ids: Sequence[str], idf: Any, analysis: Analysis
    ) -> PaperVectors:
        """The vectors of a scipy sparse ``matrix``, papers by ``words`` of weights ``idf``."""
        import numpy as np

        rows, cols = matrix.tocsr(), matrix.tocsc()
        rows.sort_indices()
        cols.sort_indices()
        part = [
            Compressed(*(np.asarray(getattr(m, a), dtype=k) for a, k in _SCIPY))
            for m in (rows, cols)
        ]
        weights = np.asarray(idf, dtype="<f4")
        return cls(part[0], part[1], tuple(words), tuple(ids), weights, analysis)

    def with_rows(self, changes: Mapping[str, Any], order: Sequence[str]) -> PaperVectors:
        """These vectors with the rows of ``changes``' ids replaced or added (a 1-row
        sparse matrix in this feature space, e.g. from ``tfidf.vectorize``, or its
        ``(positions, values)``, from ``tfidf.vectorize_lines``) or removed (``None``), the
        papers in the catalogue order ``order``; the features and idf are kept (no refit).
        ``KeyError`` for an id of ``order`` with no row at all. numpy alone: the rows are
        spliced into these matrices (:mod:`~index_builder.vectors.splice`), and the result
        holds none of these arrays (so not the file they were read from)."""
        import numpy as np

        from index_builder.vectors.splice import spliced

        parts = spliced(
            (self.by_paper.values, self.by_paper.at, self.by_paper.start),
            (self.by_word.values, self.by_word.at, self.by_word.start),
            self.ids,
            changes,
            order,
            len(self.words),
        )
        by_paper, by_word = (Compressed(*part) for part in parts)
        idf = np.array(self.idf, "<f4")
        made = PaperVectors(by_paper, by_word, self.words, tuple(order), idf, self.analysis)
        # Same features, so the same tables of them: kept when made (where cached_property
        # keeps them), not made again on the first similar papers.
        for name in ("authors", "column"):
            if name in self.__dict__:
                made.__dict__[name] = self.__dict__[name]
        return made

    @cached_property
    def authors(self) -> Any:
        """Whether each feature is an author (a boolean array): never shown as a word."""
        return author_mask(self.words)

    @cached_property
    def column(self) -> dict[str, int]:
        """Each feature's column."""
        return {w: i for i, w in enumerate(self.words)}

    @property
    def rows(self) -> int:
        """How many papers."""
        return len(self.ids)

    @cached_property
    def matrix(self) -> Any:
        """The ``scipy.sparse.csr_matrix`` (float32, papers by words), made when first asked."""
        from scipy import sparse

        parts = (self.by_paper.values, self.by_paper.at, self.by_paper.start)
        return sparse.csr_matrix(parts, shape=(self.rows, len(self.words)), copy=False)

    @cached_property
    def transposed(self) -> Any:
        """The matrix transposed, words by papers, as a ``csr_matrix`` (the by-word arrays)."""
        from scipy import sparse

        parts = (self.by_word.values, self.by_word.at, self.by_word.start)
        return sparse.csr_matrix(parts, shape=(len(self.words), self.rows), copy=False)


def author_mask(features: Sequence[str]) -> Any:
    """Whether each of ``features`` is an author (a numpy boolean array)."""
    import numpy as np

    return np.fromiter(map(is_author, features), bool, len(features))


_SCIPY = (("data", "<f4"), ("indices", "<i4"), ("indptr", "<i8"))
"""scipy's names for :data:`ARRAYS`."""


def _padded(size: int) -> int:
    return -(-size // ALIGN) * ALIGN


def _arrays(vectors: PaperVectors) -> list[tuple[str, str, Any]]:
    """Every array to store: ``(part.field, kind, array)``."""
    import numpy as np

    return [
        (
            f"{part}.{field}",
            kind,
            np.ascontiguousarray(getattr(getattr(vectors, part), field), kind),
        )
        for part in PARTS
        for field, kind in ARRAYS
    ] + [("idf", "<f4", np.ascontiguousarray(vectors.idf, "<f4"))]


def save(vectors: PaperVectors, folder: Path) -> Path:
    """Write ``vectors`` to ``folder``/``vectors.bin`` atomically (temp file, then replace).

    An index's folder holds a build marker with each file's CRC-32: a file saved there
    outside a build must be recorded in the marker as well.
    """
    arrays = _arrays(vectors)
    header: dict[str, Any] = {
        "version": VECTORS_VERSION,
        "shape": [vectors.rows, len(vectors.words)],
        "words": list(vectors.words),
        "ids": list(vectors.ids),
        "analysis": vectors.analysis.to_json(),
    }
    # The offsets depend on the header's length, which depends on the offsets' digits:
    # reserve room for them by laying the arrays out after a header with room to spare.
    text = json.dumps(header, ensure_ascii=False).encode("utf-8")
    start = _padded(len(MAGIC) + 8 + len(text) + 400)
    places: list[tuple[str, str, int, int]] = []
    at = start
    for name, kind, array in arrays:
        places.append((name, kind, at, int(array.size)))
        at = _padded(at + array.nbytes)
    header["arrays"] = places
    text = json.dumps(header, ensure_ascii=False).encode("utf-8")
    if len(MAGIC) + 8 + len(text) > start:  # cannot happen: 400 bytes hold the offsets
        raise RuntimeError("the vectors header outgrew its room")
    text += b" " * (start - len(MAGIC) - 8 - len(text))
    target = Path(folder) / VECTORS_FILE
    fd, tmp = tempfile.mkstemp(prefix=".vectors.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(MAGIC + struct.pack("<Q", len(text)) + text)
            for (_, _, offset, _), (_, _, array) in zip(places, arrays, strict=True):
                out.write(b"\0" * (offset - out.tell()))
                out.write(array.tobytes())
            out.write(b"\0" * (at - out.tell()))
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def _header(raw: bytes) -> dict[str, Any]:
    """The header of the file's bytes ``raw``; ``ValueError`` unless it is this format's."""
    if not raw.startswith(MAGIC) or len(raw) < len(MAGIC) + 8:
        raise ValueError("not a paper vectors file")
    (length,) = struct.unpack_from("<Q", raw, len(MAGIC))
    begin = len(MAGIC) + 8
    if begin + length > len(raw):
        raise ValueError("the vectors file is cut short")
    header = json.loads(raw[begin : begin + length].decode("utf-8"))
    if not isinstance(header, dict) or header.get("version") != VECTORS_VERSION:
        raise ValueError("the vectors file has another version")
    return header


def _checked(part: Compressed, lines: int, positions: int) -> Compressed:
    """``part`` if it has ``lines`` lines of positions below ``positions`` and finite values,
    else ``ValueError``."""
    import numpy as np

    values, at, start = part.values, part.at, part.start
    n = len(values)
    if len(start) != lines + 1 or len(at) != n or start[0] != 0 or start[-1] != n:
        raise ValueError("the vectors file's matrix is not whole")
    bad_lines = lines > 0 and bool(np.any(np.diff(start) < 0))
    if bad_lines or (n > 0 and (at.min() < 0 or at.max() >= positions)):
        raise ValueError("the vectors file's matrix points outside itself")
    # A forged file can re-stamp its CRC-32: a NaN or an infinity is damage, not a score.
    if n > 0 and not np.isfinite(values).all():
        raise ValueError("the vectors file holds a value that is not a number")
    return part


def load(folder: Path) -> PaperVectors:
    """Read ``folder``/``vectors.bin``; ``ValueError`` (or ``OSError``) when it is not whole.

    Imports numpy only. The arrays are read-only views on the file's bytes.
    """
    import numpy as np

    raw = (Path(folder) / VECTORS_FILE).read_bytes()
    header = _header(raw)
    try:
        rows, cols = (int(n) for n in header["shape"])
        words, ids = tuple(map(str, header["words"])), tuple(map(str, header["ids"]))
        places = [(str(a), str(b), int(c), int(d)) for a, b, c, d in header["arrays"]]
        analysis = Analysis.from_json(header["analysis"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"the vectors file's header is not whole: {exc}") from exc
    expected = [(f"{part}.{field}", kind) for part in PARTS for field, kind in ARRAYS]
    expected.append(("idf", "<f4"))
    if len(ids) != rows or len(words) != cols or len(places) != len(expected):
        raise ValueError("the vectors file does not match its own shape")
    arrays = []
    for (name, kind), (named, stored, offset, count) in zip(expected, places, strict=True):
        size = np.dtype(kind).itemsize * count
        if (named, stored) != (name, kind) or count < 0 or not 0 <= offset <= len(raw) - size:
            raise ValueError("the vectors file's arrays are not where its header says")
        arrays.append(np.frombuffer(raw, dtype=kind, count=count, offset=offset))
    by_paper = _checked(Compressed(*arrays[:3]), rows, cols)
    by_word = _checked(Compressed(*arrays[3:6]), cols, rows)
    idf = arrays[6]
    if len(by_paper.values) != len(by_word.values) or len(idf) != cols:
        raise ValueError("the vectors file's two matrices differ")
    if not (np.isfinite(by_paper.values).all() and np.isfinite(by_word.values).all()):
        raise ValueError("the vectors file holds a value that is not a number")
    if not np.isfinite(idf).all():
        raise ValueError("the vectors file holds an idf that is not a number")
    return PaperVectors(by_paper, by_word, words, ids, idf, analysis)
