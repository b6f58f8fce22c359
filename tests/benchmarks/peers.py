"""The peers, on the same records and queries: a linear scan and SQLite FTS5.

:class:`LinearScan` does what arxiv-sanity-lite and cobib do: lower-case
substring tests of every word over title, authors and abstract, scored by
counts. :class:`Fts5Index` does what papis chose: an FTS5 table with the
porter tokenizer, ranked by bm25, plus prefix indexes of 1-3 characters
(the standard set-up for search as you type; without them a one-letter
prefix takes a second on the bundled data). Both return ``(total, hits)`` where a hit
is ``(paper_id, title_spans, abstract_spans)``, highlights included. FTS5 highlights what
PaperScope highlights (the listed titles, and the abstract of the paper shown, the first),
with a page cache that holds its whole index.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from index_builder.model import Paper
from tests.benchmarks.peerquery import PeerQuery, Term, parse

FTS5_VERSION = 2
"""Bump when the FTS5 table changes, so cached databases are rebuilt."""
PeerHit = tuple[str, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
COLUMNS = ("title", "author", "abstract", "topic", "institution")


def _spans(text: str, needles: Sequence[str]) -> tuple[tuple[int, int], ...]:
    low = text.lower()
    out = []
    for needle in needles:
        start = low.find(needle)
        while start >= 0:
            out.append((start, start + len(needle)))
            start = low.find(needle, start + len(needle))
    return tuple(sorted(out))


class LinearScan:
    """Every query reads every record."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self.papers = list(papers)
        self.rows: list[dict[str, str]] = []
        self.flags: list[dict[str, bool]] = []
        for p in self.papers:
            row = {
                "title": p.title.lower(),
                "author": "; ".join(p.authors).lower(),
                "abstract": p.abstract.lower(),
                "topic": p.topic.lower(),
                "institution": "; ".join(p.institutions).lower(),
            }
            row["all"] = f"{row['title']}\n{row['author']}\n{row['abstract']}"
            self.rows.append(row)
            self.flags.append(
                {
                    "oral": p.oral,
                    "spotlight": p.spotlight,
                    "has_abstract": bool(p.abstract),
                    "has_code": bool(p.code_urls),
                }
            )

    @staticmethod
    def _has(row: dict[str, str], term: Term) -> bool:
        return term.text.lower() in row[term.field or "all"]

    def search(
        self, query: str, *, limit: int = 200, prefix: bool = False, highlight_top: int = 200
    ) -> tuple[int, list[PeerHit]]:
        """Matching papers, best first, with highlight spans for the first ``highlight_top``."""
        q: PeerQuery = parse(query, prefix=prefix)
        needles = [t.text.lower() for t in q.positive]
        scored = []
        for i, row in enumerate(self.rows):
            if any(not self.flags[i][f] for f in q.flags):
                continue
            if not all(any(self._has(row, t) for t in group) for group in q.must):
                continue
            if any(self._has(row, t) for t in q.must_not):
                continue
            title, author, abstract = row["title"], row["author"], row["abstract"]
            score = sum(
                3 * title.count(n) + 2 * author.count(n) + abstract.count(n) for n in needles
            )
            scored.append((-score, i))
        scored.sort()
        hits: list[PeerHit] = []
        for rank, (_, i) in enumerate(scored[:limit]):
            p = self.papers[i]
            if rank < highlight_top and needles:
                shown = _spans(p.abstract, needles) if rank == 0 else ()
                hits.append((p.id, _spans(p.title, needles), shown))
            else:
                hits.append((p.id, (), ()))
        return len(scored), hits


def _fts_term(term: Term) -> str:
    text = '"' + term.text.replace('"', '""') + '"' + (" *" if term.prefix else "")
    return f"{term.field} : {text}" if term.field else text


