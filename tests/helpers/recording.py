"""Recording the calls of a function a test watches, through ``monkeypatch``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


def record_calls(
    monkeypatch: pytest.MonkeyPatch,
    owner: object,
    name: str,
    note: Callable[..., Any] = lambda first, *_: first,
) -> list[Any]:
    """Wrap ``owner.name`` for the rest of the test so that each call appends ``note`` of
    its arguments (by default the first) to the list returned, then runs as before."""
    seen: list[Any] = []
    original = getattr(owner, name)

    def recorded(*args: Any, **kwargs: Any) -> Any:
        seen.append(note(*args, **kwargs))
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, recorded)
    return seen
