"""The cache and index versions move exactly when what they hold does.

Caches are kept while :data:`~index_builder.catalogue.load.CATALOGUE_VERSION` and
:data:`~index_builder.search.schema.ANALYSIS_VERSION` stay the same (and the sources do),
so a change of what is built from the same input must bump the version. The digests of a
fixture's catalogue (``tests/fixtures/analysis``: table rows with LaTeX titles and orals,
abstract lists, JSON and BibTeX records) and of the index of fixed papers
(``papers.json``) are recorded per version in ``versions.json``. After a bump, record the
new digests with::

    .venv/bin/python -m tests.core.test_analysis_versions --record
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from dataclasses import asdict
from pathlib import Path

import pytest
from whoosh import index as whoosh_index

from index_builder.catalogue.load import CATALOGUE_VERSION, Catalogue, load_catalogue
from index_builder.model import Paper
from index_builder.search.engine import SearchIndex
from index_builder.search.schema import ANALYSIS_VERSION
from index_builder.search.vocabulary import VOCAB_FILE

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "analysis"
RECORD = FIXTURE / "versions.json"
PAPERS = FIXTURE / "papers.json"


def sources() -> list[Path]:
    """The fixture's source files (everything but the recorded papers and digests)."""
    return sorted(p for p in FIXTURE.iterdir() if p.name not in {RECORD.name, PAPERS.name})


@functools.cache
def fixture_catalogue() -> Catalogue:
    """The fixture's catalogue, built once per process (read only)."""
    return load_catalogue(sources())


def catalogue_digest() -> str:
    """SHA-256 of every field of every paper and problem the fixture's catalogue holds."""
    cat = fixture_catalogue()
    rows = [asdict(p) for p in cat.papers]
    problems = [(Path(p.path).name, p.message, p.fatal) for p in cat.problems]
    text = json.dumps([rows, problems], sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def fixed_papers() -> list[Paper]:
    """The papers the index digest is taken over (no catalogue code involved)."""
    return [Paper.from_json(d) for d in json.loads(PAPERS.read_text(encoding="utf-8"))]


def index_digest(tmp: Path) -> str:
    """SHA-256 of the index of :func:`fixed_papers` built in ``tmp / "index"``."""
    built = SearchIndex(tmp / "index", fixed_papers(), "fixture")
    built.ensure()
    built.close()
    return digest_of(tmp / "index")


def digest_of(folder: Path) -> str:
    """SHA-256 of the schema, every term's postings, field lengths and the vocabulary of
    the index in ``folder`` (its fingerprint, in the marker file, is not part of it)."""
    digest = hashlib.sha256()
    ix = whoosh_index.open_dir(str(folder))
    with ix.reader() as reader:
        for name, field in sorted(ix.schema.items()):
            fmt = type(field.format).__name__ if field.format else "-"
            flags = (
                field.scorable,
                field.stored,
                getattr(field, "phrase", None),
                getattr(field.format, "field_boost", None),
            )
            digest.update(f"{name} {type(field).__name__} {fmt} {flags}\n".encode())
        for name, text in reader.all_terms():
            digest.update(f"{name}:{text!r}".encode())
            matcher = reader.postings(name, text)
            positions = matcher.supports("positions")
            while matcher.is_active():
                where = matcher.value_as("positions") if positions else ()
                digest.update(f" {matcher.id()}/{matcher.weight():g}{where}".encode())
                matcher.next()
        for docnum in range(reader.doc_count_all()):
            lengths = [reader.doc_field_length(docnum, n, 0) for n in sorted(ix.schema.names())]
            digest.update(f"{reader.stored_fields(docnum)} {lengths}\n".encode())
    ix.close()
    vocab = json.loads((folder / VOCAB_FILE).read_text(encoding="utf-8"))
    digest.update(json.dumps(vocab, sort_keys=True).encode())
    return digest.hexdigest()


def recorded(kind: str, version: int) -> str | None:
    """The digest recorded for ``kind`` at ``version``."""
    data = json.loads(RECORD.read_text(encoding="utf-8"))
    return data.get(kind, {}).get(str(version))


HOW = "record it with `.venv/bin/python -m tests.core.test_analysis_versions --record`"


def test_the_catalogue_changes_only_with_its_version() -> None:
    known = recorded("catalogue", CATALOGUE_VERSION)
    assert known is not None, f"CATALOGUE_VERSION {CATALOGUE_VERSION} is new: {HOW}"
    assert catalogue_digest() == known, (
        "the catalogue built from the fixture changed: bump CATALOGUE_VERSION "
        f"(index_builder/catalogue/load.py), then {HOW}"
    )


def test_the_index_changes_only_with_its_version(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """On a copy of the run's full build of :func:`fixed_papers` (``fixed_index``, which
    the search tests' changes in place start from): the same papers, built by the same
    ``SearchIndex.ensure``, under another fingerprint, which the digest does not hold."""
    from tests.helpers.search_builds import fixed_index  # it imports this module

    known = recorded("index", ANALYSIS_VERSION)
    assert known is not None, f"ANALYSIS_VERSION {ANALYSIS_VERSION} is new: {HOW}"
    assert digest_of(fixed_index(tmp_path_factory, tmp_path / "index")) == known, (
        "the index built from the fixture's papers changed: bump ANALYSIS_VERSION "
        f"(index_builder/search/schema.py), then {HOW}"
    )


def test_the_fixture_covers_what_the_catalogue_does() -> None:
    cat = fixture_catalogue()
    assert sum(p.has_abstract for p in cat) >= 50
    assert sum(p.title != p.title_raw for p in cat) >= 50  # LaTeX and Markdown in titles
    assert any(p.oral for p in cat) and any(len(p.events) > 1 for p in cat)
    assert {Path(s.split(":")[0]).suffix for p in cat for s in p.sources} >= {
        ".csv",
        ".txt",
        ".json",
        ".bib",
    }


def record() -> None:
    """Write the current versions' digests (keeps those of earlier versions)."""
    import tempfile

    data = json.loads(RECORD.read_text(encoding="utf-8")) if RECORD.exists() else {}
    with tempfile.TemporaryDirectory() as tmp:
        data.setdefault("catalogue", {})[str(CATALOGUE_VERSION)] = catalogue_digest()
        data.setdefault("index", {})[str(ANALYSIS_VERSION)] = index_digest(Path(tmp))
    RECORD.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"recorded catalogue v{CATALOGUE_VERSION} and index v{ANALYSIS_VERSION} in {RECORD}")


if __name__ == "__main__" and "--record" in sys.argv:
    record()
