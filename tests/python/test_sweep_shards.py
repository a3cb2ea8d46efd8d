"""sweep-pool --shard K/N --group ID: a small sweep split in two and merged by `stallbench merge`
has the points of the same sweep unsplit, and its report weighs them all."""
import json

import pytest

from conftest import stallbench, stallbench_command
from stallbench_lib.tidy import read_csv

TINY = "pbkdf2:20:20000,read:50"  # test_pool_sweep.py's sizes and duration, two classes
SWEEP = ["sweep-pool", "--no-build", "--no-report", "--sizes", "1,2", "--mix", TINY, "--duration", "1",
         "--targets", "read:500", "--node", "none"]


def _points(run_dir):
    return sorted({(r.benchmark, r.params, r.metric) for r in read_csv(run_dir / "results.csv")})


@pytest.fixture(scope="module")
def sweeps(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sweep-shards")
    whole = stallbench(*SWEEP, "--out", str(tmp / "whole"))
    assert whole.returncode == 0, whole.stderr
    shards = {}
    for k in (1, 2):
        shards[k] = stallbench(*SWEEP, "--out", str(tmp / "shards"), "--shard", f"{k}/2", "--group", "sweep-g")
        assert shards[k].returncode == 0, shards[k].stderr
    merged = stallbench_command("merge", str(tmp / "shards"), "--out", str(tmp / "merged"))
    (unsplit,) = (tmp / "whole").iterdir()
    return tmp, unsplit, shards, merged


def test_each_shard_runs_its_points_and_records_the_partition(sweeps):
    tmp, _, printed, _ = sweeps
    metas = sorted((json.loads((p / "meta.json").read_text()) for p in (tmp / "shards").iterdir()),
                   key=lambda m: m["shard"]["index"])
    assert [m["shard"]["index"] for m in metas] == [1, 2] and {m["shard"]["group"] for m in metas} == {"sweep-g"}
    assert [m["shard"]["cells"] for m in metas] == [1, 1] and len({m["shard"]["digest"] for m in metas}) == 1
    assert metas[0]["shard"]["estimates"] == "declared durations"
    assert [m["per_process"]["pool"] for m in metas] in ([["1"], ["2"]], [["2"], ["1"]])  # disjoint, one size each
    assert all("shard " in printed[k].stdout and "`stallbench merge`" in printed[k].stdout for k in (1, 2))


def test_a_merged_sweep_has_every_point_of_the_unsplit_sweep_and_its_report_weighs_them_all(sweeps):
    tmp, unsplit, _, merged = sweeps
    assert merged.returncode == 0, merged.stderr
    run = tmp / "merged" / "sweep-g"
    assert _points(run) == _points(unsplit)
    meta = json.loads((run / "meta.json").read_text())
    assert meta["complete"] and meta["command"] == "sweep-pool" and meta["per_process"]["pool"] == ["1", "2"]
    assert meta["sizes"] == [1, 2] and not any("shard" in note for note in meta["notes"])
    report = (run / "report" / "report.md").read_text()
    assert "Merged from the 2 shards of group `sweep-g`" in report
    assert "recommended pool size:" in report and "read p99 ≤ 500 ms" in report
    assert all(f"| {cls} | {pool} |" in report for cls in ("pbkdf2", "read") for pool in (1, 2))  # both shards' sizes
    assert (run / "report" / "pool-sweep-latency-0.svg").exists()


@pytest.mark.parametrize("args, said", [
    (["--shard", "1/2"], "needs --group"),
    (["--shard", "3/2", "--group", "g"], "expected K/N"),
    (["--app", "node x.js", "--url", "http://127.0.0.1:9/", "--shard", "1/2", "--group", "g"], "--app sweeps one program"),
])
def test_bad_shard_options_are_one_line_and_exit_2(tmp_path, args, said):
    result = stallbench_command("sweep-pool", "--no-build", "--out", str(tmp_path), *args)
    assert result.returncode == 2 and said in result.stderr and result.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []
