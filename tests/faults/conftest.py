"""Fixtures of the tests that drive the app: imported from :mod:`tests.helpers.tui_fixtures`,
:mod:`tests.helpers.notices` and :mod:`tests.helpers.join_homes`."""

from tests.helpers.join_homes import join_app  # noqa: F401
from tests.helpers.notices import notices  # noqa: F401
from tests.helpers.tui_fixtures import (  # noqa: F401
    make_app,
    tui_index_dir,
    tui_no_similar_pause,
    tui_papers,
    tui_quick_idle_checks,
    tui_utc,
)
