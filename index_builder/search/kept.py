"""A least-recently-used cache whose budget counts sizes, not entries (pure Python).

:class:`~index_builder.search.scoring.FastScorer` keeps decoded posting lists and score
dicts in these, sized in postings: a broad word holds tens of thousands, a rare one a
handful, so counting entries would say nothing about memory.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    """Values kept within a budget of sizes, the least recently used dropped first (the
    last one put is kept, whatever its size)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.size = 0
        self._items: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        found = self._items.get(key)
        if found is None:
            return None
        self._items.move_to_end(key)
        return found[0]

    def put(self, key: Hashable, value: V, size: int) -> None:
        """Keep ``value`` of ``size`` (1 at least: empty values count too), dropping the
        oldest beyond the budget."""
        size = max(1, size)
        replaced = self._items.pop(key, None)
        if replaced is not None:
            self.size -= replaced[1]
        self._items[key] = (value, size)
        self.size += size
        while self.size > self.budget and len(self._items) > 1:
            _, (_, dropped) = self._items.popitem(last=False)
            self.size -= dropped
