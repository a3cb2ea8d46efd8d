"""Runs the program for the doctor with the pool probe preloaded, at the pool size it would run with
(UV_THREADPOOL_SIZE from the environment, else libuv's 4), in a process group of its own that dies
with the command.

- driven: once its URL answers, a quiet moment, then requests at a fixed rate for the duration
  (sweep-pool --app's load generator); the verdict is over the load.
- watched: the user drives it; it runs until it exits, until Ctrl-C, or until the time limit, with a
  line of what the probe sees every few seconds; the verdict is over all of it after start-up.

A program that is not Node (no process of it loads the probe), that exits before anything could be
measured, or whose Node refuses the probe (Node-API too old), is refused with one line."""
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ... import children, interrupts
from . import libuv_pool_size
from ...errors import UsageError
from ...app import program as app, probe_figures as app_probe, process_group
from ...probe import preload, trace as probe_trace
from ...probe.window import Window, window

QUIET_S = 2            # the driven program's timeline starts with it idle
PROGRESS_S = 5         # a watched program: one line this often
MIN_OBSERVED_MS = 1000  # less than this of a program's life is not a diagnosis
STARTED_TIMEOUT_S = 10  # the probe's first line comes before the program's main module runs
NOT_NODE = "loaded no pool probe: it is not a Node program (or it clears NODE_OPTIONS); the doctor watches Node programs"


@dataclass
class Session:
    probe_file: Path
    traces: dict[int, probe_trace.Trace]
    measured: probe_trace.Trace  # the busiest Node process of the program
    window: Window               # what the verdict is over
    load: app.Load | None = None
    request_alone_ms: float | None = None
    ended: str = ""              # how a watched program ended
    machine_cpu_util: float | None = None  # every process's CPU use meanwhile (/proc/stat)


def pool_size(libuv: str | None = None) -> int:
    """The pool size a program on this libuv version gets (None: the newest): UV_THREADPOOL_SIZE as
    libuv reads it (libuv_pool_size.py)."""
    return libuv_pool_size.pool_size(os.environ.get("UV_THREADPOOL_SIZE"), libuv)


def _refuse(command: str, why: str) -> UsageError:
    return UsageError(f"--app {command!r} {why}")


def _measured(command: str, probe_file: Path, t0: float | None = None, t1: float | None = None):
    traces = probe_trace.read(probe_file) if probe_file.exists() else {}
    if not traces:
        raise _refuse(command, NOT_NODE)
    if t0 is None:
        t0 = min(t.start["t"] for t in traces.values())
        t1 = max(t.ended_at or t.start["t"] for t in traces.values())
    found = app_probe.busiest(traces, t0, t1)
    observed = sum(p.t1 - p.t0 for t in traces.values() for p in t.periods)
    if found is None or observed < MIN_OBSERVED_MS:
        raise _refuse(command, f"ended after {observed / 1000:.1f} s of measurement, before the probe saw anything to "
                               "judge: the doctor watches a program while it runs (at least a second)")
    return traces, found


def driven(target: app.AppTarget, pool: int, rate: float, duration_s: int, ready_timeout_s: float, preload_path: Path,
           probe_rate: float, out: Path, arrivals: str = app.ARRIVALS[0]) -> Session:
    probe_file = out / "probe.jsonl"
    running = app.RunningApp(target, pool, ready_timeout_s, app.Probe(preload_path, probe_file, probe_rate))
    try:
        _wait_for_probe(target.command, running.proc, probe_file, running.said)
        alone = running.alone_ms()
        time.sleep(QUIET_S)
        print(f"stallbench: driving {target.url} at {rate:g}/s ({arrivals} arrivals) for {duration_s} s ...",
              file=sys.stderr, flush=True)
        load = app.drive(running, app.load_generator_node(), rate, duration_s, arrivals)
    finally:
        running.stop()
    # Judged over everything the load made the program do: from the first request sent to the last one
    # answered (or given up), so a program that falls behind is judged on the requests it worked through.
    traces, (measured, _) = _measured(target.command, probe_file, load.sending_from_ms, load.answered_by_ms)
    return Session(probe_file, traces, measured, window(measured, load.sending_from_ms, load.answered_by_ms), load, alone,
                   machine_cpu_util=load.metrics.get("machine_cpu_util"))


def _wait_for_probe(command: str, proc: subprocess.Popen, probe_file: Path, said) -> None:
    deadline = time.monotonic() + STARTED_TIMEOUT_S
    while time.monotonic() < deadline:
        if probe_file.exists() and probe_file.stat().st_size > 0:
            return
        if proc.poll() is not None:
            raise _refuse(command, f"exited with code {proc.returncode} before the probe started{said()}")
        time.sleep(0.1)
    raise _refuse(command, NOT_NODE)


def _watch(proc, command: str, probe_file: Path, limit_s: float, said) -> str:
    """Until the program exits, the time limit, or Ctrl-C (the usual end: what was seen is kept);
    returns how it ended."""
    print(f"stallbench: watching {command} (pid {proc.pid}) for up to {limit_s:g} s: drive it now; Ctrl-C ends "
          "the watch", file=sys.stderr, flush=True)
    started = time.monotonic()
    tail = probe_trace.Tail(probe_file)
    try:
        while proc.poll() is None and time.monotonic() - started < limit_s:
            time.sleep(min(PROGRESS_S, max(0.1, limit_s - (time.monotonic() - started))))
            if proc.poll() is None:
                print(f"  {time.monotonic() - started:.0f} s: {tail.progress()}", file=sys.stderr, flush=True)
    except KeyboardInterrupt as stop:
        if getattr(stop, "signum", signal.SIGINT) != signal.SIGINT:
            raise  # SIGTERM stops the doctor; Ctrl-C ends the watch, and the diagnosis follows
        interrupts.rearm()  # a second Ctrl-C stops the diagnosis itself
        return f"watch ended by {interrupts.signal_name(stop)} after {time.monotonic() - started:.0f} s"
    if proc.poll() is not None:
        return f"the program exited with code {proc.returncode} after {time.monotonic() - started:.0f} s{said()}"
    return f"stopped at the {limit_s:g} s time limit"


def watched(argv: list[str], command: str, limit_s: float, preload_path: Path, probe_rate: float, out: Path) -> Session:
    probe_file = out / "probe.jsonl"
    output = app.ProgramOutput()
    proc = children.start(argv, env=preload.environment(preload_path, probe_file, probe_rate), stdin=subprocess.DEVNULL,
                          stdout=output.file, stderr=subprocess.STDOUT, memory_bytes=0)
    said = output.last_line

    ticks = process_group.machine_ticks()
    try:
        _wait_for_probe(command, proc, probe_file, said)
        try:  # a program that is gone within a second had nothing to watch: refused before the watch begins
            proc.wait(timeout=MIN_OBSERVED_MS / 1000)
            raise _refuse(command, f"exited with code {proc.returncode} at once, before the probe saw anything to "
                                   f"judge: the doctor watches a program while it runs (at least a second){said()}")
        except subprocess.TimeoutExpired:
            pass
        ended = _watch(proc, command, probe_file, limit_s, said)
    finally:
        children.terminate(proc, app.STOP_GRACE_S)
        output.close()
    busy = process_group.machine_util(ticks, process_group.machine_ticks())
    traces, (measured, w) = _measured(command, probe_file)
    return Session(probe_file, traces, measured, w, ended=ended, machine_cpu_util=busy)
