"""The recommendation for your own program when the pool probe measured inside it how long pool work
waited for a thread. UV_THREADPOOL_SIZE changes that wait and nothing else (beyond more threads
sharing the cores), so the answer is the smallest size at which the wait no longer matters. Request
latency measured from outside moves with everything else the machine does; the wait is the pool's
own share of it.

Each size's wait is its typical second: the median over the seconds of the load of each second's
wait, with a 95% interval (probe/interval.py). A second's wait is, where libuv's pool could be read,
how long each request's pool work waited for threads in all by Little's law (the program's jobs
waiting for a thread on average, divided by the requests sent a second: probe/occupancy.py), which
counts work libuv splits into many short jobs (zlib, fs streams) in full; elsewhere, the canaries'
mean wait that second, which is one job's. Even a pool with idle threads is not free: a
request wakes a sleeping thread, and on a busy machine that thread waits for a core (measured here:
0.2-1 ms in a typical second at every size once threads were plenty). More threads cannot remove
that floor, so sizes are compared with each other, not with zero: a size *waits for threads* when
some larger size's typical wait is lower by more than what matters (a tenth of one request's latency
alone, never less than a millisecond) over the whole interval of the difference. A size that cannot
be told apart from the larger ones is taken as having enough threads, and the smaller size is
preferred then. The largest size swept has nothing to be compared with: it waits when its own
interval lies above the threshold, and then no size of the sweep is enough. And when the program
could not keep up with the rate at any size (it answered less than 95% of it, or left more than 1%
unanswered), its pool work waits because every job waits for a core, not for a thread: no pool size
is the answer, and the reasons say so rather than suggest larger pools; unless the busy threads
spent at least half their time neither on a core nor waiting for one (the program's CPU and
run-queue time against libuv's busy threads; where the kernel keeps no run-queue time, the machine's
cores under 90% busy): then the jobs waited for threads held by I/O (a lookup holds a thread on a
socket), which more threads do shorten, and the reasons say to try larger sizes. When it kept up at some sizes
only, those it did not keep up at are never the answer, and are left out of the comparisons: their
wait, measured over the requests they did answer, understates what the rate asked of them."""
from dataclasses import dataclass

from ...probe.interval import Interval, difference_interval, median_interval
from ...probe.occupancy import held_back_text, lookups_held_back
from ...rendering.stats import fmt
from .summary import Sweep

IMMATERIAL_SHARE = 0.10   # of one request's latency alone
IMMATERIAL_FLOOR_MS = 1.0
KEPT_UP_SHARE = 0.95       # of the offered rate answered: the program kept up with the load
MAX_UNFINISHED_SHARE = 0.01
CORES_SATURATED = 0.90     # of every core's time busy: below it, a job that waited did not wait for a core
IO_SHARE = 0.5             # of the busy threads' time neither on a core nor waiting for one: they waited for I/O
CLASS = "requests"


PER_REQUEST, PER_JOB = "pool_wait_per_request_second_ms", "queue_wait_second_mean_ms"  # the seconds' series


