"""Cells of a benchmark that shares its process (declared in C++: `Benchmark.shares_process`) run in
one long-lived bench process (`--stallbench-serve`) instead of one process a cell: what such a cell
needs besides its work takes seconds to start and stop. A browser took 2 s (Chromium) to 6 s
(Firefox) of each browser cell's 3 to 7 s; on a busy machine a regex cell's wall time was mostly
its process's and its language runtime's start (at load 45: RE2 0.76 s a cell, Python 1.97 s, Java
3.17 s). What a cell measures does not change: each cell still makes its own state and is timed
within its own budget from its own start, its repetitions write the same records, and the same
watchdog bounds it (the benchmark's timeout per repetition from its start record, the start-up
allowance before the first). One process serves the cells that agree on its binary, on the
per-process parameters (`pool`: libuv reads it once), on the Node lines and inputs, and on the
parameters the caller keeps `apart` (the regex study: one process per engine). A cell that overruns
is killed with its process (what it drives included) and the next cell starts a new process; its
row is `timeout`, unless its process tree had less than LOAD_SHARE of the budget in processor time:
it waited for a loaded machine (at load 45 a node@26 cell at 42 bytes timed out), and it is run
again, at most LOAD_RETRIES times. A process that dies mid-cell gives that cell `crashed` (the
signal) or `error` rows. A cell of a benchmark that does not share its process runs in its own
(runner.run_cell).

`execute(..., run_one=served.run_cell)` inside `with ServedCells() as served:`; each process's
stderr goes to raw/served-<what it serves>.log, each cell's request and records to raw/<slug>.log
(no Google Benchmark JSON for these cells: the records are the results)."""
import contextlib
import os
import selectors
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import children, runner
from .convert import Record, failure_rows, read_record, rows_from_record
from .plan import Cell, input_args, node_args
from .process_cpu import tree_cpu_s
from .runner import STARTUP_ALLOWANCE_S, CellResult, signal_name

LOAD_SHARE = 0.5   # an overrun with less than this share of the budget in processor time waited for the machine
LOAD_RETRIES = 2   # times such a cell is run again before its overrun is recorded
END_WAIT_S = 15    # for a process at the end of its input to stop what it drives (a browser) itself


@dataclass
class _Server:
    proc: subprocess.Popen
    records: object  # the read end of its records pipe
    buffer: bytes = b""
    lines: list[str] = field(default_factory=list)

    def next_line(self, deadline: float) -> str | None:
        """The next record line, or None when the deadline passed or the process ended."""
        while not self.lines:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            with selectors.DefaultSelector() as selector:
                selector.register(self.records, selectors.EVENT_READ)
                if not selector.select(min(left, 0.25)):
                    continue
            chunk = os.read(self.records.fileno(), 1 << 16)
            if not chunk:
                return None
            self.buffer += chunk
            *done, self.buffer = self.buffer.split(b"\n")
            self.lines += [line.decode("utf-8", "replace") for line in done if line]
        return self.lines.pop(0)


