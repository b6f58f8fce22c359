"""Every tuned number of the join, what it guards, the measurement that set it, and how to
run that measurement again.

The figures come from the commits that set each number (``git log -S NAME``) and from
docs/joins.md. Two commands reproduce most of them:

- ``.venv/bin/python -m tests.benchmarks.joins``: right, wrong and unjoined abstracts on
  shuffled lists (the bundled abstracts; 1,000 real arXiv abstracts against their
  titles, two near-duplicate decoys each and the 6,628 ICML titles; 300 whose paper is
  absent), tuning and held-out halves, without and with author lines.
- ``.venv/bin/python -m pytest tests/core/catalogue/test_join.py -q``: the bundled lists
  in their own order (74 of 76 joined, none wrong) and each abstract with its row removed
  (never joined, never hinted by the list's order).

A number marked *not measured alone* was set with the first join (commit b861b69:
70 of 76 bundled abstracts joined, none wrong, each abstract unjoined once its row is
removed) and has had no measurement of its own since; the tests named guard it.
"""

from __future__ import annotations

# The scorer (index_builder.catalogue.joins.score)

NAME_BONUS = 20.0
"""Score a title gains when the abstract writes the title's distinctive name (``ProEval``).
Not measured alone; guarded by ``tests/core/catalogue/test_join.py``."""
NAME_MAX_TITLES = 2
"""A name carried by more titles than this is not distinctive (earns no bonus, costs no
:data:`NAME_MISS`). Not measured alone; ``tests/core/catalogue/test_join.py``."""
NAME_MISS = 0.5
"""Factor on the score of a title whose name the abstract never writes: such a title is
most likely another paper's (85 % of real arXiv titles with a name have it in their
abstract). With it and the strong join at 45 and 2x (commit c5797ac): arXiv tuning half
606 right / 2 wrong -> 628 / 0, held out 618 / 0 -> 625 / 1; bundled 16-17 -> 20 of 38
per half. ``.venv/bin/python -m tests.benchmarks.joins``."""
CANDIDATE_MAX_DF = 400
"""Stems in more titles than this do not nominate candidates (they still count in the
scores): a bound on the work per abstract. Not measured alone;
``tests/core/catalogue/test_join.py``."""
TF_MAX = 2.5
"""Cap on a title word's weight by how often the abstract repeats it (1, 1.69, 2.10, ...
2.5), so one word said many times cannot carry a title. Not measured alone;
``tests/core/catalogue/test_join.py``."""
NAME_GRAMS = (2, 3, 4)
"""An author's name is looked for as a run of this many words (``Anton van den Hengel``).
A rule of names, not a measured figure (commit dbc5d89);
``tests/core/catalogue/test_join_authors.py``."""

# The automatic join (index_builder.catalogue.joins.match)

