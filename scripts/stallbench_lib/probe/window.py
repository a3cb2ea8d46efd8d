"""What the probe saw in one process over a window of time: the pool's queue wait (the canaries
submitted in the window), the loop's delay and utilisation (the periods inside it). A canary still
waiting when the process ended counts with the wait it had by then, a lower bound, and is counted as
such: a stuck pool must read as a long wait, never as no data."""
import math
from dataclasses import dataclass

from .trace import Trace

PERCENTILES = (("p50", 0.50), ("p95", 0.95), ("p99", 0.99))


def nearest_rank(values: list[float], q: float) -> float | None:
    """The nearest-rank percentile (workloads/common/percentile.h's): a value that was measured."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


@dataclass(frozen=True)
class Spread:
    """Percentiles, max and mean of one quantity over a window (ms)."""
    count: int
    p50: float | None
    p95: float | None
    p99: float | None
    max: float | None
    mean: float | None

    @staticmethod
    def of(values: list[float]) -> "Spread":
        if not values:
            return Spread(0, None, None, None, None, None)
        return Spread(len(values), *(nearest_rank(values, q) for _, q in PERCENTILES), max(values),
                      sum(values) / len(values))


@dataclass(frozen=True)
class Window:
    t0: float
    t1: float
    waits: list[tuple[float, float]]  # (submitted, queue wait) of every canary submitted in the window
    censored: int                     # of those, still waiting when the process ended (wait: a lower bound)
    wait: Spread
    delivery: Spread                  # started on a thread -> completion on the main thread
    loop_delay: Spread
    loop_own: Spread                  # the part of each delay the program's own work explains (below)
    elu: float | None                 # the loop's utilisation over the window's periods

    @property
    def seconds(self) -> float:
        return (self.t1 - self.t0) / 1000


def window(trace: Trace, t0: float, t1: float) -> Window:
    """The figures of `trace` over [t0, t1] (CLOCK_MONOTONIC ms, as time.monotonic() * 1000)."""
    waits = [(c.submitted, c.wait) for c in trace.canaries if t0 <= c.submitted <= t1]
    ended = trace.ended_at
    pending = [(s, ended - s) for s in trace.pending() if t0 <= s <= t1] if ended is not None else []
    delivery = [c.delivery for c in trace.canaries if t0 <= c.submitted <= t1]
    periods = [p for p in trace.periods if p.t1 > t0 and p.t0 < t1]
    samples = [(d, a) for p in periods for t, d, a in zip(p.loop_at, p.loop_delay, p.loop_active) if t0 <= t <= t1]
    overlap = [(p, min(p.t1, t1) - max(p.t0, t0)) for p in periods]
    span = sum(o for _, o in overlap)
    elu = sum(p.elu * o for p, o in overlap) / span if span > 0 else None
    return Window(t0, t1, sorted(waits + pending), len(pending), Spread.of([w for _, w in waits + pending]),
                  Spread.of(delivery), Spread.of([d for d, _ in samples]), Spread.of([own(d, a) for d, a in samples]),
                  elu)


def own(delay_ms: float, active_ms: float) -> float:
    """The part of a loop delay the program's own work explains. A timer fires late either because
    the program's JavaScript held the loop, or because the process did not get a core while its loop
    slept (a shared, busy machine, or the program's own pool threads on every core). The probe says
    how long the loop was active between two firings, and no more of the delay than that can be the
    program's: a 300 ms block was 300 ms active; a timer 100 ms late on a starved core, ~1 ms."""
    return min(delay_ms, active_ms)