@dataclass(frozen=True)
class SizeWait:
    pool: int
    seconds: list[float]   # the wait of each second of the load, every repetition
    mean: float | None     # over the load
    p99: float | None      # of the canaries
    answered_per_s: float = 0
    offered_per_s: float = 0
    unfinished_share: float = 0
    per_request: bool = False  # the seconds are Little's law per request, not one canary's wait
    machine_busy: float | None = None  # the share of every core's time the whole machine used meanwhile
    busy_threads: float | None = None  # libuv's threads busy with the program's jobs, on average
    cpu_util: float | None = None      # the program's CPU time / (time x cores)
    core_wait_threads: float | None = None  # the program's threads waiting for a core, on average
    jobs_waiting: float | None = None  # the program's jobs waiting for a thread, on average

    @property
    def kept_up(self) -> bool:
        return (self.answered_per_s >= KEPT_UP_SHARE * self.offered_per_s
                and self.unfinished_share <= MAX_UNFINISHED_SHARE)

    @property
    def interval(self) -> Interval:
        return median_interval(self.seconds)

    def text(self) -> str:
        """'waited for a thread 5.7 ms in a typical second (95% interval 4.8–6.7 ms; mean 9.1 ms, p99 35 ms)';
        per request: 'waited for threads 212 ms per request in a typical second (...; mean 230 ms)'."""
        iv = self.interval
        if self.per_request:
            return (f"waited for threads {_ms(iv.value)} ms per request in a typical second (Little's law; 95% "
                    f"interval {_ms(iv.low)}–{_ms(iv.high)} ms; mean {_ms(self.mean)} ms)")
        return (f"waited for a thread {_ms(iv.value)} ms in a typical second (95% interval {_ms(iv.low)}–"
                f"{_ms(iv.high)} ms; mean {_ms(self.mean)} ms, p99 {_ms(self.p99)} ms)")


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}" if abs(value) < 10 else f"{value:.0f}"


def threshold_ms(alone_ms: float | None) -> float:
    return max(IMMATERIAL_FLOOR_MS, IMMATERIAL_SHARE * (alone_ms or 0))


def measured(sweep: Sweep) -> list[SizeWait] | None:
    """Each size's wait, or None when some size has no probe samples (latency only, then). Per request
    (Little's law) when every size has it, else every size per job (the canaries): one measure throughout."""
    cells = [sweep.at(pool, CLASS) for pool in sweep.sizes]
    if not cells or any(c is None or not c.values.get(PER_JOB) for c in cells):
        return None
    per_request = all(c.values.get(PER_REQUEST) for c in cells)
    found = []
    for pool, cell in zip(sweep.sizes, cells):
        done, unfinished = cell.get("completed") or 0, cell.get("unfinished") or 0
        mean = cell.get("pool_wait_per_request_ms" if per_request else "queue_wait_mean_ms")
        per_size, busy = sweep.per_size.get(pool, {}), cell.get("pool_utilization")
        found.append(SizeWait(pool, cell.values[PER_REQUEST if per_request else PER_JOB], mean,
                              cell.get("queue_wait_p99_ms"), cell.get("throughput_per_s") or 0,
                              cell.get("offered_per_s") or 0, unfinished / (done + unfinished) if done + unfinished else 0,
                              per_request, per_size.get("machine_cpu_util"),
                              None if busy is None else busy * pool, per_size.get("cpu_util"),
                              per_size.get("core_wait_threads"), cell.get("pool_jobs_waiting")))
    return found


def _better_by(waits: list[SizeWait], w: SizeWait, limit: float) -> tuple[SizeWait, Interval] | None:
    """The larger size whose typical wait is certainly lower than w's by more than `limit`, the one
    with the largest such difference; None when there is none."""
    found = [(other, difference_interval(w.seconds, other.seconds)) for other in waits if other.pool > w.pool]
    found = [(other, d) for other, d in found if d.low > limit]
    return max(found, key=lambda od: od[1].low) if found else None


def slow_io_note(waits: list[SizeWait]) -> str | None:
    """A reason when, at some size, jobs queued while threads sat idle with the busy threads at the
    lookups' share: lookups libuv held back."""
    held = [(w.pool, w.busy_threads, w.jobs_waiting) for w in waits if w.busy_threads is not None
            and w.jobs_waiting is not None and lookups_held_back(w.pool, w.busy_threads, w.jobs_waiting)]
    return held_back_text(held) if held else None


