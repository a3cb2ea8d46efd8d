"""stallbench bisect GOOD BAD --filter CELL: the commit that made a cell slower, by binary search."""
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from ... import common_options, node as nodejs, numbers, os_packages, paths
from ...atomic import atomic_write
from ...errors import UsageError
from ...plan import parse_sets
from ...profiles import DEFAULT, PROFILES
from .. import ab_session, bisect_report, bisection, power, revisions, statistics_options
from ..bisection import Bisection, Step
from .ab import check_rounds

NAME = "bisect"
ORDER = 9
HELP = ("find the commit that made cells worse: first confirms BAD is worse than GOOD, then a binary search "
        "over the commits on BAD's first-parent line after GOOD, each step a short paired A/B (ab's rounds) of "
        "the middle commit against GOOD's build; exit 0 when one commit is isolated, 4 (inconclusive) when a step's "
        "rounds ended before it could tell, 1 when only commits that do not build are left (the range left is "
        "printed either way), 2 on bad input or when BAD is shown not worse than GOOD")
DEFAULT_BUDGET_MIN = 10.0
DEFAULT_MAX_ROUNDS = 100
# A step must end `regressed` or clean, and clean needs the worse end of the 95% interval (the
# estimate plus half the width) under the minimum effect. ab stops a cell once the interval the
# spread promises is narrower than the minimum effect; but below ten rounds the interval is a few
# extreme Walsh averages, and with the heavy tails of a busy machine it comes out up to twice as
# wide as the (outlier-blind) spread promises. So a step runs ten rounds at least, and goes on
# until the promised interval is half the minimum effect wide: a clean commit's estimate can then
# stray by three quarters of the minimum effect and still clear. Both rules look at magnitudes
# only, as ab's does, so stopping leaves the test exact.
LEAST_ROUNDS = 10
SETTLE_SHARE = 0.5


def add_arguments(p):
    p.add_argument("good", metavar="GOOD", help="a commit, tag or branch without the regression")
    p.add_argument("bad", metavar="BAD", help="a later commit with it (GOOD must be on BAD's first-parent line)")
    p.add_argument("--filter", required=True, metavar="REGEX",
                   help="the cells to follow: benchmarks whose family/name matches (with --set, the grid)")
    p.add_argument("--metric", metavar="M",
                   help="judge only this metric (default: every tracked metric of the filtered cells); after "
                        "the first step, only the cells and metrics that regressed there are judged")
    p.add_argument("--profile", default=DEFAULT, choices=sorted(PROFILES),
                   help=f"whose grid to run (default {DEFAULT}); the rounds are ab's own")
    p.add_argument("--set", metavar="KEY=V1,V2", action="append", default=[], help="replace a parameter's grid")
    statistics_options.add(p)
    p.add_argument("--min-rounds", type=numbers.integer_option, metavar="N",
                   help=f"rounds every cell of a step runs before it may stop (default {LEAST_ROUNDS}, or "
                        "more when the correction for the metrics judged needs more)")
    p.add_argument("--max-rounds", type=numbers.integer_option, default=DEFAULT_MAX_ROUNDS, metavar="N",
                   help=f"rounds of a step at most (default {DEFAULT_MAX_ROUNDS})")
    p.add_argument("--budget", type=numbers.decimal_option, default=DEFAULT_BUDGET_MIN, metavar="MINUTES",
                   help=f"time for a step's rounds, its build not counted (default {DEFAULT_BUDGET_MIN:g})")
    p.add_argument("--duet", action="store_true",
                   help="run GOOD and the commit of a round at the same time, as ab --duet (each side then has "
                        "half the cores)")
    p.add_argument("--repository", type=Path, default=paths.ROOT, metavar="DIR",
                   help="the git repository whose commits are bisected (default: this checkout); each commit is "
                        "built with its release preset in build/ab/<commit>, as ab does")
    common_options.out(p, "where the steps' runs and bisect.md/.json go "
                          "(default results/bisect/<time>-<good>-vs-<bad>/)")
    nodejs.add_option(p, "the Node cells (the same Node binaries for every commit)")


def _progress(text: str) -> None:
    print(f"stallbench: bisect: {text}", file=sys.stderr, flush=True)


def _described(step: Step) -> str:
    c = step.deciding
    if c is None:
        return f"{step.verdict} ({step.note})"
    interval = "" if c.ci_low_pct is None else f" [{c.ci_low_pct:+.1f}%, {c.ci_high_pct:+.1f}%]"
    change = "" if c.change_pct is None else f"{c.change_pct:+.1f}%{interval}, "
    q = "" if c.q_value is None else f"q {c.q_value:.2g}, "
    return f"{step.verdict} ({'/'.join(c.key)}: {change}{q}{c.base_n} rounds; {bisect_report.duration(step.minutes)})"