STRONG_SCORE = 45.0
STRONG_RATIO = 2.0
"""A join without context needs this score and this lead over the runner-up title (and
over any rival claim on the same row). Tuned on the tuning halves of the shuffled lists,
tested on the held-out halves (commit c5797ac, with :data:`NAME_MISS`: bundled 16-17 ->
20 of 38 per half, none wrong). Today, with the rules added since: bundled 20 of 38 per
half, none wrong; arXiv 623 and 659 of 1,000 right, none wrong; 2 and 3 of 300 absent
papers joined wrongly. Before, 60 and 1.3: the best wrong title of a bundled abstract
(its own row removed) scored 48.1, right strong joins 61 to 131.
``.venv/bin/python -m tests.benchmarks.joins``; held-out checks in
``tests/core/catalogue/test_join_shuffled.py``."""
STRONG_TIERS: tuple[tuple[float, float], ...] = ((STRONG_SCORE, STRONG_RATIO),)
"""Each ``(score, lead)`` pair is one way to a strong join. Looser tiers were measured and
not kept (40:1.15 or 30:1.6 join 28 and 30 of 38 bundled abstracts but 8 and 2 wrong on
the arXiv lists, 18 and 31 absent papers; docs/joins.md, commit eb04dc1).
``.venv/bin/python -m tests.benchmarks.joins --tiers 40:1.15 30:1.6``."""
AUTHOR_MIN_SCORE = 8.0
"""An entry that writes a row's whole author line joins it only when the row's title
shares this much with the entry (a title sharing nothing is another paper of the same
authors). Tuning halves with author lines (1,000 arXiv present, 300 absent): 4 joined 961
right and 7 absent wrongly, 8 joined 948 and 5, 16 joined 927 and 4 (commit dbc5d89).
``.venv/bin/python -m tests.benchmarks.joins`` (the "with author lines" rows)."""
RIVAL_SHARE = 0.7
"""One-to-one: an abstract is judged again without the rows other abstracts took only when
one of them scored at least this share of its best title. Shuffled arXiv lists: tuning 624
-> 625 right, held out 663 -> 664, wrong unchanged; setting aside every taken row (no
share) gave +3 / +7 right but +1 wrong per half (commit 9ec1d47). Other shares were not
recorded. ``.venv/bin/python -m tests.benchmarks.joins``."""
ORDER_MIN_ANCHORS = 4
ORDER_MIN_SHARE = 0.8
"""A file is ordered (its order may join) when at least this share of its (at least 4)
strong joins form an increasing run of event ids; a shuffled list rarely does. Not
measured alone; ``tests/core/catalogue/test_join.py`` (shuffled and reversed lists get
strong joins only)."""
ORDER_BUDGET = 40
"""Most ``rank x gap size`` for an ordered join: about 40/6628 = 0.6 % chance that a
random wrong row passes, before the score and lead below. Set by that reckoning with the
first join; ``tests/core/catalogue/test_join.py`` (each abstract with its row removed)."""
ORDER_MIN_SCORE = 12.0
ORDER_RATIO = 1.25
"""An ordered join also needs this score and this lead over the gap's next best row. Not
measured alone; ``tests/core/catalogue/test_join.py``."""
DOMINANT_RATIO = 2.4
DOMINANT_GAP = 600
"""A gap too wide for :data:`ORDER_BUDGET` (up to this many rows, about 3 % of the table)
still yields its row when that row is the abstract's best title in the whole table and
scores this many times the gap's next best row: the bundled lists in order then join 74
of 76, none wrong (commit 2f3a2b3).
``.venv/bin/python -m pytest tests/core/catalogue/test_join.py -q``."""
POSSIBLE_MIN_SCORE = 4.0
POSSIBLE_RATIO = 15.0
"""An unjoined abstract whose ordered gap holds one row scoring at least this and this many
times the gap's next row is *possibly* that row (shown, never joined). With each bundled
abstract's own row removed the best wrong row of a gap led by at most 10.7x; the two
bundled abstracts left unjoined lead by 22x (commit c37776e).
``.venv/bin/python -m pytest tests/core/catalogue/test_join.py -q -k possible``."""
POSSIBLE_SCORE = 30.0
POSSIBLE_LEAD = 1.6
"""Any list order: an unjoined abstract whose best title scores this and leads the
runner-up by this factor is possibly that row. The bundled abstracts shuffled into one
file: 40 joined, 13 of the 36 left hinted, all right; arXiv tuning list: 108 of 124 hints
name the abstract's own row; each bundled row removed in turn: 3 wrong hints in 76
(commit 6c88eb6).
``.venv/bin/python -m pytest tests/core/catalogue/test_join.py -q -k removed`` and
``.venv/bin/python -m pytest tests/core/catalogue/test_join_shuffled.py -q -k paperscope``."""
RANK_LIMIT = 60
"""How many best titles are kept per abstract (a row outside them has no rank, so cannot
join by order), and how far ``J`` looks for a lone abstract's papers. Not measured alone;
``tests/core/catalogue/test_join.py``."""
EDGE_REACH = 3
"""Before a file's first join or after its last, the gap reaches this many times the
file's pace (event ids per position). Not measured alone;
``tests/core/catalogue/test_join.py``."""
EXCLUDE_SLACK = 8
"""Extra titles kept per abstract so that excluding a few rows still leaves
:data:`RANK_LIMIT`. A bound, not a decision; ``tests/core/catalogue/test_join.py``."""
SCAN_LIMIT = 600
"""Gaps with more rows than this are searched through the abstract's ranked titles only
(a bound on the work). Not measured alone; ``tests/core/catalogue/test_join.py``."""

# Twins: an abstract that is another under an extra opening (index_builder.catalogue.joins.place)

TWIN_MIN_CHARS = 200
"""An abstract is another's twin only when it is this long: a short text may end many.
Set with the twins (commit 8867b9e), not measured alone;
``tests/core/catalogue/test_join_authors.py``."""
TWIN_MAX_WORDS = 80
"""The most words a twin's extra opening (an author line, a title) may have. With twins,
the bundled lists beside the same abstracts under author lines join 74 of 76 (71 before),
each paper once (commit 8867b9e). ``.venv/bin/python -m pytest
tests/core/catalogue/test_join_authors.py -q -k beside``."""
TWIN_HEAD = 40
"""Characters of a text's opening looked up before the whole text is: speed only, the
twins found are the same (11,909 abstracts: 0.30 s, commit d32ad47)."""

# Joins by hand (index_builder.catalogue.joins.by_hand)

CANDIDATES = 5
"""How many papers (or lone abstracts) ``J`` and ``paperscope join`` offer. The bundled
abstracts shuffled into one file: of the 36 left unjoined, the right paper is first for 28
and among the five for 34 (commit 04e133a). ``.venv/bin/python -m pytest
tests/core/catalogue/test_hand_joins.py -q -k candidate``."""
