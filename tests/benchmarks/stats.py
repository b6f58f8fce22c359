"""Figures: repeated samples, their median and p95, the anchor and the budget."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation; NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def median(values: list[float]) -> float:
    """The median; NaN for no values."""
    return statistics.median(values) if values else math.nan


@dataclass
class Figure:
    """One measured figure with its anchor measured in the same run.

    ``budget`` is an upper bound on ``check`` ("p95", "median" or "ratio") and
    ``None`` when the figure has no budget. ``unit`` is shown after the numbers.
    """

    key: str
    label: str
    unit: str
    samples: list[float] = field(default_factory=list)
    anchor_label: str = ""
    anchor_samples: list[float] = field(default_factory=list)
    budget: float | None = None
    check: str = "p95"
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def median(self) -> float:
        """Median of the samples."""
        return median(self.samples)

    @property
    def p95(self) -> float:
        """95th percentile of the samples."""
        return percentile(self.samples, 95)

    @property
    def anchor_median(self) -> float:
        """Median of the anchor's samples."""
        return median(self.anchor_samples)

    @property
    def ratio(self) -> float:
        """Median of the figure over median of its anchor (NaN without an anchor)."""
        anchor = self.anchor_median
        if not self.anchor_samples or not anchor or math.isnan(anchor):
            return math.nan
        return self.median / anchor

    @property
    def checked_value(self) -> float:
        """The value compared with the budget."""
        return {"p95": self.p95, "median": self.median, "ratio": self.ratio}[self.check]

    @property
    def verdict(self) -> str:
        """``✓`` within budget, ``✗`` over it, ``–`` without a budget or samples."""
        value = self.checked_value
        if self.budget is None or math.isnan(value):
            return "–"
        return "✓" if value <= self.budget else "✗"

    def to_json(self) -> dict[str, Any]:
        """The figure as JSON-ready data, with its summary numbers."""
        return {
            "key": self.key,
            "label": self.label,
            "unit": self.unit,
            "samples": [round(s, 4) for s in self.samples],
            "median": _clean(self.median),
            "p95": _clean(self.p95),
            "anchor": self.anchor_label,
            "anchor_samples": [round(s, 4) for s in self.anchor_samples],
            "anchor_median": _clean(self.anchor_median),
            "anchor_p95": _clean(percentile(self.anchor_samples, 95)),
            "ratio": _clean(self.ratio),
            "budget": self.budget,
            "check": self.check,
            "verdict": self.verdict,
            "note": self.note,
            "extra": self.extra,
        }


def _clean(value: float) -> float | None:
    """JSON has no NaN: None instead, else the value rounded."""
    return None if math.isnan(value) else round(value, 4)


def fmt(value: float, digits: int = 1) -> str:
    """A number for the table, ``–`` when missing."""
    if math.isnan(value):
        return "–"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"
