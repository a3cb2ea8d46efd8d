"""A run as compare and history see it: per cell and metric, one value per repetition, the
failures, and the metric's declaration (unit, which direction is better, whether it is tracked).

The declarations come from the run's meta.json (runs made since the tracking commands exist keep
them there); for older runs, from the bench binaries of the current build when there is one;
else every metric is taken as lower-is-better and tracked, and a note says so."""
import json
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .. import build, catalogue, paths, rundir
from ..errors import UsageError
from ..medians import median
from ..tidy import Row

Key = tuple[str, str, str, str]  # family, benchmark, params, metric


def key_of(r: Row) -> Key:
    """A row's cell and metric as tracking names them across runs, stores and reports: the results
    contract's columns, the params as a CSV line spells them."""
    return (r.family, r.benchmark, str(r.params), r.metric)


@dataclass
class Sample:
    unit: str
    values: list[float] = field(default_factory=list)        # one per ok repetition
    failures: dict[str, str] = field(default_factory=dict)   # status -> first detail


@dataclass
class Run:
    path: Path
    run_id: str
    meta: dict
    samples: dict[Key, Sample]
    declarations: dict[str, dict[str, dict]]  # family/benchmark -> metric -> declaration
    notes: list[str]

    @property
    def fingerprint(self) -> str | None:
        return self.meta.get("machine", {}).get("fingerprint")

    def declaration(self, key: Key) -> dict:
        family, benchmark, _, metric = key
        return self.declarations.get(f"{family}/{benchmark}", {}).get(metric, {})


def samples_from_rows(rows: list[Row]) -> dict[Key, Sample]:
    """A metric with several values in one repetition (one per job, say) is summarised by their
    median, so every sample has one value per repetition."""
    per_rep: dict[Key, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    samples: dict[Key, Sample] = {}
    for r in rows:
        key = key_of(r)
        sample = samples.setdefault(key, Sample(r.unit))
        if r.status == "ok":
            per_rep[key][r.repetition].append(r.value)
        else:
            sample.failures.setdefault(r.status, r.detail)
    for key, reps in per_rep.items():
        samples[key].values = [v[0] if len(v) == 1 else median(v) for _, v in sorted(reps.items())]
    return samples


def _declarations_from_build() -> dict[str, dict[str, dict]]:
    """What the current build's binaries declare, without building anything."""
    try:
        families = catalogue.load(build.bench_binaries(paths.build_dir()))
    except (UsageError, OSError, json.JSONDecodeError):
        return {}
    return catalogue.metric_declarations(catalogue.all_benchmarks(families))


def load(path: Path) -> Run:
    """A run directory, or a results.csv (with its meta.json beside it, when there is one)."""
    path = Path(path)
    csv_path = path if path.suffix == ".csv" else path / "results.csv"
    if not csv_path.is_file():
        raise UsageError(f"{path}: not a run directory or results.csv (no {csv_path.name} there)")
    rows = rundir.read_rows(csv_path)
    meta = rundir.read_meta(csv_path.parent)
    run_id = meta.get("run_id") or (rows[0].run_id if rows else csv_path.parent.name)
    return from_parts(csv_path.parent, run_id, meta, rows)


def from_parts(path: Path, run_id: str, meta: dict, rows: list[Row]) -> Run:
    """A run from its meta and rows, wherever they were kept (a run directory, the history store)."""
    notes = []
    declarations = meta.get("metrics")
    if declarations is None:
        declarations = _declarations_from_build()
        notes.append(f"{run_id}: meta.json declares no metrics (an older run); "
                     + ("took the declarations of the current build's binaries" if declarations else
                        "no build to ask either, so every metric is taken as lower-is-better and tracked"))
    return Run(path, run_id, meta, samples_from_rows(rows), declarations, notes)


def load_quietly(path: Path) -> Run | None:
    """For history: a directory that is not a readable run is passed over, with one line saying so."""
    try:
        return load(path)
    except UsageError as e:
        print(f"stallbench: skipped: {e}", file=sys.stderr)
        return None


def describe_machine(meta: dict) -> str:
    m = meta.get("machine", {})
    if not m:
        return "unknown machine (no meta.json)"
    return f"{m.get('cpu_model')}, {m.get('cores')} cores, {m.get('memory_gib')} GiB (fingerprint {m.get('fingerprint')})"


def pooled(runs: list[Run], run_id: str) -> Run:
    """Several runs of the same build as one: each cell's repetitions put together (calibrate
    compares an injected run with the unchanged runs just before and just after it, so a machine
    that drifts during the calibration shifts both sides alike)."""
    merged: dict[Key, Sample] = {}
    for run in runs:
        for key, sample in run.samples.items():
            into = merged.setdefault(key, Sample(sample.unit))
            into.values += sample.values
            for status, detail in sample.failures.items():
                into.failures.setdefault(status, detail)
    declarations = {}
    for run in runs:
        for bench, metrics in run.declarations.items():
            declarations.setdefault(bench, {}).update(metrics)
    return Run(runs[0].path, run_id, runs[-1].meta, merged, declarations, [])
