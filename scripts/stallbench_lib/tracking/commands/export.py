"""stallbench export RUN --format bmf,gab,gbench: a run for the dashboards (tracking/exports.py)."""
from pathlib import Path

from ... import common_options, paths
from ...errors import UsageError
from .. import exports, samples

NAME = "export"
ORDER = 14
HELP = ("write a run for dashboards: bmf (Bencher Metric Format), gab (github-action-benchmark "
        "customSmallerIsBetter/customBiggerIsBetter), gbench (one Google Benchmark JSON per cell); failed cells are "
        "left out and listed, never written as 0")


def add_arguments(p):
    p.add_argument("run_dir", type=Path, metavar="RUN", help="a run directory (or its results.csv)")
    p.add_argument("--format", required=True, metavar="FORMATS",
                   help=f"one or more of {', '.join(exports.FORMATS)}, comma-separated")
    common_options.out(p, "each format goes into DIR/FORMAT/ (default: the run's report folder, export/FORMAT/)")


def run(args) -> int:
    formats = args.format.split(",")
    unknown = [f for f in formats if f not in exports.FORMATS]
    if unknown or not formats:
        raise UsageError(f"--format {args.format}: unknown {', '.join(unknown)} (valid: {', '.join(exports.FORMATS)})")
    run = samples.load(args.run_dir)
    root = args.out or paths.report_dir_for(run.path) / "export"
    for fmt in formats:
        out = root / fmt
        names, omitted = exports.write(run, fmt, out)
        print(f"export: {len(names)} {fmt} file(s) in {out}: {', '.join(names) or 'none (no tracked value)'}")
        if omitted:
            print(f"export: {len(omitted)} failed cell metrics left out, listed in {out / 'OMITTED.md'}")
    return 0
