"""sweep-pool --app: a user's own program measured at each pool size. Per size the program is
started (its command split like a shell would, run without one) with UV_THREADPOOL_SIZE set, in a
process group of its own; once its URL answers, a few requests one at a time give its idle latency,
then workloads/pool_sweep/node/load.mjs sends requests at the rate for the duration, at random
moments (Poisson arrivals) unless told to send them on a fixed timer, and the program's CPU and
resident memory are sampled meanwhile; then its whole group is killed. With the pool probe (workloads/probe/) preloaded into the program, the same size also says
how long its pool work waited for a thread and how late its loop ran (probe_figures.py). What a size
records is declared in C++ (benches/pool_sweep.cc's `app`, its metrics in benches/app_metrics.cc).
Only http://127.0.0.1 URLs are accepted, and only programs that listen on 127.0.0.1 alone."""
import http.client
import json
import os
import shlex
import shutil
import subprocess
import tempfile
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from .. import children, node as nodejs, paths
from ..errors import UsageError
from ..medians import median
from ..node import Node
from ..probe import preload
from . import process_group

LOAD_SCRIPT = paths.ROOT / "workloads" / "pool_sweep" / "node" / "load.mjs"
# When requests fall due (load.mjs says why): at random moments, as from many independent users, or
# every 1/rate seconds. The first is the default: on a fixed timer a server busy 80% of the time never
# has two requests at once, and a pool that is too small for real traffic looks as good as any.
ARRIVALS = ("poisson", "fixed")
READY_TIMEOUT_S = 30                # by default, a program that has not answered by then never will
ALONE_REQUESTS = 5                  # one at a time on the idle program: its latency without load
REQUEST_TIMEOUT_MS = 10_000         # a request that takes longer is an error, not a latency
SAMPLE_S = 0.2                      # how often the program's memory is read during the load
STOP_GRACE_S = 3                    # SIGTERM, then this long for the program (and the probe) to finish


def load_generator_node() -> nodejs.Node:
    """The Node that runs the load generator: the newest pinned line, installed on demand, else
    the node on PATH."""
    newest = list(nodejs.pinned())[-1]
    try:
        return nodejs.resolve([newest])[0]
    except nodejs.UsageError as first:
        try:
            return nodejs.resolve([nodejs.SYSTEM])[0]
        except nodejs.UsageError:
            raise first from None


def check_load(rate: float, duration_s: float, ready_timeout_s: float) -> None:
    """The load options every --app command takes; UsageError (one line) when one is out of range."""
    if not 0 < rate <= 10_000:
        raise UsageError(f"--rate {rate:g} is out of range: a rate is more than 0 and at most 10000 requests per second")
    if not 1 <= duration_s <= 600 or duration_s != int(duration_s):
        raise UsageError(f"--duration {duration_s:g} is out of range: valid values are 1-600 whole seconds")
    if not 1 <= ready_timeout_s <= 600:
        raise UsageError(f"--ready-timeout {ready_timeout_s:g} is out of range: valid values are 1-600 seconds")


@dataclass(frozen=True)
class Probe:
    """The pool probe preloaded into the program, writing to `out`; `also_require` preloaded after it
    with `env` (probe-cost's exporter)."""
    preload: Path
    out: Path
    rate_per_s: float = preload.DEFAULT_RATE_PER_S
    also_require: tuple[Path, ...] = ()
    env: tuple[tuple[str, str], ...] = ()

    def environment(self) -> dict:
        return {**preload.environment(self.preload, self.out, self.rate_per_s, also_require=self.also_require),
                **dict(self.env)}


@dataclass(frozen=True)
class AppTarget:
    command: str      # as given
    argv: list[str]
    url: str
    port: int
    path: str


def split_command(command: str) -> list[str]:
    """The --app command as words, checked to name something runnable; UsageError (one line) if not."""
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise UsageError(f"--app {command!r}: cannot split it into words ({e})") from None
    if not argv:
        raise UsageError("--app is empty: give the command that starts your program, e.g. --app \"node server.js\"")
    if shutil.which(argv[0]) is None:
        raise UsageError(f"--app {command!r}: {argv[0]!r} is not an executable file or a command on PATH")
    return argv


