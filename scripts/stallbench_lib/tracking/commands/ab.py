"""stallbench ab BASE CURRENT: two revisions (or build directories) measured in paired rounds."""
import os
import time
from datetime import datetime, timezone

from ... import common_options, instructions, node as nodejs, numbers, os_packages, paths, shard_plan, shards
from ...errors import UsageError
from ...plan import parse_sets
from ...profiles import DEFAULT, PROFILES
from .. import (
    ab_report, ab_rounds, ab_session, ab_verdict, geomean, power, revisions, statistics_options, store, stored_durations)
from .calibrate import parse_inject

NAME = "ab"
ORDER = 9
HELP = ("A/B of two git revisions (each built in its own worktree, cached by commit) or two build directories: "
        "their cells run interleaved in paired rounds, so load on the machine hits both alike; per metric the "
        "change with its confidence interval and a verdict; exit 1 when anything regressed, "
        f"{power.INCONCLUSIVE_EXIT} when nothing did but the rounds ended before every gated metric could see a "
        "change of its minimum effect (inconclusive)")
DEFAULT_MAX_ROUNDS = 30
DEFAULT_BUDGET_MIN = 30.0


def add_arguments(p):
    p.add_argument("base", metavar="BASE", help="the reference: a commit, tag or branch, or a build directory")
    p.add_argument("current", metavar="CURRENT", help="the one judged: a commit, tag or branch, or a build directory")
    p.add_argument("--profile", default=DEFAULT, choices=sorted(PROFILES),
                   help=f"whose grid to run (default {DEFAULT}); the rounds are ab's own")
    p.add_argument("--filter", metavar="REGEX", help="only benchmarks whose family/name matches")
    p.add_argument("--set", metavar="KEY=V1,V2", action="append", default=[], help="replace a parameter's grid")
    statistics_options.add(p)
    p.add_argument("--min-rounds", type=numbers.integer_option, metavar="N",
                   help="rounds every cell runs before it may stop (default: what a lone regression needs to "
                        "survive the correction for every metric)")
    p.add_argument("--max-rounds", type=numbers.integer_option, default=DEFAULT_MAX_ROUNDS, metavar="N",
                   help=f"rounds at most (default {DEFAULT_MAX_ROUNDS})")
    p.add_argument("--budget", type=numbers.decimal_option, default=DEFAULT_BUDGET_MIN, metavar="MINUTES",
                   help=f"time for the rounds, builds not counted (default {DEFAULT_BUDGET_MIN:g})")
    p.add_argument("--duet", action="store_true",
                   help="run the two processes of a round at the same time instead of back to back (Bulej et al.'s "
                        "duet method: shares fast-changing load between the sides; each side then has half the cores)")
    p.add_argument("--instructions", action="store_true",
                   help="after the rounds, count the instructions of the CPU-bound cells of both sides under callgrind "
                        f"({ab_rounds.INSTRUCTION_REPETITIONS} repetitions each), beside the wall times")
    p.add_argument("--instructions-gate", action="store_true",
                   help="with --instructions: for the cells whose instructions were counted, the counts alone decide "
                        "the exit code (deterministic, untouched by load); their wall times are judged and reported "
                        "beside them but do not fail it; other cells are gated on wall time as usual")
    p.add_argument("--inject", metavar="FAMILY/BENCH:PCT",
                   help="make CURRENT's BENCH do PCT percent more work (calibration: a slowdown ab must catch)")
    common_options.out(p, "where both runs and ab.md/.csv/.json go (default results/ab/<time>-<base>-vs-<current>/)")
    nodejs.add_option(p, "the Node cells (the same Node binaries for both sides)")
    shard_plan.add_options(p, "the cells (each cell's BASE and CURRENT paired on this machine; `stallbench merge` "
                              "judges the group and owns the exit code)")
    store.add_option(p)


def check_rounds(args) -> None:
    if args.min_rounds is not None and not 1 <= args.min_rounds <= 1000:
        raise UsageError(f"--min-rounds {args.min_rounds} is out of range: valid values are 1-1000")
    if not 1 <= args.max_rounds <= 1000:
        raise UsageError(f"--max-rounds {args.max_rounds} is out of range: valid values are 1-1000")
    if not 0 < args.budget <= 24 * 60:
        raise UsageError(f"--budget {args.budget:g} is out of range: valid values are minutes in (0, 1440]")


