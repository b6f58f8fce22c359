"""Fixtures of the tests that drive the app: imported from :mod:`tests.helpers.tui_fixtures`
and :mod:`tests.helpers.notices`; and the TUI folder's fewer automatic garbage collections
(``tui_fewer_collections``, autouse), for the Pilot tests here as there: with Python's
default threshold, collections of young objects took ~10 % of the CPU of the hostile-TUI
and terminal-size tests (2.1 s of 20.9 s, measured with ``gc.callbacks``)."""

from tests.helpers.notices import notices  # noqa: F401
from tests.helpers.tui_fixtures import (  # noqa: F401
    make_app,
    tui_index_dir,
    tui_no_similar_pause,
    tui_papers,
    tui_quick_idle_checks,
    tui_utc,
)
from tests.tui.conftest import tui_fewer_collections  # noqa: F401
