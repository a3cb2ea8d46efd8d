"""Runs one cell in its own process, bounded in time and memory, and turns whatever happened into
rows: the JSON it wrote, or `timeout` / `crashed` / `error` rows for the repetitions it did not.

The harness prints "@stallbench rep-start N" and "@stallbench rep-end N {counters}" on stderr;
those lines drive the progress display and the per-repetition watchdog (the benchmark's declared
timeout_s), and keep the finished repetitions of a cell whose process dies before it writes JSON."""
import contextlib
import ctypes
import json
import os
import queue
import resource
import signal
import subprocess
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from .convert import failure_rows, repetitions_seen, rows_from_counters, rows_from_gbench
from .plan import Cell
from .tidy import Row

STARTUP_ALLOWANCE_S = 30  # building a cell's inputs (a large payload, say) before repetition 0


@dataclass
class CellResult:
    rows: list[Row]
    status: str  # ok, or the first failure's status
    detail: str
    seconds: float


def memory_limit_bytes() -> int:
    """Three quarters of physical memory: a runaway cell fails alone instead of taking the machine."""
    return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") * 3 / 4)


_PR_SET_PDEATHSIG = 1
# The orchestrator's stop signals, held while a cell's process starts (see run_cell).
_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _child_setup() -> None:
    """In the cell's process before exec: cap its memory, and have the kernel kill it if the
    orchestrator dies (even by SIGKILL), so no cell outlives its run."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)  # held by the parent during Popen
    limit = memory_limit_bytes()
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _signal_name(returncode: int) -> str:
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def _kill(proc: subprocess.Popen) -> None:
    """The cell runs in its own session; kill the whole group (it may have started helpers)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


def _pump(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line.rstrip("\n"))
    lines.put(None)


def run_cell(cell: Cell, run_id: str, raw_dir: Path, slug: str, repetitions: int, progress,
             wrapper: list[str] | None = None, env: dict[str, str] | None = None) -> CellResult:
    """Runs every repetition of `cell`; `progress.repetition(i)` is called as each one starts.
    `wrapper` goes before the bench binary on the command line (valgrind, for --instructions);
    `env`, when given, is the process's whole environment (ab runs two cells at once, each its own)."""
    b = cell.benchmark
    out_json = raw_dir / f"{slug}.json"
    log_path = raw_dir / f"{slug}.log"
    tmp_json = raw_dir / f".{slug}.json.tmp"
    command = [*(wrapper or []), str(b.binary), *cell.grid_args(), f"--benchmark_filter=^{b.name}/",
               f"--benchmark_repetitions={repetitions}", f"--benchmark_out={tmp_json}",
               "--benchmark_out_format=json"]
    started = time.monotonic()
    tail: deque[str] = deque(maxlen=20)
    timed_out = None
    with open(log_path, "w") as log:
        log.write("$ " + " ".join(command) + "\n")
        log.flush()
        # An interruption (the orchestrator's SIGINT/SIGTERM handler raises) must never land
        # between the process's start and the `try` that takes it down, or the process outlives
        # the handler and leaves its partial output: the stop signals wait until we are inside.
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
        try:
            proc = subprocess.Popen(command, stdout=log, stderr=subprocess.PIPE, text=True, env=env,
                                    start_new_session=True, preexec_fn=_child_setup)
        except BaseException:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
            raise
        current = -1
        finished: dict[int, dict] = {}
        try:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
            lines: queue.Queue = queue.Queue()
            threading.Thread(target=_pump, args=(proc.stderr, lines), daemon=True).start()
            deadline = started + STARTUP_ALLOWANCE_S + b.timeout_s
            poll_s = min(0.25, b.timeout_s / 20)  # short timeouts (regex budgets) are enforced to within 5%
            while True:
                try:
                    line = lines.get(timeout=poll_s)
                except queue.Empty:
                    line = ""
                if line is None:
                    break
                if line.startswith("@stallbench rep-start "):
                    current = int(line.split()[2])
                    deadline = time.monotonic() + b.timeout_s
                    progress.repetition(current)
                elif line.startswith("@stallbench rep-end "):
                    _, _, index, counters = line.split(" ", 3)
                    finished[int(index)] = json.loads(counters)
                elif line:
                    log.write(line + "\n")
                    tail.append(line)
                progress.tick()
                if time.monotonic() > deadline:
                    timed_out = current
                    _kill(proc)
                    break
            proc.wait()
            doc = {}
            if tmp_json.exists():
                try:
                    doc = json.loads(tmp_json.read_text())
                    os.replace(tmp_json, out_json)
                except json.JSONDecodeError:
                    tmp_json.unlink()
        except BaseException:
            # Interrupted: take the cell's process down with us and drop its partial output.
            _kill(proc)
            proc.wait()
            tmp_json.unlink(missing_ok=True)
            raise

    rows = rows_from_gbench(doc, run_id, b, cell.params)
    seen = repetitions_seen(doc)
    for r, counters in sorted(finished.items()):
        if r not in seen:
            rows += rows_from_counters(counters, run_id, b, cell.params, r)
            seen.add(r)
    missing = [r for r in range(repetitions) if r not in seen]
    if missing:
        if timed_out is not None:
            status, detail = "timeout", f"repetition {max(timed_out, 0)} exceeded {b.timeout_s:g} s"
        elif proc.returncode < 0:
            status, detail = "crashed", f"{_signal_name(proc.returncode)} during repetition {max(current, 0)}"
        else:
            last = tail[-1] if tail else "no output"
            status, detail = "error", f"exited with {proc.returncode} without results: {last}"
        for r in missing:
            rows += failure_rows(run_id, b, cell.params, r, status, detail)
    failed = next((r for r in rows if r.status != "ok"), None)
    return CellResult(rows, failed.status if failed else "ok", failed.detail if failed else "",
                      time.monotonic() - started)
