"""The doctor's verdict in words: the figures behind it, one line each, with the thresholds they were
compared with; and the notes that do not change it but say what a figure does not (a loop late
because its thread waited for a core, canaries that waited for a core with a thread free, lookups
libuv held back while threads sat idle, a pool that could not be read)."""
from ...probe.occupancy import held_back_text, lookups_held_back
from ...probe.window import LONG_TASK_MS, Window
from ...rendering.stats import fmt
from .rules import (LOOP_MAX_MS, LOOP_P50_MS, LONG_TASK_SHARE, POOL_P50_MS, POOL_P99_MS, POOL_SHARE_OF_LATENCY,
                    QUEUE_OVER_WORK, Evidence, Verdict)

BUSY_MACHINE = 0.9  # of every core: the pool's threads waited for cores as well as the work for threads
MACHINE_HELD_MS = 50.0  # a loop this much later than its own code explains: said, as the machine's doing


def _loop(w: Window, e: Evidence) -> str:
    own = w.loop_own
    use = f"; loop utilisation {w.elu:.0%}" if w.elu is not None else ""
    return (f"loop delay held by the program's own code: median {fmt(own.p50, 1)} ms, p99 {fmt(own.p99, 1)} ms, "
            f"worst {fmt(own.max, 1)} ms ({own.count} samples); long tasks (≥ {LONG_TASK_MS:g} ms of its own code "
            f"between two firings) {e.long_task_share:.1%} of the time (blocked: median ≥ {LOOP_P50_MS:g} ms, worst ≥ "
            f"{LOOP_MAX_MS:g} ms or long tasks ≥ {LONG_TASK_SHARE:.0%} of the time){use}")


def _thread_waits(w: Window) -> str:
    waits = w.thread_wait if w.thread_wait is not None else w.wait
    what = ("pool work waited for a thread (a canary that found a thread idle waited for none)"
            if w.thread_wait is not None else "pool queue wait")
    busy = ""
    if w.thread_wait is not None and w.wait.count:
        busy = f", {1 - w.core_wait.count / w.wait.count:.0%} of them found every thread busy"
    return (f"{what}: median {fmt(waits.p50, 2)} ms, p99 {fmt(waits.p99, 1)} ms, worst {fmt(waits.max, 1)} ms, mean "
            f"{fmt(waits.mean, 2)} ms ({w.wait.count} canaries{busy}; saturated: median ≥ {POOL_P50_MS:g} ms or p99 ≥ "
            f"{POOL_P99_MS:g} ms)")


def _queue(w: Window, e: Evidence) -> str | None:
    if w.pool is None:
        if e.share is None:
            return None
        return (f"the canaries' mean wait, {fmt(e.per_request_ms, 2)} ms, is {e.share:.0%} of the requests' median "
                f"latency {fmt(e.latency_ms, 1)} ms (saturated: ≥ {POOL_SHARE_OF_LATENCY:.0%})")
    p = w.pool
    line = (f"the pool's {p.threads} thread{'s' if p.threads != 1 else ''} {'were' if p.threads != 1 else 'was'} "
            f"{p.utilization:.0%} busy with the program's jobs; on average "
            f"{p.waiting:.2f} of its jobs waited for a thread")
    if e.per_request_ms is None:
        over = f"{e.queue_over_work:.2f}" if e.queue_over_work is not None else "–"
        return line + (f"; no requests seen, so per job: they waited {over} times as long as they ran (saturated: ≥ "
                       f"{QUEUE_OVER_WORK:g})")
    share = (f", {e.share:.0%} of the requests' median latency {fmt(e.latency_ms, 1)} ms (saturated: ≥ "
             f"{POOL_SHARE_OF_LATENCY:.0%})" if e.share is not None else "")
    return line + (f": by Little's law {fmt(e.per_request_ms, 1)} ms of waiting per request at "
                   f"{e.requests_per_s:.3g} requests/s{share}")


def figures(w: Window, e: Evidence) -> list[str]:
    return [line for line in (_loop(w, e), _thread_waits(w), _queue(w, e)) if line]


def notes(w: Window, v: Verdict, machine_cpu_util: float | None) -> list[str]:
    out = []
    busy = machine_cpu_util if machine_cpu_util is not None else w.machine_busy
    machine = f" (the machine's cores were {busy:.0%} busy)" if busy is not None else ""
    if w.least_own and w.least_own[0] - w.least_own[1] >= MACHINE_HELD_MS:
        late, held = w.least_own
        out.append(f"The loop was delayed {late:.0f} ms but ran only {held:.0f} ms of its own code meanwhile: the "
                   f"main thread waited for a core the rest of the time{machine}"
                   + (": not JavaScript holding the loop." if not v.loop_blocked else "."))
    if w.core_wait is not None and w.core_wait.count and (w.core_wait.p99 or 0) >= 1.0:
        out.append(f"Canaries that found a thread idle still waited a median of {fmt(w.core_wait.p50, 2)} ms (p99 "
                   f"{fmt(w.core_wait.p99, 1)} ms) for the thread to get a core{machine}: a wait for a core, which "
                   "more threads cannot shorten.")
    if v.pool_saturated and busy is not None and busy >= BUSY_MACHINE:
        out.append(f"The machine's cores were {busy:.0%} busy meanwhile: the pool's threads were busy with the "
                   "program's own jobs; jobs that run on the CPU also waited for cores, which more threads only share "
                   "(jobs that wait for I/O do not): the sweep below tells whether more threads shorten the wait on "
                   "this machine.")
    if w.pool is not None and lookups_held_back(w.pool.threads, w.pool.busy, w.pool.waiting):
        out.append(held_back_text([(w.pool.threads, w.pool.busy, w.pool.waiting)]))
    if w.pool is None:
        out.append(f"libuv's pool could not be read in this Node ({w.pool_unreadable or 'no samples'}): a wait for a "
                   "thread cannot be told from a wait for a core here, and the canaries' waits count as they are.")
    if w.censored:
        out.append(f"{w.censored} canaries were still waiting for a thread at the end: their waits count as "
                   "what they were then, so the pool's figures are lower bounds.")
    return out
