"""A pool-sweep run's rows gathered per pool size and class: medians over repetitions of every
metric, and the model's error against measurement."""
import statistics
from collections import defaultdict
from dataclasses import dataclass, field

from ..tidy import Row

# The CPU classes (job_classes.h): their throughput is what a larger pool must not lose.
CPU_CLASSES = ("pbkdf2", "scrypt", "deflate")


@dataclass
class ClassAtSize:
    pool: int
    job_class: str
    metrics: dict[str, float]  # median over repetitions
    repetitions: int

    def get(self, metric: str) -> float | None:
        return self.metrics.get(metric)


@dataclass
class Sweep:
    mix: str
    sizes: list[int]
    classes: list[str]
    cells: dict[tuple[int, str], ClassAtSize]
    per_size: dict[int, dict[str, float]]  # metrics without a class (cpu_util, effective_cores, ...)
    failures: list[str] = field(default_factory=list)

    def at(self, pool: int, job_class: str) -> ClassAtSize | None:
        return self.cells.get((pool, job_class))

    def series(self, job_class: str, metric: str) -> list[float | None]:
        return [c.get(metric) if (c := self.at(s, job_class)) else None for s in self.sizes]


def sweeps(rows: list[Row]) -> list[Sweep]:
    """One Sweep per mix (and duration) of the open-loop benchmark found in `rows`."""
    groups = defaultdict(list)
    for r in rows:
        if r.benchmark == "open-loop":
            p = r.param_dict()
            groups[(p.get("mix", "?"), p.get("duration", "?"))].append(r)
    return [_sweep(mix, group) for (mix, _), group in groups.items()]


def _sweep(mix: str, rows: list[Row]) -> Sweep:
    values = defaultdict(lambda: defaultdict(list))
    reps = defaultdict(set)
    failures = sorted({f"pool {r.param_dict().get('pool')}: {r.status}: {r.detail}" for r in rows if r.status != "ok"})
    classes = []
    for r in rows:
        if r.status != "ok":
            continue
        p = r.param_dict()
        key = (int(p["pool"]), p.get("class"))
        values[key][r.metric].append(r.value)
        reps[key].add(r.repetition)
        if p.get("class") and p["class"] not in classes:
            classes.append(p["class"])
    sizes = sorted({pool for pool, _ in values})
    cells, per_size = {}, {}
    for (pool, cls), metrics in values.items():
        medians = {m: statistics.median(v) for m, v in metrics.items()}
        if cls is None:
            per_size[pool] = medians
        else:
            cells[(pool, cls)] = ClassAtSize(pool, cls, medians, len(reps[(pool, cls)]))
    return Sweep(mix, sizes, classes, cells, per_size, failures)


@dataclass
class ModelError:
    median_abs: float | None     # median |predicted - measured| / measured of p50, over every point
    points: list[tuple[int, str, float, float, float]]  # pool, class, measured, predicted, relative error


def model_error(sweep: Sweep) -> ModelError:
    points = []
    for (pool, cls), cell in sorted(sweep.cells.items()):
        measured, predicted = cell.get("latency_p50_ms"), cell.get("predicted_p50_ms")
        if measured and predicted is not None and measured > 0:
            points.append((pool, cls, measured, predicted, (predicted - measured) / measured))
    errors = [abs(p[4]) for p in points]
    return ModelError(statistics.median(errors) if errors else None, points)
