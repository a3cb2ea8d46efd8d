"""Runs one cell in its own process, bounded in time and memory, and turns whatever happened into
rows: the repetition records it wrote, or `timeout` / `crashed` / `error` rows for the repetitions
it did not finish.

The harness writes its repetition records (convert.read_record) to a pipe of their own; they drive
the progress display and the per-repetition watchdog (the benchmark's declared timeout_s), give the
cell's rows and its repetitions' own times, and each finished repetition's record survives the
process dying later. Google Benchmark's JSON goes to raw/<slug>.json (the raw artefact, not read),
stdout and stderr to raw/<slug>.log."""
import json
import os
import queue
import signal
import subprocess
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from . import children
from .convert import Record, failure_rows, read_record, rows_from_record
from .errors import naming
from .plan import Cell
from .tidy import Row
from .documents import json_loads

STARTUP_ALLOWANCE_S = 30  # building a cell's inputs (a large payload, say) before repetition 0


@dataclass
class CellResult:
    rows: list[Row]
    status: str  # ok, or the first failure's status
    detail: str
    seconds: float
    records: dict[int, Record] = field(default_factory=dict)  # repetition -> its end record, when it wrote one
    startup_s: float = 0.0  # of `seconds`, what came before the first repetition started (a prepare step)


def signal_name(returncode: int) -> str:
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def _pump(stream, source: str, lines: queue.Queue) -> None:
    with stream:
        for line in stream:
            lines.put((source, line.rstrip("\n")))
    lines.put((source, None))


class _Watch:
    """Follows one cell's process: its records (repetitions started and ended) and its stderr (to the
    log, the last lines kept), killing it when a repetition overruns the benchmark's timeout."""

    def __init__(self, timeout_s: float, progress, log, log_path: Path):
        self.timeout_s, self.progress, self.log, self.log_path = timeout_s, progress, log, log_path
        self.current = -1                   # the repetition running
        self.finished: dict[int, Record] = {}
        self.first_start: float | None = None  # when repetition 0 started: what came before is start-up
        self.timed_out: int | None = None   # the repetition that overran
        self.unreadable = ""                # a record line that was not one
        self.tail: deque[str] = deque(maxlen=20)
        self.following = False

    def _record(self, line: str) -> None:
        try:
            record = read_record(line)
        except ValueError as e:
            self.unreadable = str(e)
            return
        if record.event == "start":
            self.first_start = self.first_start or time.monotonic()
            self.current = record.rep
            self.deadline = time.monotonic() + self.timeout_s
            self.progress.repetition(record.rep)
        else:
            self.finished[record.rep] = record

    def follow(self, proc: subprocess.Popen, records, started: float) -> None:
        lines: queue.Queue = queue.Queue()
        self.following = True  # the records belong to the thread reading them from here on
        children.thread(_pump, records, "records", lines)
        children.thread(_pump, proc.stderr, "stderr", lines)
        self.deadline = started + STARTUP_ALLOWANCE_S + self.timeout_s
        poll_s = min(0.25, self.timeout_s / 20)  # short timeouts (regex budgets) are enforced to within 5%
        open_streams = 2
        while open_streams:
            try:
                source, line = lines.get(timeout=poll_s)
            except queue.Empty:
                source, line = "", ""
            if line is None:
                open_streams -= 1
            elif source == "records":
                self._record(line)
            elif line:
                with naming(self.log_path):
                    self.log.write(line + "\n")
                self.tail.append(line)
            self.progress.tick()
            if time.monotonic() > self.deadline:
                self.timed_out = self.current
                children.kill(proc)
                return
        proc.wait()
        children.forget(proc)


def _keep_whole(tmp_json: Path, out_json: Path) -> None:
    """Google Benchmark's JSON into raw/, when whole: a process killed while writing it leaves half."""
    if not tmp_json.exists():
        return
    try:
        json_loads(tmp_json.read_text())
        os.replace(tmp_json, out_json)
    except (json.JSONDecodeError, UnicodeDecodeError):
        tmp_json.unlink()


