"""Runs one cell in its own process, bounded in time and memory, and turns whatever happened into
rows: the JSON it wrote, or `timeout` / `crashed` / `error` rows for the repetitions it did not.

The harness prints "@stallbench rep-start N" and "@stallbench rep-end N {counters}" on stderr;
those lines drive the progress display and the per-repetition watchdog (the benchmark's declared
timeout_s), and keep the finished repetitions of a cell whose process dies before it writes JSON."""
import json
import os
import queue
import signal
import subprocess
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from . import children
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


def _signal_name(returncode: int) -> str:
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


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
    with open(log_path, "w") as log, children.removed_if_killed(tmp_json):
        log.write("$ " + " ".join(command) + "\n")
        log.flush()
        current = -1
        finished: dict[int, dict] = {}
        proc = None
        try:
            with children.stop_signals_held():
                proc = children.start(command, reserves_address_space=b.reserves_address_space, stdout=log,
                                      env=env, stderr=subprocess.PIPE, encoding="utf-8", errors="replace")
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
                    children.kill(proc)
                    break
            proc.wait()
            children.forget(proc)
            doc = {}
            if tmp_json.exists():
                try:
                    doc = json.loads(tmp_json.read_text())
                    os.replace(tmp_json, out_json)
                except (json.JSONDecodeError, UnicodeDecodeError):
                    tmp_json.unlink()
        except BaseException:
            # Interrupted: take the cell's process down with us and drop its partial output.
            if proc is not None:
                children.kill(proc)
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
        elif (over_cap := children.memory_kill(proc)) is not None:
            status, detail = "crashed", f"{over_cap} during repetition {max(current, 0)}"
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
