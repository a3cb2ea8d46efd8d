"""A job's first wait for a thread beside the queueing model's prediction of it, in every runtime
that ran the same mix. The wait (`pool_wait_*`) is a canary's, a no-op queued just before the job:
the one wait measured the same way in C++ and in Node, so the model's error can be read from waits
as well as from latencies, which each runtime's own overheads (Node's main thread) are part of."""
from dataclasses import dataclass

from ...rendering import table
from .summary import ModelError, Sweep, model_error

# Below this, measured and predicted alike, a job found a thread free: what it waited is a thread's
# wake-up, which the model leaves out, and a relative error of a few microseconds says nothing.
QUEUE_FLOOR_MS = 1.0


@dataclass
class WaitErrors:
    wait: ModelError     # of the p50 pool wait, where a job waited (QUEUE_FLOOR_MS)
    latency: ModelError  # of the p50 latency at the same points
    overall: ModelError  # of the p50 latency at every point (the report's headline error)


def has_waits(sweep: Sweep) -> bool:
    return any(c.get("pool_wait_p50_ms") is not None for c in sweep.cells.values())


def queued_points(sweep: Sweep) -> set[tuple[int, str]]:
    """(pool, class) where the median job waited for a thread, as measured or as predicted."""
    return {key for key, c in sweep.cells.items()
            if c.get("pool_wait_p50_ms") is not None and c.get("predicted_pool_wait_p50_ms") is not None
            and max(c.get("pool_wait_p50_ms"), c.get("predicted_pool_wait_p50_ms")) >= QUEUE_FLOOR_MS}


def errors(sweep: Sweep) -> WaitErrors:
    points = queued_points(sweep)
    return WaitErrors(model_error(sweep, "pool_wait_p50_ms", "predicted_pool_wait_p50_ms", points),
                      model_error(sweep, only=points), model_error(sweep))


def groups(found: list[Sweep]) -> list[list[Sweep]]:
    """The sweeps of each mix (every runtime that ran it, C++ first) where some runtime measured waits."""
    by_mix = {}
    for sweep in found:
        if sweep.runtime != "app":
            by_mix.setdefault(sweep.mix, []).append(sweep)
    return [group for group in by_mix.values() if any(has_waits(s) for s in group)]


def _cell(sweep: Sweep, pool: int, cls: str, percentile: str, fmt) -> str:
    c = sweep.at(pool, cls)
    if c is None:
        return "–"
    measured = c.get(f"pool_wait_{percentile}_ms")
    return f"{fmt(measured)} ({fmt(c.get(f'predicted_pool_wait_{percentile}_ms'))})"


def rows(group: list[Sweep], percentile: str, fmt) -> list[list[str]]:
    """One row per class and pool size: class, pool, then "measured (model)" per runtime."""
    classes = list(dict.fromkeys(cls for s in group for cls in s.classes))
    sizes = sorted({pool for s in group for pool in s.sizes})
    return [[cls, str(pool), *(_cell(s, pool, cls, percentile, fmt) for s in group)] for cls in classes for pool in sizes]


def _percent(error: ModelError) -> str:
    return f"{error.median_abs:.0%}" if error.median_abs is not None else "–"


def error_rows(group: list[Sweep]) -> list[list[str]]:
    """Per runtime: the model's median error of the p50 wait where jobs waited, of the p50 latency at
    the same points, of the p50 latency everywhere; and how many points each is over."""
    out = []
    for sweep in group:
        e = errors(sweep)
        out.append([sweep.runtime, _percent(e.wait), _percent(e.latency), str(len(e.wait.points)),
                    _percent(e.overall), str(len(e.overall.points))])
    return out


def text(found: list[Sweep], fmt) -> list[str]:
    """What sweep-pool prints: per mix, the p50 waits of every runtime beside the model's, and the errors."""
    lines = []
    for group in groups(found):
        names = [s.runtime for s in group]
        lines.append(f"\npool wait (a job's first wait for a thread, p50 ms, model in brackets): "
                     f"mix {group[0].mix.as_command_line()}")
        lines += table.text(["class", *map(table.number, ["pool", *names])], rows(group, "p50", fmt)).splitlines()
        lines.append(f"model error (median absolute, p50) where a job waited at least {QUEUE_FLOOR_MS:g} ms: "
                     "pool wait / latency at the same points / latency everywhere")
        lines += [f"  {r[0]}: {r[1]} / {r[2]} over {r[3]} points / {r[4]} over {r[5]}" for r in error_rows(group)]
    return lines
