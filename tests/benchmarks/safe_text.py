"""What making outside text safe where it enters costs: ``python -m tests.benchmarks.safe_text``.

Prints medians (ms) of reading the bundled 3 MB table with :func:`~index_builder.sources.
reading.decode` making it safe and without (its undecorated ``_decoded``), of
:func:`~index_builder.text.safe.safe` on the whole text, and of the regular-expression
path it skips when a file has nothing to drop.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import index_builder.sources.reading as reading
from index_builder.text import safe as safe_text
from tests.benchmarks.stats import median
from tests.helpers.paths import TABLE


def _median_ms(run: Callable[[], object], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        samples.append((time.perf_counter() - started) * 1000)
    return median(samples)


def main(repeats: int = 9) -> None:
    """Print the figures (medians of ``repeats`` runs, in ms)."""
    data = TABLE.read_bytes()
    text = data.decode("utf-8-sig")
    made_safe = reading.decode
    with_safe = _median_ms(lambda: reading.read_source(TABLE, data), repeats)
    reading.decode = reading._decoded  # type: ignore[assignment]
    try:
        without = _median_ms(lambda: reading.read_source(TABLE, data), repeats)
    finally:
        reading.decode = made_safe  # type: ignore[assignment]
    whole = _median_ms(lambda: safe_text.safe(text), repeats)
    regex = _median_ms(lambda: safe_text._CONTROL.sub("", text), repeats)
    print(f"read_source(bundled table), median of {repeats}: {with_safe:.1f} ms made safe, "
          f"{without:.1f} ms without (ratio {with_safe / without:.2f})")  # fmt: skip
    print(f"safe(whole table text): {whole:.1f} ms; the control-character regex alone "
          f"{regex:.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 9)
