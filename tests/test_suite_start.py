"""The controller's rewrite of the test modules for xdist's workers
(:mod:`tests.helpers.suite_start`): the modules a worker would rewrite, and code a worker
reads back as its own rewrite."""

from __future__ import annotations

from pathlib import Path

import pytest
from _pytest.assertion import rewrite

from tests.helpers.suite_start import modules_to_rewrite, rewrite_for_workers

ROOT = Path(__file__).resolve().parents[1]


def test_the_modules_are_the_test_modules_and_conftests_of_the_arguments() -> None:
    found = list(modules_to_rewrite(ROOT, ["tests/core/catalogue", "tests/core/test_venues.py::x"]))
    names = {p.relative_to(ROOT).as_posix() for p in found}
    assert len(names) == len(found)
    assert {
        "tests/conftest.py",
        "tests/core/catalogue/conftest.py",
        "tests/core/catalogue/test_join.py",
        "tests/core/test_venues.py",
    } <= names
    assert all(n.rsplit("/", 1)[1].startswith(("test_", "conftest")) for n in names), names
    assert not any(n.startswith(("tests/tui", "tests/helpers")) for n in names), names


def test_a_worker_reads_the_rewritten_module_back(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    module = tmp_path / "test_rewritten.py"
    module.write_text("def test_it():\n    got = [1, 2]\n    assert got == [1, 3]\n")
    assert rewrite_for_workers(request.config, [module]) == 1
    pyc = rewrite.get_cache_dir(module) / f"test_rewritten{rewrite.PYC_TAIL}"
    code = rewrite._read_pyc(module, pyc)  # what a worker's import reads first
    assert code is not None, f"no rewritten code at {pyc}"
    namespace: dict[str, object] = {}
    exec(code, namespace)
    with pytest.raises(AssertionError) as failed:
        namespace["test_it"]()  # type: ignore[operator]
    assert "At index 1 diff: 2 != 3" in str(failed.value)  # the rewritten assert's message
    assert rewrite_for_workers(request.config, [module]) == 0  # already as new as the module
