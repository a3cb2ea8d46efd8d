"""stallbench sweep-pool: the UV_THREADPOOL_SIZE study. One process per pool size runs the same
open-loop mix, in the C++ runtime and in each chosen Node line (--node); or, with --app, a user's own
program is started at each pool size and driven at a fixed rate. The command prints each class's
latency (measured and predicted) per size and the recommended size, and writes the run directory and
its report."""
import sys

from .... import build, catalogue, common_options, node as nodejs, numbers, paths, shard_plan, shards
from ....app import own_benchmarks, program as app
from ....errors import UsageError
from ....execute import execute, run_meta
from ....plan import make_plan
from .. import app_run, mixes, pool_waits, targets
from ..recommend import recommend
from ..summary import app_sweeps, model_error, sweeps
from ....probe import preload
from ....profiles import PROFILES
from ....rendering.render import announce
from ....rendering.stats import fmt
from ....rundir import RunDir

NAME = "sweep-pool"
ORDER = 2
HELP = "UV_THREADPOOL_SIZE tuning: run a mix of pool work at several pool sizes, compare with the model, recommend a size"
FAMILY = "pool-sweep"
MIX_DURATION_S = 10
# Your own program is swept in rounds: every size once per round, the order alternating (1, 2, 4, 8
# then 8, 4, 2, 1, ...), so the load other work puts on a shared machine, which comes and goes over
# tens of seconds, falls on every size alike rather than on whichever ran at a bad moment.
APP_REPETITIONS = 3
APP_DURATION_S = 5


def add_arguments(p):
    p.add_argument("--sizes", default="1,2,4,8,16,32", metavar="N,N,...",
                   help="pool sizes, 1-1024, one process each (default 1,2,4,8,16,32)")
    p.add_argument("--mix", metavar="MIX",
                   help="a named mix or CLASS:RATE[:SIZE],... with CLASS one of pbkdf2, scrypt, deflate, read, stat, "
                        "lookup, reverse; RATE jobs per second, or xN to keep N in flight (default login-heavy). "
                        "Named: " + mixes.help_text())
    p.add_argument("--app", metavar="COMMAND",
                   help="sweep your own program instead of a mix: the command that starts it (split like a shell "
                        "would, run without one), e.g. \"node server.js\"; needs --url")
    p.add_argument("--url", metavar="URL", help="with --app: the http://127.0.0.1:PORT/PATH to drive (loopback only)")
    p.add_argument("--rate", type=numbers.decimal_option, default=10, metavar="R",
                   help="with --app: requests per second, each sent when due whatever is outstanding (default 10)")
    app.add_arrivals_argument(p, "with --app: ")
    p.add_argument("--no-probe", action="store_true",
                   help="with --app: do not preload the pool probe into the program (latency only)")
    p.add_argument("--ready-timeout", type=numbers.decimal_option, default=app.READY_TIMEOUT_S, metavar="S",
                   help=f"with --app: how long the program may take to answer its URL after starting, 1-600 s "
                        f"(default {app.READY_TIMEOUT_S})")
    p.add_argument("--duration", type=numbers.integer_option, metavar="S",
                   help=f"seconds of arrivals per size, 1-60 (default 10); with --app, per size and repetition "
                        f"(default {APP_DURATION_S})")
    p.add_argument("--targets", metavar="CLASS:MS[:PCT],...",
                   help="latency targets (PCT p50, p95, p99 or max; default p99; with --app the class is `requests`, "
                        "e.g. requests:200); others default to p99 within "
                        f"{targets.DEFAULT_FLOOR_MS:g} ms or {targets.DEFAULT_ALONE_MULTIPLE:g}x the class's alone time")
    p.add_argument("--repetitions", type=numbers.integer_option, metavar="N",
                   help=f"runs per size (default 1; with --app {APP_REPETITIONS}, in rounds whose order alternates)")
    p.add_argument("--slow-dns", action="store_true",
                   help="also reproduce nodejs/node#8436 at these sizes (real lookups need root: a private network "
                        "namespace with a delaying DNS server of our own)")
    nodejs.add_option(p, "the Node side of the synthetic sweep (the mix run by Node's own crypto, zlib, fs, dns)")
    shard_plan.add_options(p, "the sweep's points (a point: one pool size of the mix in one runtime, all its "
                              "repetitions; `stallbench merge` joins the shards into one sweep and its report)",
                           "balanced by the points' --duration", stored=False)
    common_options.out(p)
    common_options.no_build(p)
    common_options.no_report(p)


def _sizes(text: str) -> list[str]:
    items = text.split(",")
    if "" in items:
        raise UsageError(f"--sizes {text!r}: expected N,N,... (pool sizes 1-1024) with no empty item")
    return sorted(dict.fromkeys(items), key=numbers.natural_order)


