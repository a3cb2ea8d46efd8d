"""stallbench doctor: is a Node program's event loop blocked, its thread pool saturated, both or
neither? It runs the program with the pool probe at its current UV_THREADPOOL_SIZE, drives a URL of it
at a rate (--url; requests at random moments unless --arrivals fixed) or watches while you drive it,
and prints a verdict with the figures behind it and the next step; the run directory and report keep
the samples and a timeline plot."""
import shutil
import tempfile
from pathlib import Path

from .... import common_options, meta as metadata, numbers, paths
from ....app import own_benchmarks, program as app
from ....catalogue import Benchmark, Family
from .. import metrics, session as sessions, verdict as verdicts
from ....errors import UsageError
from ....execute import run_meta
from ....probe import preload
from ....rendering.render import announce
from ....rendering.stats import fmt
from ....rundir import RunDir

NAME = "doctor"
ORDER = 3
HELP = "diagnose a Node program: event loop blocked, thread pool saturated, both or neither (measured inside it)"
DRIVEN_DEFAULT_S = 10
WATCHED_DEFAULT_S = 600


def add_arguments(p):
    p.add_argument("--app", metavar="COMMAND", required=True,
                   help="the command that starts your Node program (split like a shell would, run without one), "
                        "e.g. \"node server.js\" or \"npm start\"")
    p.add_argument("--url", metavar="URL",
                   help="drive this http://127.0.0.1:PORT/PATH at --rate for --duration; without it, drive the "
                        "program yourself while the doctor watches (until it exits or Ctrl-C)")
    p.add_argument("--rate", type=numbers.decimal_option, default=10, metavar="R",
                   help="with --url: requests per second (default 10)")
    app.add_arrivals_argument(p, "with --url: ")
    p.add_argument("--duration", type=numbers.decimal_option, metavar="S",
                   help=f"with --url: seconds of load (default {DRIVEN_DEFAULT_S}, 1-600); without: the longest watch "
                        f"(default {WATCHED_DEFAULT_S}, 1-86400)")
    p.add_argument("--ready-timeout", type=numbers.decimal_option, default=app.READY_TIMEOUT_S, metavar="S",
                   help=f"with --url: how long the program may take to answer after starting, 1-600 s "
                        f"(default {app.READY_TIMEOUT_S})")
    p.add_argument("--probe-rate", type=numbers.decimal_option, default=preload.DEFAULT_RATE_PER_S, metavar="N",
                   help=f"canaries per second the probe submits to the pool, 1-1000 (default "
                        f"{preload.DEFAULT_RATE_PER_S})")
    common_options.out(p)
    common_options.no_build(p)
    common_options.no_report(p)


def _check(args) -> tuple[float, app.AppTarget | None, list[str]]:
    """(duration, the URL target or None, argv); UsageError for anything out of range."""
    preload.check_rate(args.probe_rate)
    if args.url is None:
        duration = WATCHED_DEFAULT_S if args.duration is None else args.duration
        if not 1 <= duration <= 86400:
            raise UsageError(f"--duration {duration:g} is out of range: valid watches are 1-86400 seconds")
        argv = app.split_command(args.app)
        return duration, None, argv
    duration = DRIVEN_DEFAULT_S if args.duration is None else args.duration
    app.check_load(args.rate, duration, args.ready_timeout)
    target = app.parse(args.app, args.url)
    return duration, target, target.argv


