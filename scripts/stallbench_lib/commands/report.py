"""stallbench report: render (or re-render) the report of one or more runs."""
from pathlib import Path

from ..errors import UsageError
from ..report.render import render

NAME = "report"
ORDER = 5
HELP = "render reports/<run-id>/ (report.md, index.html, PNG and SVG plots) from run directories"


def add_arguments(p):
    p.add_argument("runs", nargs="+", type=Path, metavar="RUN_DIR")


def run(args) -> int:
    for path in args.runs:
        if not (path / "results.csv").exists():
            raise UsageError(f"{path}: not a run directory (no results.csv)")
    for path in args.runs:
        report = render(path)
        print(f"report: {report / 'index.html'}")
    return 0
