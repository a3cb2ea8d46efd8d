"""Every run under results/ made on a machine, as one series per machine, cell and tracked metric,
in the order the runs started, with the outliers and change points found in each, the regressions
among them, and the changes accepted as intended.

Runs made by `calibrate` (their meta.json says so) are left out: their injected slowdowns are not
history. A run kept twice (in runs/ and as a baseline) counts once."""
from dataclasses import dataclass, field, replace
from pathlib import Path

from .. import paths
from ..medians import median
from . import changepoint
from .accepted import Acceptance, between, matching
from .outliers import Outlier, find as find_outliers
from .comparison import Thresholds
from .samples import Key, Run, load_quietly

DEFAULT_MIN_SEGMENT = 3  # runs on each side of a change; docs/tracking.md, "Minimum segment and outliers"


@dataclass
class Point:
    run: Run
    values: list[float]  # every repetition

    @property
    def median(self) -> float:
        return median(self.values)


@dataclass
class Series:
    key: Key
    unit: str
    better: str
    min_effect_pct: float
    machine: str | None = None  # the fingerprint of the runs
    points: list[Point] = field(default_factory=list)
    change_points: list[changepoint.ChangePoint] = field(default_factory=list)
    outliers: list[Outlier] = field(default_factory=list)
    accepted: dict[int, Acceptance] = field(default_factory=dict)  # change point index -> acceptance

    def is_regression(self, cp: changepoint.ChangePoint) -> bool:
        change = cp.change_pct
        if change is None:
            return False
        worse = change if self.better == "lower" else -change
        return worse >= self.min_effect_pct

    def is_improvement(self, cp: changepoint.ChangePoint) -> bool:
        change = cp.change_pct
        return change is not None and (-change if self.better == "lower" else change) >= self.min_effect_pct

    def alerts(self, cp: changepoint.ChangePoint) -> bool:
        """A regression nobody accepted: what the regressions table lists."""
        return self.is_regression(cp) and cp.index not in self.accepted

    def around(self, cp: changepoint.ChangePoint) -> tuple[Run, Run]:
        """The last run before the change that is not an outlier, and the first run after it."""
        left_out = {o.index for o in self.outliers}
        before = max(i for i in range(cp.index) if i not in left_out)
        return self.points[before].run, self.points[cp.index].run


def find_runs(root: Path = paths.RESULTS) -> list[Run]:
    """Every readable run under `root` (any depth), complete ones only, calibration runs excluded,
    each run id once, oldest first."""
    seen, runs = set(), []
    for meta_path in sorted(root.rglob("meta.json")):
        run = load_quietly(meta_path.parent)
        if run is None or not run.meta.get("complete") or run.meta.get("calibration") or run.run_id in seen:
            continue
        seen.add(run.run_id)
        runs.append(run)
    return sorted(runs, key=lambda r: (r.meta.get("started_at") or "", r.run_id))


def build_series(runs: list[Run], limits: Thresholds) -> list[Series]:
    """One series per machine, cell and tracked metric, ordered by cell, then machine."""
    by_key: dict[tuple[str, Key], Series] = {}
    for run in runs:
        for key, sample in run.samples.items():
            declared = run.declaration(key)
            if not declared.get("tracked", True) or not sample.values:
                continue
            series = by_key.get((run.fingerprint or "", key))
            if series is None:
                series = by_key[(run.fingerprint or "", key)] = Series(
                    key, sample.unit, declared.get("better", "lower"),
                    limits.min_effect(key[3], declared.get("min_effect_pct", 0)), run.fingerprint)
            series.points.append(Point(run, sample.values))
    return [by_key[k] for k in sorted(by_key, key=lambda k: (k[1], k[0]))]


def detect_all(series: list[Series], alpha: float, min_segment: int = DEFAULT_MIN_SEGMENT) -> None:
    """Outliers first, then the change points of the runs that are not outliers (a spike left in
    would pull a short segment's median and the search with it), at their places in the series."""
    for s in series:
        medians = [p.median for p in s.points]
        s.outliers = find_outliers(medians, min_segment, s.min_effect_pct)
        left_out = {o.index for o in s.outliers}
        kept = [i for i in range(len(medians)) if i not in left_out]
        found = changepoint.detect([medians[i] for i in kept], alpha=alpha, min_size=min_segment)
        s.change_points = [replace(cp, index=kept[cp.index]) for cp in found]


def commit_of(run: Run) -> str | None:
    return run.meta.get("git", {}).get("commit")


def ancestors_of(run: Run) -> list[str]:
    """The ancestors of the run's commit it recorded (meta.git_info): what names the commits between
    nights where this checkout's git cannot."""
    return run.meta.get("git", {}).get("ancestors") or []


def triage(series: list[Series], acceptances: list[Acceptance]) -> None:
    """Marks the change points an acceptance holds."""
    for s in series:
        s.accepted = {}
        for cp in s.change_points:
            before, after = s.around(cp)
            found = matching(acceptances, commit_of(before), commit_of(after), ancestors_of(after))
            if found is not None:
                s.accepted[cp.index] = found


def commit_range(before: Run, after: Run) -> str:
    """'a1b2c3d4..e5f6a7b8', the commits that can hold the change, with their count when git knows
    both ends."""
    a, b = commit_of(before), commit_of(after)
    if not a or not b:
        return "unknown (no commit in meta.json)"
    text = f"{a[:8]}..{b[:8]}"
    if a == b:
        return f"{text} (same commit: the machine, not the code, changed)"
    listed = between(a, b, ancestors_of(after))
    return text if listed is None else f"{text} ({len(listed)} commits)"
