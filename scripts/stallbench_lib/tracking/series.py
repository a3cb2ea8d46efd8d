"""Every run under results/ made on one machine, as one series per cell and tracked metric, in the
order the runs started, with the change points found in each and the regressions among them.

Runs made by `calibrate` (their meta.json says so) are left out: their injected slowdowns are not
history. A run kept twice (in runs/ and as a baseline) counts once."""
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from .. import paths
from ..medians import median
from . import changepoint
from .samples import Key, Run, load_quietly


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
    points: list[Point] = field(default_factory=list)
    change_points: list[changepoint.ChangePoint] = field(default_factory=list)

    def is_regression(self, cp: changepoint.ChangePoint) -> bool:
        change = cp.change_pct
        if change is None:
            return False
        worse = change if self.better == "lower" else -change
        return worse >= self.min_effect_pct

    def is_improvement(self, cp: changepoint.ChangePoint) -> bool:
        change = cp.change_pct
        return change is not None and (-change if self.better == "lower" else change) >= self.min_effect_pct


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


def build_series(runs: list[Run], default_min_effect: float) -> list[Series]:
    by_key: dict[Key, Series] = {}
    for run in runs:
        for key, sample in run.samples.items():
            declared = run.declaration(key)
            if not declared.get("tracked", True) or not sample.values:
                continue
            series = by_key.get(key)
            if series is None:
                series = by_key[key] = Series(key, sample.unit, declared.get("better", "lower"),
                                              declared.get("min_effect_pct") or default_min_effect)
            series.points.append(Point(run, sample.values))
    return [by_key[k] for k in sorted(by_key)]


def detect_all(series: list[Series], alpha: float) -> None:
    for s in series:
        s.change_points = changepoint.detect([p.median for p in s.points], alpha=alpha)


def commit_range(before: Run, after: Run) -> str:
    """'a1b2c3d4..e5f6a7b8', the commits that can hold the change, with their count when git knows
    both ends."""
    a = before.meta.get("git", {}).get("commit")
    b = after.meta.get("git", {}).get("commit")
    if not a or not b:
        return "unknown (no commit in meta.json)"
    text = f"{a[:8]}..{b[:8]}"
    if a == b:
        return f"{text} (same commit: the machine, not the code, changed)"
    try:
        out = subprocess.run(["git", "rev-list", "--count", f"{a}..{b}"], cwd=paths.ROOT, capture_output=True,
                             text=True, timeout=10)
        if out.returncode == 0:
            text += f" ({out.stdout.strip()} commits)"
    except (OSError, subprocess.TimeoutExpired):
        pass
    return text
