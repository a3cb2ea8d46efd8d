"""libuv's pool over a window, from the probe's samples of libuv's own counters at random instants
(workloads/probe/pool_occupancy.h): how many threads were busy with the program's jobs, and how many
of its jobs waited for a thread. Poisson samples see time averages, so these are the time-average
utilisation U and queue length L_q.

Little's law (L = λW, for any stable queue, whatever the distribution of arrivals and of service)
turns the queue length into waiting: the program's jobs waiting for a thread on average, L_q, is the
rate at which jobs arrive times the mean time each waits. Counted per request instead of per job,
L_q / (requests a second) is the time the pool's queue adds to each request in all, however many
jobs its work was split into: a zlib.gzip of 2 MiB runs as hundreds of short jobs, each waiting
briefly behind another request's, which a single canary's wait does not show but their sum does."""
from dataclasses import dataclass

from .trace import Period, PoolOccupancy


@dataclass(frozen=True)
class Occupancy:
    threads: int
    samples: int
    busy: float          # threads running a job, mean
    queued: float        # the program's jobs waiting, for a thread or for a core, mean
    waiting: float       # of them, waiting for a thread (beyond the idle threads), mean: L_q

    @property
    def utilization(self) -> float:
        return self.busy / self.threads if self.threads else 0.0

    def wait_per_request_ms(self, requests_per_s: float | None) -> float | None:
        """Little's law: the pool's queue's share of each request, L_q / λ (ms)."""
        return self.waiting * 1000 / requests_per_s if requests_per_s else None


HELD_BACK_JOBS = 1.0  # jobs waiting on average while threads sat idle: libuv held lookups back


def lookup_share(threads: int) -> int:
    """The threads libuv lets lookups (getaddrinfo, getnameinfo: its "slow I/O") hold at once."""
    return (threads + 1) // 2


def lookups_held_back(threads: int, busy: float, waiting: float) -> bool:
    """Jobs waited while threads sat idle, with the busy threads at the lookups' share: the queue was
    lookups libuv held back (workloads/probe/pool_queue.h), which more threads do shorten."""
    return (threads > 1 and waiting >= HELD_BACK_JOBS and threads - busy >= 0.5
            and abs(busy - lookup_share(threads)) <= 0.25)


def held_back_text(held: list[tuple[int, float, float]]) -> str:
    """The reason for pools (threads, busy, waiting) whose lookups were held back, in words."""
    at = ", ".join(f"pool {n}: {waiting:.1f} waiting, {busy:.1f} of {n} threads busy" for n, busy, waiting in held)
    return ("Jobs waited while threads sat idle (" + at + "): libuv lets lookups (dns.lookup, dns.lookupService) "
            "hold at most (N + 1) / 2 of a pool's N threads at once, so for them " +
            ", ".join(f"a pool of {n} is a pool of {lookup_share(n)}" for n, _, _ in held) + ".")


def _inside(p: Period, t0: float, t1: float) -> bool:
    """A period counts for a window when most of it lies inside (periods last about a second)."""
    return min(p.t1, t1) - max(p.t0, t0) >= (p.t1 - p.t0) / 2


def periods_with_pool(periods: list[Period], t0: float, t1: float) -> list[tuple[Period, PoolOccupancy]]:
    return [(p, p.pool) for p in periods if p.pool and p.pool.samples and _inside(p, t0, t1)]


def occupancy(periods: list[Period], t0: float, t1: float) -> Occupancy | None:
    """The sample-weighted means over the periods of [t0, t1]; None without samples."""
    found = [pool for _, pool in periods_with_pool(periods, t0, t1)]
    n = sum(x.samples for x in found)
    if not n:
        return None

    def mean(field: str) -> float:
        return sum(getattr(x, field) * x.samples for x in found) / n

    return Occupancy(max(x.threads for x in found), n, mean("busy"), mean("queued"), mean("waiting"))


def unreadable_why(periods: list[Period]) -> str | None:
    """Why libuv's pool could not be read in this process, when it could not."""
    return next((p.pool_unreadable for p in periods if p.pool_unreadable), None)
