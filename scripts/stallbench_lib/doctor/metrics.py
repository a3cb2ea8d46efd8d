"""The doctor's rows (family `doctor`, benchmark `program`): what the probe saw over the verdict's
window, the requests' latency when stallbench drove them, and the verdict as two 0/1 counts, so a
nightly doctor run can be tracked and compared like any other run."""
from ..pool_sweep import app, app_probe
from ..parameters import Params
from ..tidy import Row
from .session import Session
from .rules import Verdict

FAMILY, BENCHMARK = "doctor", "program"
SHARED = ("queue_wait_p50_ms", "queue_wait_p99_ms", "queue_wait_max_ms", "queue_wait_mean_ms",
          "queue_thread_wait_p50_ms", "queue_thread_wait_p99_ms", "queue_thread_wait_mean_ms", "pool_utilization",
          "pool_jobs_waiting", "pool_wait_per_request_ms", "canaries", "canaries_still_waiting", "delivery_p99_ms",
          "loop_delay_p50_ms", "loop_delay_p99_ms", "loop_delay_max_ms", "loop_utilization")
DRIVEN = ("latency_p50_ms", "latency_p99_ms", "latency_max_ms", "throughput_per_s", "offered_per_s", "errors",
          "unfinished", "app_cpu_util", "service_alone_ms")
METRICS = {
    **{name: app_probe.METRICS[name] for name in SHARED},
    **{name: app.METRICS[name] for name in DRIVEN},
    "loop_own_p50_ms": ("ms", "lower", True, "the part of each loop delay the program's own code explains (no more "
                        "than the main thread's CPU time since the timer's previous firing): median; the blocked "
                        "verdict reads it"),
    "loop_own_max_ms": ("ms", "lower", True, "the same, the longest"),
    "loop_long_task_share": ("ratio", "lower", True, "the share of the time the loop ran 50 ms or more of its own code "
                             "between two firings of the timer (long tasks)"),
    "machine_busy": ("ratio", "lower", False, "the share of every core's time not idle, as the probe read /proc/stat"),
    "startup_ms": ("ms", "lower", False, "from the probe's start to the loop's first timer: the main module's run"),
    "verdict_loop_blocked": ("count", "lower", True, "1 when the verdict says the loop was blocked"),
    "verdict_pool_saturated": ("count", "lower", True, "1 when the verdict says the pool was saturated"),
}


def declarations() -> dict[str, dict]:
    return app.declarations(METRICS)


def rows(run_id: str, params: dict, session: Session, verdict: Verdict) -> list[Row]:
    w, evidence = session.window, verdict.evidence
    thread, pool = w.thread_wait, w.pool
    values = {
        "queue_wait_p50_ms": w.wait.p50, "queue_wait_p99_ms": w.wait.p99, "queue_wait_max_ms": w.wait.max,
        "queue_wait_mean_ms": w.wait.mean, "canaries": w.wait.count, "canaries_still_waiting": w.censored,
        "queue_thread_wait_p50_ms": thread and thread.p50, "queue_thread_wait_p99_ms": thread and thread.p99,
        "queue_thread_wait_mean_ms": thread and thread.mean, "pool_utilization": pool and pool.utilization,
        "pool_jobs_waiting": pool and pool.waiting, "pool_wait_per_request_ms": evidence.per_request_ms if pool else None,
        "delivery_p99_ms": w.delivery.p99, "loop_delay_p50_ms": w.loop_delay.p50,
        "loop_delay_p99_ms": w.loop_delay.p99, "loop_delay_max_ms": w.loop_delay.max, "loop_utilization": w.elu,
        "loop_own_p50_ms": w.loop_own.p50, "loop_own_max_ms": w.loop_own.max,
        "loop_long_task_share": evidence.long_task_share, "machine_busy": w.machine_busy,
        "startup_ms": session.measured.startup_ms,
        "verdict_loop_blocked": int(verdict.loop_blocked), "verdict_pool_saturated": int(verdict.pool_saturated),
    }
    if session.load:
        values.update({k: v for k, v in session.load.metrics.items() if k in DRIVEN})
        values["service_alone_ms"] = session.request_alone_ms
    key = Params(params)
    return [Row(run_id, FAMILY, BENCHMARK, key, 0, name, float(value), METRICS[name][0], "ok", "")
            for name, value in values.items() if value is not None]
