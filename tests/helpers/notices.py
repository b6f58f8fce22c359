"""The notices an app gave, read through Textual's public ``App.notify``.

Textual keeps its notifications in private state, and ``App.run_test`` shows no toasts
unless asked. The ``notices`` fixture wraps the public method instead: every call made on
any app during the test is recorded with its app, as Textual received it (for PaperScope,
after its own ``notify`` made the text terminal-safe and turned markup off).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from textual.app import App


@dataclass(frozen=True)
class Notice:
    """One call of ``App.notify``: what it said, how, and under which title."""

    message: str
    title: str
    severity: str
    markup: bool


class Notices:
    """Every notice given during a test, by the app that gave it."""

    def __init__(self) -> None:
        self._given: list[tuple[App[Any], Notice]] = []

    def add(self, app: App[Any], notice: Notice) -> None:
        """Record ``notice`` given by ``app``."""
        self._given.append((app, notice))

    def of(self, app: App[Any]) -> list[Notice]:
        """The notices ``app`` gave, oldest first."""
        return [notice for given_by, notice in self._given if given_by is app]

    def messages(self, app: App[Any], title: str | None = None) -> list[str]:
        """The text of each notice ``app`` gave (only those titled ``title`` when given)."""
        return [n.message for n in self.of(app) if title is None or n.title == title]


@pytest.fixture
def notices(monkeypatch: pytest.MonkeyPatch) -> Iterator[Notices]:
    """Record every ``App.notify`` of the test (the method still does what it does)."""
    given = Notices()
    notify = App.notify

    def recording(
        self: App[Any],
        message: str,
        *,
        title: str = "",
        severity: Any = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        given.add(self, Notice(message, title, severity, markup))
        notify(self, message, title=title, severity=severity, timeout=timeout, markup=markup)

    monkeypatch.setattr(App, "notify", recording)
    yield given
