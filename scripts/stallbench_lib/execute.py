"""Runs a plan into a new run directory: meta first (complete=false), each cell in its own
process, the CSV rewritten after every cell, meta completed at the end. SIGINT and SIGTERM stop
the current cell, keep what finished, and leave the run marked incomplete.

A plan may adapt as it goes (the regex family stops escalating an engine's input length after its
first failed cell): `skip(cell)` is asked before each cell and returns why not to run it, or None;
`finished(cell, result)` hears each cell's outcome."""
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path

from . import meta as metadata
from .catalogue import Family
from .plan import Cell
from .progress import Progress
from .rundir import RunDir, slug
from .runner import CellResult, run_cell


class Interrupted(Exception):
    pass


def _raise_interrupted(signum, _frame):
    raise Interrupted(signal.Signals(signum).name)


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
        **settings,
    }


def execute(cells: list[Cell], repetitions: int, out_parent: Path, meta: dict,
            skip: Callable[[Cell], str | None] | None = None,
            finished: Callable[[Cell, CellResult], None] | None = None) -> RunDir:
    run = RunDir.create(out_parent, metadata.new_run_id(meta["git"]), meta)
    run.meta["cells"] = {"planned": len(cells), "ok": 0, "failed": 0}
    if skip:
        run.meta["cells"]["skipped"] = 0
    run.meta["pool_sizes"] = sorted({int(c.params["pool"]) for c in cells if "pool" in c.params})
    run.save()
    progress = Progress(len(cells), repetitions)
    previous = {s: signal.signal(s, _raise_interrupted) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        for i, cell in enumerate(cells, 1):
            if skip and skip(cell):
                run.meta["cells"]["skipped"] += 1
                progress.skip_cell()
                continue
            progress.start_cell(i, cell.label())
            name = slug(f"{i:04d}-{cell.benchmark.family}-{cell.benchmark.name}-" +
                        "-".join(f"{k}={v}" for k, v in cell.params.items()))
            result = run_cell(cell, run.run_id, run.raw, name, repetitions, progress)
            run.add(result.rows)
            run.meta["cells"]["ok" if result.status == "ok" else "failed"] += 1
            run.save()
            progress.end_cell(result.status, result.detail, result.seconds)
            if finished:
                finished(cell, result)
    except Interrupted as stop:
        run.meta.update(ended_at=metadata.now_iso(), interrupted=str(stop))
        run.save()
        print(f"\nstallbench: {stop}: stopped; {run.path} keeps the finished cells and is marked incomplete",
              file=sys.stderr)
        raise SystemExit(130)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    run.meta.update(ended_at=metadata.now_iso(), complete=True)
    run.save()
    print(f"stallbench: {progress.summary()}", file=sys.stderr)
    return run