def _threads_off_core(w: SizeWait, cores: int | None) -> str | None:
    """How we know that w's busy threads mostly neither ran nor waited for a core (they waited for
    I/O, so a job that waited for one of them waited for a thread, not a core), in words; None when
    they did not or it is not known. The program's CPU time and run-queue time (schedstat) count every
    thread of it, the main thread too, so what is left of the busy threads' time is at least that."""
    if w.busy_threads and cores and w.cpu_util is not None and w.core_wait_threads is not None:
        on_core = w.cpu_util * cores + w.core_wait_threads
        if w.busy_threads - on_core >= IO_SHARE * w.busy_threads:
            return (f"its pool's threads were busy {w.busy_threads:.1f} at a time on average, while all its threads "
                    f"together ran on {w.cpu_util * cores:.2f} cores and {w.core_wait_threads:.2f} waited for one")
        return None
    if w.machine_busy is not None and w.machine_busy < CORES_SATURATED:
        return f"the machine's cores were only {w.machine_busy:.0%} busy"
    return None


def choose(waits: list[SizeWait], alone_ms: float | None, cores: int | None) -> tuple[int | None, list[str]]:
    """(the recommended size or None, the reasons in words)."""
    limit = threshold_ms(alone_ms)
    why_limit = (f"{_ms(limit)} ms (a tenth of one request's latency alone, {fmt(alone_ms, 1)} ms)"
                 if limit > IMMATERIAL_FLOOR_MS else f"{_ms(limit)} ms")
    largest = waits[-1]
    if not any(w.kept_up for w in waits):
        best = max(waits, key=lambda w: w.answered_per_s)
        fell_short = (f"The program could not keep up with the load at any size: at best, pool {best.pool}, it answered "
                      f"{best.answered_per_s:.1f} of {best.offered_per_s:.1f} requests a second, and its pool work "
                      f"{best.text()}.")
        off_core = _threads_off_core(best, cores)
        if off_core and best.interval.low > limit:
            return None, [fell_short + f" Yet {off_core}: the jobs waited for threads, not cores, as jobs that wait "
                          "for I/O do (a dns.lookup, a slow disk: each holds a thread without using a core). Try "
                          "larger sizes."]
        return None, [fell_short + " Every job waited for a core, not for a thread: more threads cannot help; a lower "
                      "rate, less work per request or more cores can."]
    if largest.interval.low > limit:
        return None, [f"Even at pool {largest.pool} requests' pool work {largest.text()}, above {why_limit}: none of "
                      "the sizes swept gives it enough threads; try larger ones."]
    reasons, chosen = [], None
    for w in waits:
        if not w.kept_up:  # some size kept up: this one had too few threads for the rate, whatever its wait
            reasons.append(f"At pool {w.pool} the program could not keep up with the load (it answered "
                           f"{w.answered_per_s:.1f} of {w.offered_per_s:.1f} requests a second, "
                           f"{w.unfinished_share:.0%} unanswered) where a larger size did: too few threads.")
            continue
        better = _better_by([other for other in waits if other.kept_up], w, limit)
        if better is None:
            chosen = w
            break
        other, d = better
        reasons.append(f"At pool {w.pool} requests' pool work {w.text()}: {_ms(d.value)} ms more than at pool "
                       f"{other.pool} (95% interval {_ms(d.low)}–{_ms(d.high)} ms), too few threads.")
    alike = [w for w in waits if w.pool > chosen.pool and w.kept_up]
    reasons.append(f"At pool {chosen.pool} it {chosen.text()}: no larger size swept is certainly better by more than "
                   f"{why_limit}, so the pool is no longer what requests wait for.")
    near = [w for w in alike if difference_interval(chosen.seconds, w.seconds).high > limit]
    if near:
        reasons.append(f"Pool {chosen.pool} cannot be told apart from too few threads on this machine either (against "
                       f"pool {near[0].pool} the difference's interval reaches above {_ms(limit)} ms): the smaller size "
                       "is preferred; more --repetitions or a longer --duration narrows the intervals.")
    if alike:
        sizes = ", ".join(str(p) for p in [chosen.pool, *(w.pool for w in alike)])
        reasons.append(f"Pools {sizes} cannot be told apart by how long pool work waited: the smallest is recommended"
                       + (f"; a larger pool costs memory, and its threads running CPU work would share the same {cores} "
                          "cores." if cores else "."))
    return chosen.pool, reasons
