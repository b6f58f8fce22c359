"""The Whoosh index and search: the only module that imports Whoosh.

:class:`SearchIndex` builds the index into a temporary folder and swaps it in, opens it
(rebuilding when it is stale or damaged), and answers queries with plain dataclasses.
Query parsing, highlighting, facets and folder handling are pure Python in
:mod:`querysyntax`, :mod:`highlight`, :mod:`searchfacets` and :mod:`indexfiles`.
"""

from __future__ import annotations

import pickle
import shutil
import struct
import threading
import time
import zlib
from collections.abc import Callable, Collection, Iterator, Sequence
from datetime import UTC, datetime
from functools import lru_cache
from importlib import metadata
from itertools import islice
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh import query as Q
from whoosh.analysis import Token, Tokenizer
from whoosh.collectors import TopCollector
from whoosh.fields import ID, KEYWORD, TEXT, Schema
from whoosh.lang.porter import stem as porter_stem
from whoosh.query.compound import PreloadedOr
from whoosh.scoring import BM25F
from whoosh.support.levenshtein import distance

from index_builder import indexfiles
from index_builder.highlight import MatchTerms, spans
from index_builder.model import Hit, Paper, SearchResult, SortKey
from index_builder.querysyntax import (
    And,
    Node,
    Not,
    Phrase,
    QuerySyntaxError,
    Word,
    last_word_as_prefix,
    parse,
    positive_leaves,
)
from index_builder.querysyntax import plain_words as plain_words_query
from index_builder.searchdocs import PART_BOOSTS, PART_SEPARATOR, normalize_day, paper_doc
from index_builder.searchfacets import count_facets, facet_values, sorted_indexes
from index_builder.searchtext import POSITION_GAP, iter_words, words
from index_builder.vocabulary import Vocabulary

Progress = Callable[[int, int], None]
DAMAGED_NOTICE = "The search index was damaged and has been rebuilt."
# What a damaged index raises while being read (not programming errors, which propagate).
DAMAGE_ERRORS = (
    OSError,
    EOFError,
    ValueError,
    KeyError,
    IndexError,
    zlib.error,
    struct.error,
    pickle.UnpicklingError,
    whoosh_index.IndexError,
)
_MARKER_CHECK_S = 2.0

SCHEMA_VERSION = 2
DEFAULT_FIELDS = ("text",)
"""Unfielded words search one combined field: title, authors, topic, institutions, abstract."""
STEMMED = frozenset({"title", "abstract", "text"})
HIGHLIGHTED = frozenset({"title", "abstract", "text"})
PHRASE_FIELDS = ("title", "author", "abstract", "topic", "institution")
"""The combined field has no positions (cheaper to build): phrases search each field."""
FLAG_FIELDS = frozenset({"is", "has", "day"})
EXACT_FIELDS = frozenset({"area", "session"})
NO_SPELLING = FLAG_FIELDS | EXACT_FIELDS
LEXICONS = ("author", "institution", "topic")
"""Unstemmed fields whose words serve "did you mean" besides the vocabulary."""
MAX_EXPANSIONS = 32


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """The Porter stem of a folded word, as the stemmed fields index it."""
    return str(porter_stem(word))


class SearchTokenizer(Tokenizer):
    """Words of :func:`iter_words`, folded and optionally stemmed, in one pass.

    One class instead of a tokenizer and three filters: indexing is Python-bound, and
    every generator layer costs. Positions jump between the values of a multi-valued
    field, so a phrase never matches across two authors.
    """

    def __init__(self, stemming: bool = False) -> None:
        self.stemming = stemming

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: Any,
    ) -> Iterator[Any]:
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        for pos, start, end, folded in iter_words(value):
            token.text = stem(folded) if self.stemming else folded
            token.boost = 1.0
            token.stopped = False
            if keeporiginal:
                token.original = value[start:end]
            if positions:
                token.pos = start_pos + pos
            if chars:
                token.startchar = start_char + start
                token.endchar = start_char + end
            yield token


