"""What the pool probe (workloads/probe/) saw inside the program while one pool size was under load:
how long pool work waited for a thread (the canaries submitted during the load), how busy libuv's
threads were and how many of the program's jobs waited for one (and by Little's law how long each
request's pool work waited in all, at the rate sent), how late the loop ran and how busy it was. The program may be several Node processes (a wrapper such as `npm start`
and the server it starts): the one measured is the busiest, the highest event-loop utilisation
during the load."""
from collections import defaultdict
from pathlib import Path

from ..probe import trace as probe_trace
from ..probe.occupancy import periods_with_pool
from ..probe.window import Window, window


def busiest(traces: dict[int, probe_trace.Trace], t0: float, t1: float) -> tuple[probe_trace.Trace, Window] | None:
    """The Node process of the program that worked hardest during [t0, t1], with its window."""
    seen = [(trace, window(trace, t0, t1)) for trace in traces.values()]
    seen = [(t, w) for t, w in seen if w.wait.count]
    return max(seen, key=lambda tw: tw[1].elu or 0.0) if seen else None


def per_second_means(w: Window) -> list[float]:
    seconds = defaultdict(list)
    for submitted, wait in w.waits:
        seconds[int((submitted - w.t0) // 1000)].append(wait)
    return [sum(v) / len(v) for _, v in sorted(seconds.items())]


def per_request_second_ms(trace: probe_trace.Trace, t0: float, t1: float, rate: float) -> list[float]:
    """Little's law per period (about a second) of the load: each one's jobs waiting for a thread / the rate."""
    return [pool.waiting * 1000 / rate for _, pool in periods_with_pool(trace.periods, t0, t1)]


def metrics(path: Path, t0: float, t1: float, rate: float) -> tuple[dict[str, float], dict[str, list[float]], str]:
    """(single-valued metrics, series metrics, which process was measured) over [t0, t1] while requests
    were sent at `rate` a second; empty with the reason when no Node process of the program loaded the
    probe."""
    found = busiest(probe_trace.read(path), t0, t1) if path.exists() else None
    if found is None:
        return {}, {}, "no Node process of the program loaded the probe during the load"
    trace, w = found
    single = {
        "queue_wait_p50_ms": w.wait.p50, "queue_wait_p95_ms": w.wait.p95, "queue_wait_p99_ms": w.wait.p99,
        "queue_wait_max_ms": w.wait.max, "queue_wait_mean_ms": w.wait.mean, "canaries": w.wait.count,
        "canaries_still_waiting": w.censored, "delivery_p99_ms": w.delivery.p99,
        "loop_delay_p50_ms": w.loop_delay.p50, "loop_delay_p99_ms": w.loop_delay.p99,
        "loop_delay_max_ms": w.loop_delay.max, "loop_utilization": w.elu,
    }
    series = {"queue_wait_second_mean_ms": per_second_means(w)}
    if w.thread_wait is not None:
        single.update(queue_thread_wait_p50_ms=w.thread_wait.p50, queue_thread_wait_p99_ms=w.thread_wait.p99,
                      queue_thread_wait_mean_ms=w.thread_wait.mean)
    if w.pool is not None:
        single.update(pool_utilization=w.pool.utilization, pool_jobs_waiting=w.pool.waiting,
                      pool_wait_per_request_ms=w.pool.wait_per_request_ms(rate))
        series["pool_wait_per_request_second_ms"] = per_request_second_ms(trace, t0, t1, rate)
    return ({k: float(v) for k, v in single.items() if v is not None}, series,
            f"pid {trace.pid} ({trace.node}: {trace.command})")
