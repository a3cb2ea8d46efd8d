"""Outliers in a series of nightly values: runs that left the level around them for fewer than
`min_segment` runs (a one-night spike), found before the change-point search and kept out of it.

The rule is a Hampel filter whose window follows from the minimum segment length N: a run is an
outlier when it lies far from the median of the 2N-1 runs around it (centred on it where the series
allows, else the first or last 2N-1). An excursion of fewer than N runs is a minority of every such
window, so the window's median stays at the level around it and each of its runs is far from it; an
excursion of N runs or more is a majority of the window of each of its runs, so none of them is an
outlier, and the search may call it a change. At the end of a series this makes a jump seen on the
last nights an outlier until it has lasted N nights: what E-divisive could not call a change yet.

"Far" is both statistical and practical: more than SPREADS robust standard deviations of the
night-to-night noise, and at least the metric's minimum effect (a deviation too small to be a
regression is not worth a line). The noise is estimated from the whole series as 1.4826 times the
median absolute difference between consecutive nights, over sqrt(2): a step moves one of those
differences and a spike two, so the estimate stays the noise's where a standard deviation of the
values would take in every step."""
import math
from dataclasses import dataclass

from ..medians import median

SPREADS = 5.0  # see docs/tracking.md, "Outliers": how often flat noise reaches it
MAD_TO_SD = 1.4826  # the MAD of normally distributed values times this is their standard deviation


@dataclass(frozen=True)
class Outlier:
    index: int         # the run's position in the series
    value: float       # its median
    expected: float    # the median of the runs around it

    @property
    def change_pct(self) -> float | None:
        return (self.value / self.expected - 1) * 100 if self.expected else None


def noise(values: list[float]) -> float:
    """The robust standard deviation of the night-to-night noise (0 for fewer than two values)."""
    if len(values) < 2:
        return 0.0
    return MAD_TO_SD * median(abs(b - a) for a, b in zip(values, values[1:])) / math.sqrt(2)


def find(values: list[float], min_segment: int, min_effect_pct: float = 0.0) -> list[Outlier]:
    """The outliers of `values`, in order; none in a series of fewer than three values (no level
    to leave)."""
    n = len(values)
    if n < 3:
        return []
    spread = noise(values)
    width = 2 * min_segment - 1
    found = []
    for i, value in enumerate(values):
        start = min(max(0, i - min_segment + 1), max(0, n - width))
        expected = median(values[start:start + width])
        deviation = abs(value - expected)
        if deviation > SPREADS * spread and deviation > 0 and deviation >= abs(expected) * min_effect_pct / 100:
            found.append(Outlier(i, value, expected))
    return found
