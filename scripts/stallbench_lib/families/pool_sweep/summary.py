"""A pool-sweep run's rows gathered per pool size and class: medians over repetitions of every
metric, and the model's error against measurement."""
from collections import defaultdict
from dataclasses import dataclass, field

from ... import runtimes
from ...medians import median
from . import mixes
from ...tidy import Row

# The CPU classes (job_classes.h): their throughput is what a larger pool must not lose.
CPU_CLASSES = ("pbkdf2", "scrypt", "deflate")


@dataclass
class ClassAtSize:
    pool: int
    job_class: str
    metrics: dict[str, float]  # median over repetitions
    repetitions: int
    values: dict[str, list[float]] = field(default_factory=dict)  # every value, all repetitions (series whole)

    def get(self, metric: str) -> float | None:
        return self.metrics.get(metric)


@dataclass
class Sweep:
    mix: mixes.Mix  # an --app sweep's: one item, requests at RATE
    sizes: list[int]
    classes: list[str]
    cells: dict[tuple[int, str], ClassAtSize]
    per_size: dict[int, dict[str, float]]  # metrics without a class (cpu_util, effective_cores, ...)
    failures: list[str] = field(default_factory=list)
    runtime: str = "stallbench"  # the open-loop benchmark's runtime (node@26, ...), or "app"

    def title(self) -> str:
        if self.runtime == "app":
            return f"your program at {self.mix.items[0].rate} requests/s"
        return f"mix {self.mix.as_command_line()}" + ("" if self.runtime == "stallbench" else f" in {self.runtime}")

    def at(self, pool: int, job_class: str) -> ClassAtSize | None:
        return self.cells.get((pool, job_class))

    def series(self, job_class: str, metric: str) -> list[float | None]:
        return [c.get(metric) if (c := self.at(s, job_class)) else None for s in self.sizes]


def sweeps(rows: list[Row]) -> list[Sweep]:
    """One Sweep per mix, duration and runtime of the open-loop benchmark found in `rows`, the C++
    runtime first."""
    groups = defaultdict(list)
    for r in rows:
        if r.benchmark == "open-loop":
            p = r.params
            groups[(p.get("mix", "?"), p.get("duration", "?"), runtimes.label(p) if "runtime" in p else runtimes.STALLBENCH)].append(r)
    ordered = sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2] != "stallbench", kv[0][2]))
    return [_sweep(mixes.Mix.parse(mix), group, runtime) for (mix, _, runtime), group in ordered]


APP_PER_SIZE = {"app_cpu_util": "cpu_util", "machine_cpu_util": "machine_cpu_util", "app_rss_peak_mb": "app_rss_peak_mb",
                "app_core_wait_threads": "core_wait_threads",
                "loop_delay_p50_ms": "loop_delay_p50_ms", "loop_delay_p99_ms": "loop_delay_p99_ms",
                "loop_delay_max_ms": "loop_delay_max_ms", "loop_utilization": "loop_utilization"}


def app_sweeps(rows: list[Row]) -> list[Sweep]:
    """One Sweep per rate and duration of `sweep-pool --app` rows: one class, `requests`; the
    program's CPU and memory are per-size metrics."""
    groups = defaultdict(list)
    for r in rows:
        if r.benchmark == "app":
            p = r.params
            groups[(p.get("rate", "?"), p.get("duration", "?"))].append(r)
    found = []
    for (rate, _), group in groups.items():
        relabelled = [Row(**{**vars(r), "params": r.params.with_values(**{"class": "requests"})}) if r.metric not in APP_PER_SIZE
                      else Row(**{**vars(r), "metric": APP_PER_SIZE[r.metric]}) for r in group]
        found.append(_sweep(mixes.Mix((mixes.Item("requests", rate),)), relabelled, "app"))
    return found


def _sweep(mix: mixes.Mix, rows: list[Row], runtime: str) -> Sweep:
    values = defaultdict(lambda: defaultdict(list))
    reps = defaultdict(set)
    failures = sorted({f"pool {r.params.get('pool')}: {r.status}: {r.detail}" for r in rows if r.status != "ok"})
    classes = []
    for r in rows:
        if r.status != "ok":
            continue
        p = r.params
        key = (int(p["pool"]), p.get("class"))
        values[key][r.metric].append(r.value)
        reps[key].add(r.repetition)
        if p.get("class") and p["class"] not in classes:
            classes.append(p["class"])
    sizes = sorted({pool for pool, _ in values})
    cells, per_size = {}, {}
    for (pool, cls), metrics in values.items():
        medians = {m: median(v) for m, v in metrics.items()}
        if cls is None:
            per_size[pool] = medians
        else:
            cells[(pool, cls)] = ClassAtSize(pool, cls, medians, len(reps[(pool, cls)]), dict(metrics))
    return Sweep(mix, sizes, classes, cells, per_size, failures, runtime)


@dataclass
class ModelError:
    median_abs: float | None     # median |predicted - measured| / measured, over every point
    points: list[tuple[int, str, float, float, float]]  # pool, class, measured, predicted, relative error


def model_error(sweep: Sweep, measured_metric: str = "latency_p50_ms", predicted_metric: str = "predicted_p50_ms",
                only: set[tuple[int, str]] | None = None) -> ModelError:
    """Of p50 latency by default; of another measured metric and its prediction (the pool wait),
    over the (pool, class) points `only` names when given."""
    points = []
    for (pool, cls), cell in sorted(sweep.cells.items()):
        if only is not None and (pool, cls) not in only:
            continue
        measured, predicted = cell.get(measured_metric), cell.get(predicted_metric)
        if measured and predicted is not None and measured > 0:
            points.append((pool, cls, measured, predicted, (predicted - measured) / measured))
    errors = [abs(p[4]) for p in points]
    return ModelError(median(errors) if errors else None, points)
