"""Family `starvation` in the smoke run: its rows show the seeds' shapes, one Node cell per chosen
line (node@26 ...), meta.json records the line the model stands for, the report draws its plots
and the parity of the model with each line, on the shipped scenarios and on random programs (each
disagreeing one with the command that runs it again); without Node lines there are no Node cells."""
import json
import subprocess

import pytest

from conftest import BUILD, stallbench
from stallbench_lib import runtimes
from stallbench_lib.parameters import Params
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
        p = r.params
        if p["scheduler"] == "nexttick":
            assert r.value == int(p["n"])  # the timer waited for every call
    for r in by("busy_timer", "timer_late_ms"):
        assert r.value > 0
    assert {r.value for r in by("async_pbkdf2", "interval_ticks")} == {0.0}
    lines = {n["runtime"] for n in json.loads((run_dir / "meta.json").read_text())["nodes"]}
    for benchmark in ("reschedule", "busy_timer", "async_pbkdf2"):
        assert {runtimes.label(r.params) for r in rows if r.benchmark == benchmark} == {"stallbench"} | lines
    parity = [r for r in rows if r.benchmark == "parity" and r.metric.endswith("_expected_pct")]
    assert {runtimes.label(r.params) for r in parity} == lines
    # Both sides gave only orders the race allows; how often each won is the report's figure.
    assert {r.value for r in parity} <= {100.0}
    random_programs = by("random_parity", "agree_pct")
    assert {runtimes.label(r.params) for r in random_programs} == lines
    assert {r.value for r in random_programs} <= {100.0}  # the smoke profile's fixed series agrees everywhere


def test_meta_records_the_modelled_line(smoke_run):
    _, run_dir = smoke_run
    meta = json.loads((run_dir / "meta.json").read_text())
    assert meta["versions"]["loop-model"].startswith(f"Node {max(map(int, nodejs.pinned()))} (libuv ")
    assert "timers run" in meta["versions"]["loop-model"]
    assert all({"runtime", "version", "libuv"} <= set(n) for n in meta["nodes"])


def test_starvation_report_has_its_plots(smoke_run):
    _, run_dir = smoke_run
    report = run_dir / "report"
    assert (report / "starvation-waits.png").exists() and (report / "starvation-cost.svg").exists()
    text = (report / "report.md").read_text()
    assert "Self-rescheduling callbacks" in text and "| chain | n | runtime | total ms | per call µs | / stallbench |" in text
    if json.loads((run_dir / "meta.json").read_text())["nodes"]:
        assert "The model beside each Node line (parity)" in text
        assert (report / "starvation-race-odds.png").exists()
        assert "Random programs: the model beside each Node line" in text


def test_the_random_programs_section_counts_per_line_and_names_each_disagreement():
    from stallbench_lib.families.starvation import random_section
    from stallbench_lib.tidy import Row

    def row(runtime, repetition, metric, value):
        return Row("r", "starvation", "random_parity", Params({"programs": 8, "runtime": runtime, "series": "fresh"}), repetition, metric,
                   value, "", "ok", "")

    rows = []
    for runtime, repetition, series, disagreeing in [("node@22", 0, 111, []), ("node@22", 1, 222, [3.0]),
                                                      ("node@24", 0, 333, [])]:
        rows += [row(runtime, repetition, "programs", 8.0), row(runtime, repetition, "series", float(series)),
                 row(runtime, repetition, "agreeing_programs", 8.0 - len(disagreeing))]
        rows += [row(runtime, repetition, "disagreeing_program", i) for i in disagreeing]

    class Context:
        pass

    context = Context()
    context.rows = rows
    text = random_section.section(context)
    assert "| node@22 | 16 | 15 | 93.8% |" in text and "| node@24 | 8 | 8 | 100.0% |" in text
    assert [l for l in text.splitlines() if l.startswith("- ")] == [
        "- node@22: `scripts/stallbench trace --random 1 --seed 222 --first 3 --node 22`"]


def test_no_node_cells_without_node_lines():
    listed = subprocess.run([str(BUILD / "benches" / "bench_starvation"), "--benchmark_list_tests"],
                            capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    assert "runtime:stallbench" in listed.stdout and "runtime:node" not in listed.stdout
    assert "parity/" not in listed.stdout  # its cells are Node lines only


@pytest.mark.parametrize("args, words", [
    (["--set", "scheduler=soon"], "scheduler=soon is not valid: valid values are nexttick, microtask, immediate, timeout"),
    (["--set", "n=0"], "n=0 is out of range: valid values are integers 1-10000000"),
    (["--set", "runtime=deno"], "runtime=deno is not valid: valid values are stallbench, node"),
    (["--set", "series=soon"], "must be fresh or a series number from 0 to 999999999"),
])
def test_bad_settings_are_one_line_and_write_nothing(tmp_path, args, words):
    result = stallbench("run", "--no-build", "--filter", "starvation", "--out", str(tmp_path), *args)
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and words in result.stderr, result.stderr
    assert list(tmp_path.iterdir()) == []
