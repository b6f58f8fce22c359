"""Fixtures of the search tests."""

from __future__ import annotations

import pytest

from tests.helpers.search_text_strategies import text_table_once


@pytest.fixture(scope="session")
def text_table(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Hypothesis's UTF-8 table, made once per run (see ``search_text_strategies``): for the
    modules that draw ``st.text()``."""
    text_table_once(tmp_path_factory)
