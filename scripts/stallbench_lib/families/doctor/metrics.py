"""The doctor's rows (family `doctor`, benchmark `program`, declared in benches/doctor.cc): what the
probe saw over the verdict's window, the requests' latency when stallbench drove them, and the verdict
as two 0/1 counts, so a nightly doctor run can be tracked and compared like any other run."""
from ...parameters import Params
from ...tidy import Row
from .session import Session
from .rules import Verdict

FAMILY, BENCHMARK = "doctor", "program"


def rows(run_id: str, units: dict[str, str], params: dict, session: Session, verdict: Verdict) -> list[Row]:
    """The declared metrics (`units`: name -> unit) the session measured."""
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
        values.update({k: v for k, v in session.load.metrics.items() if k in units})
        values["service_alone_ms"] = session.request_alone_ms
    key = Params(params)
    return [Row(run_id, FAMILY, BENCHMARK, key, 0, name, float(value), units[name], "ok", "")
            for name, value in values.items() if value is not None]