def _plan(families, sizes, mix: mixes.Mix, duration, slow_dns, nodes):
    quick = PROFILES["quick"]
    runtimes = ["stallbench", "node"] if nodes else ["stallbench"]  # the same arrivals in C++ and each Node line
    cells = make_plan(families, quick, f"^{FAMILY}/open-loop$",
                      {"pool": sizes, "mix": [mix.as_param()], "duration": [str(duration)], "runtime": runtimes},
                      nodes)
    notes = []
    if slow_dns:
        dns_cells = make_plan(families, quick, f"^{FAMILY}/slow-dns$", {"pool": sizes})
        if not any(c.params.get("lookup_kind") == "getaddrinfo" for c in dns_cells):
            notes.append("slow DNS: the real-lookup half was skipped: this machine does not let stallbench create a "
                         "private network and mount namespace (needs root and unshare); only the blocking-work "
                         "contrast ran")
        cells += dns_cells
    return cells, notes


def _print_mix_table(sweep) -> None:
    print(f"\n{sweep.title()}: latency ms, measured (predicted); wait and service are p50")
    print(f"{'class':<8} {'pool':>5} {'p50':>18} {'p99':>18} {'wait':>9} {'service':>9} {'done/s':>14} {'unfinished':>10}")
    for cls in sweep.classes:
        for pool in sweep.sizes:
            c = sweep.at(pool, cls)
            if c is None:
                continue
            g = c.get
            print(f"{cls:<8} {pool:>5} {fmt(g('latency_p50_ms'), 2):>8} ({fmt(g('predicted_p50_ms'), 2):>7}) "
                  f"{fmt(g('latency_p99_ms'), 2):>8} ({fmt(g('predicted_p99_ms'), 2):>7}) "
                  f"{fmt(g('queue_wait_p50_ms'), 2):>9} {fmt(g('service_p50_ms'), 2):>9} "
                  f"{fmt(g('throughput_per_s')):>6}/{fmt(g('offered_per_s')):<7} {fmt(g('unfinished'), 0):>10}")
    error = model_error(sweep)
    if error.median_abs is not None:
        print(f"model: median absolute error of p50 {error.median_abs:.0%} over {len(error.points)} points "
              "(this machine is shared: its noise is part of the error)")


def _print_app_table(sweep) -> None:
    """Your program: request latency from outside, and what the probe saw inside at each size."""
    print(f"\n{sweep.title()}: requests' latency (ms, from outside); inside the program (the pool probe): how "
          "busy libuv's threads were, how long each request's pool work waited for threads in all (Little's law), "
          "one pool job's wait for a thread at p99, the loop's delay")
    print(f"{'pool':>5} {'p50':>8} {'p99':>8} {'pool busy':>10} {'wait/request':>13} {'wait p99':>9} {'loop p99':>9} "
          f"{'loop use':>9} {'done/s':>14} {'unfinished':>10}")
    for pool in sweep.sizes:
        c, per = sweep.at(pool, "requests"), sweep.per_size.get(pool, {})
        if c is None:
            continue
        g = c.get
        use, busy = per.get("loop_utilization"), g("pool_utilization")
        print(f"{pool:>5} {fmt(g('latency_p50_ms')):>8} {fmt(g('latency_p99_ms')):>8} "
              f"{'–' if busy is None else f'{busy:.0%}':>10} {fmt(g('pool_wait_per_request_ms'), 2):>13} "
              f"{fmt(g('queue_thread_wait_p99_ms'), 2):>9} {fmt(per.get('loop_delay_p99_ms'), 1):>9} "
              f"{'–' if use is None else f'{use:.0%}':>9} "
              f"{fmt(g('throughput_per_s')):>6}/{fmt(g('offered_per_s')):<7} {fmt(g('unfinished'), 0):>10}")


def _print_summary(run, given) -> int | None:
    chosen = None
    for sweep in sweeps(run.rows) + app_sweeps(run.rows):
        (_print_app_table if sweep.runtime == "app" else _print_mix_table)(sweep)
        for failure in sweep.failures:
            print(f"failed: {failure}")
        rec = recommend(sweep, given, run.meta.get("machine", {}).get("cores"))
        print(rec.headline())
        for reason in rec.reasons:
            print(f"  {reason}")
        chosen = rec.size
    for line in pool_waits.text(sweeps(run.rows), lambda v: fmt(v, 2)):  # every runtime's wait beside the model's
        print(line)
    return chosen


def _check_sizes(sizes: list[str]) -> list[int]:
    """--app sizes are checked here (no bench binary sees them); the synthetic ones by the binary."""
    values = [numbers.integer(s) for s in sizes]
    if not all(v is not None and 1 <= v <= 1024 for v in values):
        raise UsageError(f"--sizes {','.join(sizes)}: valid pool sizes are integers 1-1024")
    return values