def run(args) -> int:
    started_at = metadata.now_iso()
    duration, target, argv = _check(args)
    RunDir.check_parent(args.out if args.out else paths.RUNS)
    probe, missing = preload.provide(args.no_build)
    if probe is None:
        raise UsageError(f"the pool probe is not available: {missing}")
    declared = own_benchmarks.declared(metrics.FAMILY, metrics.BENCHMARK, args.no_build)
    pool = sessions.pool_size()
    scratch = Path(tempfile.mkdtemp(prefix="stallbench-doctor-"))
    try:
        if target:
            session = sessions.driven(target, pool, args.rate, int(duration), args.ready_timeout, probe,
                                      args.probe_rate, scratch, args.arrivals)
        else:
            session = sessions.watched(argv, args.app, duration, probe, args.probe_rate, scratch)
        return _finish(args, session, pool, started_at, declared)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def request_line(m: dict) -> str:
    """The driven requests in a line; a percentile the load generator did not give is '–', not 0."""
    return (f"requests: median {fmt(m.get('latency_p50_ms'), 0)} ms, p99 {fmt(m.get('latency_p99_ms'), 0)} ms, "
            f"{fmt(m.get('throughput_per_s'), 1)}/s answered of {fmt(m.get('offered_per_s'), 1)}/s sent")


def duration_of(session) -> float:
    return (session.load.sending_to_ms - session.load.sending_from_ms) / 1000


def _finish(args, session, pool: int, started_at: str, declared: tuple[Family, Benchmark]) -> int:
    if session.load is None:  # watched: the program read UV_THREADPOOL_SIZE itself, with its own libuv
        pool = sessions.pool_size(session.measured.start.get("uv"))
    request_p50 = session.load.metrics.get("latency_p50_ms") if session.load else None
    # The requests arrived at the rate sent, over the sending time; the window runs on to the last answer.
    rate = (args.rate * duration_of(session) / session.window.seconds) if session.load else None
    verdict = verdicts.diagnose(session.window, request_p50, rate, session.machine_cpu_util)
    cores = metadata.machine().get("cores")
    step = verdicts.next_step(verdict, args.app, args.url, args.rate if args.url else None, pool, cores)
    measured = session.measured
    over = (f"the {session.window.seconds:.0f} s from the first of {duration_of(session):.0f} s of requests at "
            f"{args.rate:g}/s to the last answer" if session.load
            else f"{session.window.seconds:.0f} s ({session.ended})")
    settings = {"command": NAME, "app": args.app, "url": args.url, "rate": args.rate if args.url else None,
                "arrivals": args.arrivals if args.url else None,
                "pool": pool, "probe_rate_per_s": args.probe_rate}
    family, benchmark = declared
    meta = {**run_meta([family], paths.build_dir(), settings), "started_at": started_at}
    meta["doctor"] = {"verdict": verdict.word, "headline": verdict.headline, "figures": verdict.figures,
                      "notes": verdict.notes, "next": step, "window_ms": [session.window.t0, session.window.t1],
                      "measured_pid": measured.pid, "over": over, "startup_ms": measured.startup_ms,
                      "main_thread_cpu": measured.start.get("main_thread_cpu"),
                      "pool_unreadable": session.window.pool_unreadable if session.window.pool is None else None,
                      "processes": {str(t.pid): t.command for t in session.traces.values()}}
    run = RunDir.create(args.out if args.out else paths.RUNS, metadata.new_run_id(meta["git"]), meta)
    shutil.copy(session.probe_file, run.raw / "probe.jsonl")
    params = {"pool": str(pool), "mode": "driven" if session.load else "watched"}
    if session.load:
        params["rate"] = f"{args.rate:g}"
    run.add(metrics.rows(run.run_id, own_benchmarks.units(benchmark), params, session, verdict))
    run.meta.update(ended_at=metadata.now_iso(), complete=True, cells={"planned": 1, "ok": 1, "failed": 0, "findings": 0})
    run.save()
    print(f"doctor: {verdict.headline}")
    for line in verdict.figures + verdict.notes:
        print(f"  {line}")
    if session.load:
        print(f"  {request_line(session.load.metrics)}")
    print(f"measured: pid {measured.pid} ({measured.node}: {measured.command}) at UV_THREADPOOL_SIZE={pool}, over {over}")
    print(f"next: {step}")
    announce(run.path, args.no_report)
    return 0
