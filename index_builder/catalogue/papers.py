"""The :class:`Catalogue`: every paper of the loaded sources, with lookup by id or alias.

The type alone; :mod:`~index_builder.catalogue.load` builds it from the sources and
:mod:`~index_builder.catalogue.cache` keeps it on disk.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from index_builder.model import Paper, SourceProblem

__all__ = ["Catalogue"]


class Catalogue:
    """Every paper of the loaded sources, in display order, with lookup by id or alias.

    ``complete`` is False only for a first look at the table papers alone
    (:mod:`index_builder.catalogue.first_look`), shown while the full catalogue is built.
    """

    __slots__ = ("_by_id", "complete", "fingerprint", "loaded_sources", "papers", "problems")

    def __init__(
        self,
        papers: Sequence[Paper],
        problems: Sequence[SourceProblem] = (),
        fingerprint: str = "",
        loaded_sources: Sequence[Path] = (),
    ) -> None:
        """Wrap papers (already in display order) and index their ids and aliases."""
        self.papers = tuple(papers)
        self.problems = tuple(problems)
        self.fingerprint = fingerprint
        self.loaded_sources = tuple(loaded_sources)
        self.complete = True
        self._by_id: dict[str, Paper] = {}
        for paper in self.papers:
            for alias in paper.aliases:
                self._by_id.setdefault(alias, paper)
        self._by_id.update((paper.id, paper) for paper in self.papers)

    def get(self, id_or_alias: str) -> Paper | None:
        """The paper with this id, or whose earlier id (alias) this is; ``None`` if unknown."""
        return self._by_id.get(str(id_or_alias).strip())

    def __len__(self) -> int:
        """The number of papers."""
        return len(self.papers)

    def __iter__(self) -> Iterator[Paper]:
        """The papers in display order."""
        return iter(self.papers)

    def __getstate__(self) -> dict[str, Any]:
        """Pickle the papers as columns of plain values: loaded by one C-level map of the
        paper type over them, much faster than dataclass states."""
        columns = list(zip(*map(_VALUES, self.papers), strict=True))
        # The sources and institutions many papers share (equal tuples, not one object):
        # made one object, so pickle stores (and loads) each only once. Their strings,
        # and the rendered texts equal to their raw ones, are one object already.
        shared: dict[object, object] = {}
        same = shared.setdefault
        for column in _SHARED_COLUMNS if columns else ():
            columns[column] = tuple(map(same, columns[column], columns[column]))
        return {
            "columns": columns,
            "problems": [(p.path, p.message, p.fatal) for p in self.problems],
            "fingerprint": self.fingerprint,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Rebuild from :meth:`__getstate__` (``loaded_sources`` is set by the loader)."""
        columns = state["columns"]
        papers = list(map(Paper, *columns)) if columns else []
        problems = [SourceProblem(*p) for p in state["problems"]]
        Catalogue.__init__(self, papers, problems, state["fingerprint"])


_VALUES = operator.attrgetter(*Paper.__dataclass_fields__)
_SHARED_COLUMNS = tuple(
    n for n, name in enumerate(Paper.__dataclass_fields__) if name in ("sources", "institutions")
)
