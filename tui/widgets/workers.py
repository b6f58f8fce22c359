"""A widget's own thread worker that fails is told to the screen, never left silent.

Textual tells a worker's state only to the node that runs it (the message does not
bubble), and widgets never import :mod:`tui.lifecycle` (import contract). A widget that
runs workers mixes in :class:`ReportsFailures`: a worker of it that ends with an error
posts :class:`WorkerFailed`, which bubbles to the screen, and the screen reports it
(:func:`tui.lifecycle.failures.report`: the status line, a toast and the log).
"""

from __future__ import annotations

from typing import Any

from textual.message import Message
from textual.worker import Worker, WorkerState


class WorkerFailed(Message):
    """``worker``, run by a widget, ended with an error (its group names what failed)."""

    def __init__(self, worker: Worker[Any]) -> None:
        super().__init__()
        self.worker = worker


class ReportsFailures:
    """Mixed into a widget: its failed workers are posted up as :class:`WorkerFailed`."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Post a failed worker up to the screen."""
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            event.worker.node.post_message(WorkerFailed(event.worker))