class CombinedTokenizer(Tokenizer):
    """The combined field: parts split by :data:`PART_SEPARATOR`, each with its weight.

    A word of the title counts three times and an author's name twice, so one posting
    list per word carries the BM25F field weights. A plain query word is one term
    instead of an OR over five fields: far fewer matchers, and ANDs can skip ahead.
    """

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: Any,
    ) -> Iterator[Any]:
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        base, offset = start_pos, start_char
        for part, boost in zip(value.split(PART_SEPARATOR), PART_BOOSTS, strict=False):
            last = -1
            for pos, start, end, folded in iter_words(part):
                token.text = stem(folded)
                token.boost = boost
                token.stopped = False
                if keeporiginal:
                    token.original = part[start:end]
                if positions:
                    token.pos = base + pos
                if chars:
                    token.startchar, token.endchar = offset + start, offset + end
                last = pos
                yield token
            base += last + 1 + POSITION_GAP
            offset += len(part) + 1


def make_schema() -> Any:
    """The lean schema: only the paper id is stored; papers stay in memory."""
    plain, stemmed = SearchTokenizer(False), SearchTokenizer(True)
    fields: dict[str, Any] = {
        "id": ID(stored=True),
        "text": TEXT(analyzer=CombinedTokenizer(), phrase=False),
        "title": TEXT(analyzer=stemmed, field_boost=3.0),
        "author": TEXT(analyzer=plain, field_boost=2.0),
        "abstract": TEXT(analyzer=stemmed),
        "topic": TEXT(analyzer=plain),
        "institution": TEXT(analyzer=plain),
        "session": ID(),
        "area": ID(),
        "is": KEYWORD(scorable=False),
        "has": KEYWORD(scorable=False),
        "day": KEYWORD(scorable=False),
    }
    return Schema(**fields)


@lru_cache(maxsize=1)
def analysis_digest() -> str:
    """A digest of the code that decides what is indexed, so a change of it rebuilds."""
    import hashlib

    from index_builder import searchdocs, searchtext, vocabulary

    digest = hashlib.sha256()
    for source in (searchtext.__file__, searchdocs.__file__, vocabulary.__file__, __file__):
        try:
            digest.update(Path(str(source)).read_bytes())
        except OSError:  # installed without sources: the schema version still applies
            digest.update(str(source).encode())
    return digest.hexdigest()[:16]


@lru_cache(maxsize=1)
def library_version() -> str:
    """The Whoosh distribution and version, e.g. ``Whoosh-Reloaded 2.7.5``."""
    import whoosh

    names = sorted(metadata.packages_distributions().get("whoosh", [])) or ["whoosh"]
    return f"{'+'.join(names)} {whoosh.versionstring()}"


def _close_words(reader: Any, field: str, word: str, maxdist: int) -> list[tuple[int, str]]:
    """``(distance, term)`` for terms of ``field`` within ``maxdist`` edits (same first letter)."""
    found: list[tuple[int, str]] = []
    if not word:
        return found
    lo, hi = len(word) - maxdist, len(word) + maxdist
    for raw in reader.expand_prefix(field, word[0]):
        if not lo <= len(raw) <= hi + 4:
            continue
        term = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        if lo <= len(term) <= hi:
            dist = distance(word, term, limit=maxdist + 1)
            if dist <= maxdist:
                found.append((dist, term))
    return found


def _any(parts: list[Any]) -> Any:
    """An OR of the terms a prefix or fuzzy word expands to."""
    if not parts:
        return Q.NullQuery
    if len(parts) == 1:
        return parts[0]
    # A tree of unions can skip ahead inside an AND; an array wins once there are many parts.
    return PreloadedOr(parts) if len(parts) > 16 else Q.Or(parts)


def _exact_value(field: str, text: str) -> str:
    value = " ".join(words(text))
    if field == "session" and value.isdigit():
        return f"poster session {value}"
    return value


