"""The doctor's thresholds and the comparison with them (verdict.py says what they mean); the
quantities compared are the Evidence."""
from dataclasses import dataclass, field

from ...probe.window import Window

LOOP_P50_MS = 10.0
LOOP_MAX_MS = 100.0
LONG_TASK_SHARE = 0.02
POOL_P50_MS = 10.0
POOL_P99_MS = 100.0
POOL_SHARE_OF_LATENCY = 0.10
MIN_WAIT_PER_REQUEST_MS = 1.0  # below this the pool's share of a fast request is noise, not saturation
QUEUE_OVER_WORK = 0.5  # without requests: jobs waited for a thread at least half as long as they ran


@dataclass(frozen=True)
class Evidence:
    """The quantities the verdict compares with its thresholds, and what they were compared with."""
    long_task_share: float
    per_request_ms: float | None   # the pool's queue per request (Little's law, or the canaries' mean)
    latency_ms: float | None       # the requests' median latency it is a share of
    requests_per_s: float | None
    queue_over_work: float | None  # jobs waiting for a thread / threads busy (Little: mean wait / mean run)

    @property
    def share(self) -> float | None:
        return self.per_request_ms / self.latency_ms if self.per_request_ms is not None and self.latency_ms else None


@dataclass
class Verdict:
    loop_blocked: bool
    pool_saturated: bool
    figures: list[str] = field(default_factory=list)  # the measurements behind it, one line each
    notes: list[str] = field(default_factory=list)    # what does not change the verdict but matters
    evidence: Evidence | None = None                  # what was compared with the thresholds

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


def evidence(w: Window, request_p50_ms: float | None, requests_per_s: float | None) -> Evidence:
    """With requests driven, their median latency and rate as sent; watched, as the probe saw them."""
    rate = requests_per_s or w.requests_per_s
    latency = request_p50_ms or w.request_ms.p50
    if w.pool is not None:
        per_request = w.pool.wait_per_request_ms(rate)
    else:  # libuv's pool unreadable: each request waits about one canary's mean (one pool job a request)
        per_request = w.wait.mean if latency else None
    over = w.pool.waiting / w.pool.busy if w.pool is not None and w.pool.busy > 0 else None
    return Evidence(w.long_task_ms / (w.seconds * 1000) if w.seconds > 0 else 0.0, per_request, latency, rate, over)


def judge(w: Window, e: Evidence) -> tuple[bool, bool]:
    """(loop blocked, pool saturated)."""
    own = w.loop_own
    blocked = (own.p50 or 0) >= LOOP_P50_MS or (own.max or 0) >= LOOP_MAX_MS or e.long_task_share >= LONG_TASK_SHARE
    waits = w.thread_wait if w.thread_wait is not None else w.wait
    saturated = ((waits.p50 or 0) >= POOL_P50_MS or (waits.p99 or 0) >= POOL_P99_MS
                 or (e.share is not None and e.share >= POOL_SHARE_OF_LATENCY
                     and e.per_request_ms >= MIN_WAIT_PER_REQUEST_MS)
                 or (e.per_request_ms is None and e.queue_over_work is not None and e.queue_over_work >= QUEUE_OVER_WORK))
    return blocked, saturated
