"""scripts/nightly, the CI job's gating logic: a failed step fails the job, the run judged is this
job's own (by its run id), and recording a night adds it to the history branch's checkout."""
import json
import os
import shutil
import subprocess

import pytest

from conftest import BUILD, ROOT

TINY = BUILD / "tests" / "tiny_bench"
# n large enough that one repetition spans many of the scheduler's time slices: at 3,000,000 (1.4 ms)
# one slice lost to a busy machine made a repetition ten times slower, and a 4x regression read as noisy.
AB_ARGS = ["--set", "n=20000000", "--node", "none", "--min-rounds", "7", "--max-rounds", "7"]


def nightly(nights, *args, build=BUILD):
    env = {**os.environ, "STALLBENCH_NIGHTS": str(nights), "STALLBENCH_BUILD_DIR": str(build), "STALLBENCH_STORE": ""}
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
    checks = yaml.safe_load((ROOT / ".github" / "workflows" / "nightly-checks.yml").read_text())
    job = checks["jobs"]["under-load"]
    (check,) = [s for s in job["steps"] if "scripts/test --under-load" in s.get("run", "")]
    assert "if" not in check and not check.get("continue-on-error")  # its exit code is the job's
    called = flow["jobs"]["checks"]
    assert called["uses"] == "./.github/workflows/nightly-checks.yml"
    assert called["needs"] == "measure" and called["if"].startswith("${{ !cancelled()")  # after the measurements
    assert "checks" not in flow["jobs"]["history"]["needs"]  # a flaky test loses no night of history


# Two cells, so that each of two shards measures one.
SHARDED_AB_ARGS = ["--set", "n=20000000,24000000", *AB_ARGS[2:]]


@pytest.fixture(scope="module")
def sharded(tmp_path_factory):
    """One night that regressed, measured in two shards (nightly-sharded.yml's matrix) and merged."""
    tmp = tmp_path_factory.mktemp("sharded")
    base, current = _tiny_build(tmp / "base"), _tiny_build(tmp / "current")
    for k in (1, 2):
        shard = nightly(tmp / "nights", "measure", "night-s", base, current, "--shard", f"{k}/2", *SHARDED_AB_ARGS,
                        "--inject", "tiny/sum:300")
        assert shard.returncode == 0, shard.stderr  # a shard never gates: the merge does
    # The merge job has no build: it reads the shards' folders only.
    merged = nightly(tmp / "nights", "merge", "night-s", build=tmp / "no-build-here")
    return tmp, merged


def test_each_shard_writes_its_own_folder_and_measures_its_part(sharded):
    tmp, _ = sharded
    shards = tmp / "nights" / "night-s-shards"
    assert sorted(p.name for p in shards.iterdir()) == ["1", "2"]
    for k in (1, 2):
        assert _steps(shards / str(k)) == {"ab": "0"} and not (shards / str(k) / "export").exists()
        summary = json.loads((shards / str(k) / "ab" / "ab.json").read_text())
        assert summary["pairs"] == 1 and "-shard" in summary["current"]["run_id"]


def test_a_regression_found_by_the_merge_fails_the_job_and_the_merged_run_is_exported(sharded, tmp_path):
    tmp, merged = sharded
    job = tmp / "nights" / "night-s"
    assert merged.returncode == 1, merged.stderr
    assert _steps(job) == {"shard1/ab": "0", "shard2/ab": "0", "merge": "1", "export": "0"}
    summary = json.loads((job / "ab" / "ab.json").read_text())
    assert summary["pairs"] == 2 and summary["group"] == {**summary["group"], "id": "night-s", "count": 2,
                                                           "complete": True}
    assert "shard 1/2" in (job / "ab" / "ab.md").read_text() and "shard 2/2" in (job / "ab" / "ab.md").read_text()
    exported = sorted((job / "export" / "gbench").glob("*.json"))
    assert len(exported) == 2  # one per cell, from both shards
    assert {json.loads(f.read_text())["context"]["stallbench_run_id"] for f in exported} == \
        {summary["current"]["run_id"]}
    # the history job then records the merged night as it records an unsharded one
    recorded = nightly(tmp / "nights", "record", "night-s", str(tmp_path / "branch"))
    assert recorded.returncode == 0, recorded.stderr
    assert [p.name for p in (tmp_path / "branch" / "runs").iterdir()] == [summary["current"]["run_id"]]


