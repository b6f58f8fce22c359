"""Where the tests find the repository's files: the bundled assets and the test fixtures."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ASSETS = REPO / "assets"
TABLE = ASSETS / "icml2026_events.csv"
FIXTURES = REPO / "tests" / "fixtures"