def _run_app(args, sizes: list[str]) -> int:
    if args.mix or args.slow_dns or args.node:
        raise UsageError("--app sweeps your program; --mix, --slow-dns and --node are for the synthetic sweep")
    if not args.url:
        raise UsageError("--app needs --url http://127.0.0.1:PORT/PATH: the address your program answers on")
    app.check_load(args.rate, args.duration, args.ready_timeout)
    pools = _check_sizes(sizes)
    target = app.parse(args.app, args.url)
    given = targets.parse(args.targets, ["requests"])
    RunDir.check_parent(args.out if args.out else paths.RUNS)
    probe, missing = (None, "--no-probe") if args.no_probe else preload.provide(args.no_build)
    if probe is None and not args.no_probe:
        print(f"stallbench: notice: the pool probe is not available ({missing}): latency only", file=sys.stderr)
    settings = {"command": NAME, "app": args.app, "url": args.url, "sizes": pools, "duration_s": args.duration,
                "targets": targets.to_meta(given), "repetitions": args.repetitions, "probe_missing": missing or None}
    family, declared = own_benchmarks.declared(FAMILY, app_run.BENCHMARK, args.no_build)
    meta = run_meta([family], paths.build_dir(), settings)
    plan = app_run.Plan(target, pools, args.rate, args.duration, args.repetitions, args.ready_timeout, probe,
                        units=own_benchmarks.units(declared), arrivals=args.arrivals)
    result = app_run.sweep(plan, args.out if args.out else paths.RUNS, meta)
    return _finish(result, given, args.no_report)


def _finish(result, given, no_report: bool) -> int:
    """The summary, where the files went, and the exit code: 1 when a cell failed."""
    _print_summary(result, given)
    announce(result.path, no_report)
    return 0 if result.meta["cells"]["failed"] == 0 else 1


def run(args) -> int:
    sizes = _sizes(args.sizes)
    if args.repetitions is None:
        args.repetitions = APP_REPETITIONS if args.app is not None else 1
    if args.duration is None:
        args.duration = APP_DURATION_S if args.app is not None else MIX_DURATION_S
    if not 1 <= args.repetitions <= 100:
        raise UsageError(f"--repetitions {args.repetitions} is out of range: valid values are 1-100")
    shard = shards.parse(args.shard) if args.shard is not None else None
    shard_plan.check_group(shard, args.group)
    if args.app is not None or args.url:
        if shard is not None:
            raise UsageError("--shard splits the synthetic sweep; --app sweeps one program, on one machine")
        if args.app is None:
            raise UsageError("--url goes with --app COMMAND (the program to start at each pool size)")
        return _run_app(args, sizes)
    args.mix = args.mix or "login-heavy"
    try:
        mix = mixes.Mix.parse(args.mix)
    except ValueError as e:
        raise UsageError(f"--mix {args.mix!r}: {e}; a mix is CLASS:RATE[:SIZE],... or one of: {mixes.help_text()}") from None
    nodes = tuple(nodejs.choose(args.node))
    build_dir = paths.build_dir() if args.no_build else build.ensure_built()
    binary = build.bench_binaries(build_dir).get(FAMILY.replace("-", "_"))  # describe this family only
    if binary is None:
        raise UsageError(f"the {FAMILY} benchmarks are not built in {build_dir}")
    families = [catalogue.describe(binary)]
    cells, notes = _plan(families, sizes, mix, args.duration, args.slow_dns, nodes)  # the binary validates every value
    part = {}
    if shard is not None:
        cells, part["shard"] = shard_plan.split_points(cells, shard, args.group, args.repetitions)
    if nodes and preload.find(build_dir) is None:
        print(f"stallbench: notice: {preload.missing_reason(build_dir)}: the Node rows have latency only, no pool wait",
              file=sys.stderr)
    given = targets.parse(args.targets, mix.classes)
    settings = {"command": NAME, "mix": args.mix, "sizes": [int(s) for s in sizes], "duration_s": args.duration,
                "targets": targets.to_meta(given), "repetitions": args.repetitions, "slow_dns": args.slow_dns,
                "notes": notes, "nodes": [n.meta() for n in nodes], **part}
    result = execute(cells, args.repetitions, args.out if args.out else paths.RUNS, run_meta(families, build_dir, settings))
    for note in notes:
        print(note)
    if shard is not None:  # printed, not kept in meta.json's notes: the merged sweep would inherit it
        print(f"shard {shard} of group {args.group}: {len(cells)} of the sweep's points; the recommendation below "
              "weighs only these (`stallbench merge` joins the shards into the sweep's)")
    return _finish(result, given, args.no_report)
