"""Grouping tidy rows and summarising repetitions: medians, ranges, spread."""
import statistics
from collections import defaultdict

from .. import medians
from ..tidy import Row


def values_by_cell(rows: list[Row], metric: str) -> dict[str, list[float]]:
    """params -> every ok value of `metric` (all repetitions, all series entries)."""
    grouped = defaultdict(list)
    for r in rows:
        if r.metric == metric and r.status == "ok":
            grouped[r.params].append(r.value)
    return dict(grouped)


def median_and_range(by_cell: dict[str, list[float]], cells) -> tuple[list, list[float], list[list[float]]]:
    """For `cells`, (x, params) pairs: the xs of those that have values, their medians, and the
    distances from each median down to the minimum and up to the maximum (matplotlib's `yerr`).
    A failed cell has no values, and no point: the plot shows the others."""
    xs, med, down, up = [], [], [], []
    for x, params in cells:
        values = by_cell.get(params)
        if values:
            xs.append(x)
            med.append(median(values))
            down.append(med[-1] - min(values))
            up.append(max(values) - med[-1])
    return xs, med, [down, up]


def medians_by_cell(rows: list[Row], cells, metrics) -> dict[str, dict[str, float | None]]:
    """params -> metric -> median of its ok values (None where there is none), for every cell of
    `cells` and metric of `metrics`, in one pass over the rows: a table of cells x metrics then
    reads the rows once, not once per entry."""
    wanted = set(metrics)
    values = {params: {m: [] for m in metrics} for params in cells}
    for r in rows:
        if r.status == "ok" and r.metric in wanted and r.params in values:
            values[r.params][r.metric].append(r.value)
    return {params: {m: median(v) for m, v in by_metric.items()} for params, by_metric in values.items()}


def per_repetition(rows: list[Row], params: str, metric: str) -> dict[int, list[float]]:
    """repetition -> the ok values of `metric` in that repetition of one cell, in row order."""
    grouped = defaultdict(list)
    for r in rows:
        if r.params == params and r.metric == metric and r.status == "ok":
            grouped[r.repetition].append(r.value)
    return dict(grouped)


def median(values: list[float]) -> float | None:
    """The median (medians.py), None for no values: a table shows "–"."""
    return medians.median(values) if values else None


def cv(values: list[float]) -> float | None:
    """Coefficient of variation, the noise figure quoted beside a median."""
    if len(values) < 2:
        return None
    mean = statistics.fmean(values)
    return statistics.stdev(values) / mean if mean else None


def fmt(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "–"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"
