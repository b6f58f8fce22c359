"""Caches written before the package moves are stale: rebuilt by themselves, never misread.

Before the layout of issue 9 the catalogue cache was a pickle of
``index_builder.catalogue.Catalogue`` (a module then, a package now) holding rows of the
21 fields ``Paper`` had then, and the index marker said schema version 2. Such files are
written here by hand, in the worst case: the catalogue pickle under the current file name
and with the current fingerprint, so only the class it names tells that it is old; the
index marker the current one but for its schema version. The CLI and the app must rebuild
both and answer, without a traceback.
"""

from __future__ import annotations

import json
import pickle
import pickletools
import shutil
from pathlib import Path

import pytest

from index_builder.catalogue.load import CATALOGUE_VERSION, Catalogue, load_catalogue
from index_builder.model import Paper
from index_builder.paths import Paths, bundled_sources
from index_builder.search import folder as indexfiles
from index_builder.search.schema import SCHEMA_VERSION
from tests.helpers.faults_cli import forked_cli
from tests.helpers.shared_builds import build_once
from tests.helpers.tui_helpers import ready, type_query
from tui.app import PaperScopeApp
from tui.shared.config import Config
from tui.shared.context import Context

OLD_CLASS = b"cindex_builder.catalogue\nCatalogue\n"
OLD_FIELDS = 21  # id ... event_id: Paper before events and venue were added
OLD_BUILT_AT = "2026-01-01T00:00:00+00:00"
FIELDS = list(Paper.__dataclass_fields__)


def old_catalogue_pickle(catalogue: Catalogue) -> bytes:
    """A pickle stream as the old layout wrote it, naming ``index_builder.catalogue``.

    Protocol 2 by hand: GLOBAL the old class, NEWOBJ with no arguments, the state the old
    ``Catalogue.__getstate__`` made (papers as plain tuples of the old fields), BUILD.
    """
    state = {
        "rows": [tuple(getattr(p, name) for name in FIELDS[:OLD_FIELDS]) for p in catalogue],
        "problems": [],
        "fingerprint": catalogue.fingerprint,
    }
    body = pickle.dumps(state, protocol=2)
    assert body.startswith(b"\x80\x02") and body.endswith(b".")
    return b"\x80\x02" + OLD_CLASS + b")\x81" + body[2:-1] + b"b."


def _build_old_home(folder: Path) -> None:
    """``sources/small.csv`` (the bundled table cut to its header, 30 rows and the two
    Massart papers) and ``home``, whose catalogue cache and index marker were written by
    the old layout."""
    lines = bundled_sources()[0].read_text(encoding="utf-8").splitlines(keepends=True)
    keep = [*lines[:31], *(line for line in lines[31:] if "Massart" in line)]
    table = folder / "sources" / "small.csv"
    table.parent.mkdir(parents=True)
    table.write_text("".join(keep), encoding="utf-8")
    home = folder / "home"
    paths = Paths(home / "config", home / "data", home / "cache").ensure()
    ctx = Context(paths=paths, extra_sources=[table], use_bundled=False)
    index = ctx.index()
    index.ensure()
    index.close()
    old = old_catalogue_pickle(load_catalogue([table]))
    for name in (f"catalogue-v{CATALOGUE_VERSION}.pickle", "catalogue-v3.pickle"):
        (paths.cache_dir / name).write_bytes(old)
    marker = indexfiles.read_marker(paths.index_dir)
    assert marker is not None
    marker.update(schema_version=2, built_at=OLD_BUILT_AT)
    indexfiles.write_marker(paths.index_dir, marker)


@pytest.fixture(scope="module")
def old_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of :func:`_build_old_home`, made once per test run (read only): each
    test built it again (a catalogue and an index of the small table, ~0.2 s of CPU)."""
    return build_once(tmp_path_factory, "faults-stale-caches-old-home", _build_old_home)


@pytest.fixture
def small_table(old_built: Path) -> Path:
    """The bundled table cut to its header, 30 rows and the two Massart papers; it stays
    where the old home was made from it (its path is in the catalogue's fingerprint)."""
    return old_built / "sources" / "small.csv"


@pytest.fixture
def old_home(old_built: Path, tmp_path: Path) -> Path:
    """A private copy of the home whose catalogue cache and index marker were written by
    the old layout."""
    return Path(shutil.copytree(old_built / "home", tmp_path / "home", symlinks=True))


def test_the_old_pickle_is_what_the_old_layout_wrote(small_table: Path) -> None:
    """The hand-written stream names the old class and holds rows of the old fields."""
    fresh = load_catalogue([small_table])
    old = old_catalogue_pickle(fresh)
    assert OLD_CLASS in old
    assert b"index_builder.catalogue.load" not in old
    ops = [op.name for op, _arg, _pos in pickletools.genops(old)]
    assert ops[:4] == ["PROTO", "GLOBAL", "EMPTY_TUPLE", "NEWOBJ"] and ops[-2:] == ["BUILD", "STOP"]
    assert ops.count("TUPLE") >= len(fresh), "a row per paper"


def assert_rebuilt(home: Path) -> None:
    """The catalogue cache holds the new class and full papers; the index the new schema."""
    cache = home / "cache" / f"catalogue-v{CATALOGUE_VERSION}.pickle"
    data = cache.read_bytes()
    assert OLD_CLASS not in data
    catalogue = pickle.loads(data)
    assert type(catalogue) is Catalogue
    assert all(p.events for p in catalogue.papers), "papers without their events"
    marker = indexfiles.read_marker(home / "cache" / "index")
    assert marker is not None
    assert marker["schema_version"] == SCHEMA_VERSION
    assert marker["built_at"] != OLD_BUILT_AT


@pytest.mark.parametrize("command", [["search", "massart", "noise"], ["index"]])
def test_cli_rebuilds_caches_of_the_old_layout(
    old_home: Path, small_table: Path, command: list[str]
) -> None:
    options = ("--no-bundled", "--source", str(small_table))
    done = forked_cli(*options, *command, home=old_home, env={"COLUMNS": "200"}, timeout=180)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    if command[0] == "search":
        assert done.stdout.count("Massart") == 2
    assert_rebuilt(old_home)


async def test_app_rebuilds_caches_of_the_old_layout_and_answers(
    old_home: Path, small_table: Path
) -> None:
    paths = Paths(old_home / "config", old_home / "data", old_home / "cache")
    ctx = Context(paths=paths, extra_sources=[small_table], use_bundled=False)
    app = PaperScopeApp(ctx, config=Config(path=paths.config_file), open_url=lambda _u: True)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "massart noise")
        titles = [h.paper.title for h in screen.results.hits]
        assert sum("Massart" in t for t in titles) == 2, titles
        assert all(h.paper.events for h in screen.results.hits)
    assert_rebuilt(old_home)


def test_old_marker_alone_is_not_fresh(old_home: Path, small_table: Path) -> None:
    """Only the schema version differs from a fresh marker, and that is enough."""
    cat = load_catalogue([small_table])
    from index_builder.search.engine import SearchIndex

    index = SearchIndex(old_home / "cache" / "index", cat.papers, cat.fingerprint)
    assert not index.is_fresh()
    data = json.loads((old_home / "cache" / "index" / indexfiles.MARKER).read_text())
    data["schema_version"] = SCHEMA_VERSION
    (old_home / "cache" / "index" / indexfiles.MARKER).write_text(json.dumps(data))
    assert index.is_fresh()