def run_cell(cell: Cell, run_id: str, raw_dir: Path, slug: str, repetitions: int, progress,
             wrapper: list[str] | None = None, env: dict[str, str] | None = None) -> CellResult:
    """Runs every repetition of `cell`; `progress.repetition(i)` is called as each one starts.
    `wrapper` goes before the bench binary on the command line (valgrind, for --instructions);
    `env`, when given, is the process's whole environment (ab runs two cells at once, each its own)."""
    b = cell.benchmark
    tmp_json = raw_dir / f".{slug}.json.tmp"
    read_end, write_end = os.pipe()
    records = os.fdopen(read_end, encoding="utf-8", errors="replace")
    command = [*(wrapper or []), str(b.binary), *cell.grid_args(), f"--benchmark_filter=^{b.name}/",
               f"--benchmark_repetitions={repetitions}", f"--benchmark_out={tmp_json}",
               "--benchmark_out_format=json", f"--stallbench-records-fd={write_end}"]
    started = time.monotonic()
    proc = None
    log_path = raw_dir / f"{slug}.log"
    # Line-buffered: each write reaches the file at once, where naming() can say which file the disk
    # refused; nothing is left to fail unnamed when it is closed.
    with open(log_path, "w", buffering=1) as log, children.removed_if_killed(tmp_json):
        with naming(log_path):
            log.write("$ " + " ".join(command) + "\n")
        watch = _Watch(b.timeout_s, progress, log, log_path)
        try:
            try:
                with children.stop_signals_held():
                    proc = children.start(command, reserves_address_space=b.reserves_address_space, stdout=log,
                                          env=env, stderr=subprocess.PIPE, encoding="utf-8", errors="replace",
                                          pass_fds=(write_end,))
            finally:
                os.close(write_end)  # the child holds it now: the pipe ends when the child does
            watch.follow(proc, records, started)
            _keep_whole(tmp_json, raw_dir / f"{slug}.json")
        except BaseException:
            # Interrupted: take the cell's process down with us and drop its partial output. The
            # records are not closed here: a thread may be blocked reading them, and closing a stream
            # under a reader waits for that read (the cell's next record: a minute away). Killing the
            # cell ends the pipe, and the reading thread closes it (_pump).
            if proc is not None:
                children.kill(proc)
            if not watch.following:
                records.close()
            tmp_json.unlink(missing_ok=True)
            raise

    rows: list[Row] = []
    for r, record in sorted(watch.finished.items()):
        try:
            rows += rows_from_record(record, run_id, b, cell.params)
        except ValueError as e:
            rows += failure_rows(run_id, b, cell.params, r, "error", str(e))
    missing = [r for r in range(repetitions) if r not in watch.finished]
    if missing:
        current = max(watch.current, 0)
        if watch.timed_out is not None:
            status, detail = "timeout", f"repetition {max(watch.timed_out, 0)} exceeded {b.timeout_s:g} s"
        elif (over_cap := children.memory_kill(proc)) is not None:
            status, detail = "crashed", f"{over_cap} during repetition {current}"
        elif proc.returncode < 0:
            status, detail = "crashed", f"{signal_name(proc.returncode)} during repetition {current}"
        elif watch.unreadable:
            status, detail = "error", watch.unreadable
        else:
            last = watch.tail[-1] if watch.tail else "no output"
            status, detail = "error", f"exited with {proc.returncode} without results: {last}"
        for r in missing:
            rows += failure_rows(run_id, b, cell.params, r, status, detail)
    failed = next((r for r in rows if r.status != "ok"), None)
    return CellResult(rows, failed.status if failed else "ok", failed.detail if failed else "",
                      time.monotonic() - started, dict(watch.finished),
                      watch.first_start - started if watch.first_start else 0.0)
