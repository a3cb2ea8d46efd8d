"""The recommendation for your own program when the pool probe measured inside it how long pool work
waited for a thread. UV_THREADPOOL_SIZE changes that wait and nothing else (beyond more threads
sharing the cores), so the answer is the smallest size at which the wait no longer matters: below a
tenth of one request's latency alone, and never less than a millisecond. Request latency measured
from outside moves with everything else the machine does; the wait is the pool's own share of it.

Each size's mean wait has a 95% interval (probe/interval.py, seconds of the load resampled). A size
whose whole interval lies above the threshold waits for threads; one whose interval reaches below it
cannot be told apart from having enough, and the smaller size is preferred then: it is the one
recommended, and the reasons say so."""
from dataclasses import dataclass

from ..probe.interval import Interval, mean_interval
from ..report.stats import fmt
from .summary import Sweep

IMMATERIAL_SHARE = 0.10   # of one request's latency alone
IMMATERIAL_FLOOR_MS = 1.0
CLASS = "requests"


@dataclass(frozen=True)
class SizeWait:
    pool: int
    interval: Interval
    p99: float | None

    def waits(self, threshold_ms: float) -> bool:
        """Pool work certainly waited for threads: the whole interval is above the threshold."""
        return self.interval.low > threshold_ms

    def text(self) -> str:
        """'waited for a thread 5.7 ms on average (95% interval 4.8–6.7 ms; p99 35 ms)'"""
        iv = self.interval
        return (f"waited for a thread {_ms(iv.mean)} ms on average (95% interval {_ms(iv.low)}–{_ms(iv.high)} ms; "
                f"p99 {_ms(self.p99)} ms)")


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}" if value < 10 else f"{value:.0f}"


def threshold_ms(alone_ms: float | None) -> float:
    return max(IMMATERIAL_FLOOR_MS, IMMATERIAL_SHARE * (alone_ms or 0))


def measured(sweep: Sweep) -> list[SizeWait] | None:
    """Each size's wait, or None when some size has no probe samples (latency only, then)."""
    found = []
    for pool in sweep.sizes:
        cell = sweep.at(pool, CLASS)
        interval = mean_interval(cell.values.get("queue_wait_second_mean_ms", [])) if cell else None
        if interval is None:
            return None
        found.append(SizeWait(pool, interval, cell.get("queue_wait_p99_ms")))
    return found or None


def choose(waits: list[SizeWait], alone_ms: float | None, cores: int | None) -> tuple[int | None, list[str]]:
    """(the recommended size or None, the reasons in words)."""
    limit = threshold_ms(alone_ms)
    why_limit = (f"{fmt(limit, 1)} ms (a tenth of one request's latency alone, {fmt(alone_ms, 1)} ms)"
                 if limit > IMMATERIAL_FLOOR_MS else f"{fmt(limit, 1)} ms")
    enough = [w for w in waits if not w.waits(limit)]
    if not enough:
        last = waits[-1]
        return None, [f"Even at pool {last.pool} requests' pool work {last.text()}, above {why_limit}: none of "
                      "the sizes swept gives it enough threads; try larger ones."]
    chosen = enough[0]
    reasons = [f"At pool {w.pool} requests' pool work {w.text()}: too few threads."
               for w in waits if w.pool < chosen.pool]
    reasons.append(f"At pool {chosen.pool} it {chosen.text()}: the pool is no longer what requests wait for (a wait "
                   f"that matters is over {why_limit}).")
    if chosen.interval.high > limit:
        reasons.append(f"Pool {chosen.pool}'s interval reaches above {fmt(limit, 1)} ms too: it cannot be told apart "
                       "from too few threads on this machine, and the smaller size is preferred; --repetitions 3 or a "
                       "longer --duration narrows the interval.")
    alike = [w.pool for w in waits if w.pool > chosen.pool and not w.waits(limit)]
    if alike:
        sizes = ", ".join(str(p) for p in [chosen.pool, *alike])
        reasons.append(f"Pools {sizes} cannot be told apart by how long pool work waited (every interval reaches "
                       f"below {fmt(limit, 1)} ms): the smallest is recommended"
                       + (f"; more threads would only share the {cores} cores." if cores else "."))
    return chosen.pool, reasons
