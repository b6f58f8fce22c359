"""The join's tuned numbers live in one module, each with what set it.

A number defined beside the code that uses it would be a second place to look for (and
tune) the join; a number without its measurement cannot be judged. So every module of
:mod:`index_builder.catalogue.joins` but ``thresholds`` defines no numeric constant, and
every constant of ``thresholds`` is documented with a commit or a test that measures it.
A format version (a name ending in ``_VERSION``, such as the scoring cache's) is no tuned
number: it says which stored files are still valid, so it stays beside the code that writes them.
"""

from __future__ import annotations

import ast
from pathlib import Path

from index_builder.catalogue import joins

PACKAGE = Path(joins.__file__).parent


def _numeric(node: ast.expr) -> bool:
    """True for a number, or a tuple of numbers (or of tuples of numbers)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int | float) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _numeric(node.operand)
    return isinstance(node, ast.Tuple) and all(_numeric(e) for e in node.elts)


def _assigned(statement: ast.stmt) -> tuple[str, ast.expr] | None:
    """``(name, value)`` of a module-level assignment to one name."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target, value = statement.targets[0], statement.value
    elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
        target, value = statement.target, statement.value
    else:
        return None
    return (target.id, value) if isinstance(target, ast.Name) else None


def test_no_join_module_but_thresholds_defines_a_number() -> None:
    found = []
    for path in sorted(PACKAGE.glob("*.py")):
        if path.name == "thresholds.py":
            continue
        for statement in ast.parse(path.read_text(encoding="utf-8")).body:
            assigned = _assigned(statement)
            if assigned is None or assigned[0].endswith("_VERSION"):
                continue
            if _numeric(assigned[1]):
                found.append(f"{path.name}: {assigned[0]}")
    assert found == [], f"numbers to move to joins/thresholds.py: {found}"


def test_every_threshold_says_what_set_it() -> None:
    """Each constant, or the run of constants it closes, is followed by a docstring that
    names a commit or a test or benchmark that measures it."""
    body = ast.parse((PACKAGE / "thresholds.py").read_text(encoding="utf-8")).body
    pending: list[str] = []
    names = []
    for statement in body:
        assigned = _assigned(statement)
        if assigned is not None:
            pending.append(assigned[0])
            names.append(assigned[0])
            continue
        value = getattr(statement, "value", None)
        if pending and isinstance(value, ast.Constant) and isinstance(value.value, str):
            doc = value.value
            assert "commit " in doc or "tests/" in doc, f"{pending}: no measurement named"
            pending = []
    assert pending == [], f"undocumented: {pending}"
    assert len(names) >= 20
