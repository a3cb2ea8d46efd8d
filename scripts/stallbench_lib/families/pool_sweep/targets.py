"""Latency targets per class: `--targets CLASS:MS[:PCT],...` (PCT one of p50, p95, p99, max; p99
when left out). A class without a target gets the default: its p99 within 100 ms or within five
times its alone service time, whichever is larger, so a job may wait behind a few of its own kind
and nothing needs to be faster than a tenth of a second. A class kept in flight (xN) is background
load and has no default target."""
from dataclasses import dataclass

from ... import numbers
from ...errors import UsageError

PERCENTILES = ("p50", "p95", "p99", "max")
DEFAULT_FLOOR_MS = 100.0
DEFAULT_ALONE_MULTIPLE = 5.0
MAX_UNFINISHED = {"p50": 0.5, "p95": 0.05, "p99": 0.01, "max": 0.0}  # a percentile is unbounded past this share


@dataclass(frozen=True)
class Target:
    job_class: str
    ms: float
    percentile: str = "p99"
    given: bool = True  # from --targets, or the default

    @property
    def metric(self) -> str:
        return f"latency_{self.percentile}_ms"

    def text(self) -> str:
        return f"{self.job_class} {self.percentile} ≤ {self.ms:g} ms" + ("" if self.given else " (default)")


def parse(text: str | None, classes: list[str]) -> dict[str, Target]:
    """Targets given on the command line, keyed by class; UsageError (one line) when malformed."""
    if not text:
        return {}
    targets = {}
    for item in text.split(","):
        fields = item.split(":")
        where = f"--targets item {item!r}"
        if len(fields) not in (2, 3) or not fields[0]:
            raise UsageError(f"{where} is not CLASS:MS[:PCT] (e.g. read:50 or pbkdf2:300:p50)")
        job_class, ms, percentile = fields[0], fields[1], fields[2] if len(fields) == 3 else "p99"
        if job_class not in classes:
            raise UsageError(f"{where}: class {job_class!r} is not in the mix (its classes: {', '.join(classes)})")
        value = numbers.decimal(ms)
        if value is None or not 0 < value <= 3_600_000:
            raise UsageError(f"{where}: {ms!r} is not a latency in milliseconds: valid values are above 0, "
                             "at most 3600000 (e.g. read:50)")
        if percentile not in PERCENTILES:
            raise UsageError(f"{where}: percentile {percentile!r} is not one of {', '.join(PERCENTILES)}")
        if job_class in targets:
            raise UsageError(f"{where}: class {job_class} has two targets")
        targets[job_class] = Target(job_class, value, percentile)
    return targets


def for_classes(given: dict[str, Target], alone_ms: dict[str, float], background: set[str]) -> dict[str, Target]:
    """Every class's target: the given one, else the default from its alone service time. A class
    kept in flight (xN) is background load: its latency is its population over its throughput by
    construction, so it gets no default target."""
    out = {}
    for job_class, alone in alone_ms.items():
        if job_class in given:
            out[job_class] = given[job_class]
        elif job_class not in background:
            out[job_class] = Target(job_class, max(DEFAULT_FLOOR_MS, round(DEFAULT_ALONE_MULTIPLE * alone, 1)), "p99",
                                    given=False)
    return out


def to_meta(targets: dict[str, Target]) -> dict:
    return {t.job_class: {"ms": t.ms, "percentile": t.percentile} for t in targets.values()}


def from_meta(data: dict | None) -> dict[str, Target]:
    return {c: Target(c, float(t["ms"]), t["percentile"]) for c, t in (data or {}).items()}