def _marks_to_spans(text: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    """Strip FTS5's \\x01/\\x02 highlight marks and return the spans they enclosed."""
    spans: list[tuple[int, int]] = []
    plain: list[str] = []
    start = 0
    for ch in text:
        if ch == "\x01":
            start = len(plain)
        elif ch == "\x02":
            spans.append((start, len(plain)))
        else:
            plain.append(ch)
    return "".join(plain), tuple(spans)


class Fts5Index:
    """An SQLite FTS5 table (porter tokenizer, bm25 with title and authors weighted)."""

    WEIGHTS = "10.0, 5.0, 1.0, 2.0, 1.0"

    CACHE_KIB = 262_144
    """Page cache and memory map: 256 MB, more than any index here, as PaperScope's files
    stay in the system's page cache (SQLite's default cache is 2 MB)."""

    def __init__(self, path: Path | str) -> None:
        self.db = sqlite3.connect(str(path), check_same_thread=False)
        self.db.execute(f"PRAGMA cache_size = -{self.CACHE_KIB}")
        self.db.execute(f"PRAGMA mmap_size = {self.CACHE_KIB * 1024}")

    @classmethod
    def build(cls, papers: Sequence[Paper], path: Path | str = ":memory:") -> Fts5Index:
        """Create the table and insert every paper in one transaction."""
        index = cls(path)
        db = index.db
        db.executescript(
            "DROP TABLE IF EXISTS papers; DROP TABLE IF EXISTS meta;"
            "CREATE VIRTUAL TABLE papers USING fts5(title, author, abstract, topic, institution,"
            " tokenize='porter unicode61 remove_diacritics 2', prefix='1 2 3');"
            "CREATE TABLE meta(id INTEGER PRIMARY KEY, pid TEXT, oral INT, spotlight INT,"
            " has_abstract INT, has_code INT);"
        )
        with db:
            db.executemany(
                "INSERT INTO papers(rowid, title, author, abstract, topic, institution)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    (
                        i,
                        p.title,
                        "; ".join(p.authors),
                        p.abstract,
                        p.topic,
                        "; ".join(p.institutions),
                    )
                    for i, p in enumerate(papers)
                ),
            )
            db.executemany(
                "INSERT INTO meta VALUES (?, ?, ?, ?, ?, ?)",
                (
                    (i, p.id, p.oral, p.spotlight, bool(p.abstract), bool(p.code_urls))
                    for i, p in enumerate(papers)
                ),
            )
        db.execute("INSERT INTO papers(papers) VALUES ('optimize')")
        db.commit()
        return index

    def search(
        self, query: str, *, limit: int = 200, prefix: bool = False, highlight_top: int = 200
    ) -> tuple[int, list[PeerHit]]:
        """Matching papers by bm25, with highlight spans for the first ``highlight_top``."""
        q = parse(query, prefix=prefix)
        where = "".join(f" AND m.{f} = 1" for f in sorted(q.flags))
        if not q.must:
            sql = f"SELECT m.id, m.pid FROM meta m WHERE 1{where} ORDER BY m.id"
            rows = self.db.execute(sql).fetchall()
            return len(rows), [(pid, (), ()) for _, pid in rows[:limit]]
        match = " AND ".join("(" + " OR ".join(_fts_term(t) for t in g) + ")" for g in q.must)
        match += "".join(f" NOT {_fts_term(t)}" for t in q.must_not)
        sql = (
            "SELECT m.id, m.pid FROM papers JOIN meta m ON m.id = papers.rowid"
            f" WHERE papers MATCH ?{where} ORDER BY bm25(papers, {self.WEIGHTS})"
        )
        rows = self.db.execute(sql, (match,)).fetchall()
        top = rows[:limit]
        # As PaperScope: title spans for the listed hits, the abstract's for the paper
        # shown (the first) only.
        titles: dict[int, str] = {}
        if top and highlight_top:
            ids = ",".join(str(i) for i, _ in top[:highlight_top])
            hl = (
                "SELECT rowid, highlight(papers, 0, char(1), char(2))"
                f" FROM papers WHERE papers MATCH ? AND rowid IN ({ids})"
            )
            titles = dict(self.db.execute(hl, (match,)).fetchall())
        shown = ""
        if top:
            hl = "SELECT highlight(papers, 2, char(1), char(2)) FROM papers"
            hl += " WHERE papers MATCH ? AND rowid = ?"
            found = self.db.execute(hl, (match, top[0][0])).fetchone()
            shown = found[0] if found else ""
        hits: list[PeerHit] = []
        for n, (i, pid) in enumerate(top):
            abstract = _marks_to_spans(shown)[1] if n == 0 else ()
            hits.append((pid, _marks_to_spans(titles.get(i, ""))[1], abstract))
        return len(rows), hits

    def size_bytes(self) -> int:
        """Pages in use times page size."""
        count = self.db.execute("PRAGMA page_count").fetchone()[0]
        return int(count * self.db.execute("PRAGMA page_size").fetchone()[0])

    def close(self) -> None:
        """Close the database."""
        self.db.close()
