"""stallbench export RUN --format bmf|gab|gbench: a run for the dashboards (tracking/exports.py)."""
from pathlib import Path

from .. import paths
from ..tracking import exports, samples

NAME = "export"
ORDER = 14
HELP = ("write a run for dashboards: bmf (Bencher Metric Format), gab (github-action-benchmark "
        "customSmallerIsBetter/customBiggerIsBetter), gbench (one Google Benchmark JSON per cell); failed cells are "
        "left out and listed, never written as 0")


def add_arguments(p):
    p.add_argument("run_dir", type=Path, metavar="RUN", help="a run directory (or its results.csv)")
    p.add_argument("--format", required=True, choices=exports.FORMATS, help="which format")
    p.add_argument("--out", type=Path, metavar="DIR",
                   help="where the files go (default: the run's report folder, export-FORMAT/)")


def run(args) -> int:
    run = samples.load(args.run_dir)
    out = args.out or paths.report_dir_for(run.path) / f"export-{args.format}"
    names, omitted = exports.write(run, args.format, out)
    print(f"export: {len(names)} {args.format} file(s) in {out}: {', '.join(names) or 'none (no tracked value)'}")
    if omitted:
        print(f"export: {len(omitted)} failed cell metrics left out, listed in {out / 'OMITTED.md'}")
    return 0
