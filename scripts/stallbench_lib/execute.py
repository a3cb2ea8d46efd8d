"""Runs a plan into a new run directory: meta first (complete=false), each cell in its own
process, each cell's rows appended to the CSV as it ends, meta completed at the end. SIGINT and SIGTERM
(interrupts.py) stop the current cell, keep what finished, and leave the run marked incomplete.

With an interleave seed the repetitions run in shuffled rounds (schedule.py). A caller may add
`final_pass(run, cells, done)`, a stage over the finished cells (each step run, with its result) that runs before the run is
complete, under the same interrupt and disk handling (`run --instructions` passes the callgrind
stage of instructions.py); what it does is the caller's choice, made once. meta.json keeps every
metric's declaration (unit, direction, tracked), so compare and history read old runs without the
binaries that made them, and each benchmark's parameter choices and constants, which its report
section reads.

A plan may adapt as it goes (the regex family stops escalating an engine's input length after its
first failed cell): `skip(cell)` is asked before each step and returns why not to run it, or None;
`finished(cell, result)` hears each step's outcome; `more()`, asked when every step has run, returns
cells to run next, each with the repetition index its rows get (None: 0), until it returns none
(the regex family measures lengths inside a curve's turn, and again cells whose growth the
machine's noise could have made)."""
import contextlib
import dataclasses
import os
import sys
from collections.abc import Callable
from typing import NoReturn
from pathlib import Path

from . import interrupts
from . import meta as metadata
from . import numbers, schedule
from .catalogue import Family, all_benchmarks, benchmark_declarations, metric_declarations, table_declarations
from .convert import failure_rows
from .errors import disk_error_line, is_disk_error
from .plan import Cell
from .progress import Progress
from .rundir import RunDir
from .runner import CellResult, run_cell

# A stage over the finished cells: the run, its cells and the steps that ran them (schedule.step_slug
# names each step's files in raw/).
FinalPass = Callable[[RunDir, list[Cell], list[tuple[schedule.Step, CellResult]]], None]


def end_interrupted(runs: list[RunDir], stop: KeyboardInterrupt, kept: str) -> NoReturn:
    """Records in each run why it stopped, says what was `kept`, and ends the command with 130
    (SIGINT) or 143 (SIGTERM)."""
    for run in runs:
        run.meta.update(ended_at=metadata.now_iso(), interrupted=interrupts.signal_name(stop))
        run.save()
    print(f"\nstallbench: {interrupts.signal_name(stop)}: stopped; {kept}", file=sys.stderr)
    raise SystemExit(interrupts.exit_code(stop))


def run_meta(families: list[Family], build: Path, settings: dict) -> dict:
    git = metadata.git_info()
    versions = {"stallbench": "git " + (git["short"] or "unknown")}
    for f in families:
        versions.update(f.versions)
    versions.update(metadata.python_versions())
    return {
        "started_at": metadata.now_iso(),
        "ended_at": None,
        "command_line": ["scripts/stallbench", *sys.argv[1:]],
        "machine": metadata.machine(),
        "git": git,
        "build_type": metadata.build_type(build),
        "uv_threadpool_size_env": os.environ.get("UV_THREADPOOL_SIZE"),
        "versions": versions,
        "metrics": metric_declarations(all_benchmarks(families)),
        "benchmarks": benchmark_declarations(all_benchmarks(families)),
        "tables": table_declarations(families),
        **settings,
    }


def per_process_values(cells: list[Cell]) -> dict[str, list[str]]:
    """Each per-process parameter of the plan -> the values it runs with, one process each: what a
    reader of meta.json needs to know the processes apart (`pool`: 1, 4, 8)."""
    values: dict[str, set[str]] = {}
    for c in cells:
        for p in c.benchmark.params:
            if p.per_process:
                values.setdefault(p.name, set()).add(c.params[p.name])
    return {name: sorted(vs, key=numbers.natural_order) for name, vs in sorted(values.items())}


def _step_result(run: RunDir, cells: list[Cell], step: schedule.Step, failed: dict, progress: Progress,
                 run_one=run_cell) -> CellResult:
    """Runs one step. In rounds, a cell that failed is not run again: its later repetitions get
    the same status, saying which one failed."""
    cell = cells[step.cell]
    if step.cell in failed:
        status, detail = failed[step.cell]
        return CellResult(failure_rows(run.run_id, cell.benchmark, cell.params, step.round, status,
                                       f"not run again after: {detail}"), status, "not run again", 0.0)
    result = run_one(cell, run.run_id, run.raw, schedule.step_slug(step, cell), step.repetitions, progress)
    if step.round is None:
        return result
    return dataclasses.replace(result, rows=[dataclasses.replace(r, repetition=step.round) for r in result.rows])


def _tally(counts: dict, cells: list[Cell], failed: dict, skipped: set, steps_left: dict) -> None:
    """ok: every step done, none failed. A non-ok status the benchmark declares one of its
    outcomes (a regex engine's guard) is a finding, not a failure: it does not fail the run."""
    findings = {i for i, (status, _) in failed.items() if status in cells[i].benchmark.outcomes}
    counts["failed"] = len(failed) - len(findings)
    counts["findings"] = len(findings)
    counts["ok"] = sum(1 for i, n in steps_left.items() if n == 0 and i not in failed and i not in skipped)


