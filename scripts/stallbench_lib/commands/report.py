"""stallbench report: render (or re-render) the report of one or more runs."""
import sys
from pathlib import Path

from ..errors import UsageError
from ..rendering.render import render

NAME = "report"
ORDER = 5
HELP = "render reports/<run-id>/ (report.md, index.html, PNG and SVG plots) from run directories"


def add_arguments(p):
    p.add_argument("runs", nargs="+", type=Path, metavar="RUN_DIR")


def run(args) -> int:
    """Renders every run it can; one that is missing or damaged gets one line and the others go on.
    Exit 2 when any was skipped."""
    skipped = 0
    for path in args.runs:
        try:
            if not (path / "results.csv").exists():
                raise UsageError(f"{path}: not a run directory (no results.csv)")
            report = render(path)
        except UsageError as e:
            print(f"stallbench: skipped: {e}", file=sys.stderr)
            skipped += 1
            continue
        print(f"report: {report / 'index.html'}")
    return 2 if skipped else 0