class QueryBuilder:
    """Turns a parsed query into a Whoosh query and collects the words to highlight."""

    def __init__(self, reader: Any, vocab: Vocabulary, bookmarked: Collection[str] = ()) -> None:
        self.reader = reader
        self.vocab = vocab
        self.bookmarked = bookmarked
        self.terms = MatchTerms()
        self._positive = False

    def build(self, node: Node) -> Any | None:
        """The Whoosh query for ``node`` (``None`` when it has no searchable word)."""
        self._positive = False
        built = self._node(node, False)
        if built is not None and not self._positive:
            built = Q.And([Q.Every(), built])
        return built

    def _node(self, node: Node, negated: bool) -> Any | None:
        if isinstance(node, Word):
            built = self._word(node, negated)
        elif isinstance(node, Phrase):
            built = self._phrase(node, negated)
        elif isinstance(node, Not):
            child = self._node(node.child, not negated)
            return None if child is None else Q.Not(child)
        else:
            kids = [k for k in (self._node(c, negated) for c in node.children) if k is not None]
            if len(kids) <= 1:
                return kids[0] if kids else None
            return Q.And(kids) if isinstance(node, And) else Q.Or(kids)
        if built is not None and not negated:
            self._positive = True
        return built

    def _word(self, node: Word, negated: bool) -> Any | None:
        field = node.field
        if field in FLAG_FIELDS:
            value = normalize_day(node.text) if field == "day" else node.text.lower()
            if field == "is" and value == "bookmarked":
                ids = sorted(self.bookmarked)
                return Q.Or([Q.Term("id", i) for i in ids]) if ids else Q.NullQuery
            return Q.Term(field, value)
        if field in EXACT_FIELDS:
            return Q.Term(field, _exact_value(field, node.text))
        fields = (field,) if field else DEFAULT_FIELDS
        found = words(node.text)
        if not found:
            return None
        highlight = not negated and any(f in HIGHLIGHTED for f in fields)
        if node.kind == "prefix":
            return self._prefix(found[-1], fields, highlight)
        if node.kind == "fuzzy":
            return self._fuzzy(found[-1], fields, node.distance, highlight)
        parts = [self._plain(w, fields, highlight) for w in found]
        return parts[0] if len(parts) == 1 else Q.And(parts)

    def _plain(self, word: str, fields: Sequence[str], highlight: bool) -> Any:
        if highlight:
            self.terms.stems.add(stem(word))
            self.terms.exact.add(word)
        parts = [Q.Term(f, stem(word) if f in STEMMED else word) for f in fields]
        return parts[0] if len(parts) == 1 else Q.Or(parts)

    def _prefix(self, prefix: str, fields: Sequence[str], highlight: bool) -> Any:
        # A short prefix ("l" while typing) expands to thousands of words, and an OR of
        # thousands of terms is slow (WHOOSH.md): keep the most frequent words only.
        cap = min(MAX_EXPANSIONS, 4 * 2 ** (len(prefix) - 1))
        expanded, more = self.vocab.expand(prefix, cap)
        if highlight:
            if more:
                self.terms.exact.update(expanded)
            else:
                self.terms.prefixes.add(prefix)
        stems = sorted({stem(w) for w in expanded})
        parts: list[Any] = []
        for f in fields:
            if f in STEMMED:
                parts.extend(Q.Term(f, s) for s in stems)
                continue
            terms = list(islice(self.reader.expand_prefix(f, prefix), cap + 1))
            if len(terms) <= cap:
                parts.extend(Q.Term(f, t.decode("utf-8")) for t in terms)
            elif (f, prefix) in self.reader:
                parts.append(Q.Term(f, prefix))
        return _any(parts)

    def _fuzzy(self, word: str, fields: Sequence[str], maxdist: int, highlight: bool) -> Any:
        near = {t for _, t in self.vocab.near(word, maxdist)} | {word}
        if highlight:
            self.terms.exact.update(near)
            self.terms.stems.update(stem(t) for t in near)
        parts: list[Any] = []
        for f in fields:
            if f in STEMMED:
                parts.extend(Q.Term(f, s) for s in sorted({stem(t) for t in near}))
            else:
                parts.append(Q.FuzzyTerm(f, word, maxdist=maxdist, prefixlength=1))
        return _any(parts)

    def _phrase(self, node: Phrase, negated: bool) -> Any | None:
        field = node.field
        if field in FLAG_FIELDS:
            return self._word(Word(node.text, field), negated)
        if field in EXACT_FIELDS:
            return Q.Term(field, _exact_value(field, node.text))
        fields = (field,) if field else PHRASE_FIELDS
        found = words(node.text)
        if not found:
            return None
        if not negated and any(f in HIGHLIGHTED for f in fields):
            self.terms.stems.update(stem(w) for w in found)
            self.terms.exact.update(found)
        parts = []
        for f in fields:
            terms = [stem(w) if f in STEMMED else w for w in found]
            parts.append(Q.Term(f, terms[0]) if len(terms) == 1 else Q.Phrase(f, terms))
        return parts[0] if len(parts) == 1 else Q.Or(parts)


