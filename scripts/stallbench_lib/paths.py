"""Where things live. STALLBENCH_BUILD_DIR points the command at another Release build tree."""
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results"
RUNS = RESULTS / "runs"
REPORTS = ROOT / "reports"


def build_dir(preset: str = "release") -> Path:
    override = os.environ.get("STALLBENCH_BUILD_DIR")
    return Path(override) if override and preset == "release" else ROOT / "build" / preset


def report_dir_for(run_dir: Path) -> Path:
    """reports/<run-id>/ for runs kept under results/runs; <run-dir>/report/ for runs kept elsewhere
    (--out), so a run written to a temporary place leaves nothing in the checkout."""
    run_dir = run_dir.resolve()
    if run_dir.parent == RUNS.resolve():
        return REPORTS / run_dir.name
    return run_dir / "report"
