"""The terms table written a field at a time (:mod:`index_builder.search.term_table`)
against Whoosh's own ``OrderedHashWriter`` and ``W3TermInfo``: the same bytes."""

from __future__ import annotations

import random
from io import BytesIO

from whoosh.codec.whoosh3 import W3TermInfo
from whoosh.filedb.filetables import OrderedHashWriter
from whoosh.filedb.structfile import StructFile
from whoosh.util.numeric import byte_to_length

from index_builder.search.term_table import (
    INFO_SIZE,
    add_rows,
    key_hashes,
    term_infos,
    write_hashes,
)


def whoosh_info(stats: tuple[float, ...], offset: int, length: int) -> bytes:
    weight, df, min_byte, max_byte, top, first, last = stats[:7]
    info = W3TermInfo(weight, df, byte_to_length(min_byte), byte_to_length(max_byte), top,
                      first, last)  # fmt: skip
    info.set_extent(offset, length)
    return bytes(info.to_bytes())


def test_term_infos_are_the_bytes_whoosh_writes() -> None:
    rng = random.Random(3)
    stats = []
    for _ in range(2000):
        weight = rng.choice([1.0, 3.0, rng.uniform(0, 1e6), 1 / 3, 2.7182818])
        first = rng.randrange(2**32 - 1)
        low, high = sorted(rng.randrange(256) for _ in range(2))
        top = rng.choice([1.0, rng.uniform(0, 50)])
        stats.append((weight, rng.randrange(1, 2**32), low, high, top, first,
                      rng.randrange(first, 2**32 - 1), 4))  # fmt: skip
    lengths = [rng.randrange(1, 5000) for _ in stats]
    offset = 2**33 + 5
    expected = []
    for stat, length in zip(stats, lengths, strict=True):
        expected.append(whoosh_info(stat, offset, length))
        offset += length
    assert term_infos(stats, 2**33 + 5, lengths) == b"".join(expected)
    assert len(expected[0]) == INFO_SIZE
    assert term_infos([], 0, []) == b""


def test_the_terms_table_is_the_bytes_whoosh_writes() -> None:
    """Rows added field by field (past 65,536 bytes: the positions' array widens), their
    hashes made beforehand, the hash tables with colliding slots (many keys a bucket)."""
    rng = random.Random(5)
    fields = []
    for prefix in (b"\x00\x01", b"\x00\x02", b"\x00\x07"):
        keys = sorted({prefix + rng.randbytes(rng.randint(1, 12)) for _ in range(3000)})
        fields.append([(key, rng.randbytes(INFO_SIZE)) for key in keys])
    written = []
    for ours in (False, True):
        out = BytesIO()
        table = OrderedHashWriter(StructFile(out))
        for rows in fields:
            if ours:
                keys = [k for k, _ in rows]
                hashes = key_hashes(keys[0][:2], [k[2:] for k in keys])
                add_rows(table, keys, b"".join(v for _, v in rows), INFO_SIZE, hashes)
            else:
                for key, value in rows:
                    table.add(key, value)
        if ours:
            table._write_hashes = lambda table=table: write_hashes(table)
        table.dbfile.close = lambda: None  # keep the bytes readable
        table.close()
        written.append(out.getvalue())
    assert written[0] == written[1] and len(written[0]) > 9000 * (INFO_SIZE + 8)