def _closest(reader: Any, vocab: Vocabulary, word: str) -> str | None:
    """The most frequent indexed word nearest to ``word``, or ``None``."""
    maxdist = 2 if len(word) > 4 else 1
    best: tuple[int, int, str] | None = None
    for dist, term in vocab.near(word, maxdist):
        key = (dist, -vocab.df(term), term)
        if best is None or key < best:
            best = key
    for field in LEXICONS:
        for dist, term in _close_words(reader, field, word, maxdist):
            key = (dist, -reader.doc_frequency(field, term), term)
            if best is None or key < best:
                best = key
    return best[2] if best else None


def suggest(
    searcher: Any,
    vocab: Vocabulary,
    query: str,
    node: Node,
    total: int,
    bookmarked: Collection[str],
) -> str | None:
    """A corrected query when words of ``query`` are unknown and the correction finds more."""
    reader = searcher.reader()
    edits: list[tuple[int, int, str]] = []
    for leaf in positive_leaves(node):
        if not isinstance(leaf, Word) or leaf.kind != "plain" or leaf.field in NO_SPELLING:
            continue
        found = words(leaf.text)
        if len(found) != 1 or len(found[0]) < 3:
            continue
        if vocab.df(found[0]) or any(reader.doc_frequency(f, found[0]) for f in LEXICONS):
            continue
        better = _closest(reader, vocab, found[0])
        if better:
            edits.append((leaf.start, leaf.end, better))
    if not edits:
        return None
    fixed = query
    for start, end, word in sorted(edits, reverse=True):
        fixed = fixed[:start] + word + fixed[end:]
    try:
        fixed_node: Node | None = parse(fixed)
    except QuerySyntaxError:
        fixed_node = plain_words_query(fixed)
    built = QueryBuilder(reader, vocab, bookmarked).build(fixed_node) if fixed_node else None
    if built is None:
        return None
    found_count = sum(1 for _ in searcher.docs_for_query(built))
    return fixed if found_count > total else None


