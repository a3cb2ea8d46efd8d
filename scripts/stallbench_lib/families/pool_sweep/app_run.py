"""An --app sweep as a run directory, like any other: rows of family pool-sweep, benchmark `app`,
one set per pool size and repetition, written after each size; meta.json says what was driven and
with what. The program is first started at the first size before anything is written, so a program
that exits, never answers or listens elsewhere is refused (exit 2) with nothing on disk.

With the pool probe, each size's samples are kept as raw/probe-pool<N>-rep<K>.jsonl and summarised
into the size's rows (stallbench_lib/app/probe_figures.py). Repetitions after the first run the sizes in the reverse order
of the one before (1, 2, 4, 8 then 8, 4, 2, 1), so a machine that grows busier during the sweep
does not favour one end of it."""
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ... import meta as metadata
from ... import node as nodejs, paths
from ...execute import end_interrupted
from ...rundir import RunDir
from ...parameters import Params
from ...tidy import Row
from ...app import program as app, probe_figures as app_probe

FAMILY, BENCHMARK = "pool-sweep", "app"


def _rows(run_id: str, units: dict[str, str], params: dict, repetition: int, metrics: dict[str, float],
          series: dict[str, list[float]] | None = None) -> list[Row]:
    key = Params(params)
    values = [(name, value) for name, value in metrics.items()]
    values += [(name, value) for name, many in (series or {}).items() for value in many]
    return [Row(run_id, FAMILY, BENCHMARK, key, repetition, name, value, units[name], "ok", "") for name, value in values]


def steps(sizes: list[int], repetitions: int) -> list[tuple[int, int]]:
    """(repetition, pool) in the order they run: every other repetition reversed."""
    return [(rep, pool) for rep in range(repetitions) for pool in (sizes if rep % 2 == 0 else sizes[::-1])]


def _failure_rows(run_id: str, units: dict[str, str], params: dict, repetition: int, status: str,
                  detail: str) -> list[Row]:
    key = Params(params)
    return [Row(run_id, FAMILY, BENCHMARK, key, repetition, name, None, unit, status, detail) for name, unit in units.items()]


@dataclass(frozen=True)
class Plan:
    """What an --app sweep does: the program, its sizes, the load, and the probe (None: latency only)."""
    target: app.AppTarget
    sizes: list[int]
    rate: float
    duration_s: int
    repetitions: int
    ready_timeout_s: float
    preload: Path | None = None
    probe_rate: float = app.preload.DEFAULT_RATE_PER_S
    units: dict[str, str] = field(default_factory=dict)  # metric -> unit, as benches/pool_sweep.cc declares `app`'s
    arrivals: str = app.ARRIVALS[0]  # when requests fall due; repetition K draws its moments from seed K+1

    def order(self) -> list[tuple[int, int]]:
        return steps(self.sizes, self.repetitions)

    def probe(self, folder: Path, rep: int, pool: int) -> app.Probe | None:
        if self.preload is None:
            return None
        return app.Probe(self.preload, folder / f"probe-pool{pool}-rep{rep}.jsonl", self.probe_rate)


def sweep(plan: Plan, out_parent: Path, base_meta: dict) -> RunDir:
    load_node = app.load_generator_node()
    samples = Path(tempfile.mkdtemp(prefix="stallbench-probe-"))
    try:
        rep, pool = plan.order()[0]
        # Started before anything is written: a program that exits, never answers or listens elsewhere is refused.
        first = app.RunningApp(plan.target, pool, plan.ready_timeout_s, plan.probe(samples, rep, pool))
        try:
            return _sweep(plan, out_parent, base_meta, load_node, first, samples)
        finally:
            first.stop()  # a no-op once stopped; here for an interruption before the first size ran
    finally:
        shutil.rmtree(samples, ignore_errors=True)


def _measure(plan: Plan, running: app.RunningApp, load_node: nodejs.Node, run: RunDir, rep: int, pool: int
             ) -> tuple[dict[str, float], dict[str, list[float]]]:
    """One size of one repetition: (metrics, series). Raises RuntimeError/OSError when it failed. Every
    size of a repetition gets the same moments of arrival: they differ by the pool alone."""
    alone = running.alone_ms()
    load = app.drive(running, load_node, plan.rate, plan.duration_s, plan.arrivals, seed=rep + 1)
    running.stop()
    metrics, series = {"service_alone_ms": alone, **load.metrics}, {}
    if running.probe:
        probed, series, measured = app_probe.metrics(running.probe.out, load.sending_from_ms, load.sending_to_ms,
                                                     plan.rate)
        metrics.update(probed)
        run.meta["probe"]["measured"][f"pool={pool};rep={rep}"] = measured
        if not probed and not run.meta["probe"].get("absent"):
            run.meta["probe"]["absent"] = measured
            print(f"stallbench: notice: {measured}: latency only (a program that is not Node, or clears NODE_OPTIONS, "
                  "cannot be measured from inside)", file=sys.stderr, flush=True)
        if running.probe.out.exists():
            shutil.move(running.probe.out, run.raw / running.probe.out.name)
    return metrics, series


def _sweep(plan: Plan, out_parent: Path, base_meta: dict, load_node: nodejs.Node, first: app.RunningApp,
           samples: Path) -> RunDir:
    base_meta["load_generator"] = {"tool": app.LOAD_SCRIPT.relative_to(paths.ROOT).as_posix(), "arrivals": plan.arrivals,
                                   "node": load_node.meta(), "rate_per_s": plan.rate,
                                   "duration_s": plan.duration_s, "drain_s": app.drain_s(plan.duration_s),
                                   "request_timeout_ms": app.REQUEST_TIMEOUT_MS}
    run = RunDir.create(out_parent, metadata.new_run_id(base_meta["git"]), base_meta)
    order = plan.order()
    run.meta.update(pool_sizes=plan.sizes, cells={"planned": len(order), "ok": 0, "failed": 0, "findings": 0},
                    probe={"measured": {}} if first.probe else {"measured": {}, "missing": base_meta.get("probe_missing")})
    run.save()
    try:
        for k, (rep, pool) in enumerate(order, 1):
            params = {"pool": str(pool), "rate": f"{plan.rate:g}", "duration": str(plan.duration_s)}
            print(f"[{k}/{len(order)}] app UV_THREADPOOL_SIZE={pool} · {plan.duration_s} s at {plan.rate:g}/s"
                  + (f" · rep {rep + 1}/{plan.repetitions}" if plan.repetitions > 1 else ""), file=sys.stderr, flush=True)
            started = time.monotonic()
            running = None
            try:
                running = first if k == 1 else app.RunningApp(plan.target, pool, plan.ready_timeout_s,
                                                              plan.probe(samples, rep, pool))
                metrics, series = _measure(plan, running, load_node, run, rep, pool)
                run.add(_rows(run.run_id, plan.units, params, rep, metrics, series))
                run.meta["cells"]["ok"] += 1
                status = "ok"
            except (RuntimeError, OSError, nodejs.UsageError) as e:
                run.add(_failure_rows(run.run_id, plan.units, params, rep, "error", str(e)))
                run.meta["cells"]["failed"] += 1
                status = f"error: {e}"
            finally:
                if running is not None:
                    running.stop()
            run.save()
            print(f"    {status} ({time.monotonic() - started:.1f} s)", file=sys.stderr, flush=True)
    except KeyboardInterrupt as stop:
        end_interrupted([run], stop, f"the program was killed; {run.path} keeps the finished sizes")
    run.meta.update(ended_at=metadata.now_iso(), complete=True)
    run.save()
    return run
