"""One number per family and one overall: the geometric mean of the tracked metrics' ratios, each
turned so that above 1 means CURRENT is worse (CURRENT/BASE for lower-is-better metrics,
BASE/CURRENT for higher-is-better ones), as google/benchmark's compare.py and rustc-perf summarise.

A geometric mean, not an arithmetic one: a metric 2x slower and one 2x faster cancel (they do
in log space), and no metric weighs more because its unit makes its ratio larger. Every tracked
cell × metric with a ratio on both sides counts once; failures have no ratio and are left to the
verdict table. Instruction counts are summarised apart from the measured metrics: a CPU-bound
cell would otherwise count twice, once by its time and once by its count.

For paired rounds (`ab`) the mean comes with a 95% interval from a bootstrap over rounds: each
cell's rounds are drawn again with replacement (one draw for all of the cell's metrics, which move
together within a round), each metric's Hodges–Lehmann estimate recomputed, and the mean taken;
the 2.5th and 97.5th percentiles of BOOTSTRAP means are the interval."""
import math
from collections import defaultdict
from dataclasses import asdict, dataclass

import numpy as np

from ..instructions import INSTRUCTIONS
from ..medians import median, row_medians
from ..rendering import table
from .paired import log_ratios

OVERALL = "overall"
BOOTSTRAP = 1000
CONFIDENCE = 0.95


@dataclass
class Geomean:
    ratio: float                  # > 1: CURRENT is worse
    change_pct: float             # (ratio - 1) * 100
    ci_low_pct: float | None
    ci_high_pct: float | None
    metrics: int

    def as_dict(self) -> dict:
        return asdict(self)


def _oriented(c) -> float | None:
    """log of the ratio, turned so that > 0 is worse; None when the comparison has no ratio."""
    if c.ratio is None or not c.ratio > 0 or c.kind:
        return None
    return math.log(c.ratio) * (1 if c.better == "lower" else -1)


def _counted(c, instructions: bool) -> bool:
    return (c.key[3] == INSTRUCTIONS) == instructions and _oriented(c) is not None


def _scopes(comparisons) -> dict[str, list[int]]:
    """"overall" and each family (in the order the families first appear) -> the positions of its
    comparisons."""
    scopes: dict[str, list[int]] = {OVERALL: list(range(len(comparisons)))}
    for k, c in enumerate(comparisons):
        scopes.setdefault(c.key[0], []).append(k)
    return scopes


def _from_logs(logs: list[float], interval: tuple[float, float] | None) -> Geomean:
    mean = float(np.mean(logs))
    low, high = (None, None) if interval is None else (math.expm1(interval[0]) * 100, math.expm1(interval[1]) * 100)
    return Geomean(math.exp(mean), math.expm1(mean) * 100, low, high, len(logs))


def summarise(comparisons, instructions: bool = False) -> dict:
    """{"overall": Geomean, "families": {family: Geomean}} of independent samples (compare,
    history): no interval. Empty dict when nothing has a ratio."""
    chosen = [c for c in comparisons if _counted(c, instructions)]
    if not chosen:
        return {}
    return _unpaired([_oriented(c) for c in chosen], chosen)


def _shaped(scopes: dict[str, Geomean]) -> dict:
    return {OVERALL: scopes.pop(OVERALL), "families": scopes}


def _unpaired(logs: list[float], keyed: list) -> dict:
    return _shaped({scope: _from_logs([logs[k] for k in ks], None) for scope, ks in _scopes(keyed).items()})


def _walsh_medians(d: np.ndarray) -> np.ndarray:
    """Hodges–Lehmann estimates of each row of d (rows: bootstrap draws, columns: rounds)."""
    i, j = np.triu_indices(d.shape[1])
    return row_medians((d[:, i] + d[:, j]) / 2)


