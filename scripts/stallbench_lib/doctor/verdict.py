"""The doctor's verdict on a program, from what the pool probe saw over a window:

- **loop blocked** when the loop ran late by a median of at least 10 ms or by 100 ms or more at its
  worst: clinic.js doctor's thresholds, on the same measure (how late a 10 ms timer fires). Only the
  part of a delay the loop's own work explains counts (probe/window.py, `own`): a sleeping loop is
  also late when the process does not get a core (a busy machine, or the program's own pool threads
  on every core), and that is not JavaScript holding the loop; it is said apart.
- **pool saturated** when pool work waited for a thread a median of at least 10 ms or 100 ms or more
  at p99 (the same scale: a request that waits that long for a thread is as late as a blocked loop
  would make it), or, with requests driven, when the mean wait is at least a tenth of the requests'
  median latency (the pool's share of what users wait).
- **both**, or **neither**."""
from dataclasses import dataclass, field

from ..probe.window import Window
from ..report.stats import fmt

LOOP_P50_MS = 10.0
LOOP_MAX_MS = 100.0
POOL_P50_MS = 10.0
POOL_P99_MS = 100.0
POOL_SHARE_OF_LATENCY = 0.10


@dataclass
class Verdict:
    loop_blocked: bool
    pool_saturated: bool
    figures: list[str] = field(default_factory=list)  # the measurements behind it, one line each
    notes: list[str] = field(default_factory=list)    # what does not change the verdict but matters

    @property
    def headline(self) -> str:
        if self.loop_blocked and self.pool_saturated:
            return "both: the event loop was blocked and the thread pool saturated"
        if self.loop_blocked:
            return "loop blocked: JavaScript held the event loop"
        if self.pool_saturated:
            return "pool saturated: pool work waited for a thread"
        return "neither: the loop kept up and pool work found a free thread"

    @property
    def word(self) -> str:
        return ("both" if self.loop_blocked and self.pool_saturated else "loop blocked" if self.loop_blocked
                else "pool saturated" if self.pool_saturated else "neither")


BUSY_MACHINE = 0.9  # of every core: the pool's threads may be waiting for cores rather than work for threads


def diagnose(w: Window, request_p50_ms: float | None = None, machine_cpu_util: float | None = None) -> Verdict:
    """The verdict over window `w`; `request_p50_ms` when stallbench drove requests meanwhile;
    `machine_cpu_util` how busy the whole machine was meanwhile."""
    loop, own, wait = w.loop_delay, w.loop_own, w.wait
    blocked = (own.p50 or 0) >= LOOP_P50_MS or (own.max or 0) >= LOOP_MAX_MS
    share = (wait.mean / request_p50_ms) if request_p50_ms and wait.mean is not None else None
    saturated = ((wait.p50 or 0) >= POOL_P50_MS or (wait.p99 or 0) >= POOL_P99_MS
                 or (share is not None and share >= POOL_SHARE_OF_LATENCY and wait.mean >= 1.0))
    v = Verdict(blocked, saturated)
    use = f"; loop utilisation {w.elu:.0%}" if w.elu is not None else ""
    v.figures.append(f"loop delay held by the program: median {fmt(own.p50, 1)} ms, p99 {fmt(own.p99, 1)} ms, worst "
                     f"{fmt(own.max, 1)} ms ({own.count} samples; blocked: median ≥ {LOOP_P50_MS:g} ms or worst ≥ "
                     f"{LOOP_MAX_MS:g} ms){use}")
    v.figures.append(f"pool queue wait: median {fmt(wait.p50, 2)} ms, p99 {fmt(wait.p99, 1)} ms, worst "
                     f"{fmt(wait.max, 1)} ms, mean {fmt(wait.mean, 2)} ms ({wait.count} canaries; saturated: median "
                     f"≥ {POOL_P50_MS:g} ms or p99 ≥ {POOL_P99_MS:g} ms"
                     + (f", or a mean ≥ {POOL_SHARE_OF_LATENCY:.0%} of the requests' median latency: here "
                        f"{share:.0%} of {fmt(request_p50_ms, 1)} ms" if share is not None else "") + ")")
    if (loop.max or 0) - (own.max or 0) >= LOOP_MAX_MS / 2:
        v.notes.append(f"The loop was up to {fmt(loop.max, 0)} ms late while it had little to do: the process did not "
                       "get a core (other work on the machine, or the program's own pool threads on every core).")
    if saturated and machine_cpu_util is not None and machine_cpu_util >= BUSY_MACHINE:
        v.notes.append(f"The machine's cores were {machine_cpu_util:.0%} busy meanwhile: the pool's threads may have "
                       "waited for cores as much as the work waited for threads, and then more threads only share the "
                       "same cores. The sweep below tells which: it includes a smaller size.")
    if w.censored:
        v.notes.append(f"{w.censored} canaries were still waiting for a thread at the end: their waits count as "
                       "what they were then, so the pool's figures are lower bounds.")
    return v


def next_step(v: Verdict, command: str, url: str | None, rate: float | None, pool: int, cores: int | None) -> str:
    """What to do next, as a command line where there is one."""
    if v.loop_blocked:
        return ("Unblock the loop first: a larger pool cannot help JavaScript that holds the main thread. Move the "
                "long synchronous work to a worker thread or cut it into chunks that yield (the `report` family "
                "measures the three ways side by side); then run the doctor again.")
    if v.pool_saturated:
        sizes = sorted({max(1, pool // 2), pool, *(min(1024, pool * k) for k in (2, 4)), *((cores,) if cores else ())})
        target = (f"--url {url} --rate {rate:g}" if url and rate else "--url http://127.0.0.1:PORT/PATH --rate R")
        return (f"Find the pool size that stops the wait: scripts/stallbench sweep-pool --app {_quoted(command)} "
                f"{target} --sizes {','.join(str(s) for s in sizes)}")
    return ("Nothing to tune at this load. To find the load where the loop or the pool starts to hold requests up, "
            "run the doctor again at a higher --rate, or sweep rates and sizes with scripts/stallbench sweep-pool --app.")


def _quoted(command: str) -> str:
    return "'" + command.replace("'", "'\\''") + "'"