class ServedCells:
    def __init__(self, apart: tuple[str, ...] = ()):
        self._apart = apart
        self._servers: dict[tuple, _Server] = {}

    def __enter__(self) -> "ServedCells":
        return self

    def __exit__(self, *exc) -> None:
        for server in self._servers.values():
            self._end(server, wait_s=END_WAIT_S if exc[0] is None else 0)
        self._servers.clear()

    def _key(self, cell: Cell) -> tuple:
        """What one process serves: its binary; the values of the cell's per-process parameters (as
        the process's grid) and of those kept apart; its Node lines and inputs."""
        b = cell.benchmark
        per_process = tuple(f"--stallbench-grid={b.name}.{p.name}={cell.params[p.name]}"
                            for p in b.params if p.per_process)
        apart = tuple(cell.params[name] for name in self._apart if name in cell.params)
        return b.binary, apart, per_process, tuple(node_args(cell.nodes)), tuple(input_args(cell.inputs))

    def _server(self, cell: Cell, raw_dir: Path) -> _Server:
        key = self._key(cell)
        if key not in self._servers:
            binary, apart, per_process, nodes, inputs = key
            what = "-".join([*(apart or [cell.benchmark.family]),
                             *(f"{p.name}={cell.params[p.name]}" for p in cell.benchmark.params if p.per_process)])
            read_end, write_end = os.pipe()
            log = open(raw_dir / f"served-{what}.log", "a")
            command = [str(binary), "--stallbench-serve", *per_process, *nodes, *inputs,
                       f"--stallbench-records-fd={write_end}"]
            log.write("$ " + " ".join(command) + "\n")
            log.flush()
            try:
                with children.stop_signals_held():
                    proc = children.start(command, reserves_address_space=cell.benchmark.reserves_address_space,
                                          stdin=subprocess.PIPE, stdout=log, stderr=log, pass_fds=(write_end,))
            finally:
                os.close(write_end)
                log.close()
            self._servers[key] = _Server(proc, os.fdopen(read_end, "rb", buffering=0))
        return self._servers[key]

    def _end(self, server: _Server, wait_s: float = 0) -> None:
        """Ends its input; after `wait_s` for it to stop what it drives (a browser closed, not
        killed, removes its profile), the process and all it started are killed."""
        with contextlib.suppress(OSError):
            server.proc.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.proc.wait(timeout=wait_s)
        children.kill(server.proc)
        server.records.close()

    def _end_other_binaries(self, binary: Path) -> None:
        """A process waiting for cells that are not coming keeps what it drives (a browser, a
        runtime) on the machine: it ends when a cell of another binary (family) starts."""
        for key in [k for k in self._servers if k[0] != binary]:
            self._end(self._servers.pop(key), wait_s=END_WAIT_S)

    def _drop(self, cell: Cell) -> subprocess.Popen:
        server = self._servers.pop(self._key(cell))
        self._end(server)
        return server.proc

    def run_cell(self, cell: Cell, run_id: str, raw_dir: Path, slug: str, repetitions: int, progress) -> CellResult:
        """runner.run_cell's contract. A cell of a benchmark that shares its process runs in its
        serving process, and one the machine's load made overrun is run again (at most LOAD_RETRIES
        times); any other runs in a process of its own."""
        self._end_other_binaries(cell.benchmark.binary)
        if not cell.benchmark.shares_process:
            return runner.run_cell(cell, run_id, raw_dir, slug, repetitions, progress)
        started = time.monotonic()
        with open(raw_dir / f"{slug}.log", "w") as log:
            for attempt in range(LOAD_RETRIES + 1):
                finished, first_start, failure, waited = self._attempt(cell, repetitions, progress, raw_dir, log)
                if not waited or attempt == LOAD_RETRIES:
                    break
                log.write(f"overran its budget with less than {LOAD_SHARE:g} of it in processor time: run again\n")
        b = cell.benchmark
        rows = [row for _, record in sorted(finished.items()) for row in rows_from_record(record, run_id, b, cell.params)]
        rows += [row for r in range(repetitions) if r not in finished
                 for row in failure_rows(run_id, b, cell.params, r, *failure)]
        failed = next((r for r in rows if r.status != "ok"), None)
        return CellResult(rows, failed.status if failed else "ok", failed.detail if failed else "",
                          time.monotonic() - started, finished, first_start - started if first_start else 0.0)

    def _attempt(self, cell: Cell, repetitions: int, progress, raw_dir: Path, log):
        """One run of the cell: its records by repetition, when its first started, the failure that
        ended it early (status, detail) and whether that was an overrun the load made (its process
        tree had less than LOAD_SHARE of the budget in processor time since the repetition started)."""
        b = cell.benchmark
        request = f"{repetitions} " + " ".join(f"{b.name}.{k}={v}" for k, v in cell.params.items()) + "\n"
        log.write(request)
        server = self._server(cell, raw_dir)
        with contextlib.suppress(BrokenPipeError):  # it ended: its records say how far it got
            server.proc.stdin.write(request.encode())
            server.proc.stdin.flush()
        deadline, current, cpu_at_start = time.monotonic() + STARTUP_ALLOWANCE_S + b.timeout_s, 0, 0.0
        finished: dict[int, Record] = {}
        first_start = None
        while len(finished) < repetitions:
            line = server.next_line(deadline)
            if line is None:
                waited = time.monotonic() >= deadline and tree_cpu_s(server.proc.pid) - cpu_at_start < LOAD_SHARE * b.timeout_s
                return finished, first_start, self._ended(cell, deadline, current, b.timeout_s), waited
            log.write(line + "\n")
            try:
                record = read_record(line)
            except ValueError as e:
                self._drop(cell)
                return finished, first_start, ("error", str(e)), False
            progress.tick()
            if record.event == "start":
                first_start = first_start or time.monotonic()
                current, deadline = record.rep, time.monotonic() + b.timeout_s
                cpu_at_start = tree_cpu_s(server.proc.pid)
                progress.repetition(record.rep)
            else:
                finished[record.rep] = record
        return finished, first_start, None, False

    def _ended(self, cell: Cell, deadline: float, current: int, timeout_s: float) -> tuple[str, str]:
        """The status and detail of a cell whose process gave no more records: it overran (killed),
        or it died on its own (a signal, the memory cap, an exit)."""
        overran = time.monotonic() >= deadline
        proc = self._drop(cell)
        if overran:
            return "timeout", f"repetition {current} exceeded {timeout_s:g} s"
        if (over_cap := children.memory_kill(proc)) is not None:
            return "crashed", f"{over_cap} during repetition {current}"
        if proc.returncode is not None and proc.returncode < 0:
            return "crashed", f"{signal_name(proc.returncode)} during repetition {current}"
        return "error", f"the serving process exited with {proc.returncode} during repetition {current}"

