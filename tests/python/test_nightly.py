"""scripts/nightly, the CI job's gating logic: a failed step fails the job, the run judged is this
job's own (by its run id), and recording a night adds it to the history branch's checkout."""
import json
import os
import subprocess

import pytest

from conftest import BUILD, ROOT

TINY = BUILD / "tests" / "tiny_bench"
# n large enough that one repetition spans many of the scheduler's time slices: at 3,000,000 (1.4 ms)
# one slice lost to a busy machine made a repetition ten times slower, and a 4x regression read as noisy.
AB_ARGS = ["--set", "n=20000000", "--node", "none", "--min-rounds", "7", "--max-rounds", "7"]


def nightly(nights, *args):
    env = {**os.environ, "STALLBENCH_NIGHTS": str(nights), "STALLBENCH_BUILD_DIR": str(BUILD)}
    return subprocess.run([str(ROOT / "scripts" / "nightly"), *args], capture_output=True, text=True, timeout=600,
                          env=env)


def _tiny_build(path):
    (path / "benches").mkdir(parents=True)
    (path / "benches" / "bench_tiny").symlink_to(TINY)
    return str(path)


def _steps(job):
    return dict(line.split() for line in (job / "steps.txt").read_text().splitlines())


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    """One night that regressed: CURRENT does four times the work (the A/B knob)."""
    tmp = tmp_path_factory.mktemp("nightly")
    base, current = _tiny_build(tmp / "base"), _tiny_build(tmp / "current")
    result = nightly(tmp / "nights", "measure", "night-2", base, current, *AB_ARGS, "--inject", "tiny/sum:300")
    return tmp, result


def test_a_regression_fails_the_job_and_tonights_run_is_exported(measured):
    tmp, result = measured
    job = tmp / "nights" / "night-2"
    assert result.returncode == 1, result.stderr
    assert _steps(job) == {"ab": "1", "export": "0"}
    tonight = json.loads((job / "ab" / "ab.json").read_text())["current"]["run_id"]
    (gbench,) = (job / "export" / "gbench").glob("*.json")
    assert json.loads(gbench.read_text())["context"]["stallbench_run_id"] == tonight
    assert tonight in (job / "export" / "gab" / "smaller.json").read_text()
    assert (job / "export" / "bmf" / "bmf.json").exists()


def test_a_failed_ab_fails_the_job_and_an_older_night_is_never_taken(measured, tmp_path):
    tmp, _ = measured
    nights = tmp / "nights"  # night-2 is there: an older night with a complete ab.json and run
    result = nightly(nights, "measure", "night-3", str(tmp_path / "no-such-build"), str(tmp_path / "nor-this"),
                     *AB_ARGS)
    job = nights / "night-3"
    assert result.returncode == 2
    assert _steps(job) == {"ab": "2", "results": "1"}
    assert not (job / "export").exists()  # nothing of night-2 exported as tonight's


def test_a_job_writes_only_its_own_folder(measured):
    tmp, _ = measured
    result = nightly(tmp / "nights", "measure", "night-2", "a", "b")
    assert result.returncode == 2 and "already exists" in result.stderr


def test_recording_adds_tonight_to_the_history_branch(measured, tmp_path):
    tmp, _ = measured
    history = tmp_path / "branch"
    result = nightly(tmp / "nights", "record", "night-2", str(history))
    assert result.returncode == 0, result.stderr
    job = tmp / "nights" / "night-2"
    tonight = json.loads((job / "ab" / "ab.json").read_text())["current"]["run_id"]
    assert sorted(p.name for p in (history / "runs" / tonight).iterdir()) == ["meta.json", "results.csv"]
    assert (job / "history" / "index.html").exists()
    assert _steps(job)["history"] == "0"


def test_the_workflow_gates_on_the_script_and_uploads_tonight_only():
    yaml = pytest.importorskip("yaml")
    text = (ROOT / ".github" / "workflows" / "nightly.yml").read_text()
    flow = yaml.safe_load(text)
    assert flow["permissions"] == {"contents": "read"} and flow["concurrency"]["group"]
    assert flow["jobs"]["history"]["permissions"] == {"contents": "write"}
    assert "github.run_id" in flow["env"]["NIGHT"]
    steps = flow["jobs"]["measure"]["steps"]
    gate = next(s for s in steps if "scripts/nightly measure" in s.get("run", ""))
    assert '"${{ github.run_id }}"' in gate["run"] and "if" not in gate  # its exit code is the job's
    uploads = [s for s in steps if s.get("uses", "").startswith("actions/upload-artifact")]
    assert [u["with"]["path"] for u in uploads] == ["${{ env.NIGHT }}/"]
    assert "set +e" not in text and "ls -t" not in text  # no swallowed exit codes, no "newest folder"


def test_the_workflow_runs_the_tests_under_load_and_fails_with_them():
    yaml = pytest.importorskip("yaml")
    flow = yaml.safe_load((ROOT / ".github" / "workflows" / "nightly.yml").read_text())
    job = flow["jobs"]["under-load"]
    (check,) = [s for s in job["steps"] if "scripts/test --under-load" in s.get("run", "")]
    assert "if" not in check and not check.get("continue-on-error")  # its exit code is the job's
    assert job["needs"] == "measure" and job["if"] == "always()"  # after the measurements, whatever they gave
    assert "under-load" not in flow["jobs"]["history"]["needs"]  # a flaky test loses no night of history
