"""`run --instructions`: instruction counts under callgrind, beside wall time.

Wall time on a shared machine moves by several percent from run to run; the number of
instructions a CPU-bound repetition executes does not, so a 1% change in the code's cost shows.
After the normal (wall-time) pass, a stage of its own (`stage`, which `run` hands to execute.py as
its final pass) runs every cell of a benchmark that declares itself CPU-bound (`instructions = true`
in its bench file) again under `valgrind --tool=callgrind`. The harness zeroes callgrind's counts
just before each repetition's closure and dumps them just after
(CALLGRIND_ZERO_STATS / CALLGRIND_DUMP_STATS_AT), so a dump holds one repetition, all threads
included, and nothing of process start-up or the cell's setup. Each dump's `totals:` line becomes
an `instructions` row (the repetition's record names its dump); the same cell's repetition times
from the normal pass's records become `wall_ms` rows, so compare can say when the two disagree. The
dumps stay in raw/ for callgrind_annotate."""
import dataclasses
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from .convert import Record
from .errors import UsageError
from .plan import Cell
from .progress import Progress
from .rundir import RunDir
from .schedule import Step, cell_slug
from .runner import CellResult, run_cell
from .parameters import Params
from .tidy import Row

INSTRUCTIONS = "instructions"
WALL = "wall_ms"
# Declarations the orchestrator adds to every CPU-bound benchmark's metrics in meta.json.
DECLARATIONS = {
    INSTRUCTIONS: {"unit": "instructions", "better": "lower", "tracked": True, "min_effect_pct": 0.5},
    WALL: {"unit": "ms", "better": "lower", "tracked": True, "min_effect_pct": 0.0},
}
# Callgrind runs code 20-100x slower than natively; a repetition's limit grows by this much.
SLOWDOWN = 50
_TRIGGER = re.compile(r"^desc: Trigger: Client Request: (.*)$", re.M)
_TOTALS = re.compile(r"^summary: (\d+)", re.M)


def require_valgrind() -> str:
    path = shutil.which("valgrind")
    if path is None:
        raise UsageError("--instructions needs valgrind on PATH (Debian package valgrind; scripts/bootstrap installs it)")
    return path


def declare(meta_metrics: dict, cells: list[Cell]) -> None:
    """Adds the two metrics to the declarations of every CPU-bound benchmark in the plan."""
    for cell in cells:
        if cell.benchmark.instructions:
            meta_metrics.setdefault(cell.benchmark.full_name, {}).update(DECLARATIONS)


def wall_rows(records: dict[int, Record], run_id: str, cell: Cell, round_index: int | None) -> list[Row]:
    """The repetitions' own times (what the closure returned), from the normal pass's records."""
    return [_row(run_id, cell, round_index if round_index is not None else rep, WALL, record.wall_ms)
            for rep, record in sorted(records.items()) if record.wall_ms is not None]


def _wall_pass_rows(run: RunDir, cells: list[Cell], done: list[tuple[Step, CellResult]]) -> list[Row]:
    """The wall_ms rows of every CPU-bound cell, step by step as the wall-time pass ran them (a
    repetition that wrote no end record gives none)."""
    rows = []
    for step, result in done:
        cell = cells[step.cell]
        if cell.benchmark.instructions:
            rows += wall_rows(result.records, run.run_id, cell, step.round)
    return rows


def _row(run_id: str, cell: Cell, repetition: int, metric: str, value: float) -> Row:
    b = cell.benchmark
    return Row(run_id, b.family, b.name, Params(cell.params), repetition, metric, value,
               DECLARATIONS[metric]["unit"], "ok", "")


def read_dumps(prefix: Path, records: dict[int, Record]) -> dict[int, int]:
    """repetition -> instructions, from the callgrind dumps named <prefix>.<pid>.<n>: a dump belongs
    to the repetition whose record names its label."""
    reps = {record.callgrind_dump: rep for rep, record in records.items()}
    counts = {}
    for dump in sorted(prefix.parent.glob(prefix.name + ".*")):
        text = dump.read_text(errors="replace")
        trigger, totals = _TRIGGER.search(text), _TOTALS.search(text)
        if trigger and totals and trigger.group(1) in reps:
            counts[reps[trigger.group(1)]] = int(totals.group(1))
    return counts


def count_cell(cell: Cell, run_id: str, raw: Path, name: str, repetitions: int, progress) -> tuple[list[Row], str, str, float]:
    """Runs `cell` under callgrind; returns its instruction rows, status, detail and seconds. The
    timings it reports under callgrind mean nothing and are dropped."""
    prefix = raw / f"{name}.callgrind"
    wrapper = [require_valgrind(), "--tool=callgrind", "--quiet", f"--callgrind-out-file={prefix}.%p"]
    slowed = dataclasses.replace(cell, benchmark=dataclasses.replace(cell.benchmark,
                                                                     timeout_s=cell.benchmark.timeout_s * SLOWDOWN))
    result = run_cell(slowed, run_id, raw, f"{name}.callgrind", repetitions, progress, wrapper=wrapper)
    counts = read_dumps(prefix, result.records)
    rows = [_row(run_id, cell, r, INSTRUCTIONS, float(n)) for r, n in sorted(counts.items())]
    missing = [r for r in range(repetitions) if r not in counts]
    if not missing:
        return rows, "ok", "", result.seconds
    status = result.status if result.status != "ok" else "error"
    detail = result.detail or "callgrind wrote no dump for this repetition"
    b = cell.benchmark
    rows += [Row(run_id, b.family, b.name, Params(cell.params), r, INSTRUCTIONS, None,
                 DECLARATIONS[INSTRUCTIONS]["unit"], status, detail) for r in missing]
    return rows, status, detail, result.seconds


def stage(repetitions: int) -> Callable[[RunDir, list[Cell], list[tuple[Step, CellResult]]], None]:
    """The counting stage for execute.py's final pass, each cell counted over `repetitions`."""
    return lambda run, cells, done: count(run, cells, done, repetitions)


def count(run: RunDir, cells: list[Cell], done: list[tuple[Step, CellResult]], repetitions: int) -> None:
    """After the wall-time pass (`done`: each step with its result): its CPU-bound cells' wall_ms rows, then the
    callgrind pass over them."""
    run.add(_wall_pass_rows(run, cells, done))
    # A Node cell's work runs in a Node child, which callgrind does not follow: nothing to count.
    chosen = [(i, c) for i, c in enumerate(cells) if c.benchmark.instructions and not c.runs_node]
    if not chosen:
        print("stallbench: --instructions: no benchmark in this plan declares itself CPU-bound; nothing to count",
              file=sys.stderr, flush=True)
        return
    progress = Progress(len(chosen), repetitions)
    run.meta["instruction_cells"] = {"planned": len(chosen), "ok": 0, "failed": 0}
    for k, (i, cell) in enumerate(chosen, 1):
        progress.start_cell(k, cell.label() + " · callgrind")
        rows, status, detail, seconds = count_cell(cell, run.run_id, run.raw, cell_slug(i, cell), repetitions,
                                                   progress)
        run.add(rows)
        run.meta["instruction_cells"]["ok" if status == "ok" else "failed"] += 1
        run.save()
        progress.end_cell(status, detail, seconds)
