"""An --app sweep as a run directory, like any other: rows of family pool-sweep, benchmark `app`,
one set per pool size and repetition, written after each size; meta.json says what was driven and
with what. The program is first started at the first size before anything is written, so a program
that exits, never answers or listens elsewhere is refused (exit 2) with nothing on disk."""
import sys
import time
from pathlib import Path

from .. import meta as metadata
from .. import node as nodejs
from ..execute import end_interrupted
from ..rundir import RunDir
from ..tidy import Row, canonical_params
from . import app

FAMILY, BENCHMARK = "pool-sweep", "app"


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


def _rows(run_id: str, params: dict, repetition: int, metrics: dict[str, float]) -> list[Row]:
    key = canonical_params(params)
    return [Row(run_id, FAMILY, BENCHMARK, key, repetition, name, value, app.METRICS[name][0], "ok", "")
            for name, value in metrics.items()]


def _failure_rows(run_id: str, params: dict, repetition: int, status: str, detail: str) -> list[Row]:
    key = canonical_params(params)
    return [Row(run_id, FAMILY, BENCHMARK, key, repetition, name, None, unit, status, detail)
            for name, (unit, *_) in app.METRICS.items()]


def sweep(target: app.AppTarget, sizes: list[int], rate: float, duration_s: int, repetitions: int,
          ready_timeout_s: float, out_parent: Path, base_meta: dict) -> RunDir:
    load_node = load_generator_node()
    modules = nodejs.tool_modules("load")
    first = app.RunningApp(target, sizes[0], ready_timeout_s)  # refuses a bad program before anything is written
    base_meta["load_generator"] = {"tool": app.LOAD_GENERATOR, "node": load_node.meta(), "rate_per_s": rate,
                                   "duration_s": duration_s, "drain_s": app.drain_s(duration_s),
                                   "request_timeout_ms": app.REQUEST_TIMEOUT_MS}
    base_meta["metrics"] = {**base_meta.get("metrics", {}), f"{FAMILY}/{BENCHMARK}": app.declarations()}
    run = RunDir.create(out_parent, metadata.new_run_id(base_meta["git"]), base_meta)
    run.meta.update(pool_sizes=sizes, cells={"planned": len(sizes) * repetitions, "ok": 0, "failed": 0, "findings": 0})
    run.save()
    steps = [(rep, pool) for rep in range(repetitions) for pool in sizes]
    try:
        for k, (rep, pool) in enumerate(steps, 1):
            params = {"pool": str(pool), "rate": f"{rate:g}", "duration": str(duration_s)}
            print(f"[{k}/{len(steps)}] app UV_THREADPOOL_SIZE={pool} · {duration_s} s at {rate:g}/s"
                  + (f" · rep {rep + 1}/{repetitions}" if repetitions > 1 else ""), file=sys.stderr, flush=True)
            started = time.monotonic()
            running = None
            try:
                running = first if k == 1 else app.RunningApp(target, pool, ready_timeout_s)
                metrics = {"service_alone_ms": running.alone_ms(),
                           **app.drive(running, load_node, modules, rate, duration_s)}
                run.add(_rows(run.run_id, params, rep, metrics))
                run.meta["cells"]["ok"] += 1
                status = "ok"
            except (RuntimeError, OSError, nodejs.UsageError) as e:
                run.add(_failure_rows(run.run_id, params, rep, "error", str(e)))
                run.meta["cells"]["failed"] += 1
                status = f"error: {e}"
            finally:
                if running is not None:
                    running.stop()
            run.save()
            print(f"    {status} ({time.monotonic() - started:.1f} s)", file=sys.stderr, flush=True)
    except KeyboardInterrupt as stop:
        end_interrupted([run], stop, f"the program was killed; {run.path} keeps the finished sizes")
    finally:
        first.stop()  # a no-op once stopped; here for an interruption before the first size ran
    run.meta.update(ended_at=metadata.now_iso(), complete=True)
    run.save()
    return run
