"""A change accepted as intended, respected from a depth-1 clone — the checkout CI makes unless it
fetches the whole history. The nights skip commits (a night measures whatever landed since the last
one), so the change's commits are a range git must list; the acceptance names one commit inside it.
In this checkout git lists the range; in a depth-1 clone it cannot, and history reads the range from
the later night's own record of its ancestors (meta.json git.ancestors, as every run now writes it).
Without that record the clone could only stand the night's own commit for the range, and the change
would be reported as a regression: the control case below."""
import json
import os
import subprocess
import sys

from conftest import ROOT
from stallbench_lib import meta
from synthetic_runs import MACHINE, noisy, write_run
from test_history_triage import commits  # noqa: F401 (a fixture: 20 commits git knows here, in no branch)

# Night i measures the commit NIGHTS[i]: 0..6, then one night covering 7..10; time_ms 25% slower from it.
NIGHTS = [0, 1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 14]
ACCEPTED = 8  # inside the slower night's range, not its own commit


def _nights(root, chain, recorded):
    for i, k in enumerate(NIGHTS):
        extra = {"git": {"commit": chain[k], "short": chain[k][:8], "ancestors": meta.ancestry(chain[k])}} \
            if recorded else None
        write_run(root / f"night-{i:03d}", {("n=1", "time_ms"): noisy(125 if k >= 10 else 100, 5, 0.02, i)},
                  commit=chain[k], started=f"2026-01-{i + 1:02d}T00:00:00+00:00", meta_extra=extra)


def _history(checkout, results, *args):
    """`history --results` run from `checkout`'s own code and git."""
    done = subprocess.run([sys.executable, "-m", "stallbench_lib", "history", "--fingerprint", MACHINE["fingerprint"],
                           "--results", str(results), "--out", str(results.parent / "page"), *args],
                          capture_output=True, text=True, timeout=600, cwd=checkout,
                          env={**os.environ, "PYTHONPATH": str(checkout / "scripts")})
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_an_acceptance_holds_in_a_depth_1_clone(tmp_path, commits):  # noqa: F811
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{ROOT}", str(clone)], check=True, timeout=300)
    assert subprocess.run(["git", "cat-file", "-e", commits[ACCEPTED]], cwd=clone).returncode != 0  # unknown there
    for recorded in (True, False):
        results = tmp_path / f"recorded-{recorded}" / "history"
        _nights(results / "runs", commits, recorded)
        full = _history(ROOT, results, "--accept", commits[ACCEPTED], "--reason", "intended")  # made in a full clone
        assert "holds 1 change points" in full, full
        assert json.loads((results / "accepted.json").read_text())[0]["commits"] == [commits[ACCEPTED]]
        shallow = _history(clone, results)
        accepted_there = "Accepted as intended" in shallow and "no regression found" in shallow
        assert accepted_there == recorded, shallow  # the record is what makes the clone see it
        if recorded:
            assert f"{commits[6][:8]}..{commits[10][:8]} (4 commits)" in shallow
