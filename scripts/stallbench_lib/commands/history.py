"""stallbench history: every run of one machine, as trends with change points and regressions."""
from pathlib import Path

from .. import meta, numbers, paths
from ..errors import UsageError
from ..tracking import history_page, series as tracked
from ..tracking.verdict import DEFAULT_MIN_EFFECT_PCT

NAME = "history"
ORDER = 11
HELP = ("trends of every tracked metric across the runs under results/ for one machine, change points "
        "(E-divisive means), regressions with their commit range; writes an HTML page with the plots")


def add_arguments(p):
    p.add_argument("--fingerprint", metavar="FP", help="the machine (default: this one, as meta.json records it)")
    p.add_argument("--results", type=Path, default=paths.RESULTS, metavar="DIR",
                   help="where to look for runs, at any depth (default results/)")
    p.add_argument("--alpha", type=numbers.decimal_option, default=0.01, metavar="A",
                   help="significance level of each change point's permutation test (default 0.01)")
    p.add_argument("--min-effect", type=numbers.decimal_option, default=DEFAULT_MIN_EFFECT_PCT, metavar="PCT",
                   help="smallest change between segments called a regression, for metrics that do not declare "
                        f"their own (default {DEFAULT_MIN_EFFECT_PCT:g})")
    p.add_argument("--out", type=Path, metavar="DIR", help="where the page goes (default reports/history-FP/)")


def run(args) -> int:
    if not 0 < args.alpha < 1:
        raise UsageError(f"--alpha {args.alpha:g} is out of range: valid values are between 0 and 1, e.g. 0.01")
    if not 0 < args.min_effect <= 1000:
        raise UsageError(f"--min-effect {args.min_effect:g} is out of range: valid values are in (0, 1000]")
    if not args.results.is_dir():
        raise UsageError(f"--results {args.results}: no such directory")
    fingerprint = args.fingerprint or meta.machine()["fingerprint"]
    runs = tracked.find_runs(args.results)
    mine = [r for r in runs if r.fingerprint == fingerprint]
    if not mine:
        others = sorted({r.fingerprint for r in runs if r.fingerprint})
        raise UsageError(f"no complete run under {args.results} for machine {fingerprint} "
                         f"(fingerprints with runs: {', '.join(others) or 'none'})")
    series = tracked.build_series(mine, args.min_effect)
    tracked.detect_all(series, args.alpha)
    out = args.out or paths.REPORTS / f"history-{fingerprint}"
    history_page.write(series, mine, fingerprint, args.alpha, out)
    print(history_page.regressions_table(series))
    print(f"history: {out / 'index.html'}  ({len(mine)} runs, {len(series)} series)")
    return 0
