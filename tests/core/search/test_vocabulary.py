"""The vocabulary's near words ("did you mean"): the cheap letter bound never drops a word;
its counts are written in word order and read back whole."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from index_builder.search.vocabulary import (
    VOCAB_FILE,
    Vocabulary,
    edit_distance,
    foreign_letters,
)

LETTERS = st.text(alphabet="abcdeéxyz4", min_size=1, max_size=9)


def _brute_near(vocab: Vocabulary, word: str, maxdist: int) -> list[tuple[int, str]]:
    """Every word of the same first letter within ``maxdist`` edits, by the distance alone."""
    found = []
    for term in vocab.sorted:
        if term[:1] == word[:1] and abs(len(term) - len(word)) <= maxdist:
            dist = edit_distance(word, term, maxdist)
            if dist <= maxdist:
                found.append((dist, term))
    return found


@settings(max_examples=300, deadline=None)
@given(st.lists(LETTERS, min_size=1, max_size=40), LETTERS, st.integers(1, 2))
def test_near_finds_what_the_distance_alone_finds(
    terms: list[str], word: str, maxdist: int
) -> None:
    vocab = Vocabulary(dict.fromkeys(terms, 1))
    assert vocab.near(word, maxdist) == _brute_near(vocab, word, maxdist)


@settings(max_examples=300, deadline=None)
@given(LETTERS, LETTERS)
def test_letters_a_word_lacks_never_exceed_the_distance(word: str, other: str) -> None:
    lacking = len(other.translate(foreign_letters(word)))
    assert lacking <= edit_distance(word, other, len(word) + len(other))


def test_a_typo_is_found_and_unrelated_words_are_not() -> None:
    vocab = Vocabulary({"reinforcement": 9, "regression": 5, "rl4rl": 1, "robust": 3})
    assert vocab.near("reinforcment", 2) == [(1, "reinforcement")]
    assert vocab.near("rl4rla", 2) == [(1, "rl4rl")]
    assert vocab.near("zzz", 2) == []


def test_containing_ranks_by_frequency_and_keeps_ends_apart() -> None:
    vocab = Vocabulary(
        {"transformer": 90, "aesformer": 2, "formers": 5, "former": 7, "transform": 40, "or": 99}
    )
    assert vocab.containing("former", 10, at_end=True) == (
        ["aesformer", "former", "transformer"],
        False,
    )
    inside, more = vocab.containing("former", 2)
    assert (inside, more) == (["transformer", "former"], True)  # the most frequent two
    assert vocab.containing("or", 10)[0] == sorted(
        ["aesformer", "former", "formers", "or", "transform", "transformer"]
    )  # "or" is a function word, kept only as the word typed
    assert vocab.containing("zz", 3) == ([], False)


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(LETTERS, st.integers(1, 50), max_size=30), st.booleans())
def test_the_counts_are_written_in_word_order_and_read_back(
    freq: dict[str, int], strings: bool
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        Vocabulary(freq).save(folder)
        text = (folder / VOCAB_FILE).read_text(encoding="utf-8")
        assert list(json.loads(text)) == sorted(freq)
        if strings:  # counts written as strings (not by this code) are still read as before
            (folder / VOCAB_FILE).write_text(json.dumps({k: str(v) for k, v in freq.items()}))
        loaded = Vocabulary.load(folder)
        assert loaded.freq == freq and loaded.sorted == sorted(freq)
        assert all(type(count) is int for count in loaded.freq.values())