class SearchIndex:
    """A Whoosh index of ``papers`` in ``index_dir``, tagged with the catalogue ``fingerprint``.

    Thread-safe: one searcher is shared under a lock; a build writes elsewhere and only
    takes the lock to swap the finished index in.
    """

    def __init__(self, index_dir: Path, papers: Sequence[Paper], fingerprint: str) -> None:
        self.index_dir = Path(index_dir)
        self.papers = tuple(papers)
        self.fingerprint = fingerprint
        self._by_id: dict[str, int] = {}
        for i, paper in enumerate(self.papers):
            for key in (paper.id, *paper.aliases):
                self._by_id.setdefault(key, i)
        self._lock = threading.RLock()
        self._build_lock = threading.RLock()
        self._ix: Any = None
        self._searcher: Any = None
        self._doc_paper: list[int] = []
        self._paper_doc: dict[int, int] = {}
        self._opened_marker: dict[str, Any] | None = None
        self._marker_checked = 0.0
        self._vocab = Vocabulary({})
        self._facet_values: list[tuple[str, str, str]] | None = None
        self.notice: str | None = None
        """The last notice from a rebuild done during a search (for the UI to show)."""

    # -- freshness and building -------------------------------------------------------

    def _expected_marker(self) -> dict[str, Any]:
        return {
            "fingerprint": self.fingerprint,
            "schema_version": SCHEMA_VERSION,
            "analysis": analysis_digest(),
            "library": library_version(),
        }

    def is_fresh(self) -> bool:
        """True when a complete index of these papers, schema and library is on disk."""
        marker = indexfiles.read_marker(self.index_dir)
        if marker is None or any(marker.get(k) != v for k, v in self._expected_marker().items()):
            return False
        return any(self.index_dir.glob("_MAIN_*.toc"))

    def ensure(self, progress: Progress | None = None) -> str | None:
        """Open the index, building it when missing or stale and rebuilding it when damaged.

        Returns a notice for the user when the index had to be rebuilt because it was
        damaged, else ``None``.
        """
        with self._build_lock:
            if self._searcher is not None and self.is_fresh():
                return None
            indexfiles.clean_stale(self.index_dir)
            if not self.is_fresh():
                self.build(progress)
                return None
            try:
                self._open()
            except Exception:
                self.build(progress)
                return DAMAGED_NOTICE
            return None

    def build(self, progress: Progress | None = None) -> None:
        """Build the index from scratch in a temporary folder and swap it into place."""
        with self._build_lock:
            indexfiles.clean_stale(self.index_dir)
            tmp = indexfiles.new_temp_dir(self.index_dir)
            try:
                self._write(tmp, progress)
                with self._lock:
                    self._close()
                    indexfiles.swap_in(tmp, self.index_dir)
                    self._open()
            finally:
                if tmp.exists():
                    shutil.rmtree(tmp, ignore_errors=True)

    def _write(self, folder: Path, progress: Progress | None) -> None:
        total = len(self.papers)
        if progress:
            progress(0, total)
        ix = whoosh_index.create_in(str(folder), make_schema())
        writer = ix.writer(limitmb=256, procs=1, timeout=10.0)
        texts: list[str] = []
        try:
            for i, paper in enumerate(self.papers, 1):
                doc = paper_doc(paper)
                texts.append(doc.get("text", ""))
                writer.add_document(**doc)
                if progress and i % 250 == 0:
                    progress(i, total)
            writer.commit(optimize=True)
        except BaseException:
            writer.cancel()
            raise
        finally:
            ix.close()
        Vocabulary.from_texts(texts).save(folder)
        marker = self._expected_marker()
        marker["doc_count"] = total
        marker["built_at"] = datetime.now(UTC).isoformat(timespec="seconds")
        indexfiles.write_marker(folder, marker)
        if progress:
            progress(total, total)

    # -- opening ----------------------------------------------------------------------

    def _open(self) -> None:
        with self._lock:
            self._close()
            ix = whoosh_index.open_dir(str(self.index_dir))
            try:
                searcher = ix.searcher(weighting=BM25F())
                self._map_docs(searcher)
                self._vocab = Vocabulary.load(self.index_dir)
            except BaseException:
                ix.close()
                raise
            self._ix, self._searcher = ix, searcher
            self._opened_marker = indexfiles.read_marker(self.index_dir)
            self._marker_checked = time.monotonic()

    def _map_docs(self, searcher: Any) -> None:
        """Map document numbers to papers; built in paper order, so usually the identity."""
        reader = searcher.reader()
        count = reader.doc_count_all()
        if count != len(self.papers):
            raise ValueError("index holds a different number of papers")
        probes = sorted({0, count // 2, count - 1}) if count else []
        if all(reader.stored_fields(d).get("id") == self.papers[d].id for d in probes):
            self._doc_paper = list(range(count))
        else:
            ids = [fields.get("id", "") for fields in reader.all_stored_fields()]
            if any(i not in self._by_id for i in ids):
                raise ValueError("index holds papers that are not in the catalogue")
            self._doc_paper = [self._by_id[i] for i in ids]
        self._paper_doc = {p: d for d, p in enumerate(self._doc_paper)}

    def _close(self) -> None:
        with self._lock:
            if self._searcher is not None:
                self._searcher.close()
            if self._ix is not None:
                self._ix.close()
            self._searcher = self._ix = None

    def close(self) -> None:
        """Release the searcher and the index files."""
        self._close()

    def _ready(self) -> None:
        """Open (or build) the index before taking the search lock.

        Lock order is always build lock, then search lock: a search never waits for a
        build while holding the search lock, which the build needs to swap its index in.
        """
        if self._searcher is None:
            notice = self.ensure()
            if notice:
                self.notice = notice

    def _current_searcher(self) -> Any:
        """The open searcher (call with the search lock held).

        When another process swapped in a new index, it is reopened: the old files are
        gone from the folder, so ``refresh()`` would keep reading the replaced index.
        """
        now = time.monotonic()
        if self._searcher is not None and now - self._marker_checked > _MARKER_CHECK_S:
            self._marker_checked = now
            if indexfiles.read_marker(self.index_dir) != self._opened_marker and self.is_fresh():
                self._open()
        if self._searcher is None:
            raise ValueError("the search index is not open")
        return self._searcher

    def _recover(self) -> None:
        """Rebuild after the index failed while being read."""
        self._close()
        self.build()
        self.notice = DAMAGED_NOTICE

    # -- searching --------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        limit: int = 200,
        prefix: bool = False,
        sort: SortKey = "relevance",
        bookmarked: Collection[str] = (),
        facets: bool = False,
    ) -> SearchResult:
        """Run ``query``; never raises on syntax (malformed queries are read as plain words)."""
        started = time.perf_counter()
        fallback = False
        node: Node | None
        try:
            node = parse(query) if query.strip() else None
        except QuerySyntaxError:
            node, fallback = plain_words_query(query), True
        if node is not None and prefix:
            node = last_word_as_prefix(node, query)
        if node is None:
            return self._everything(query, limit, sort, facets, fallback, started)
        self._ready()
        try:
            with self._lock:
                return self._run(query, node, limit, sort, bookmarked, facets, fallback, started)
        except DAMAGE_ERRORS:
            self._recover()
        with self._lock:
            return self._run(query, node, limit, sort, bookmarked, facets, fallback, started)

    def _run(
        self,
        query: str,
        node: Node,
        limit: int,
        sort: SortKey,
        bookmarked: Collection[str],
        facets: bool,
        fallback: bool,
        started: float,
    ) -> SearchResult:
        searcher = self._current_searcher()
        # Bookmarks may hold an earlier id of a paper (an alias): search by current ids.
        marked = {self.papers[self._by_id[b]].id for b in bookmarked if b in self._by_id}
        builder = QueryBuilder(searcher.reader(), self._vocab, marked)
        built = builder.build(node)
        if built is None:
            return self._everything(query, limit, sort, facets, fallback, started)
        docs: list[int] | None = None
        if facets or sort != "relevance":
            docs = sorted(searcher.docs_for_query(built))
        scored: list[tuple[int, float]]
        if sort == "relevance":
            if docs is None and isinstance(built, Q.Term):
                # One word: its document frequency is the total, so Whoosh may skip the
                # blocks that cannot reach the top (fast on words in most papers).
                results = searcher.search(built, limit=max(limit, 1))
                total = searcher.reader().doc_frequency(built.fieldname, built.text)
            else:
                # One pass that scores and counts every match: block-quality skipping and
                # matcher replacement drop low-scoring matches, so the total would be wrong.
                collector = TopCollector(limit=max(limit, 1), usequality=False, replace=0)
                searcher.search_with_collector(built, collector)
                results = collector.results()
                total = len(docs) if docs is not None else len(results)
            scored = [(hit.docnum, hit.score) for hit in results][:limit]
            order = [(self._doc_paper[d], s) for d, s in scored]
        else:
            assert docs is not None
            total = len(docs)
            picked = sorted_indexes(sort, self.papers, (self._doc_paper[d] for d in docs))
            order = [(i, 0.0) for i in picked[:limit]]
        hits = tuple(self._hit(i, score, builder.terms) for i, score in order)
        suggestion = None
        if total <= 2:
            suggestion = suggest(searcher, self._vocab, query, node, total, bookmarked)
        facet_counts = {}
        if facets and docs is not None:
            values = self._all_facet_values()
            facet_counts = count_facets(values[self._doc_paper[d]] for d in docs)
        return SearchResult(
            query=query,
            total=total,
            hits=hits,
            suggestion=suggestion,
            elapsed_ms=(time.perf_counter() - started) * 1000,
            fallback=fallback,
            facets=facet_counts,
        )

    def _hit(self, index: int, score: float, terms: MatchTerms) -> Hit:
        paper = self.papers[index]
        return Hit(
            paper=paper,
            score=float(score),
            title_spans=spans(paper.title, terms, stem),
            abstract_spans=spans(paper.abstract, terms, stem),
        )

    def _all_facet_values(self) -> list[tuple[str, str, str]]:
        if self._facet_values is None:
            self._facet_values = [facet_values(p) for p in self.papers]
        return self._facet_values

    def _everything(
        self, query: str, limit: int, sort: SortKey, facets: bool, fallback: bool, started: float
    ) -> SearchResult:
        """Every paper, in catalogue order (or ``sort``), with no index needed."""
        order = sorted_indexes(sort, self.papers, range(len(self.papers)))
        hits = tuple(Hit(self.papers[i]) for i in order[:limit])
        return SearchResult(
            query=query,
            total=len(self.papers),
            hits=hits,
            elapsed_ms=(time.perf_counter() - started) * 1000,
            fallback=fallback,
            facets=count_facets(self._all_facet_values()) if facets else {},
        )

    def more_like_this(self, paper_id: str, limit: int = 10) -> tuple[Hit, ...]:
        """Papers that share the key terms of this paper's title and abstract (not itself)."""
        index = self._by_id.get(paper_id)
        if index is None:
            return ()
        paper = self.papers[index]
        self._ready()
        with self._lock:
            searcher = self._current_searcher()
            terms: list[tuple[str, float]] = []
            terms += searcher.key_terms_from_text("title", paper.title, numterms=8)
            if paper.abstract:
                terms += searcher.key_terms_from_text("abstract", paper.abstract, numterms=12)
            if not terms:
                return ()
            weights: dict[str, float] = {}
            for term, weight in terms:
                weights[term] = max(weights.get(term, 0.0), float(weight))
            built = Q.Or(
                [Q.Term(f, t, boost=w) for t, w in weights.items() for f in ("title", "abstract")]
            )
            own = self._paper_doc.get(index)
            results = searcher.search(built, limit=limit + 1)
            match = MatchTerms(stems=set(weights))
            found = [(self._doc_paper[h.docnum], h.score) for h in results if h.docnum != own]
            return tuple(self._hit(i, s, match) for i, s in found[:limit])

    def state(self) -> dict[str, Any]:
        """What ``doctor`` shows: where the index is, whether it is fresh, its size."""
        marker = indexfiles.read_marker(self.index_dir) or {}
        return {
            "path": str(self.index_dir),
            "exists": self.index_dir.is_dir() and any(self.index_dir.glob("_MAIN_*.toc")),
            "fresh": self.is_fresh(),
            "doc_count": marker.get("doc_count"),
            "built_at": marker.get("built_at"),
            "size_bytes": indexfiles.folder_size(self.index_dir),
            "library": library_version(),
            "index_library": marker.get("library"),
            "schema_version": marker.get("schema_version"),
        }
