"""Family `starvation` in the smoke run: its rows show the seeds' shapes, meta.json records where
each libuv runs timers, the report draws its plots; without Node there are no Node cells."""
import json
import subprocess

import pytest

from conftest import BUILD, stallbench
from stallbench_lib import node as nodejs
from stallbench_lib.tidy import read_csv


def _rows(run_dir):
    return [r for r in read_csv(run_dir / "results.csv") if r.family == "starvation"]


def test_starvation_rows_show_the_shapes(smoke_run):
    _, run_dir = smoke_run
    rows = _rows(run_dir)
    assert rows and {r.status for r in rows} == {"ok"}
    by = lambda benchmark, metric: [r for r in rows if r.benchmark == benchmark and r.metric == metric]
    for r in by("reschedule", "calls_before_timer"):
        p = r.param_dict()
        if p["scheduler"] == "nexttick":
            assert r.value == int(p["n"])  # the timer waited for every call
    for r in by("busy_timer", "timer_late_ms"):
        assert r.value > 0
    assert {r.value for r in by("async_pbkdf2", "interval_ticks")} == {0.0}
    runtimes = {r.param_dict()["runtime"] for r in rows}
    node, _ = nodejs.find()
    assert runtimes == ({"stallbench", "node"} if node else {"stallbench"})


def test_meta_records_libuv_and_its_timer_phase(smoke_run):
    _, run_dir = smoke_run
    versions = json.loads((run_dir / "meta.json").read_text())["versions"]
    assert "timers run" in versions["libuv-timer-phase"]
    assert "node" in versions
    if "node-libuv" in versions:
        assert "timers run" in versions["node-libuv-timer-phase"]


def test_starvation_report_has_its_plots(smoke_run):
    _, run_dir = smoke_run
    report = run_dir / "report"
    assert (report / "starvation-waits.png").exists() and (report / "starvation-cost.svg").exists()
    text = (report / "report.md").read_text()
    assert "Self-rescheduling callbacks" in text and "Node / stallbench" in text


def test_no_node_cells_without_node():
    listed = subprocess.run([str(BUILD / "benches" / "bench_starvation"), "--benchmark_list_tests"],
                            capture_output=True, text=True, env={"STALLBENCH_NODE": "none"})
    assert listed.returncode == 0, listed.stderr
    assert "runtime:stallbench" in listed.stdout and "runtime:node" not in listed.stdout


@pytest.mark.parametrize("args, words", [
    (["--set", "scheduler=soon"], "scheduler=soon is not valid: valid values are nexttick, microtask, immediate, timeout"),
    (["--set", "n=0"], "n=0 is out of range: valid values are integers 1-10000000"),
    (["--set", "runtime=deno"], "runtime=deno is not valid: valid values are stallbench, node"),
])
def test_bad_settings_are_one_line_and_write_nothing(tmp_path, args, words):
    result = stallbench("run", "--no-build", "--filter", "starvation", "--out", str(tmp_path), *args)
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and words in result.stderr, result.stderr
    assert list(tmp_path.iterdir()) == []
