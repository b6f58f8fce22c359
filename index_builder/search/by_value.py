"""The postings of the fields a full build indexes through their own ``index()``, by value.

Ids, keywords and the other short fields (``is``, ``day``, ``venue``, a session...) have
few distinct values, each met by many documents. :class:`ValuePostings` asks a field's
``index()`` once per distinct value and notes, document by document, only which value
each document has (one append); each term's postings are made at the end, as columns
in document order: the documents of the values holding the term, with each value's
weight, encoded value and length byte. The postings are those Whoosh's writer would
post for each document (``tests/core/search/test_segment.py``).
"""

from __future__ import annotations

from typing import Any

from whoosh.util.numeric import length_to_byte

Columns = tuple[list[int], list[float], list[bytes], list[int]]
"""A term's postings in document order: document numbers, weights, values, length bytes."""
Items = list[tuple[str, float, bytes]]
"""A field value's terms: ``(term, weight, encoded value)``."""


class ValuePostings:
    """The documents of each ``(field, value)``, and the value's terms asked once."""

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        self._values: dict[tuple[str, str], tuple[Items, int, int, list[int]]] = {}
        """``(field, value)`` -> its terms, length, length byte and documents."""

    def add(self, name: str, value: str, docnum: int) -> int:
        """Note that document ``docnum`` has ``value`` in field ``name``; its length."""
        found = self._values.get((name, value))
        if found is None:
            found = self._values[(name, value)] = self._indexed(name, value)
        found[3].append(docnum)
        return found[1]

    def _indexed(self, name: str, value: str) -> tuple[Items, int, int, list[int]]:
        field = self.schema[name]
        indexed = list(field.index(value))
        items = [(tbytes.decode("utf-8"), weight, vbytes) for tbytes, _, weight, vbytes in indexed]
        length = sum(freq for _, freq, _, _ in indexed) if field.scorable else 0
        return items, length, length_to_byte(length), []

    def fields(self) -> dict[str, dict[str, Columns]]:
        """Each field's terms and their postings (fields and terms in no given order)."""
        runs: dict[str, dict[str, list[tuple[list[int], float, bytes, int]]]] = {}
        for (name, _), (items, _, length_byte, docs) in self._values.items():
            terms = runs.get(name)
            if terms is None:
                terms = runs[name] = {}
            for term, weight, encoded in items:
                found = terms.get(term)
                if found is None:
                    terms[term] = [(docs, weight, encoded, length_byte)]
                else:
                    found.append((docs, weight, encoded, length_byte))
        return {
            name: {term: _columns(found) for term, found in terms.items()}
            for name, terms in runs.items()
            if terms
        }


def _columns(runs: list[tuple[list[int], float, bytes, int]]) -> Columns:
    """A term's postings from the documents of each value holding it."""
    if len(runs) == 1:  # most terms: one value, its documents already in order
        docs, weight, encoded, length_byte = runs[0]
        n = len(docs)
        return docs, [weight] * n, [encoded] * n, [length_byte] * n
    # A document has one value a field: each document comes once, from one run.
    merged = sorted((d, w, e, b) for docs, w, e, b in runs for d in docs)
    ids, weights, values, lengths = (list(column) for column in zip(*merged, strict=True))
    return ids, weights, values, lengths
