"""stallbench compare BASE CURRENT: did anything get slower, with significance."""
from pathlib import Path

from ... import common_options, paths, rundir
from ...atomic import atomic_write
from ...errors import UsageError
from .. import calibration, comparison, conditions, statistics_options, store

NAME = "compare"
ORDER = 10
HELP = ("compare two runs (run directories or results.csv) cell by cell: medians, ratio, Mann-Whitney p, "
        "verdict improved/regressed/unchanged/noisy; exit 1 when anything regressed and the runs' conditions match "
        "(or with --gate)")


def add_arguments(p):
    p.add_argument("base", type=Path, metavar="BASE",
                   help="the reference run: a run directory, its results.csv, or a run id in the history store")
    p.add_argument("current", type=Path, metavar="CURRENT", help="the run to judge (the same forms)")
    statistics_options.add(p)
    p.add_argument("--allow-other-machine", action="store_true",
                   help="compare runs whose machine fingerprints differ (timings then say little)")
    p.add_argument("--gate", action="store_true",
                   help="exit 1 on a regression even when the runs' conditions differ (load, machine, build type, Node, "
                        "compilers): by default verdicts of runs measured under different conditions only inform; the "
                        "gate for a code change is `ab`")
    common_options.out(p, "where compare.md and compare.csv go (default reports/compare-BASE-vs-CURRENT/)")
    store.add_option(p)




def _whole_run(given: Path, side: str, store_option: str | None):
    """A side that is damaged, cut short or empty is refused (exit 2): exit 1 means "regressed" only."""
    run = store.load_run(given, store_option)
    why = rundir.unfinished(run.meta) if run.meta else None
    if why:
        raise UsageError(f"{side} {given}: {why}; compare only runs that finished")
    if not run.samples:
        raise UsageError(f"{side} {given}: it has no rows; nothing to compare")
    return run


def run(args) -> int:
    limits = statistics_options.thresholds(args.min_effect, args.alpha)
    base = _whole_run(args.base, "BASE", args.store)
    current = _whole_run(args.current, "CURRENT", args.store)
    comparison.check_machines(base, current, args.allow_other_machine)
    differ = conditions.differences(base, current)
    outcome = comparison.compare_runs(base, current, limits)
    outcome.notes.append(calibration.trust_note(calibration.latest_for(current.fingerprint)))
    text = comparison.markdown(outcome, base, current, limits, differ, args.gate)
    out = args.out or paths.REPORTS / f"compare-{base.run_id}-vs-{current.run_id}"
    atomic_write(out / "compare.md", text)
    atomic_write(out / "compare.csv", comparison.to_csv(outcome))
    print(text)
    print(f"compare: {out / 'compare.md'} and {out / 'compare.csv'}")
    return 1 if outcome.regressed and (args.gate or not differ) else 0
