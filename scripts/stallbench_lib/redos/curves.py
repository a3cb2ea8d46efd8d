"""From a run's match rows to one curve per engine x pattern (time against length, up to the first
cell that did not finish) and its verdict: linear, polynomial, exponential (growth.py), or the
status that ended it when the engine's own behaviour did (guarded, rejected, crashed), or timeout
when too little finished to fit."""
from collections import defaultdict
from dataclasses import dataclass

from ..report import stats
from ..tidy import Row
from .growth import Growth, classify

DEFINING_STOPS = ("rejected", "guarded", "crashed", "error")  # these are the verdict, whatever came before


@dataclass
class Stop:
    length: int
    status: str
    detail: str


@dataclass
class Curve:
    variant: str
    engine: str
    points: list[tuple[int, float]]  # (length, median match_ms) of the finished cells below the stop
    stop: Stop | None                 # the first cell that did not finish
    growth: Growth

    @property
    def verdict(self) -> str:
        if self.stop and (not self.points or self.stop.status in DEFINING_STOPS):
            return self.stop.status
        if self.stop and self.growth.kind == "unknown":
            return self.stop.status  # a timeout after too few points to fit
        return self.growth.kind

    def describe(self) -> str:
        """'exponential, x2.01 per char (R² 1.00); timeout at 30' and the like."""
        verdict = self.verdict
        if verdict in ("linear", "polynomial", "exponential", "unknown"):
            text = self.growth.describe()
            return text + (f"; {self.stop.status} at {self.stop.length:,}" if self.stop else "")
        text = f"{verdict} at {self.stop.length:,}"
        if self.points and self.growth.kind != "unknown":
            text += f" (before: {self.growth.describe()})"
        return text

    def time_at(self, length: int) -> float | None:
        return dict(self.points).get(length)


def curves(rows: list[Row]) -> dict[tuple[str, str], Curve]:
    """(variant, engine) -> Curve, from the match benchmark's rows (any number of repetitions)."""
    times = defaultdict(lambda: defaultdict(list))
    failures = defaultdict(dict)
    for r in rows:
        if r.benchmark != "match" or r.metric != "match_ms":
            continue
        p = r.param_dict()
        key, length = (p["pattern"], p["engine"]), int(p["length"])
        if r.status == "ok":
            times[key][length].append(r.value)
        else:
            failures[key].setdefault(length, Stop(length, r.status, r.detail))
    found = {}
    for key in sorted(set(times) | set(failures)):
        stop = min(failures[key].values(), key=lambda s: s.length) if failures[key] else None
        points = sorted((n, stats.median(v)) for n, v in times[key].items() if stop is None or n < stop.length)
        growth = classify([n for n, _ in points], [t for _, t in points])
        found[key] = Curve(key[0], key[1], points, stop, growth)
    return found


def largest_common_length(per_engine: dict[str, Curve]) -> int | None:
    """The largest length every engine that compiled the pattern finished (rejections excluded)."""
    running = [c for c in per_engine.values() if not (c.stop and c.stop.status == "rejected" and not c.points)]
    if not running:
        return None
    common = set.intersection(*(set(n for n, _ in c.points) for c in running))
    return max(common) if common else None
