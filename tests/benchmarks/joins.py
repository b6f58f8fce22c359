"""Join figures on shuffled lists: right, wrong and unjoined abstracts, and the time taken.

    .venv/bin/python -m tests.benchmarks.joins [--tiers 40:1.15 30:1.6]

Prints, for the tuning and the held-out half of each list of
:mod:`tests.helpers.join_lists` (three shuffles of the bundled abstracts; 1,000 arXiv
abstracts with 300 more whose paper is absent), the counts, first for the abstracts alone
and then for the same lists with each entry's author line; then the time to score the 76
bundled abstracts and 3,000 arXiv ones against the bundled table. It reports; it asserts
nothing. ``--tiers SCORE:LEAD ...`` adds looser ways to a strong join to the kept one, to
measure them (the figures of the abstracts alone only, without the timings).
"""

from __future__ import annotations

import argparse
import statistics
import time

from index_builder.catalogue.joins.match import STRONG_TIERS, AbstractMatcher
from index_builder.catalogue.joins.score import TitleIndex
from tests.helpers.join_lists import (
    HELD_OUT,
    TUNE,
    Case,
    _arxiv,
    arxiv_case,
    bundled_case,
    run,
    with_author_lines,
)


def _timed(table: Case, abstracts: tuple[str, ...], reps: int = 3) -> float:
    """Median seconds to index the titles, score the abstracts and join them."""
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        index = TitleIndex(table.titles, table.authors)
        AbstractMatcher(index, abstracts).join(list(range(len(index))))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _tier(text: str) -> tuple[float, float]:
    score, _, lead = text.partition(":")
    return float(score), float(lead)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiers", nargs="+", type=_tier, default=[], metavar="SCORE:LEAD")
    extra = parser.parse_args().tiers
    tiers = (*STRONG_TIERS, *extra)
    print(f"strong joins: {', '.join(f'score {s:g} and lead {r:g}' for s, r in tiers)}")
    print(f"{'list':50} {'right':>6} {'wrong':>6} {'unjoined':>9}")
    for lines in (False,) if extra else (False, True):
        for part in (TUNE, HELD_OUT):
            case = bundled_case(part)
            case = with_author_lines(case) if lines else case
            for seed in range(3):
                got = run(case, seed, tiers)
                name = f"{case.name} shuffle {seed}"
                print(f"{name:50} {got.right:6} {got.wrong:6} {got.unjoined:9}")
        for part in (TUNE, HELD_OUT):
            case = arxiv_case(part, 1000, 300)
            case = with_author_lines(case) if lines else case
            for label, cut in (("present", slice(0, 1000)), ("absent", slice(1000, None))):
                got = run(case.part(cut), 0, tiers)
                name = f"{case.name.replace(' 1000+300 absent', '')}: {label}"
                print(f"{name:50} {got.right:6} {got.wrong:6} {got.unjoined:9}")
    if extra:
        return
    table = bundled_case(TUNE)
    bundled = bundled_case(TUNE).abstracts + bundled_case(HELD_OUT).abstracts
    many = tuple(str(p["abstract"]) for p in _arxiv()[:3000])
    print(
        f"76 bundled abstracts x {len(table.titles)} titles and their authors: "
        f"{_timed(table, bundled):.2f} s (median of 3)"
    )
    print(f"3000 arXiv abstracts x {len(table.titles)} titles: {_timed(table, many, 1):.2f} s")


if __name__ == "__main__":
    main()
