"""Real arXiv papers of known categories (``arxiv_sample.jsonl.gz`` in the shared data).

For the quality tests of similar papers and recommendations and for the similarity
benchmark: real abstracts, real vocabulary, and a topic (the primary category) to check
rankings against. The file is looked for in ``$PAPERSCOPE_SHARED_DATA``, then in
``shared/data`` beside the repository (as CI lays it out), then in ``/work/shared/data``.
"""

from __future__ import annotations

import gzip
import json
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from index_builder.model import Paper

SAMPLE = "arxiv_sample.jsonl.gz"
_REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Labelled:
    """Papers and, row by row, each one's primary arXiv category."""

    papers: tuple[Paper, ...]
    categories: tuple[str, ...]


def sample_path() -> Path | None:
    """Where the arXiv sample is, or ``None`` when this machine does not have it."""
    places = [os.environ.get("PAPERSCOPE_SHARED_DATA", "")]
    places += [str(_REPO.parent / "shared" / "data"), "/work/shared/data"]
    for place in places:
        if place and (Path(place) / SAMPLE).is_file():
            return Path(place) / SAMPLE
    return None


@cache
def arxiv_papers(limit: int | None = None) -> Labelled:
    """The first ``limit`` papers of the sample (all when ``None``) as catalogue papers."""
    path = sample_path()
    if path is None:
        raise FileNotFoundError(f"{SAMPLE} is not on this machine")
    papers: list[Paper] = []
    categories: list[str] = []
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            if limit is not None and len(papers) >= limit:
                break
            row = json.loads(line)
            authors = row["authors"] if isinstance(row["authors"], list) else [row["authors"]]
            cats = row["categories"]
            cats = cats if isinstance(cats, list) else str(cats).split()
            papers.append(
                Paper(
                    id=row["id"],
                    title=row["title"],
                    title_raw=row["title"],
                    authors=tuple(authors),
                    abstract=row["abstract"],
                    abstract_raw=row["abstract"],
                    url=row.get("url", ""),
                )
            )
            categories.append(cats[0])
    return Labelled(tuple(papers), tuple(categories))