def test_a_missing_shard_fails_the_merge_with_2_naming_the_shard(sharded, tmp_path):
    tmp, _ = sharded
    nights = tmp_path / "nights"  # shard 1's artifact never arrived
    shutil.copytree(tmp / "nights" / "night-s-shards" / "2", nights / "night-s-shards" / "2")
    result = nightly(nights, "merge", "night-s")
    job = nights / "night-s"
    assert result.returncode == 2, result.stderr
    assert _steps(job) == {"shard2/ab": "0", "merge": "2", "export": "0"}
    assert "shard 1/2 missing" in (job / "ab" / "ab.md").read_text()
    assert json.loads((job / "ab" / "ab.json").read_text())["exit"] == 2


def test_a_failed_shard_fails_the_merge_and_no_shard_at_all_is_2(sharded, tmp_path):
    tmp, _ = sharded
    nights = tmp_path / "nights"
    for k in ("1", "2"):
        shutil.copytree(tmp / "nights" / "night-s-shards" / k, nights / "night-s-shards" / k)
    (nights / "night-s-shards" / "2" / "steps.txt").write_text("ab 2\n")  # its ab could not do its work
    result = nightly(nights, "merge", "night-s")
    assert result.returncode == 2 and _steps(nights / "night-s")["shard2/ab"] == "2"
    empty = nightly(tmp_path / "none", "merge", "night-s")
    assert empty.returncode == 2 and _steps(tmp_path / "none" / "night-s")["merge"] == "2"


@pytest.mark.parametrize("args, said", [
    (["--shard", "3/2"], "expected K/N"),
    (["--shard", "x"], "expected K/N"),
    (["--budget", "5", "--shard", "1/2"], "right after CURRENT"),
    (["--shard", "1/2", "--group", "g"], "the group is RUN_ID"),
])
def test_bad_shard_arguments_are_one_line_and_exit_2(tmp_path, args, said):
    result = nightly(tmp_path, "measure", "night-x", "a", "b", *args)
    assert result.returncode == 2 and said in result.stderr and result.stderr.count("\n") == 1
    assert not tmp_path.exists() or list(tmp_path.iterdir()) == []


def _workflow(name):
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load((ROOT / ".github" / "workflows" / name).read_text())