def execute(cells: list[Cell], repetitions: int, out_parent: Path, meta: dict,
            interleave_seed: int | None = None,
            skip: Callable[[Cell], str | None] | None = None,
            finished: Callable[[Cell, CellResult], None] | None = None,
            notices: list[str] = (),
            more: Callable[[], list[tuple[Cell, int | None]]] | None = None,
            final_pass: FinalPass | None = None, run_one=run_cell) -> RunDir:
    """Runs every cell's repetitions into a new run directory under `out_parent`. `notices` (what
    this build leaves out) are printed once the run directory exists: every input has been accepted
    by then, so a notice never stands beside a refusal. `run_one` runs a cell (runner.run_cell's
    contract): the regex study's runs its cells in long-lived processes (served_cells.py)."""
    if interleave_seed is not None:
        meta = {**meta, "interleave": {"rounds": repetitions, "seed": interleave_seed}}
        steps = schedule.interleaved(len(cells), repetitions, interleave_seed)
    else:
        steps = schedule.sequential(len(cells), repetitions)
    run = RunDir.create(out_parent, metadata.new_run_id(meta["git"], meta.get("shard")), meta)
    for line in notices:
        print(f"stallbench: {line}", file=sys.stderr, flush=True)
    try:
        _run_steps(run, list(cells), steps, repetitions, interleave_seed, skip, finished, more, final_pass, run_one)
    except OSError as e:
        if is_disk_error(e):
            _stop_for_disk(run, e)
        raise
    finally:
        run.release_space()
    return run


def _stop_for_disk(run: RunDir, e: OSError) -> None:
    """The disk refused a write: with the reserve released, write every finished row (they are in
    run.rows already) and why the run stopped, if the disk takes anything at all."""
    run.release_space()
    with contextlib.suppress(OSError):
        run.add([])
    run.meta.update(ended_at=metadata.now_iso(), stopped=disk_error_line(e))
    with contextlib.suppress(OSError):
        run.save()


def _added_steps(cells: list[Cell], steps: list, more, run: RunDir, progress: Progress, steps_left: dict) -> bool:
    """Appends what `more()` asks for to the plan; False when it asks for nothing."""
    extra = more() if more else []
    for cell, round_ in extra:
        cells.append(cell)
        steps.append(schedule.Step(len(cells) - 1, 1, round_))
        steps_left[len(cells) - 1] = 1
    run.meta["cells"]["planned"] = len(cells)
    progress.total = len(steps)
    return bool(extra)


def _count_seconds(meta: dict, spent: dict, cell: Cell, step: schedule.Step, result: CellResult) -> None:
    """meta's cell_seconds: each cell's wall seconds per repetition (its process start-up included),
    what a later `--shard` reads from the store to balance its shards (shard_plan.py). A repetition
    not run again after a failure took no time and is not counted."""
    if result.seconds <= 0:
        return
    total = spent.setdefault(cell.key, [0.0, 0])
    total[0] += result.seconds
    total[1] += step.repetitions
    meta.setdefault("cell_seconds", {})[cell.key] = round(total[0] / total[1], 4)


def _run_steps(run: RunDir, cells: list[Cell], steps: list, repetitions: int, interleave_seed: int | None,
               skip: Callable[[Cell], str | None] | None, finished: Callable[[Cell, CellResult], None] | None,
               more: Callable[[], list[tuple[Cell, int | None]]] | None = None,
               final_pass: FinalPass | None = None, run_one=run_cell) -> None:
    run.meta["cells"] = {"planned": len(cells), "ok": 0, "failed": 0, "findings": 0}
    if skip:
        run.meta["cells"]["skipped"] = 0
    run.meta["per_process"] = per_process_values(cells)
    run.save()
    progress = Progress(len(steps), steps[0].repetitions if steps else repetitions)
    failed: dict[int, tuple[str, str]] = {}
    skipped: set[int] = set()
    steps_left = {i: 0 for i in range(len(cells))}
    for step in steps:
        steps_left[step.cell] += 1
    done: list[tuple[schedule.Step, CellResult]] = []
    spent: dict[str, list[float]] = {}  # cell key -> [seconds, repetitions] of the processes that ran
    try:
        k = 0
        while k < len(steps) or _added_steps(cells, steps, more, run, progress, steps_left):
            step = steps[k]
            k += 1
            cell = cells[step.cell]
            steps_left[step.cell] -= 1
            if skip and skip(cell):
                skipped.add(step.cell)
                run.meta["cells"]["skipped"] = len(skipped)
                progress.skip_cell()
                continue
            if interleave_seed is not None:
                rounds = f" · round {step.round + 1}/{repetitions}"
            else:  # a cell `more()` asked to measure again
                rounds = f" · again (repetition {step.round})" if step.round else ""
            progress.start_cell(k, cell.label() + rounds)
            result = _step_result(run, cells, step, failed, progress, run_one)
            done.append((step, result))
            run.add(result.rows)
            _count_seconds(run.meta, spent, cell, step, result)
            if result.status != "ok" and step.cell not in failed:
                failed[step.cell] = (result.status, result.detail)
            _tally(run.meta["cells"], cells, failed, skipped, steps_left)
            run.save()
            progress.end_cell(result.status, result.detail, result.seconds,
                              finding=result.status in cell.benchmark.outcomes)
            if finished:
                finished(cell, result)
        if final_pass:
            final_pass(run, cells, done)
    except KeyboardInterrupt as stop:
        end_interrupted([run], stop, f"{run.path} keeps the finished cells and is marked incomplete")
    run.meta.update(ended_at=metadata.now_iso(), complete=True)
    run.meta["machine"]["load_average_end"] = list(os.getloadavg())  # compare warns when the machine was busy
    run.save()
    if interleave_seed is None:
        print(f"stallbench: {progress.summary()}", file=sys.stderr)
    else:
        cells_done = run.meta["cells"]
        print(f"stallbench: {len(cells)} cells × {repetitions} shuffled rounds ({len(steps)} processes), "
              f"{cells_done['ok']} ok, {cells_done['findings']} findings, {cells_done['failed']} failed",
              file=sys.stderr)
