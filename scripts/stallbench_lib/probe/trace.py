"""The probe's JSON lines (workloads/probe/probe.cjs) read back, one Trace per Node process that
loaded it. A line cut short by a SIGKILL (the last one) is left out; a record of another format
version stops with one line, as does a file that is not the probe's."""
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UsageError
from ..documents import json_loads

FORMAT = 3  # probe.cjs's FORMAT: bump both when a field changes meaning


@dataclass(frozen=True)
class Canary:
    submitted: float  # CLOCK_MONOTONIC ms
    wait: float       # submitted -> its no-op started on a pool thread
    delivery: float   # started -> its completion ran on the main thread
    idle_threads: float | None = None  # the pool when it was submitted (None: libuv's pool unreadable)
    jobs_ahead: float | None = None

    @property
    def found_a_thread(self) -> bool | None:
        """Whether a thread was idle for it when it was submitted (more idle threads than jobs ahead
        of it): then whatever it waited, it waited for a core. None when the pool was not readable."""
        if self.idle_threads is None or self.jobs_ahead is None:
            return None
        return self.idle_threads > self.jobs_ahead


@dataclass(frozen=True)
class PoolOccupancy:
    """libuv's pool over one period, from the addon's samples at random instants: means."""
    samples: int
    threads: int
    busy: float      # threads running a job
    queued: float    # the program's jobs waiting, for a thread or for a core
    waiting: float   # of them, waiting for a thread (beyond the idle threads)


@dataclass(frozen=True)
class Requests:
    """The program's HTTP requests that started in one period, and how long each finished one took
    inside the program (start to the end of its response)."""
    started: int
    ms: list[float]


@dataclass(frozen=True)
class Period:
    t0: float
    t1: float
    loop_at: list[float]      # when each 10 ms timer fired
    loop_delay: list[float]   # how late it fired (ms beyond the interval)
    loop_cpu: list[float]     # the main thread's CPU time since the firing before
    elu: float
    uv: dict | None          # performance.nodeTiming.uvMetricsInfo, cumulative
    outstanding: int
    oldest_outstanding_ms: float | None
    pool: PoolOccupancy | None = None
    pool_unreadable: str | None = None  # why libuv's pool could not be read
    machine_busy: float | None = None   # the share of every core's time not idle
    requests: Requests | None = None


@dataclass
class Trace:
    pid: int
    start: dict
    canaries: list[Canary] = field(default_factory=list)
    periods: list[Period] = field(default_factory=list)
    end: dict | None = None
    startup_ms: float | None = None  # probe start to the loop's first timer: the main module's run

    @property
    def command(self) -> str:
        return " ".join(self.start.get("argv", [])[1:]) or "node"

    @property
    def short_command(self) -> str:
        """The command with its script's folder left out, for a title."""
        words = self.start.get("argv", [])[1:]
        return " ".join([Path(words[0]).name, *words[1:]]) if words else "node"

    @property
    def node(self) -> str:
        return self.start.get("node", "?")

    def pending(self) -> list[float]:
        """When each canary still out at the end was submitted (none when the process was killed)."""
        return list(self.end.get("pending_submitted_ms", [])) if self.end else []

    @property
    def ended_at(self) -> float | None:
        if self.end:
            return self.end["t"]
        return self.periods[-1].t1 if self.periods else None


def _record(line: str, where: str) -> dict | None:
    try:
        record = json_loads(line)
    except ValueError:
        return None  # the last line, cut short by a SIGKILL
    if not isinstance(record, dict) or "pid" not in record or "type" not in record:
        raise UsageError(f"{where}: not the pool probe's output (a line without pid and type)")
    return record


def _period(record: dict) -> Period:
    loop, pool, requests = record["loop_delay_ms"], record.get("pool"), record.get("requests")
    return Period(record["t0"], record["t1"], [s[0] for s in loop], [s[1] for s in loop], [s[2] for s in loop],
                  record["elu"], record.get("uv"), record["outstanding"], record.get("oldest_outstanding_ms"),
                  PoolOccupancy(int(pool["samples"]), int(pool["threads"]), pool["busy"], pool["queued"],
                                pool["waiting"]) if pool else None,
                  record.get("pool_unreadable"), record.get("machine_busy"),
                  Requests(requests["started"], requests["ms"]) if requests else None)


def read(path: Path) -> dict[int, Trace]:
    """pid -> its Trace, in the order the processes started."""
    traces: dict[int, Trace] = {}
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise UsageError(f"{path}: cannot read the probe's samples ({e.strerror})") from None
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        record = _record(line, f"{path}:{number}")
        if record is None:
            continue
        kind, pid = record["type"], record["pid"]
        if kind == "start":
            if record.get("format") != FORMAT:
                raise UsageError(f"{path}:{number}: probe format {record.get('format')} is not {FORMAT}, the one "
                                 "this command reads: use the probe of the same stallbench build")
            traces[pid] = Trace(pid, record)
            continue
        trace = traces.get(pid)
        if trace is None:
            continue  # its start line was written before this file was (another run appending)
        if kind == "canaries":
            trace.canaries += [Canary(*sample) for sample in record["samples"]]
        elif kind == "period":
            trace.periods.append(_period(record))
        elif kind == "end":
            trace.end = record
        elif kind == "startup":
            trace.startup_ms = record["startup_ms"]
    return traces


class Tail:
    """The probe's file read as it grows, for a line of progress: what came since the last call."""

    def __init__(self, path: Path):
        self.path, self.offset = path, 0

    def _new_records(self) -> list[dict]:
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                chunk = f.read()
        except OSError:
            return []
        complete = chunk[:chunk.rfind(b"\n") + 1]
        self.offset += len(complete)
        records = []
        for line in complete.decode("utf-8", errors="replace").split("\n"):  # \n only: JSON leaves U+2028 raw
            record = _record(line, str(self.path)) if line.strip() else None
            if record is not None:
                records.append(record)
        return records

    def progress(self) -> str:
        waits, periods = [], []
        for r in self._new_records():
            if r["type"] == "canaries":
                waits += [sample[1] for sample in r["samples"]]
            elif r["type"] == "period":
                periods.append(_period(r))
        delays = [d for p in periods for d in p.loop_delay]
        if not waits and not delays:
            return "no samples yet"
        held = [min(d, c) for p in periods for d, c in zip(p.loop_delay, p.loop_cpu)]
        span = sum(p.t1 - p.t0 for p in periods)
        use = f"{sum(p.elu * (p.t1 - p.t0) for p in periods) / span:.0%}" if span else "–"
        pools = [p.pool for p in periods if p.pool]
        pool = (f", pool threads busy {sum(x.busy for x in pools) / sum(x.threads for x in pools):.0%}"
                if pools else "")
        worst_wait = f"{max(waits):.1f} ms" if waits else "–"
        worst = f"{max(delays):.0f} ms late ({max(held):.0f} ms of its own code)" if delays else "–"
        return f"pool wait worst {worst_wait} ({len(waits)} canaries){pool}, loop worst {worst}, loop busy {use}"