class _Steps:
    """Measures one commit of the line against GOOD's build: a step."""

    def __init__(self, line: list[revisions.Commit], repository: Path, grid: ab_session.Grid,
                 rules: ab_session.Rounds, focus: ab_session.Focus, out: Path, meta: dict):
        self.line, self.repository, self.grid, self.rules, self.focus, self.out = line, repository, grid, rules, focus, out
        self.meta = meta
        self.good = revisions.resolve("base", line[0].hash, repository)
        self.good_families = ab_session.families_of({"base": self.good})["base"]
        self.count = 0

    def measure(self, position: int) -> Step:
        commit, number = self.line[position], self.count
        self.count += 1
        _progress(f"step {number}: {commit.hash[:8]} {commit.subject} (commit {position} of {len(self.line) - 1} "
                  "after GOOD) against GOOD")
        started = time.monotonic()
        current = revisions.resolve("current", commit.hash, self.repository)
        sides = {"base": self.good, "current": current}
        families = {"base": self.good_families, **ab_session.families_of({"current": current})}
        step_out = self.out / f"step{number}-{commit.hash[:8]}"
        session = ab_session.run(sides, families, self.grid, self.rules, step_out,
                                 {"ab": {"base": self.line[0].hash, "current": commit.hash, "bisect": self.meta}},
                                 [], self.focus)
        return Step(number, position, commit, bisection.step_verdict(session.outcome), session.outcome.comparisons,
                    (time.monotonic() - started) / 60, "; ".join(session.outcome.notes),
                    {role: str(run.path) for role, run in session.runs.items()})

    def measure_or_skip(self, position: int) -> Step:
        """A commit that does not build or shares no cell with GOOD is skipped, not the end of the search."""
        try:
            return self.measure(position)
        except UsageError as e:
            commit = self.line[position]
            return Step(self.count - 1, position, commit, bisection.SKIPPED, note=str(e))

    def follow(self, confirmed: Step) -> None:
        """After step 0 only what regressed there: its cells, judged on the metrics that regressed."""
        regressed = [c.key for c in confirmed.comparisons if c.verdict == bisection.REGRESSED]
        self.focus = ab_session.Focus(frozenset(k[:3] for k in regressed), frozenset(k[3] for k in regressed))


def _told(step: Step, found: Bisection) -> None:
    more = f", about {found.steps_left} more steps" if found.steps_left and step.verdict != bisection.NOISY else ""
    _progress(f"step {step.number}: {step.commit.hash[:8]} {_described(step)}; commits left: {step.left}{more}")


def _check(args) -> None:
    check_rounds(args)
    statistics_options.thresholds(args.min_effect, args.alpha)
    if not args.repository.is_dir():
        raise UsageError(f"--repository {args.repository}: no such directory (valid: a git checkout)")


def run(args) -> int:
    _check(args)
    args.repository = args.repository.resolve()
    line = revisions.first_parent_line(args.good, args.bad, args.repository)
    os_packages.ensure(os_packages.for_revisions())
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out = args.out or paths.RESULTS / "bisect" / f"{stamp}-{line[0].hash[:8]}-vs-{line[-1].hash[:8]}"
    started = time.monotonic()
    profile = PROFILES[args.profile]
    grid = ab_session.Grid(profile, args.filter, parse_sets(args.set),
                           tuple(nodejs.choose(args.node, every_line=profile.tier in ("nightly", "full"))))
    rules = ab_session.Rounds(statistics_options.thresholds(args.min_effect, args.alpha), args.min_rounds,
                              args.max_rounds, args.budget, duet=args.duet,
                              least_rounds=LEAST_ROUNDS, settle_share=SETTLE_SHARE)
    focus = ab_session.Focus(metrics=frozenset([args.metric]) if args.metric else None)
    steps = _Steps(line, args.repository, grid, rules, focus, out,
                   {"good": line[0].hash, "bad": line[-1].hash, "filter": args.filter, "metric": args.metric})
    found = Bisection(line)
    first = steps.measure(len(line) - 1)
    found.confirm(first)
    _progress(f"step 0: BAD {_described(first)}")
    if found.confirmed:
        steps.follow(first)
        bisection.search(found, steps.measure_or_skip, _told)
    code = {"isolated": 0, "undecidable": 1, "nothing to bisect": 2,
            "inconclusive": power.INCONCLUSIVE_EXIT}[found.result]
    summary = {"exit": code, "first_parent": True, "filter": args.filter, "metric": args.metric,
               "alpha": args.alpha, "max_rounds": args.max_rounds, "budget_minutes": args.budget,
               "minutes": (time.monotonic() - started) / 60,
               "good": {"given": args.good, "commit": line[0].hash}, "bad": {"given": args.bad, "commit": line[-1].hash},
               "repository": str(args.repository)}
    text = bisect_report.markdown(found, summary)
    atomic_write(out / "bisect.md", text)
    atomic_write(out / "bisect.json", bisect_report.to_json(found, summary))
    print(text)
    print(f"bisect: {out / 'bisect.md'}")
    if code == 2:
        raise UsageError(f"{bisect_report.answer(found, summary)} ({_described(first)}); the evidence: {out / 'bisect.md'}")
    print(bisect_report.answer(found, summary))
    return code
