"""What the probe saw in one process over a window of time: the pool's queue wait (the canaries
submitted in the window), told apart into waiting for a thread and waiting for a core; the pool's
occupancy (occupancy.py); the loop's delay, with the part of it the program's own code explains, and
its utilisation; the machine's busy share; the program's requests. A canary still waiting when the
process ended counts with the wait it had by then, a lower bound, and is counted as such: a stuck
pool must read as a long wait, never as no data."""
import math
from dataclasses import dataclass

from .occupancy import Occupancy, occupancy, unreadable_why
from .trace import Trace

PERCENTILES = (("p50", 0.50), ("p95", 0.95), ("p99", 0.99))
LONG_TASK_MS = 50.0  # the loop ran this much of its own code between two firings: a long task (as the browser's)


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
    thread_wait: Spread | None        # each canary's wait where it found no thread idle, else 0; None: pool unreadable
    core_wait: Spread | None          # the waits of canaries that found a thread idle: they waited for a core
    delivery: Spread                  # started on a thread -> completion on the main thread
    loop_delay: Spread
    loop_own: Spread                  # the part of each delay the program's own code explains (below)
    long_task_ms: float               # the loop's own CPU in stretches of LONG_TASK_MS or more, summed
    least_own: tuple[float, float] | None  # (late, own) of the firing its own code explained least
    elu: float | None                 # the loop's utilisation over the window's periods
    pool: Occupancy | None            # libuv's pool: utilisation and queue length
    pool_unreadable: str | None       # why the pool could not be read, when it could not
    machine_busy: float | None        # the share of every core's time that was not idle
    requests_started: int | None      # the program's HTTP requests (None: it served none)
    request_ms: Spread                # how long they took inside the program

    @property
    def seconds(self) -> float:
        return (self.t1 - self.t0) / 1000

    @property
    def requests_per_s(self) -> float | None:
        return self.requests_started / self.seconds if self.requests_started and self.seconds > 0 else None


def own(late_ms: float, cpu_ms: float) -> float:
    """The part of a loop delay the program's own code explains. A timer fires late either because the
    program's code held the loop, or because the main thread did not get a core (a busy machine, or the
    program's own pool threads on every core). No more of the delay than the CPU time the main thread
    used since the firing before can be the program's: a 300 ms block used 300 ms of CPU; a timer 127
    ms late on a starved core, the 3 ms of code the loop really ran."""
    return min(late_ms, cpu_ms)


def _weighted(periods, t0: float, t1: float, value) -> float | None:
    pairs = [(value(p), min(p.t1, t1) - max(p.t0, t0)) for p in periods]
    pairs = [(v, w) for v, w in pairs if v is not None and w > 0]
    span = sum(w for _, w in pairs)
    return sum(v * w for v, w in pairs) / span if span > 0 else None


def window(trace: Trace, t0: float, t1: float) -> Window:
    """The figures of `trace` over [t0, t1] (CLOCK_MONOTONIC ms, as time.monotonic() * 1000)."""
    canaries = [c for c in trace.canaries if t0 <= c.submitted <= t1]
    ended = trace.ended_at
    pending = [(s, ended - s) for s in trace.pending() if t0 <= s <= t1] if ended is not None else []
    waits = [(c.submitted, c.wait) for c in canaries]
    # Canaries submitted before the addon had read libuv's pool (its first moments) say nothing of it.
    known = [(c, c.found_a_thread) for c in canaries if c.found_a_thread is not None]
    periods = [p for p in trace.periods if p.t1 > t0 and p.t0 < t1]
    loop = [(d, c) for p in periods for t, d, c in zip(p.loop_at, p.loop_delay, p.loop_cpu) if t0 <= t <= t1]
    requests = [p.requests for p in periods if p.requests and t0 <= (p.t0 + p.t1) / 2 <= t1]
    return Window(
        t0, t1, sorted(waits + pending), len(pending), Spread.of([w for _, w in waits + pending]),
        # A canary still waiting at the end waited for a thread: every one of them was busy.
        Spread.of([0.0 if f else c.wait for c, f in known] + [w for _, w in pending]) if known else None,
        Spread.of([c.wait for c, f in known if f]) if known else None,
        Spread.of([c.delivery for c in canaries]), Spread.of([d for d, _ in loop]), Spread.of([own(d, c) for d, c in loop]),
        sum(c for _, c in loop if c >= LONG_TASK_MS),
        min(((d, own(d, c)) for d, c in loop), key=lambda dc: dc[1] - dc[0], default=None),
        _weighted(periods, t0, t1, lambda p: p.elu), occupancy(periods, t0, t1), unreadable_why(periods),
        _weighted(periods, t0, t1, lambda p: p.machine_busy),
        sum(r.started for r in requests) if requests else None, Spread.of([ms for r in requests for ms in r.ms]))