def summarise_paired(comparisons, rounds: dict[tuple, list[tuple[float, float]]], seed: int) -> dict:
    """The same, for paired rounds, with the bootstrap interval; `rounds`: key -> (base, current)
    per round, as ab_rounds.paired_values gives them. The point estimate is the mean of the
    comparisons' own estimates, so it matches the verdict table."""
    ratios = {c.key: log_ratios(rounds.get(c.key, [])) for c in comparisons if _counted(c, False)}
    chosen = [c for c in comparisons if len(ratios.get(c.key, ())) >= 2]
    if not chosen:
        return {}
    rng = np.random.default_rng(seed)
    draws = np.zeros((BOOTSTRAP, len(chosen)))
    by_cell: dict[tuple, list[int]] = defaultdict(list)
    for column, c in enumerate(chosen):
        by_cell[c.key[:3]].append(column)
    for columns in by_cell.values():
        longest = max(len(ratios[chosen[k].key]) for k in columns)
        picked = rng.integers(0, longest, size=(BOOTSTRAP, longest))
        for k in columns:
            c = chosen[k]
            d = ratios[c.key] * (1 if c.better == "lower" else -1)
            draws[:, k] = _walsh_medians(d[picked[:, :len(d)] % len(d)])
    tail = (1 - CONFIDENCE) / 2 * 100
    logs = [_oriented(c) for c in chosen]
    result = {}
    for scope, ks in _scopes(chosen).items():
        means = draws[:, ks].mean(axis=1)
        result[scope] = _from_logs([logs[k] for k in ks], tuple(np.percentile(means, [tail, 100 - tail])))
    return _shaped(result)


def _segment_before_last(s) -> list[float]:
    """The run medians the last run of series `s` is measured against: those since the last change
    point before it (the level the series settled at), or all before it when there is none."""
    starts = [cp.index for cp in s.change_points if cp.index < len(s.points) - 1]
    return [p.median for p in s.points[max(starts, default=0):-1]]


def of_last_run(series) -> dict:
    """`history`'s summary: each tracked series' last run against the median of the runs of its
    current segment before it, as summarise gives it (no interval: nights are not paired)."""
    chosen, logs = [], []
    for s in series:
        before = _segment_before_last(s) if len(s.points) >= 2 else []
        if not before:
            continue
        reference, last = median(before), s.points[-1].median
        if reference > 0 and last > 0:
            chosen.append(s)
            logs.append(math.log(last / reference) * (1 if s.better == "lower" else -1))
    return _unpaired(logs, chosen) if chosen else {}


def as_json(summary: dict) -> dict:
    if not summary:
        return {}
    return {OVERALL: summary[OVERALL].as_dict(), "families": {f: g.as_dict() for f, g in summary["families"].items()}}


def _interval(g: Geomean) -> str | None:
    return None if g.ci_low_pct is None else f"[{g.ci_low_pct:+.2f}%, {g.ci_high_pct:+.2f}%]"


def from_json(found: dict) -> dict:
    """A summary as ab.json keeps it (as_json) back into Geomeans."""
    if not found:
        return {}
    return {OVERALL: Geomean(**found[OVERALL]),
            "families": {f: Geomean(**g) for f, g in found.get("families", {}).items()}}


def rows_markdown(rows: list[tuple[str, Geomean]]) -> str:
    """Geomeans as a table, one row each, labelled."""
    return table.markdown(["scope", table.number("metrics"), table.number("ratio"), table.number("change"),
                           table.number("95% interval")],
                          [[scope, g.metrics, f"{g.ratio:.4f}", f"{g.change_pct:+.2f}%", _interval(g)]
                           for scope, g in rows])


def table_markdown(summary: dict, overall: str = f"**{OVERALL}**") -> str:
    """The summary as a table: the overall row (labelled `overall`) first, then one per family."""
    return rows_markdown([(overall, summary[OVERALL])] + sorted(summary["families"].items()))


def markdown(summary: dict, what: str, subject: str = "CURRENT") -> str:
    """The table under a line saying what it is a mean of; "" when there is nothing to summarise."""
    if not summary:
        return ""
    return (f"Geometric mean of {what}, each turned so that above 1 (a positive change) means {subject} is worse:\n\n"
            + table_markdown(summary))
