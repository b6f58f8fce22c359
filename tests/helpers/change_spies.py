"""What a change costs, counted: the papers a change in place digests, the times the
kept table papers' file has its papers unpickled, and whether a change's catalogue was made
from the one before it (each test's fixtures call these)."""

from __future__ import annotations

import pytest

from index_builder.catalogue import after_join, kept_papers
from index_builder.model import Paper
from index_builder.search import in_place


def count_digests(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the papers the change in place digests from now on (in this process)."""
    seen: list[str] = []
    original = in_place.digest

    def counting(paper: Paper) -> bytes:
        seen.append(paper.id)
        return original(paper)

    monkeypatch.setattr(in_place, "digest", counting)
    return seen


def count_unpickled(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The chunks of the kept file's papers a build unpickles (by number, from now on)."""
    seen: list[int] = []
    original = kept_papers.KeptPapers._stored_chunk

    def counting(self: kept_papers.KeptPapers, chunk: int) -> list[Paper] | None:
        seen.append(chunk)
        return original(self, chunk)

    monkeypatch.setattr(kept_papers.KeptPapers, "_stored_chunk", counting)
    return seen


def count_derived(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Per catalogue build that missed its cache from now on, whether the catalogue was
    made from the one before a join by hand (:mod:`index_builder.catalogue.after_join`)
    rather than built from the sources."""
    seen: list[bool] = []
    original = after_join.catalogue_after

    def counting(*args: object) -> object:
        found = original(*args)  # type: ignore[arg-type]
        seen.append(found is not None)
        return found

    monkeypatch.setattr(after_join, "catalogue_after", counting)
    return seen
