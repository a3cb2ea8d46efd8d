"""The one median of stallbench: the middle value, or the mean of the two middle values for an even
count (what statistics.median and numpy's median compute, and the C++ side's median(),
workloads/common/percentile.h). Tables, plots, summaries, comparisons and history all use it, so a
figure quoted in one place is the figure drawn in another.

Where a plot must show one thing that really happened (the repetition with the median time, the
middle chunk size), `middle` picks the item at the middle of the sorted list, the lower one of an
even count: an item, never a mean of two."""
import statistics
from collections.abc import Callable, Iterable


def median(values: Iterable[float]) -> float:
    """Raises statistics.StatisticsError for no values."""
    return float(statistics.median(values))


def row_medians(rows):
    """The median of each row of a 2-D numpy array (a bootstrap's draws at once): the same median,
    vectorised."""
    import numpy as np

    return np.median(rows, axis=1)


def middle(items: Iterable, key: Callable | None = None):
    """The item at the middle of `items` sorted by `key` (the lower one of an even count)."""
    ordered = sorted(items, key=key)
    return ordered[(len(ordered) - 1) // 2]