def parse(command: str, url: str) -> AppTarget:
    """The --app command and --url, checked; UsageError (one line) when either is unusable."""
    argv = split_command(command)
    parts = urllib.parse.urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    if parts.scheme != "http" or parts.hostname != "127.0.0.1" or not port or parts.username or parts.password:
        raise UsageError(f"--url {url!r}: only http://127.0.0.1:PORT/PATH is accepted (stallbench sends load to "
                         "loopback only; make your program listen on 127.0.0.1)")
    path = parts.path or "/"
    return AppTarget(command, argv, url, port, path + (f"?{parts.query}" if parts.query else ""))


class ProgramOutput:
    """What a program started here prints (stdout and stderr, to a temporary file nobody has to read
    while it runs, so a chatty program cannot fill a pipe), for the one line an error quotes."""

    def __init__(self):
        self.file = tempfile.TemporaryFile()

    def last_line(self) -> str:
        """The last line the program printed, as ': line', or ''."""
        self.file.seek(0)
        lines = [l for l in self.file.read().decode(errors="replace").splitlines() if l.strip()]
        return f": {lines[-1].strip()}" if lines else ""

    def close(self) -> None:
        self.file.close()


class RunningApp:
    """The program started at one pool size, answering its URL; stop() kills its group."""

    def __init__(self, target: AppTarget, pool: int, ready_timeout_s: float = READY_TIMEOUT_S,
                 probe: Probe | None = None):
        self.target, self.pool, self.ready_timeout_s, self.probe = target, pool, ready_timeout_s, probe
        self.output = ProgramOutput()
        self._stopped = False
        env = probe.environment() if probe else dict(os.environ)
        # No memory cap: runtimes such as V8 reserve address space up front, and a cap on it breaks them.
        self.proc = children.start(target.argv, env={**env, "UV_THREADPOOL_SIZE": str(pool)},
                                   stdin=subprocess.DEVNULL, stdout=self.output.file, stderr=subprocess.STDOUT,
                                   memory_bytes=0)
        try:
            self._wait_until_it_answers()
            self._require_loopback_only()
        except BaseException:
            self.stop()
            raise

    def said(self) -> str:
        return self.output.last_line()

    def _refuse(self, why: str) -> UsageError:
        return UsageError(f"--app {self.target.command!r} (UV_THREADPOOL_SIZE={self.pool}) {why}")

    def get(self, timeout_s: float = 2) -> float:
        """One GET of the URL; its latency in ms. Raises OSError when it gets no 2xx/3xx answer."""
        start = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", self.target.port, timeout=timeout_s)
        try:
            connection.request("GET", self.target.path)
            response = connection.getresponse()
            response.read()
        finally:
            connection.close()
        if response.status >= 400:
            raise OSError(f"it answered {response.status} {response.reason}")
        return (time.perf_counter() - start) * 1000

    def _wait_until_it_answers(self) -> None:
        deadline = time.monotonic() + self.ready_timeout_s
        last = "nothing listens there"
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise self._refuse(f"exited with code {self.proc.returncode} before {self.target.url} answered{self.said()}")
            try:
                self.get()
                return
            except (OSError, http.client.HTTPException) as e:
                last = str(e) or type(e).__name__
                if "answered" in last:
                    raise self._refuse(f"{self.target.url}: {last}; give a URL your program serves") from None
            time.sleep(0.1)
        raise self._refuse(f"never answered {self.target.url} within {self.ready_timeout_s:g} s ({last}); "
                           f"does it listen on 127.0.0.1:{self.target.port}?")

    def _require_loopback_only(self) -> None:
        elsewhere = [s for s in process_group.listening(self.proc.pid) if s.address != "127.0.0.1"]
        if elsewhere:
            where = ", ".join(f"{s.address}:{s.port}" for s in elsewhere)
            raise self._refuse(f"listens on {where}: stallbench drives only programs that listen on 127.0.0.1 "
                               "alone (bind your server to 127.0.0.1)")

    def alone_ms(self) -> float:
        """The median of a few requests one at a time on the otherwise idle program."""
        return median(self.get(REQUEST_TIMEOUT_MS / 1000) for _ in range(ALONE_REQUESTS))

    def stop(self) -> None:
        """Ends the program's whole group (once: its group id may be reused after that): SIGTERM first,
        so the probe writes its last samples, then SIGKILL for what is still there."""
        if not self._stopped:
            self._stopped = True
            children.terminate(self.proc, STOP_GRACE_S)
            self.output.close()


