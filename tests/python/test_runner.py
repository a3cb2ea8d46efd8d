"""A cell that hangs, crashes or fails becomes rows with that status, and finished repetitions
survive. The 'benchmarks' here are small shell scripts writing the harness's repetition records
(benches/harness/records.h) to the descriptor they are given."""
import json
import stat
import subprocess

from conftest import Quiet
from stallbench_lib import children, runner
from stallbench_lib.catalogue import Benchmark, Metric
from stallbench_lib.contract import PROTOCOL
from stallbench_lib.plan import Cell


# Every fake bench starts by finding its records descriptor, as the harness does.
FIND_RECORDS_FD = 'for a; do case $a in --stallbench-records-fd=*) fd=${a#*=};; esac; done\n'


def started(rep: int) -> str:
    """A shell line writing the record of repetition `rep` starting."""
    return f"echo '{json.dumps({'protocol': PROTOCOL, 'event': 'start', 'rep': rep})}' >&$fd"


def ended(rep: int, x_ms: float) -> str:
    """A shell line writing the record of repetition `rep` ending with x_ms."""
    values = [{"metric": "x_ms", "index": None, "subcase": {}, "value": x_ms}]
    record = {'protocol': PROTOCOL, 'event': 'end', 'rep': rep, 'status': 'ok', 'detail': '', 'wall_ms': x_ms,
              'callgrind_dump': f'rep {rep}', 'values': values}
    return f"echo '{json.dumps(record)}' >&$fd"


def fake_bench(tmp_path, body: str, timeout_s: float = 30) -> Cell:
    script = tmp_path / "bench_fake"
    script.write_text("#!/bin/bash\n" + FIND_RECORDS_FD + body + "\n")  # dash takes descriptors 0-9 only
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    bench = Benchmark("fake", "demo", "", [], [Metric("x_ms", "ms", "lower", True, "")], timeout_s, script)
    return Cell(bench, {"n": "1"})


def run(tmp_path, cell, repetitions=3):
    raw = tmp_path / "raw"
    raw.mkdir(exist_ok=True)
    return runner.run_cell(cell, "r", raw, "cell", repetitions, Quiet())


def test_crash_keeps_finished_repetitions(tmp_path):
    cell = fake_bench(tmp_path, "\n".join([started(0), ended(0, 4.5), started(1), "kill -SEGV $$"]))
    result = run(tmp_path, cell)
    by_rep = {r.repetition: r for r in result.rows}
    assert by_rep[0].status == "ok" and by_rep[0].value == 4.5
    assert by_rep[1].status == by_rep[2].status == "crashed"
    assert "SIGSEGV" in by_rep[1].detail
    assert result.status == "crashed"


def test_hang_becomes_timeout(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "STARTUP_ALLOWANCE_S", 5)
    hang = ["sleep", "60"]
    cell = fake_bench(tmp_path, started(0) + "\nexec " + " ".join(hang), timeout_s=0.5)
    # The same hang, started before the cell: if the run ends while it still runs, the runner
    # killed the cell's hang rather than waiting for it to end by itself.
    beside = subprocess.Popen(hang)
    try:
        result = run(tmp_path, cell, repetitions=1)
        assert beside.poll() is None, "the run waited for the hung cell to end by itself"
    finally:
        beside.kill()
        beside.wait()
    assert [r.status for r in result.rows] == ["timeout"]
    assert "exceeded 0.5 s" in result.rows[0].detail


def test_exit_without_results_is_an_error_with_the_last_words(tmp_path):
    cell = fake_bench(tmp_path, "echo 'cannot open payload' >&2\nexit 3")
    result = run(tmp_path, cell, repetitions=2)
    assert {r.status for r in result.rows} == {"error"}
    assert "cannot open payload" in result.rows[0].detail
    assert (tmp_path / "raw" / "cell.log").read_text().count("cannot open payload") == 1


def test_a_record_that_is_not_one_is_an_error_saying_so(tmp_path):
    cell = fake_bench(tmp_path, "\n".join([started(0), ended(0, 1.0), "echo '{\"protocol\": 9}' >&$fd"]))
    result = run(tmp_path, cell, repetitions=2)
    by_rep = {r.repetition: r for r in result.rows}
    assert by_rep[0].status == "ok" and by_rep[1].status == "error"
    assert "speaks stallbench protocol 9" in by_rep[1].detail


def test_memory_limit_is_below_physical_memory():
    assert 0 < children.memory_limit_bytes()


def test_a_declared_outcome_is_a_finding_not_a_failure(tmp_path):
    """A regex engine's guard is what its benchmark measures: the run records it and does not fail."""
    import dataclasses

    from stallbench_lib.execute import execute

    crash = fake_bench(tmp_path, started(0) + "\nkill -SEGV $$")
    finding = dataclasses.replace(crash, benchmark=dataclasses.replace(crash.benchmark, outcomes=("crashed",)))
    meta = {"git": {"short": "test"}, "machine": {}}
    run = execute([finding, crash], 1, tmp_path / "runs", meta)
    assert run.meta["cells"] == {"planned": 2, "ok": 0, "failed": 1, "findings": 1}
    assert run.meta["complete"] is True
    assert {r.status for r in run.rows} == {"crashed"}
