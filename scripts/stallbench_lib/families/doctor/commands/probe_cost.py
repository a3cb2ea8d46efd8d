"""stallbench probe-cost: what the pool probe costs a program. The program runs at the same load with
and without the probe preloaded, in paired rounds (families/doctor/cost.py), and the command prints the median
ratio with/without of request latency, throughput, CPU and memory, with their range over the rounds."""
import shutil
import tempfile
from pathlib import Path

from .... import common_options, meta as metadata, numbers, paths
from ....app import own_benchmarks, program as app
from .. import cost, metrics as doctor_metrics
from ..session import pool_size
from ....errors import UsageError
from ....execute import run_meta
from ....probe import exporter_cost, preload
from ....rendering.render import announce
from ....rundir import RunDir
from ....parameters import Params
from ....tidy import Row

NAME = "probe-cost"
ORDER = 4
HELP = "measure what the pool probe costs a program: the same load with and without it, in paired rounds"
BENCHMARK = "probe-cost"


def add_arguments(p):
    p.add_argument("--app", metavar="COMMAND", required=True, help="the command that starts your Node program")
    p.add_argument("--url", metavar="URL", required=True, help="the http://127.0.0.1:PORT/PATH to drive")
    p.add_argument("--rate", type=numbers.decimal_option, default=10, metavar="R", help="requests per second (default 10)")
    p.add_argument("--duration", type=numbers.integer_option, default=10, metavar="S",
                   help="seconds of load per side of a round, 1-600 (default 10)")
    p.add_argument("--rounds", type=numbers.integer_option, default=3, metavar="N",
                   help="paired rounds, 1-50 (default 3): each runs the program once without and once with the probe")
    p.add_argument("--probe-rate", type=numbers.decimal_option, default=preload.DEFAULT_RATE_PER_S, metavar="N",
                   help=f"canaries per second, 1-1000 (default {preload.DEFAULT_RATE_PER_S})")
    p.add_argument("--exporter", choices=exporter_cost.KINDS,
                   help="on the side with the probe, also run its exporter as a service would (prometheus: "
                        "prom-client, scraped every second; otel: the OpenTelemetry SDK, exported every second)")
    p.add_argument("--ready-timeout", type=numbers.decimal_option, default=app.READY_TIMEOUT_S, metavar="S",
                   help=f"how long the program may take to answer after starting (default {app.READY_TIMEOUT_S})")
    common_options.out(p)
    common_options.no_build(p)
    common_options.no_report(p)


def _rows(run_id: str, units: dict[str, str], rate: float, pool: int, rounds: list[cost.Round],
          exporter: str | None) -> list[Row]:
    rows = []
    for r in rounds:
        for side, values in (("off", r.without), ("on", r.with_probe)):
            params = {"pool": str(pool), "rate": f"{rate:g}", "probe": side}
            key = Params({**params, "exporter": exporter} if exporter else params)
            rows += [Row(run_id, doctor_metrics.FAMILY, BENCHMARK, key, r.index, name, value, units[name], "ok", "")
                     for name, value in values.items()]
    return rows


def run(args) -> int:
    if not 1 <= args.rounds <= 50:
        raise UsageError(f"--rounds {args.rounds} is out of range: valid values are 1-50")
    app.check_load(args.rate, args.duration, args.ready_timeout)
    preload.check_rate(args.probe_rate)
    target = app.parse(args.app, args.url)
    RunDir.check_parent(args.out if args.out else paths.RUNS)
    preload_path, missing = preload.provide(args.no_build)
    if preload_path is None:
        raise UsageError(f"the pool probe is not available: {missing}")
    family, declared = own_benchmarks.declared(doctor_metrics.FAMILY, BENCHMARK, args.no_build)
    pool = pool_size()
    scratch = Path(tempfile.mkdtemp(prefix="stallbench-probe-cost-"))
    try:
        rounds = cost.measure(target, pool, args.rate, args.duration, args.rounds, args.ready_timeout,
                              app.Probe(preload_path, scratch / "probe.jsonl", args.probe_rate), args.exporter)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    settings = {"command": NAME, "app": args.app, "url": args.url, "rate": args.rate, "pool": pool,
                "probe_rate_per_s": args.probe_rate, "exporter": args.exporter, "rounds": args.rounds, "duration_s": args.duration}
    meta = run_meta([family], paths.build_dir(), settings)
    run = RunDir.create(args.out if args.out else paths.RUNS, metadata.new_run_id(meta["git"]), meta)
    run.add(_rows(run.run_id, own_benchmarks.units(declared), args.rate, pool, rounds, args.exporter))
    run.meta.update(ended_at=metadata.now_iso(), complete=True,
                    cells={"planned": 2 * args.rounds, "ok": 2 * args.rounds, "failed": 0, "findings": 0})
    run.save()
    exporter = f" with its {args.exporter} exporter" if args.exporter else ""
    print(f"the pool probe at {args.probe_rate:g} canaries/s{exporter}, {args.rounds} paired rounds of {args.duration} s at "
          f"{args.rate:g} requests/s (idle CPU: {cost.IDLE_S} s before the load): medians over the rounds")
    print(f"  {'metric':<18} {'without':>9} {'with':>9} {'with - without':>15} {'with / without (range)':>26}")
    for metric, c in cost.summary(rounds).items():
        ratio = f"×{c.ratio:.3f} ({c.ratio_low:.3f}–{c.ratio_high:.3f})" if c.ratio is not None else "–"
        print(f"  {metric:<18} {c.without:>9.2f} {c.with_probe:>9.2f} {c.difference:>+15.2f} {ratio:>26}")
    announce(run.path, args.no_report)
    return 0