@pytest.mark.parametrize("given, expected", [("3", [1, 2, 3]), ("1", [1]), ("64", list(range(1, 65)))])
def test_the_sharded_workflow_makes_the_matrix_from_n(tmp_path, given, expected):
    (step,) = _workflow("nightly-sharded.yml")["jobs"]["plan"]["steps"]
    output = tmp_path / "output"
    result = subprocess.run(["bash", "-c", step["run"]], env={**os.environ, "N": given, "GITHUB_OUTPUT": str(output)},
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stdout
    found = dict(line.split("=", 1) for line in output.read_text().splitlines())
    assert json.loads(found["shards"]) == expected and found["count"] == given


@pytest.mark.parametrize("given", ["0", "65", "three", "", "1;rm"])
def test_the_sharded_workflow_refuses_a_count_that_is_no_count(tmp_path, given):
    (step,) = _workflow("nightly-sharded.yml")["jobs"]["plan"]["steps"]
    result = subprocess.run(["bash", "-c", step["run"]], env={**os.environ, "N": given, "GITHUB_OUTPUT": str(tmp_path / "o")},
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "expected a whole number of machines" in result.stdout
    assert not (tmp_path / "o").exists()


def test_the_sharded_workflow_wires_the_matrix_to_the_merge_to_the_history():
    flow = _workflow("nightly-sharded.yml")
    jobs = flow["jobs"]
    assert flow["permissions"] == {"contents": "read"} and flow["env"]["NIGHT"] == "results/nightly/${{ github.run_id }}"
    assert flow["env"]["SHARDS"] == flow["env"]["NIGHT"] + "-shards"  # scripts/nightly's $NIGHTS/RUN_ID-shards
    shard = jobs["shard"]
    assert shard["needs"] == "plan" and shard["strategy"]["fail-fast"] is False
    assert shard["strategy"]["matrix"]["shard"] == "${{ fromJSON(needs.plan.outputs.shards) }}"
    gate = next(s for s in shard["steps"] if "scripts/nightly measure" in s.get("run", ""))
    assert "if" not in gate and '"${{ github.run_id }}"' in gate["run"]
    assert '--shard "${{ matrix.shard }}/${{ needs.plan.outputs.count }}"' in gate["run"]
    (upload,) = [s for s in shard["steps"] if s.get("uses", "").startswith("actions/upload-artifact")]
    assert upload["if"] == "${{ !cancelled() }}" and upload["with"]["path"] == "${{ env.SHARDS }}/"
    assert upload["with"]["name"] == "stallbench-night-${{ github.run_id }}-shard${{ matrix.shard }}"

    merge = jobs["merge"]
    assert set(merge["needs"]) == {"plan", "shard"} and merge["if"].startswith("${{ !cancelled()")  # a failed shard still merges
    (download,) = [s for s in merge["steps"] if s.get("uses", "").startswith("actions/download-artifact")]
    assert download["with"] == {"pattern": "stallbench-night-${{ github.run_id }}-shard*", "path": "${{ env.SHARDS }}",
                                "merge-multiple": True}  # each artifact holds its folder K: side by side again
    gate = next(s for s in merge["steps"] if "scripts/nightly merge" in s.get("run", ""))
    assert '"${{ github.run_id }}"' in gate["run"] and "if" not in gate and "continue-on-error" not in gate
    uploads = [s for s in merge["steps"] if s.get("uses", "").startswith("actions/upload-artifact")]
    assert [(u["with"]["name"], u["with"]["path"]) for u in uploads] == \
        [("stallbench-night-${{ github.run_id }}", "${{ env.NIGHT }}/")]  # what the history job downloads

    history = jobs["history"]
    assert history["needs"] == "merge" and history["permissions"] == {"contents": "write"}
    assert "needs.merge.result == 'success'" in history["if"] and "needs.merge.result == 'failure'" in history["if"]
    assert history["uses"] == _workflow("nightly.yml")["jobs"]["history"]["uses"] == \
        "./.github/workflows/nightly-history.yml"


def test_the_history_job_both_nightlies_share_records_the_uploaded_night():
    flow = _workflow("nightly-history.yml")
    assert list(flow[True]) == ["workflow_call"]  # PyYAML reads `on:` as True
    steps = flow["jobs"]["history"]["steps"]
    (download,) = [s for s in steps if s.get("uses", "").startswith("actions/download-artifact")]
    assert download["with"] == {"name": "stallbench-night-${{ github.run_id }}", "path": "${{ env.NIGHT }}"}
    assert any('scripts/nightly record "${{ github.run_id }}" history' in s.get("run", "") for s in steps)
    assert flow["jobs"]["history"]["permissions"] == {"contents": "write"}
    assert flow["jobs"]["history"]["concurrency"]["group"]  # the two nightlies' pushes, one at a time


def test_one_night_is_measured_by_one_of_the_two_workflows():
    single, sharded = _workflow("nightly.yml"), _workflow("nightly-sharded.yml")
    assert single[True]["schedule"] == sharded[True]["schedule"]
    assert "vars.STALLBENCH_SHARDS == ''" in single["jobs"]["measure"]["if"]
    assert "vars.STALLBENCH_SHARDS != ''" in sharded["jobs"]["plan"]["if"]
