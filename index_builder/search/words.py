"""Words as search sees them: the one tokenizer and folding of :mod:`index_builder.text.words`.

The index analyzer (:mod:`index_builder.search.schema`), the segment writer and the
highlighter all walk text with it, so a highlighted span is always exactly a word the
index saw. Re-exported here for the search package's modules.
"""

from __future__ import annotations

from index_builder.text.words import (
    POSITION_GAP,
    VALUE_SEPARATOR,
    WORD_RE,
    fold_word,
    iter_words,
    positioned_words,
    words,
)

__all__ = [
    "POSITION_GAP",
    "VALUE_SEPARATOR",
    "WORD_RE",
    "fold_word",
    "iter_words",
    "positioned_words",
    "words",
]
