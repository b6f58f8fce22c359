"""PaperScope's core: sources, the merged catalogue, the Whoosh index, search and citations.

Nothing in this package imports Textual; it can be used from any script.
"""

from __future__ import annotations

__version__ = "0.1.0"
