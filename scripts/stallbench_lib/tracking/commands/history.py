"""stallbench history: every run of one machine (or of every machine, side by side), as trends with
change points, outliers and regressions; `--accept` marks a change as intended."""
from pathlib import Path

from ... import common_options, meta, numbers, paths
from ...errors import UsageError
from .. import accepted, geomean, series as tracked, statistics_options, store

# A night's series is searched for change points metric by metric, over and over: 0.01 keeps the
# false ones rare (docs/tracking.md measures what it finds).
CHANGE_POINT_ALPHA = 0.01

NAME = "history"
ORDER = 11
HELP = ("trends of every tracked metric across the nights of one machine, or of every machine side by side "
        "(from the history store, or the run directories under --results), change points (E-divisive means), "
        "outliers, regressions with their commit range; writes an HTML page with the plots; "
        "--accept REV[..REV] --reason TEXT marks a change as intended")


def add_arguments(p):
    p.add_argument("--fingerprint", metavar="FP", help="the machine (default: this one, as meta.json records it)")
    p.add_argument("--machines", choices=("one", "all"), default="one",
                   help="one: the machine --fingerprint names, else this one (default); all: every machine with "
                        "runs there, side by side (a trace per machine in each plot, a machine column in the tables)")
    p.add_argument("--results", type=Path, metavar="DIR",
                   help="read the run directories under DIR (any depth) and DIR/accepted.json instead of the "
                        "history store")
    store.add_option(p)
    p.add_argument("--change-point-alpha", type=numbers.decimal_option, default=CHANGE_POINT_ALPHA, metavar="A",
                   help="significance level of each change point's permutation test (default "
                        f"{CHANGE_POINT_ALPHA:g}; compare's and ab's --alpha is another test's)")
    statistics_options.min_effect(p)
    p.add_argument("--min-segment", type=numbers.integer_option, default=tracked.DEFAULT_MIN_SEGMENT, metavar="N",
                   help="fewest runs on either side of a change point; a run off the level around it for fewer "
                        f"runs is an outlier, not a change (default {tracked.DEFAULT_MIN_SEGMENT}, at least 2)")
    p.add_argument("--accept", metavar="REV[..REV]",
                   help="mark the change points whose commits fall in this commit (or git range FROM..TO) as "
                        "intended: shown as accepted, no longer regressions; stored in the history store, or in "
                        "DIR/accepted.json with --results DIR; needs --reason")
    p.add_argument("--reason", metavar="TEXT", help="with --accept: why the change is intended (shown beside it)")
    common_options.out(p, "where the page goes (default reports/history-FP/, or reports/history-all/)")
    p.add_argument("--plots", choices=("changes", "all"), default="changes",
                   help="trend plots for the cells with a change point or an outlier (default), or for every cell")


def _runs(args, fingerprint: str | None):
    """The complete nights of the machine (of every machine when `fingerprint` is None), oldest
    first; where they were read from; the machines seen there; the acceptances kept there."""
    if args.results is not None:
        if not args.results.is_dir():
            raise UsageError(f"--results {args.results}: no such directory")
        runs = tracked.find_runs(args.results)
        mine = [r for r in runs if r.fingerprint and fingerprint in (None, r.fingerprint)]
        return mine, args.results, sorted({r.fingerprint for r in runs if r.fingerprint}), \
            accepted.read_folder(args.results)
    where = store.location(args.store)
    with store.Store(where) as db:
        machines = sorted({r.fingerprint for r in db.listing() if r.fingerprint})
        mine = [run for fp in machines if fingerprint in (None, fp) for run in db.history(fp)]
        kept = db.acceptances()
    mine.sort(key=lambda r: (r.meta.get("started_at") or "", r.run_id))
    return mine, store.shown(where), machines, kept


def _keep(args, acceptance: accepted.Acceptance, kept: list) -> str:
    """Stores the acceptance where the history was read from; returns where."""
    if args.results is not None:
        return str(accepted.write_folder(args.results, accepted.merged(kept, acceptance)))
    where = store.location(args.store)
    with store.Store(where) as db:
        db.accept(acceptance)
    return store.shown(where)


def _check(args) -> None:
    if not 0 < args.change_point_alpha < 1:
        raise UsageError(f"--change-point-alpha {args.change_point_alpha:g} is out of range: valid values are between "
                         f"0 and 1, e.g. {CHANGE_POINT_ALPHA:g}")
    statistics_options.thresholds(args.min_effect)
    if args.min_segment < 2:
        raise UsageError(f"--min-segment {args.min_segment}: valid values are 2 or more (a segment's spread needs "
                         "two runs)")
    if args.reason is not None and args.accept is None:
        raise UsageError("--reason goes with --accept REV[..REV]: it says why that change is intended")
    if args.machines == "all" and args.fingerprint:
        raise UsageError(f"--fingerprint {args.fingerprint} names one machine and --machines all reads every one: "
                         "give one of them")


def run(args) -> int:
    _check(args)
    acceptance = accepted.resolve(args.accept, args.reason) if args.accept is not None else None
    fingerprint = None if args.machines == "all" else args.fingerprint or meta.machine()["fingerprint"]
    mine, where, others, kept = _runs(args, fingerprint)
    if not mine:
        raise UsageError(f"no complete run in {where} for machine {fingerprint or 'any'} "
                         f"(fingerprints with runs: {', '.join(others) or 'none'})"
                         + ("" if args.results else "; load run directories with `stallbench store import results/`"))
    if acceptance is not None:
        kept = accepted.merged(kept, acceptance)
    series = tracked.build_series(mine, statistics_options.thresholds(args.min_effect))
    tracked.detect_all(series, args.change_point_alpha, args.min_segment)
    tracked.triage(series, kept)
    if acceptance is not None:
        held = sum(1 for s in series for a in s.accepted.values() if a.key == acceptance.key)
        print(f"accepted: {acceptance.revisions} ({len(acceptance.commits)} commits), kept in "
              f"{_keep(args, acceptance, kept)}: "
              + (f"it holds {held} change points of this history" if held else
                 "it holds no change point of this history (kept for the nights to come)"))
    name = "every machine" if fingerprint is None else f"machine {fingerprint}"
    out = args.out or paths.REPORTS / f"history-{fingerprint or 'all'}"
    # Imported here: matplotlib costs every other command over a second to import.
    from .. import history_page

    history_page.write(series, mine, name, args.change_point_alpha, args.min_segment, out, plot_all=args.plots == "all")
    print(history_page.triage_text(series))
    print(geomean.markdown(geomean.of_last_run(series), "each series' last run against the median of its current "
                           "segment before it", subject="the last run"))
    machines = f", {len({r.fingerprint for r in mine})} machines" if fingerprint is None else ""
    print(f"history: {out / 'index.html'}  ({len(mine)} runs{machines}, {len(series)} series)")
    return 0
