"""A share's values tokenized at once (search/tokens.py) against one value at a time.

The words, positions and counts of :func:`~index_builder.search.tokens.tokenize` (a few
values read at a time, or all) are those of
:func:`~index_builder.search.words.positioned_words` on each value; a build of
documents whose every field holds words that fold to nothing, separators of values
in a row, and the boundary character of the joined values, reads as Whoosh's own
writer's (lengths, totals, postings).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from index_builder.model import Paper
from index_builder.search.columns import TextColumns
from index_builder.search.documents import paper_doc
from index_builder.search.tokens import BOUNDARY, CHUNK, EMPTY, tokenize
from index_builder.search.words import WORD_RE, fold_word, positioned_words
from tests.core.search.test_segment import our_build, read_all, whoosh_build

MARK = "\u0301"
"""A combining mark alone: a word that folds to nothing."""

_pieces = st.sampled_from(
    ["a", "Bé", "ß", "3.5", "e.g.", ".", " ", "\n", BOUNDARY, MARK, "x" + MARK, "Ł", "—", "\x1e"]
)
values = st.lists(st.lists(_pieces, max_size=12).map("".join), max_size=8)


def one_at_a_time(value: str) -> tuple[list[tuple[int, str]], int, int]:
    """The words of ``value`` folded to something with their positions, how many words it
    has in all, and how many fold to nothing."""
    kept = positioned_words(value.replace(BOUNDARY, " "))
    every = [fold_word(w) for w in WORD_RE.findall(value.replace(BOUNDARY, " "))]
    return kept, len(every), every.count("")


@settings(max_examples=300, deadline=None)
@given(values, st.sampled_from([1, 2, 3, CHUNK]))
def test_the_values_words_and_positions_are_one_value_at_a_times(
    found: list[str], chunk: int
) -> None:
    columns = TextColumns({}, "", ())
    tokens = tokenize(found, columns.numbers, chunk)
    for k, value in enumerate(found):
        start, count = int(tokens.starts[k]), int(tokens.counts[k])
        ids = tokens.ids[start : start + count].tolist()
        positions = tokens.positions[start : start + count].tolist()
        words = [(p, columns.folded[i]) for p, i in zip(positions, ids, strict=True) if i != EMPTY]
        expected, every, empty = one_at_a_time(value)
        assert (words, count, int(tokens.empty[k])) == (expected, every, empty), value


def _paper(pid: str, title: str, **kw: object) -> Paper:
    return Paper(id=pid, title=title, title_raw=title, **kw)  # type: ignore[arg-type]


PAPERS = [
    _paper(
        "t1",
        f"{MARK} Deep {MARK} nets",
        authors=(f"{MARK}", "Zi Wang", ""),
        institutions=("", f"MIT {MARK}"),
        topic=f"Deep Learning->{MARK}",
        abstract=f"We {MARK} study{BOUNDARY}graphs.\n\nNew line {MARK}",
    ),
    _paper("t2", MARK, authors=(MARK,), abstract=MARK),
    _paper("t3", "Graphs", authors=("Ann Lee",), abstract=f"{BOUNDARY} graphs {BOUNDARY}"),
    _paper("t4", f"Deep{BOUNDARY}nets", authors=("Zi Wang", MARK, "Ann Lee")),
]


def test_a_build_of_words_folding_to_nothing_reads_as_whooshs_own(tmp_path: Path) -> None:
    docs = [paper_doc(p) for p in PAPERS * 3]
    (tmp_path / "whoosh").mkdir()
    whoosh_build(tmp_path / "whoosh", docs)
    expected = read_all(tmp_path / "whoosh")
    for workers in (1, 2):
        folder = tmp_path / f"ours-{workers}"
        folder.mkdir()
        our_build(folder, docs, workers)
        assert read_all(folder) == expected, workers
