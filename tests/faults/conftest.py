"""Fixtures of the tests that drive the app: imported from :mod:`tests.helpers.tui_fixtures`
and :mod:`tests.helpers.notices`."""

from tests.helpers.notices import notices  # noqa: F401
from tests.helpers.tui_fixtures import (  # noqa: F401
    make_app,
    tui_index_dir,
    tui_no_similar_pause,
    tui_papers,
    tui_quick_idle_checks,
    tui_utc,
)
