"""The size-budgeted cache of decoded postings and score dicts."""

from __future__ import annotations

from index_builder.search.kept import Kept


def test_the_least_recently_used_go_first_and_sizes_add_up() -> None:
    kept: Kept[str] = Kept(10)
    kept.put("a", "A", 4)
    kept.put("b", "B", 4)
    assert kept.get("a") == "A"  # now b is the oldest
    kept.put("c", "C", 4)
    assert kept.get("b") is None
    assert (kept.get("a"), kept.get("c"), kept.size, len(kept)) == ("A", "C", 8, 2)


def test_a_value_put_again_is_counted_once() -> None:
    kept: Kept[str] = Kept(10)
    kept.put("a", "A", 4)
    kept.put("a", "A2", 6)
    assert (kept.get("a"), kept.size, len(kept)) == ("A2", 6, 1)


def test_a_value_over_the_budget_is_kept_alone() -> None:
    kept: Kept[str] = Kept(10)
    kept.put("a", "A", 3)
    kept.put("big", "BIG", 50)
    assert (kept.get("a"), kept.get("big"), kept.size) == (None, "BIG", 50)


def test_empty_values_count_so_they_cannot_pile_up() -> None:
    kept: Kept[str] = Kept(3)
    for word in ("qq", "qqq", "qqqq", "qqqqq"):  # words found nowhere: empty postings
        kept.put(word, "", 0)
    assert (len(kept), kept.size, kept.get("qq")) == (3, 3, None)
