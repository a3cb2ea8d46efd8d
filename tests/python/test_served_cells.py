"""Cells of a benchmark that shares its process run one after another in one serving process
(served_cells.py, `--stallbench-serve`); any other cell runs in a process of its own. The
'benchmarks' here are shell scripts that speak the harness's records (test_runner.py), so what is
checked is the orchestrator's side: which process serves which cell, and when it ends."""
import dataclasses
import os

from conftest import Quiet
from stallbench_lib import served_cells
from stallbench_lib.catalogue import Param
from stallbench_lib.plan import Cell
from test_runner import ended, fake_bench, started

# A server: one line of its start (its arguments, its pid) in the file it is given, then a cell a line.
SERVES = ["echo \"$$ $*\" >> {starts}", "while read -r reps cell; do", started(0), ended(0, 1.5), "done"]


def _serving(tmp_path, name: str, *, shares_process: bool = True, params=(), lines=SERVES) -> Cell:
    folder = tmp_path / name
    folder.mkdir()
    cell = fake_bench(folder, "\n".join(lines).replace("{starts}", str(folder / "starts")))
    bench = dataclasses.replace(cell.benchmark, shares_process=shares_process, params=list(params))
    return Cell(bench, {"n": "1"})


def _starts(tmp_path, name: str) -> list[list[str]]:
    path = tmp_path / name / "starts"
    return [line.split() for line in path.read_text().splitlines()] if path.exists() else []


def _alive(pid: str) -> bool:
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    return True


def test_the_cells_of_a_benchmark_that_shares_its_process_run_in_one(tmp_path):
    cell = _serving(tmp_path, "a")
    raw = tmp_path / "raw"
    raw.mkdir()
    with served_cells.ServedCells() as served:
        results = [served.run_cell(Cell(cell.benchmark, {"n": n}), "r", raw, f"cell{n}", 1, Quiet()) for n in "123"]
    assert [r.status for r in results] == ["ok"] * 3 and all(r.rows[0].value == 1.5 for r in results)
    starts = _starts(tmp_path, "a")
    assert len(starts) == 1 and "--stallbench-serve" in starts[0]
    assert (raw / "served-fake.log").exists() and all((raw / f"cell{n}.log").exists() for n in "123")
    assert not _alive(starts[0][0])  # its input ended with the run, and it ended


def test_a_cell_of_a_benchmark_that_does_not_share_its_process_runs_in_its_own(tmp_path):
    cell = _serving(tmp_path, "a", shares_process=False, lines=[SERVES[0], started(0), ended(0, 1.5)])
    raw = tmp_path / "raw"
    raw.mkdir()
    with served_cells.ServedCells() as served:
        assert served.run_cell(cell, "r", raw, "cell", 1, Quiet()).status == "ok"
    starts = _starts(tmp_path, "a")
    assert len(starts) == 1 and "--stallbench-serve" not in starts[0]
    assert not (raw / "served-fake.log").exists()


def test_each_per_process_value_has_a_process_of_its_own_started_with_it(tmp_path):
    pool = Param("pool", ["1", "4"], ["1"], ["1", "4"], [], [1, 64], "UV_THREADPOOL_SIZE", "", per_process=True)
    cell = _serving(tmp_path, "a", params=[pool])
    raw = tmp_path / "raw"
    raw.mkdir()
    with served_cells.ServedCells() as served:
        for i, size in enumerate(["1", "4", "1"]):
            assert served.run_cell(Cell(cell.benchmark, {"pool": size}), "r", raw, f"c{i}", 1, Quiet()).status == "ok"
    starts = _starts(tmp_path, "a")
    assert sorted(s[-2] for s in starts) == ["--stallbench-grid=demo.pool=1", "--stallbench-grid=demo.pool=4"]
    assert (raw / "served-fake-pool=1.log").exists() and (raw / "served-fake-pool=4.log").exists()


def test_a_serving_process_ends_by_itself_when_a_cell_of_another_binary_starts(tmp_path):
    # A browser waiting for cells that are not coming would share the machine with the next
    # family's cells: its process is sent the end of its input (it closes the browser) first.
    first, second = _serving(tmp_path, "a"), _serving(tmp_path, "b")
    raw = tmp_path / "raw"
    raw.mkdir()
    with served_cells.ServedCells() as served:
        served.run_cell(first, "r", raw, "first", 1, Quiet())
        pid = _starts(tmp_path, "a")[0][0]
        assert _alive(pid)
        served.run_cell(second, "r", raw, "second", 1, Quiet())
        assert not _alive(pid)
        assert _alive(_starts(tmp_path, "b")[0][0])


def test_a_cell_that_overran_while_it_waited_for_the_processor_is_run_again_and_one_that_worked_is_a_timeout(
        tmp_path, monkeypatch):
    # Main's CI beside two spinners: node@26 timed out at 121 bytes on a match of well under a
    # millisecond (one process a cell then, each waiting its turn for a processor), and the curve
    # read `timeout` instead of exponential. A served cell that overruns with less than half its
    # budget in processor time is run again in a new process; one that spent its budget working is
    # a timeout at once. The fake server waits (sleep) on its first request, spins on a `spin` one.
    monkeypatch.setattr(served_cells, "STARTUP_ALLOWANCE_S", 5)
    mark = tmp_path / "waited-once"
    cell = fake_bench(tmp_path, "\n".join([
        "while read -r reps cell; do", started(0),
        "  case $cell in *spin*) while :; do :; done;; esac",
        f"  if [ ! -e {mark} ]; then touch {mark}; exec sleep 60; fi", ended(0, 1.5), "done"]), timeout_s=1.0)
    cell = Cell(dataclasses.replace(cell.benchmark, shares_process=True), cell.params)
    raw = tmp_path / "raw"
    raw.mkdir()
    with served_cells.ServedCells() as served:
        waited = served.run_cell(cell, "r", raw, "waited", 1, Quiet())
        assert waited.status == "ok" and waited.rows[0].value == 1.5
        assert "run again" in (raw / "waited.log").read_text()
        spun = served.run_cell(Cell(cell.benchmark, {"n": "spin"}), "r", raw, "spun", 1, Quiet())
    assert spun.status == "timeout"
    assert (raw / "spun.log").read_text().count("run again") <= served_cells.LOAD_RETRIES
