"""Reading a user's file safely: regular files only, up to a size cap, never blocking.

A named pipe, a device (``/dev/zero``, ``/dev/urandom``), a socket or a folder given
where a paper list or an import file is expected would hang the reader or fill the
memory; such paths are refused with a readable ``OSError``, as is a file larger than
:data:`MAX_FILE_BYTES`.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

MAX_FILE_BYTES = 256 * 1024 * 1024
"""The largest file read (256 MB; the largest real paper list is a few tens of MB)."""


def read_regular_file(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes.

    Raises ``OSError`` whose ``strerror`` says why not (in the words a user needs).
    """
    # O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, f"not a regular file ({_kind(info.st_mode)})")
        if info.st_size > limit:
            raise OSError(errno.EFBIG, _too_big(limit))
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        total = 0
        while chunk := os.read(fd, 1 << 20):
            total += len(chunk)
            if total > limit:  # the file grew while being read
                raise OSError(errno.EFBIG, _too_big(limit))
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _too_big(limit: int) -> str:
    return f"larger than {limit // (1024 * 1024)} MB, the most read from one file"


def _kind(mode: int) -> str:
    """What a non-regular file is, in plain words."""
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"
