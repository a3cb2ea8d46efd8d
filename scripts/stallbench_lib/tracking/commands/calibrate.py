"""stallbench calibrate: how far compare's verdicts can be trusted on this machine (A/A, A/B)."""
import json
import os
import re
from datetime import datetime, timezone
from pathlib import Path

from ... import build, catalogue, common_options, instructions, meta, numbers, paths
from ...errors import UsageError
from ...plan import parse_sets
from ...profiles import PROFILES
from .. import calibration, comparison, samples, statistics_options, trials
from ...commands.run import RunOptions, check_repetitions, perform, provide, sets_check
from ...documents import json_loads

NAME = "calibrate"
ORDER = 12
HELP = ("A/A: two runs of the same build compared (false regressions, detectable effect per metric); "
        "with --inject BENCH:PCT also A/B: that benchmark made to do PCT percent more work, and the smallest size "
        "compare still flags")


def add_arguments(p):
    p.add_argument("--inject", metavar="FAMILY/BENCH:PCT",
                   help="A/B: make that benchmark do PCT percent more work (its `work` parameters scaled), e.g. "
                        "pool/saturation:10; then PCT/2, PCT/5, PCT/10 until compare stops flagging it")
    p.add_argument("--profile", default="nightly", choices=sorted(PROFILES), help="profile of every run (default nightly)")
    p.add_argument("--filter", metavar="REGEX", help="only benchmarks whose family/name matches (as for run)")
    p.add_argument("--set", metavar="KEY=V1,V2", action="append", default=[], help="replace a parameter's grid (as for run)")
    p.add_argument("--repetitions", type=numbers.integer_option, metavar="N", help="repetitions per cell (default: the profile's)")
    p.add_argument("--instructions", action="store_true", help="count instructions too (run --instructions; with --trials, both ab and the runs do, and ab judges "
                        "the counted cells on their counts: --instructions-gate)")
    statistics_options.add(p)
    common_options.no_build(p)
    common_options.out(p, "where the runs and calibration.md/.json go (default results/calibrations/<UTC time>/)")
    p.add_argument("--trials", type=numbers.integer_option, metavar="N",
                   help="with --inject: N trials each of A/A and A/B, judged by paired rounds (`ab`) and by "
                        "run-then-compare side by side; counts how often each is right")
    p.add_argument("--methods", default=",".join(trials.METHODS), metavar="M1,M2",
                   help=f"for --trials: the ways of judging to count, any of {', '.join(trials.METHODS)} (default all)")
    p.add_argument("--ab-max-rounds", type=numbers.integer_option, default=20, metavar="N", help="for --trials: ab's --max-rounds (20)")
    p.add_argument("--ab-budget", type=numbers.decimal_option, default=3.0, metavar="MINUTES",
                   help="for --trials: ab's --budget per trial (3)")
    p.add_argument("--from", dest="previous", type=Path, metavar="DIR",
                   help="measure nothing: analyse again the runs of the calibration in DIR (with this --alpha and "
                        "--min-effect) and rewrite its calibration.md/.json")


def parse_inject(text: str, families) -> tuple[str, float]:
    bench, colon, pct_text = text.rpartition(":")
    known = {b.full_name: b for b in catalogue.all_benchmarks(families)}
    able = ", ".join(n for n, b in known.items() if any(p.work and not p.per_process for p in b.params)) or "none"
    pct = numbers.decimal(pct_text)
    if not colon or pct is None or not 0 < pct <= 1000:
        raise UsageError(f"--inject {text}: expected FAMILY/BENCHMARK:PCT with PCT in (0, 1000], e.g. pool/saturation:10")
    if bench not in known or not any(p.work and not p.per_process for p in known[bench].params):
        raise UsageError(f"--inject {text}: {bench} is not a benchmark with a `work` parameter (valid: {able})")
    return bench, pct


def _run(role: str, args, profile, repetitions, sets, out, build_dir, pattern=None, inject=None):
    print(f"stallbench: calibrate: {role} run", flush=True)
    if inject:
        os.environ[calibration.INJECT_VARIABLE] = inject
    try:
        options = RunOptions(profile, repetitions, pattern or args.filter, sets, args.instructions)
        result = perform(options, out, build_dir, {"calibration": {"role": role, "inject": inject}})
    finally:
        os.environ.pop(calibration.INJECT_VARIABLE, None)
    return samples.load(result.path)


def _judge_injection(cal, before, b, after, size: float, limits) -> calibration.Injection:
    """B against the unchanged runs just before and just after it, pooled (A B A B A ...), so
    drift of a shared machine lands on both sides alike."""
    calibration.record(cal, f"B +{size:g}%", b)
    calibration.record(cal, f"A after +{size:g}%", after)
    base = samples.pooled([before, after], f"{before.run_id}+{after.run_id}")
    injection = calibration.injection_summary(size, comparison.compare_runs(base, b, limits), cal.benchmark)
    cal.injections.append(injection)
    return injection


def _finish(cal, out) -> int:
    calibration.save(cal, out)
    print(calibration.markdown(cal))
    print(f"calibration: {out / 'calibration.md'}")
    missed = cal.benchmark is not None and not (cal.injections and cal.injections[0].flagged)
    return 1 if cal.false_regressions or missed else 0


