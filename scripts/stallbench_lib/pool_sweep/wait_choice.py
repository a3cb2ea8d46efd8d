"""The recommendation for your own program when the pool probe measured inside it how long pool work
waited for a thread. UV_THREADPOOL_SIZE changes that wait and nothing else (beyond more threads
sharing the cores), so the answer is the smallest size at which the wait no longer matters. Request
latency measured from outside moves with everything else the machine does; the wait is the pool's
own share of it.

Even a pool with idle threads is not free: a request wakes a sleeping thread, and on a busy machine
that thread waits for a core (measured here: about a millisecond on average at every size once the
threads were plenty). More threads cannot remove that floor, so each size is compared with the
largest size swept, where the pool waits least: a size *waits for threads* when its mean wait is
above the largest size's by more than what matters, a tenth of one request's latency alone and never
less than a millisecond. The difference has a 95% interval (probe/interval.py: seconds of the load
resampled); only a difference whose whole interval lies above counts, so a size that cannot be told
apart from the largest is taken as having enough threads, and the smaller size is preferred then.
The largest size itself is judged against the same threshold on its own: when even it waits, no
size of the sweep is enough."""
from dataclasses import dataclass

from ..probe.interval import Interval, difference_interval, mean_interval
from ..report.stats import fmt
from .summary import Sweep

IMMATERIAL_SHARE = 0.10   # of one request's latency alone
IMMATERIAL_FLOOR_MS = 1.0
CLASS = "requests"


@dataclass(frozen=True)
class SizeWait:
    pool: int
    seconds: list[float]   # the mean wait of each second of the load, every repetition
    p99: float | None

    @property
    def interval(self) -> Interval:
        return mean_interval(self.seconds)

    def text(self) -> str:
        """'waited for a thread 5.7 ms on average (95% interval 4.8–6.7 ms; p99 35 ms)'"""
        iv = self.interval
        return (f"waited for a thread {_ms(iv.mean)} ms on average (95% interval {_ms(iv.low)}–{_ms(iv.high)} ms; "
                f"p99 {_ms(self.p99)} ms)")


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}" if abs(value) < 10 else f"{value:.0f}"


def threshold_ms(alone_ms: float | None) -> float:
    return max(IMMATERIAL_FLOOR_MS, IMMATERIAL_SHARE * (alone_ms or 0))


def measured(sweep: Sweep) -> list[SizeWait] | None:
    """Each size's wait, or None when some size has no probe samples (latency only, then)."""
    found = []
    for pool in sweep.sizes:
        cell = sweep.at(pool, CLASS)
        seconds = cell.values.get("queue_wait_second_mean_ms", []) if cell else []
        if not seconds:
            return None
        found.append(SizeWait(pool, seconds, cell.get("queue_wait_p99_ms")))
    return found or None


def choose(waits: list[SizeWait], alone_ms: float | None, cores: int | None) -> tuple[int | None, list[str]]:
    """(the recommended size or None, the reasons in words)."""
    limit = threshold_ms(alone_ms)
    why_limit = (f"{_ms(limit)} ms (a tenth of one request's latency alone, {fmt(alone_ms, 1)} ms)"
                 if limit > IMMATERIAL_FLOOR_MS else f"{_ms(limit)} ms")
    largest = waits[-1]
    if largest.interval.low > limit:
        return None, [f"Even at pool {largest.pool} requests' pool work {largest.text()}, above {why_limit}: none of "
                      "the sizes swept gives it enough threads; try larger ones."]
    above = {w.pool: difference_interval(w.seconds, largest.seconds) for w in waits}
    enough = [w for w in waits if above[w.pool].low <= limit]
    chosen = enough[0]
    reasons = [f"At pool {w.pool} requests' pool work {w.text()}, {_ms(above[w.pool].mean)} ms more than at pool "
               f"{largest.pool} (95% interval {_ms(above[w.pool].low)}–{_ms(above[w.pool].high)} ms): too few threads."
               for w in waits if w.pool < chosen.pool]
    reasons.append(f"At pool {chosen.pool} it {chosen.text()}: the pool is no longer what requests wait for (a wait "
                   f"that matters is {why_limit} more than with the most threads swept, pool {largest.pool}, where it "
                   f"{largest.text()}).")
    if chosen.pool != largest.pool and above[chosen.pool].high > limit:
        reasons.append(f"Pool {chosen.pool}'s interval reaches above that too: it cannot be told apart from too few "
                       "threads on this machine either, and the smaller size is preferred; --repetitions 3 or a longer "
                       "--duration narrows the interval.")
    alike = [w.pool for w in waits if w.pool > chosen.pool and above[w.pool].low <= limit]
    if alike:
        sizes = ", ".join(str(p) for p in [chosen.pool, *alike])
        reasons.append(f"Pools {sizes} cannot be told apart by how long pool work waited: the smallest is recommended"
                       + (f"; more threads would only share the {cores} cores." if cores else "."))
    return chosen.pool, reasons
