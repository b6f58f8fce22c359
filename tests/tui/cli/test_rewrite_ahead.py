"""The suite's own command line: test modules rewritten once for every xdist worker
(``tests/helpers/rewrite_ahead.py``), in the file pytest's import hook reads."""

from __future__ import annotations

from pathlib import Path

import pytest
from _pytest.assertion import rewrite

from tests.helpers.rewrite_ahead import rewrite_ahead, rewrite_candidates


def cached(path: Path) -> Path:
    return Path(rewrite.get_cache_dir(path)) / (path.name[:-3] + rewrite.PYC_TAIL)


def test_each_module_is_rewritten_once_in_the_file_pytest_reads(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    config = request.config
    (tmp_path / "inner").mkdir()
    modules = [tmp_path / "test_one.py", tmp_path / "inner" / "test_two.py"]
    for path in modules:
        path.write_text("def test_a():\n    x = 1\n    assert x == 2\n", encoding="utf-8")
    (tmp_path / "conftest.py").write_text("X = 1\n", encoding="utf-8")
    (tmp_path / "helper.py").write_text("Y = 2\n", encoding="utf-8")
    assert rewrite_candidates(config, tmp_path) == sorted([tmp_path / "conftest.py", *modules])
    rewrite_ahead(config, tmp_path, processes=2)  # one file in this process, two forked
    for path in [*modules, tmp_path / "conftest.py"]:
        code = rewrite._read_pyc(path, cached(path))
        assert code is not None, path
    one = rewrite._read_pyc(modules[0], cached(modules[0]))
    assert any(n.startswith("@py_assert") for c in one.co_consts if hasattr(c, "co_varnames")
               for n in c.co_varnames)  # fmt: skip
    assert not cached(tmp_path / "helper.py").exists()
    assert rewrite_ahead(config, tmp_path, processes=1) == 0  # each one is fresh
    modules[1].write_text("def test_a():\n    assert 1 == 2\n", encoding="utf-8")
    assert rewrite._read_pyc(modules[1], cached(modules[1])) is None  # stale now
    assert rewrite_ahead(config, tmp_path, processes=1) == 1
    assert rewrite._read_pyc(modules[1], cached(modules[1])) is not None
