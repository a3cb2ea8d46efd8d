"""A revision that `ab` builds in its own worktree finds what this checkout installed: the npm sets
(playwright-core for the browser cells) are not under the worktree's source folder, where a bench
binary built there looks when nobody tells it (its compiled-in folder's ../../.deps).

The revision is built for real from a worktree, but only its browser benchmark (the whole Release
build of another tree is minutes; the lookup being tested is that benchmark's)."""
import csv
import json
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT
from stallbench_lib import build as builder, cli
from stallbench_lib.tracking import revisions
from test_browser import WHY_NOT

pytestmark = pytest.mark.skipif(bool(WHY_NOT), reason=f"ab's browser cells skipped: {WHY_NOT}")


_ENSURE_BUILT = builder.ensure_built


def _only_the_browser_benchmark(preset, source, build):
    """ab's own build of the revision (tests off, the compiler cache when there is one), of one target."""
    return _ENSURE_BUILT(preset, source=source, build=build, target="bench_browser")


def test_a_revisions_browser_cells_run_through_ab(tmp_path, monkeypatch):
    monkeypatch.setattr(revisions, "AB_BUILDS", tmp_path / "ab")
    monkeypatch.setattr(builder, "ensure_built", _only_the_browser_benchmark)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    out = tmp_path / "result"
    try:
        code = cli.main(["ab", "HEAD", "HEAD", "--filter", "^browser/", "--profile", "smoke", "--min-rounds", "1",
                         "--max-rounds", "1", "--out", str(out)])
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tmp_path / "ab" / commit / "src")], cwd=ROOT,
                       capture_output=True)
    summary = json.loads((out / "ab.json").read_text())
    assert code == summary["exit"] and summary["pairs"] >= 1
    for role in ("base", "current"):
        assert summary[role]["build"] == str(tmp_path / "ab" / commit / "build")
        with open(Path(summary[role]["run_dir"]) / "results.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        assert rows and {r["status"] for r in rows} == {"ok"}, [r for r in rows if r["status"] != "ok"][:2]
