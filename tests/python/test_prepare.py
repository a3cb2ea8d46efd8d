"""A benchmark's prepare step (starting the runtime an engine runs in) runs before its cell's first
repetition starts: it may take longer than the repetition's timeout without the cell timing out, and
when it fails, every repetition of the cell has its status. The fixture's prepare step waits on a
FIFO until the test writes a word to it (tests/cpp/prepare_bench.cc)."""
import errno
import os
import threading
import time

from conftest import BUILD, Quiet
from stallbench_lib import catalogue, runner
from stallbench_lib.plan import Cell

PREPARED = BUILD / "tests" / "prepare_bench"


def _run_holding_prepare(tmp_path, monkeypatch, word: str, timeouts: float):
    """The cell's rows, its prepare step held for `timeouts` times the repetition's timeout."""
    fifo = tmp_path / "word"
    os.mkfifo(fifo)
    monkeypatch.setenv("STALLBENCH_TEST_PREPARE_FIFO", str(fifo))
    bench = catalogue.describe(PREPARED).benchmarks[0]
    raw = tmp_path / "raw"
    raw.mkdir()
    result = {}
    cell = threading.Thread(target=lambda: result.update(
        done=runner.run_cell(Cell(bench, {"n": "1"}), "r", raw, "cell", 2, Quiet())))
    cell.start()
    time.sleep(timeouts * bench.timeout_s)  # the prepare step lasts at least this long
    while cell.is_alive():  # the word goes to the prepare step once it reads, unless the cell has ended
        try:
            writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as e:
            if e.errno != errno.ENXIO:  # ENXIO: no reader yet
                raise
            time.sleep(0.05)
            continue
        os.write(writer, word.encode())
        os.close(writer)
        break
    cell.join(timeout=120)
    return result["done"]


def test_a_prepare_step_longer_than_the_timeout_does_not_time_the_cell_out(tmp_path, monkeypatch):
    done = _run_holding_prepare(tmp_path, monkeypatch, "go", 4)
    assert [r.status for r in done.rows if r.metric == "done"] == ["ok", "ok"], [(r.status, r.detail) for r in done.rows]


def test_a_failing_prepare_step_is_every_repetition_s_status(tmp_path, monkeypatch):
    done = _run_holding_prepare(tmp_path, monkeypatch, "refuse", 0)
    assert {(r.status, r.detail) for r in done.rows} == {("rejected", "told to refuse while preparing")}
    assert len({r.repetition for r in done.rows}) == 2