def run(args) -> int:
    check_rounds(args)
    if args.instructions_gate and not args.instructions:
        raise UsageError("--instructions-gate needs --instructions (the counts it gates on)")
    limits = statistics_options.thresholds(args.min_effect, args.alpha)
    shard = shards.parse(args.shard) if args.shard is not None else None
    shard_plan.check_group(shard, args.group)
    os_packages.ensure(os_packages.for_revisions())
    if args.instructions:
        instructions.require_valgrind()
    profile = PROFILES[args.profile]
    sets = parse_sets(args.set)
    nodes = tuple(nodejs.choose(args.node, every_line=profile.tier in ("nightly", "full")))
    building = time.monotonic()
    sides = {role: revisions.resolve(role, given) for role, given in zip(ab_rounds.ROLES, (args.base, args.current))}
    build_minutes = (time.monotonic() - building) / 60
    families = ab_session.families_of(sides)
    notes: list[str] = []
    inject = None
    if args.inject:
        bench, pct = parse_inject(args.inject, families["current"])
        inject = f"{bench}:{pct:g}"
        notes.append(f"CURRENT ran `{bench}` with {pct:g}% more work (--inject): a slowdown put there on purpose")
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out = args.out or paths.RESULTS / "ab" / f"{stamp}-{sides['base'].git['short'] or 'build'}-vs-" \
                                              f"{sides['current'].git['short'] or 'build'}"
    grid = ab_session.Grid(profile, args.filter, sets, nodes)
    rules = ab_session.Rounds(limits, args.min_rounds, args.max_rounds, args.budget, inject, args.duet,
                              args.instructions)
    focus = ab_session.Focus()
    if shard:
        durations = stored_durations.cell_seconds(args.store, args.group, shard_plan.durations_before(args.durations_before))
        focus = ab_session.Focus(split=shard_plan.split_pairs(shard, args.group, args.min_rounds or args.max_rounds,
                                                              durations))
        notes.append(f"shard {shard} of group {args.group}: these verdicts are corrected over this shard alone; "
                     "the group's verdict and exit code are `stallbench merge`'s")
    session = ab_session.run(sides, families, grid, rules, out, {
        "ab": {"base": args.base, "current": args.current, "inject": inject, "duet": args.duet,
               "instructions_gate": args.instructions_gate,
               "limits": {"alpha": args.alpha, "min_effect": args.min_effect}}}, notes, focus)
    outcome, runs, pairs = session.outcome, session.runs, session.pairs
    gating = ab_verdict.gate(outcome, args.instructions_gate)
    blind = power.blind(ab_verdict.gated(outcome, args.instructions_gate), args.alpha)
    code = 0 if shard else power.exit_code(bool(gating), blind)
    means = {"geomean": geomean.summarise_paired(outcome.comparisons, session.per_round, session.settings.seed),
             "geomean_instructions": geomean.summarise(outcome.comparisons, instructions=True)}
    summary = {
        "exit": code, "verdict": ab_report.SHARD if shard else power.verdict(bool(gating), blind), "inconclusive": blind, "alpha": args.alpha,
        "tested": sum(1 for c in outcome.comparisons if c.q_value is not None),
        "pairs": len(pairs), "rounds": session.rounds, "min_rounds": session.settings.min_rounds,
        "max_rounds": args.max_rounds, "budget_minutes": args.budget, "budget_spent": session.budget_spent,
        "minutes": session.minutes, "time": ab_report.minutes_split(build_minutes, session),
        "seed": session.settings.seed, "inject": inject, "duet": args.duet,
        "instructions_gate": args.instructions_gate,
        **{role: {"given": sides[role].given, "commit": sides[role].git.get("commit"), "build": str(sides[role].build),
                  "run_id": runs[role].run_id, "run_dir": str(runs[role].path)} for role in ab_rounds.ROLES}}
    summary["gating"] = ["/".join(c.key) for c in gating]
    text = ab_report.write(out, outcome, summary, runs, means)
    print(text)
    print(f"ab: {out / 'ab.md'} (runs: {runs['base'].path}, {runs['current'].path})")
    if args.out is None or args.store or os.environ.get(store.ENVIRONMENT):
        for role in ab_rounds.ROLES:
            print(store.append_run(runs[role].path, args.store))
    return code