def drain_s(duration_s: int) -> float:
    """How long requests still out after the sending window may take to answer."""
    return min(max(duration_s / 2, 2.0), 10.0)


@dataclass
class Load:
    """One size's load: its metrics, when requests were being sent, and when the last of them was
    answered or given up (CLOCK_MONOTONIC ms)."""
    metrics: dict[str, float]
    sending_from_ms: float
    sending_to_ms: float
    answered_by_ms: float


def add_arrivals_argument(p, applies: str = "") -> None:
    p.add_argument("--arrivals", choices=ARRIVALS, default=ARRIVALS[0],
                   help=f"{applies}when requests are sent: poisson, at random moments as from many independent "
                        "users, the same moments for every pool size and side of a comparison (default); fixed, "
                        "every 1/rate seconds")


def drive(app: RunningApp, load_node: Node, rate: float, duration_s: int, arrivals: str = ARRIVALS[0],
          seed: int = 1) -> Load:
    """Sends the load (the moments of `arrivals` drawn from `seed`) and samples the program meanwhile.
    Raises RuntimeError when the load generator fails or the program dies."""
    drain = drain_s(duration_s)
    argv = [load_node.path, str(LOAD_SCRIPT), app.target.url, f"{rate:g}", str(duration_s), f"{drain:g}",
            str(REQUEST_TIMEOUT_MS), arrivals, str(seed)]
    limit_s = duration_s + drain + 30
    group = app.proc.pid
    cpu_start, ticks_start, started = process_group.cpu_seconds(group), process_group.machine_ticks(), time.monotonic()
    core_wait_start = process_group.core_wait_seconds(group)
    rss_peak = process_group.rss_bytes(group)
    # Its output goes to files, so a chatty run cannot fill a pipe nobody reads while the program is sampled.
    with tempfile.TemporaryFile("w+") as stdout, tempfile.TemporaryFile("w+") as stderr:
        load = children.start(argv, stdout=stdout, stderr=stderr, memory_bytes=0)
        try:
            while load.poll() is None:
                if time.monotonic() - started > limit_s:
                    raise RuntimeError(f"the load generator did not finish within {limit_s:g} s")
                rss_peak = max(rss_peak, process_group.rss_bytes(group))
                time.sleep(SAMPLE_S)
        finally:
            children.kill(load)
        stdout.seek(0)
        stderr.seek(0)
        out, err = stdout.read(), stderr.read()
    finished = time.monotonic()
    seconds = finished - started
    cpu = process_group.cpu_seconds(group) - cpu_start
    core_wait_end = process_group.core_wait_seconds(group)
    machine = process_group.machine_util(ticks_start, process_group.machine_ticks())
    if app.proc.poll() is not None:
        raise RuntimeError(f"the program exited with code {app.proc.returncode} during the load{app.said()}")
    if load.returncode != 0 or not out.strip():
        said = [l for l in err.splitlines() if l.strip() and "DeprecationWarning" not in l]
        raise RuntimeError(f"the load generator exited with {load.returncode}" + (f": {said[-1]}" if said else ""))
    result = json.loads(out.strip().splitlines()[-1])
    percentiles = result["percentiles_ms"]
    ok = result["completed"] - result["errors"]
    metrics = {
        "latency_p50_ms": percentiles.get("50"), "latency_p90_ms": percentiles.get("90"),
        "latency_p95_ms": percentiles.get("95"), "latency_p99_ms": percentiles.get("99"),
        "latency_max_ms": result["max_ms"], "latency_mean_ms": result["mean_ms"],
        "throughput_per_s": ok / max(result["elapsed_s"], duration_s),
        "offered_per_s": result["requests"] / duration_s,
        "completed": ok, "errors": result["errors"], "unfinished": result["requests"] - result["completed"],
        "app_cpu_util": cpu / (seconds * len(os.sched_getaffinity(0))),
        "app_rss_peak_mb": rss_peak / 2**20,
    }
    if machine is not None:
        metrics["machine_cpu_util"] = machine
    if core_wait_start is not None and core_wait_end is not None:
        metrics["app_core_wait_threads"] = max(0.0, core_wait_end - core_wait_start) / seconds
    sending_from = result.get("sending_from_ms", started * 1000)
    return Load({k: float(v) for k, v in metrics.items() if v is not None and v is not False}, sending_from,
                sending_from + duration_s * 1000, finished * 1000)