def _analyse_again(previous: Path, args, limits) -> int:
    try:
        data = json_loads((previous / "calibration.json").read_text())
        runs = {role: samples.load(Path(path)) for role, path in data["runs"].items()}
    except (OSError, KeyError, json.JSONDecodeError) as e:
        raise UsageError(f"--from {previous}: not a calibration directory ({e})")
    cal = calibration.Calibration(data["fingerprint"], data["machine"], data["profile"], data["repetitions"],
                                  limits.alpha, limits.min_effect_pct, {})
    calibration.record(cal, "A1", runs["A1"])
    calibration.record(cal, "A2", runs["A2"])
    calibration.aa_summary(cal, comparison.compare_runs(runs["A1"], runs["A2"], limits))
    cal.benchmark = data.get("benchmark")
    roles = list(runs)
    before = runs["A2"]
    for role in roles:
        size = re.fullmatch(r"B ?\+([\d.]+)%", role)
        if size and cal.benchmark:
            after = runs[roles[roles.index(role) + 1]]
            _judge_injection(cal, before, runs[role], after, float(size.group(1)), limits)
            before = after
    return _finish(cal, previous)


def _trials(args, bench, pct, repetitions, build_dir, out) -> int:
    """Paired against sequential judging, N trials each (tracking/trials.py); exit 1 when the paired
    method (else the first chosen) is right in fewer than 19 of 20 (95%) of the trials."""
    if bench is None or not 1 <= args.trials <= 200:
        raise UsageError("--trials N needs --inject FAMILY/BENCH:PCT and N in 1-200")
    methods = tuple(dict.fromkeys(m.strip() for m in args.methods.split(",")))
    if not methods or any(m not in trials.METHODS for m in methods):
        raise UsageError(f"--methods {args.methods}: valid methods are {', '.join(trials.METHODS)}")
    common = [*(["--filter", args.filter] if args.filter else []), *(x for s in args.set for x in ("--set", s)),
              *(["--instructions"] if args.instructions else [])]
    found = trials.run_trials(args.trials, common, statistics_options.arguments(args.min_effect, args.alpha),
                              ["--profile", args.profile, "--max-rounds", str(args.ab_max_rounds), "--budget",
                               str(args.ab_budget),
                               # counted cells judged on their counts, as the pull-request job judges them
                               *(["--instructions-gate"] if args.instructions else [])],
                              ["--profile", args.profile, "--repetitions", str(repetitions)],
                              build_dir, bench, pct, out, methods)
    print(trials.markdown(found))
    print(f"calibration: {out / 'trials.md'}")
    judged = "paired" if "paired" in methods else methods[0]
    right = [v.exit == 0 if v.kind == "A/A" else v.caught for v in found.verdicts if v.method == judged]
    return 0 if sum(right) >= 0.95 * len(right) else 1


def run(args) -> int:
    profile = PROFILES[args.profile]
    repetitions = args.repetitions if args.repetitions is not None else profile.repetitions
    check_repetitions(repetitions)
    limits = statistics_options.thresholds(args.min_effect, args.alpha)
    if args.previous:
        return _analyse_again(args.previous, args, limits)
    sets = parse_sets(args.set)
    build_dir = provide(args.filter, args.instructions, args.no_build, sets_check(profile, args.filter, sets))
    if args.instructions:
        instructions.require_valgrind()
    families = catalogue.load(build.bench_binaries(build_dir))
    bench, pct = parse_inject(args.inject, families) if args.inject else (None, None)
    if bench and args.filter and not re.search(args.filter, bench):
        raise UsageError(f"--inject {args.inject}: --filter {args.filter!r} leaves {bench} out of the A runs")
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out = args.out or paths.RESULTS / "calibrations" / stamp
    if args.trials is not None:
        return _trials(args, bench, pct, repetitions, build_dir, out)
    machine = meta.machine()
    cal = calibration.Calibration(machine["fingerprint"], samples.describe_machine({"machine": machine}),
                                  profile.name, repetitions, limits.alpha, limits.min_effect_pct, {})
    a1 = _run("A/A first", args, profile, repetitions, sets, out, build_dir)
    a2 = _run("A/A second", args, profile, repetitions, sets, out, build_dir)
    calibration.record(cal, "A1", a1)
    calibration.record(cal, "A2", a2)
    calibration.aa_summary(cal, comparison.compare_runs(a1, a2, limits))
    if bench:
        cal.benchmark = bench
        only = f"^{re.escape(bench)}$"
        before = a2
        for step in calibration.STEPS:
            size = round(pct / step, 3)
            b = _run(f"A/B +{size:g}%", args, profile, repetitions, sets, out, build_dir, only, f"{bench}:{size:g}")
            after = _run(f"A/B unchanged after +{size:g}%", args, profile, repetitions, sets, out, build_dir, only)
            injection = _judge_injection(cal, before, b, after, size, limits)
            before = after
            if not injection.flagged:
                break
    return _finish(cal, out)
