"""A run in the formats dashboards read. One value per cell and tracked metric: the median over the
run's repetitions, with the smallest and largest beside it where the format has room.

- bmf: Bencher Metric Format, one JSON object: benchmark (family/benchmark/params) -> measure
  (the metric) -> {value, lower_value, upper_value}; for `bencher run --adapter json`.
- gab: github-action-benchmark's custom formats, two JSON arrays of {name, unit, value, range,
  extra}: smaller.json for the metrics where lower is better (tool customSmallerIsBetter) and
  bigger.json for the others (customBiggerIsBetter), because the action takes one direction per file.
- gbench: one Google Benchmark JSON per cell, for the readers of that format: Bencher's Google
  Benchmark adapter (which refuses a file without `context.caches` and reads `name`, `real_time`,
  `time_unit`), github-action-benchmark's `googlecpp` (which also shows `iterations`, `cpu_time` and
  `threads`) and Google Benchmark's own compare.py (which needs `cpu_time` too). So each entry is
  one time metric of the cell (unit ms), named uniquely
  (`pool/saturation/iters:40000/pool:1/pbkdf2_done_ms`), with `real_time` its median and every
  metric of the cell as counters; no aggregate entries (`_mean`, `_cv`: an adapter reads a CV as a
  time); metrics that are not times (ratios, counts) appear as counters only. stallbench measures
  no CPU time per metric: `cpu_time` repeats `real_time`, and each entry's `label` and the
  context's note say so. `context.caches` is empty: the run does not record the machine's caches.
  Google Benchmark's own JSON keeps a file per process and repetition in the run's raw/.

A cell and metric whose repetitions failed (timeout, crashed, guarded, ...) is never exported as a
number (Google Benchmark itself writes a failed run's time as 0, which a chart draws as "fastest
ever"): it is left out of every format and listed in OMITTED.md beside the files, with its status."""
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from ..atomic import atomic_write
from ..medians import median
from ..parameters import Params
from ..rundir import slug
from .samples import Run

FORMATS = ("bmf", "gab", "gbench")
CPU_LABEL = "cpu_time = real_time: not measured per metric"


@dataclass
class Point:
    family: str
    benchmark: str
    params: str
    metric: str
    unit: str
    better: str
    values: list[float]

    @property
    def cell(self) -> str:
        return f"{self.family}/{self.benchmark}/{self.params}" if self.params else f"{self.family}/{self.benchmark}"

    @property
    def median(self) -> float:
        return median(self.values)


def points(run: Run) -> tuple[list[Point], list[str]]:
    """The tracked metrics with a value to show, and a line for each one left out."""
    kept, omitted = [], []
    for key, sample in sorted(run.samples.items()):
        declared = run.declaration(key)
        if not declared.get("tracked", True):
            continue
        family, benchmark, params, metric = key
        if sample.failures or not sample.values:
            status, detail = next(iter(sample.failures.items()), ("error", "no value"))
            omitted.append(f"- {family}/{benchmark} `{params}` {metric}: {status} ({detail})")
            continue
        kept.append(Point(family, benchmark, params, metric, sample.unit, declared.get("better", "lower"),
                          sample.values))
    return kept, omitted


def bmf(found: list[Point]) -> dict[str, str]:
    doc: dict[str, dict] = defaultdict(dict)
    for p in found:
        doc[p.cell][p.metric] = {"value": p.median, "lower_value": min(p.values), "upper_value": max(p.values)}
    return {"bmf.json": json.dumps(doc, indent=2) + "\n"}


def gab(found: list[Point], run_id: str) -> dict[str, str]:
    files = {}
    for name, better in (("smaller.json", "lower"), ("bigger.json", "higher")):
        entries = [{"name": f"{p.cell} {p.metric}", "unit": p.unit, "value": p.median,
                    "range": f"± {(max(p.values) - min(p.values)) / 2:.4g}",
                    "extra": f"median of {len(p.values)} repetitions, min {min(p.values):.6g}, max {max(p.values):.6g}; "
                             f"run {run_id}"} for p in found if p.better == better]
        if entries:  # the action refuses a file with no benchmark in it
            files[name] = json.dumps(entries, indent=2) + "\n"
    return files


def _gbench_name(p: Point) -> str:
    params = "/".join(f"{k}:{v}" for k, v in Params.parse(p.params).items())
    return "/".join(x for x in (p.family, p.benchmark, params, p.metric) if x)


def gbench(found: list[Point], run: Run) -> dict[str, str]:
    machine = run.meta.get("machine", {})
    by_cell: dict[str, list[Point]] = defaultdict(list)
    for p in found:
        by_cell[p.cell].append(p)
    files = {}
    for index, (cell, cell_points) in enumerate(sorted(by_cell.items())):
        counters = {p.metric: p.median for p in cell_points}
        entries = [{"name": _gbench_name(p), "family_index": index, "per_family_instance_index": i,
                    "run_name": _gbench_name(p), "run_type": "iteration", "repetitions": 1, "repetition_index": 0,
                    "threads": 1, "iterations": 1, "real_time": p.median, "cpu_time": p.median, "time_unit": "ms",
                    "label": CPU_LABEL,
                    "stallbench_repetitions": len(p.values), **counters}
                   for i, p in enumerate(q for q in cell_points if q.unit == "ms")]
        if not entries:
            continue
        context = {"date": run.meta.get("started_at"), "host_name": machine.get("hostname"),
                   "executable": f"stallbench {cell_points[0].family}", "num_cpus": machine.get("logical_cpus"),
                   "load_avg": machine.get("load_average_start") or [], "library_build_type": "release",
                   "caches": [],  # Bencher's adapter refuses a context without it; the run does not record them
                   "stallbench_run_id": run.run_id, "stallbench_commit": run.meta.get("git", {}).get("commit"),
                   "stallbench_note": "each entry is one time metric of the cell: real_time is its median over the "
                                      "run's repetitions; cpu_time repeats it (no CPU time is measured per metric); "
                                      "caches are not recorded"}
        files[f"{slug(cell.replace('/', '-'))}.json"] = json.dumps({"context": context, "benchmarks": entries},
                                                                  indent=2) + "\n"
    return files


def write(run: Run, fmt: str, out: Path) -> tuple[list[str], list[str]]:
    """Writes the format's files (and OMITTED.md when something was left out) into `out`; returns the
    names written and the omissions."""
    found, omitted = points(run)
    files = {"bmf": lambda: bmf(found), "gab": lambda: gab(found, run.run_id), "gbench": lambda: gbench(found, run)}[fmt]()
    for name, text in files.items():
        atomic_write(out / name, text)
    (out / "OMITTED.md").unlink(missing_ok=True)  # from an earlier export into the same folder
    if omitted:
        atomic_write(out / "OMITTED.md", f"# Left out of the {fmt} export of {run.run_id}\n\nThese cells and metrics "
                     "failed in this run; a dashboard gets no number for them rather than a wrong one.\n\n"
                     + "\n".join(omitted) + "\n")
    return sorted(files), omitted
