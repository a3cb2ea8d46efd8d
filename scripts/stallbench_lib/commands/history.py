"""stallbench history: every run of one machine, as trends with change points and regressions."""
from pathlib import Path

from .. import meta, numbers, paths
from ..errors import UsageError
from ..tracking import geomean, series as tracked, store
from ..tracking.verdict import DEFAULT_MIN_EFFECT_PCT

NAME = "history"
ORDER = 11
HELP = ("trends of every tracked metric across the nights of one machine (from the history store, or the run "
        "directories under --results), change points "
        "(E-divisive means), regressions with their commit range; writes an HTML page with the plots")


def add_arguments(p):
    p.add_argument("--fingerprint", metavar="FP", help="the machine (default: this one, as meta.json records it)")
    p.add_argument("--results", type=Path, metavar="DIR",
                   help="read the run directories under DIR (any depth) instead of the history store")
    store.add_option(p)
    p.add_argument("--alpha", type=numbers.decimal_option, default=0.01, metavar="A",
                   help="significance level of each change point's permutation test (default 0.01)")
    p.add_argument("--min-effect", type=numbers.decimal_option, default=DEFAULT_MIN_EFFECT_PCT, metavar="PCT",
                   help="smallest change between segments called a regression, for metrics that do not declare "
                        f"their own (default {DEFAULT_MIN_EFFECT_PCT:g})")
    p.add_argument("--out", type=Path, metavar="DIR", help="where the page goes (default reports/history-FP/)")
    p.add_argument("--plots", choices=("changes", "all"), default="changes",
                   help="trend plots for the cells with a change point (default), or for every cell")


def _runs(args, fingerprint: str):
    """This machine's complete nights, where they were read from, and the other machines seen there."""
    if args.results is not None:
        if not args.results.is_dir():
            raise UsageError(f"--results {args.results}: no such directory")
        runs = tracked.find_runs(args.results)
        mine = [r for r in runs if r.fingerprint == fingerprint]
        return mine, args.results, sorted({r.fingerprint for r in runs if r.fingerprint})
    where = store.location(args.store)
    with store.Store(where) as db:
        listed = db.listing()
        mine = db.history(fingerprint)
    return mine, store.shown(where), sorted({r.fingerprint for r in listed if r.fingerprint})


def run(args) -> int:
    if not 0 < args.alpha < 1:
        raise UsageError(f"--alpha {args.alpha:g} is out of range: valid values are between 0 and 1, e.g. 0.01")
    if not 0 < args.min_effect <= 1000:
        raise UsageError(f"--min-effect {args.min_effect:g} is out of range: valid values are in (0, 1000]")
    fingerprint = args.fingerprint or meta.machine()["fingerprint"]
    mine, where, others = _runs(args, fingerprint)
    if not mine:
        raise UsageError(f"no complete run in {where} for machine {fingerprint} "
                         f"(fingerprints with runs: {', '.join(others) or 'none'})"
                         + ("" if args.results else "; load run directories with `stallbench store import results/`"))
    series = tracked.build_series(mine, args.min_effect)
    tracked.detect_all(series, args.alpha)
    out = args.out or paths.REPORTS / f"history-{fingerprint}"
    # Imported here: matplotlib costs every other command over a second to import.
    from ..tracking import history_page

    history_page.write(series, mine, fingerprint, args.alpha, out, plot_all=args.plots == "all")
    print(history_page.regressions_table(series))
    print(geomean.markdown(geomean.of_last_run(series), "each series' last run against the median of its current "
                           "segment before it", subject="the last run"))
    print(f"history: {out / 'index.html'}  ({len(mine)} runs, {len(series)} series)")
    return 0
