"""A disk that refuses a write (full, read-only) costs one line and exit 3, never a finished row:
results.csv keeps every cell that finished, meta.json says why the run stopped when it can still be
written, and nothing is half-written. Real small filesystems (tmpfs) where this process may mount
them; the same paths with the errno simulated everywhere."""
import errno
import json
import os
import subprocess
import threading
import uuid

import pytest

from stallbench_lib import atomic, cli, rundir, tidy
from stallbench_lib.errors import DISK_EXIT, UsageError
from stallbench_lib.execute import execute
from test_runner import ended, fake_bench, started

META = {"git": {"short": "test"}, "machine": {}}
CELL = started(0) + "\n{before}" + ended(0, 1.5) + "\n"


@pytest.fixture
def small_disk(tmp_path):
    """A 16 MiB tmpfs, or a skip where this process may not mount one."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def cells(tmp_path, second_cell_does: str):
    """Three one-repetition cells; the second does `second_cell_does` before it reports."""
    made = []
    for i, before in enumerate(["", second_cell_does + "\n", ""]):
        folder = tmp_path / f"bench{i}"
        folder.mkdir()
        made.append(fake_bench(folder, CELL.replace("{before}", before)))
    return made


def run_dir(parent):
    [found] = [p for p in parent.iterdir() if p.is_dir()]
    return found


def test_a_disk_that_fills_mid_run_keeps_every_finished_row_and_says_why(tmp_path, small_disk):
    fill = f"dd if=/dev/zero of={small_disk}/filler bs=1M count=64 2>/dev/null"
    with pytest.raises(OSError) as stop:
        execute(cells(tmp_path, fill), 1, small_disk / "runs", META)
    assert stop.value.errno == errno.ENOSPC
    run = rundir.load(run_dir(small_disk / "runs"))
    assert [r.value for r in run.rows] == [1.5, 1.5]  # cells 1 and 2 finished; 3 never ran
    assert "ENOSPC" in run.meta["stopped"] and not run.meta["complete"]
    assert not list(run.path.rglob("*.tmp")) and not run.reserve.exists()


def test_a_disk_remounted_read_only_mid_run_keeps_the_rows_written_before(tmp_path, small_disk):
    # A read-only bind mount over the runs: the orchestrator's open log (on the mount below) would
    # keep a plain remount,ro busy.
    runs = small_disk / "runs"
    remount = f"mount --bind {runs} {runs} && mount -o remount,bind,ro {runs}"
    with pytest.raises(OSError) as stop:
        execute(cells(tmp_path, remount), 1, small_disk / "runs", META)
    assert stop.value.errno == errno.EROFS
    run = rundir.load(run_dir(small_disk / "runs"))
    assert [r.value for r in run.rows] == [1.5]
    assert rundir.unfinished(run.meta)


def test_a_full_disk_at_the_start_leaves_no_run_directory(small_disk):
    subprocess.run(["dd", "if=/dev/zero", f"of={small_disk}/filler", "bs=1M", "count=64"], capture_output=True)
    with pytest.raises(OSError) as stop:
        rundir.RunDir.create(small_disk / "runs", "r", META)
    assert stop.value.errno == errno.ENOSPC
    assert not any((small_disk / "runs").iterdir())


def test_the_rows_of_the_cell_that_met_the_full_disk_are_written_after_the_reserve_is_released(tmp_path, monkeypatch):
    """The same, simulated: the first cell's rows make results.csv, the second cell's append fails
    with ENOSPC, and then the file is written whole with both cells' rows."""
    writes = []

    def whole(path, rows):
        writes.append(("whole", len(rows)))
        atomic.atomic_write(path, tidy.to_csv(rows))

    def full(path, text):
        writes.append(("append", text.count("\n")))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(rundir, "write_csv", whole)
    monkeypatch.setattr(rundir, "append_synced", full)
    with pytest.raises(OSError):
        execute(cells(tmp_path, ""), 1, tmp_path / "runs", META)
    run = rundir.load(run_dir(tmp_path / "runs"))
    assert writes == [("whole", 1), ("append", 1), ("whole", 2)] and "ENOSPC" in run.meta["stopped"]
    assert [r.value for r in run.rows] == [1.5, 1.5]


def test_an_append_the_disk_refuses_part_way_is_cut_back_to_whole_lines(tmp_path, monkeypatch):
    path = tmp_path / "results.csv"
    path.write_text("a,b\n1,2\n")
    real_write = os.write

    def half_then_full(fd, data):
        if len(data) > 4:
            return real_write(fd, bytes(data[:4]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic.os, "write", half_then_full)
    with pytest.raises(OSError) as stop:
        atomic.append_synced(path, "3,4\n5,6\n")
    assert stop.value.errno == errno.ENOSPC and stop.value.filename == str(path)
    assert path.read_text() == "a,b\n1,2\n"


def test_a_run_appends_each_cells_rows_and_reads_back_as_it_would_whole(tmp_path):
    run = execute(cells(tmp_path, ""), 1, tmp_path / "runs", META)
    text = (run.path / "results.csv").read_text()
    assert text == tidy.to_csv(run.rows) and len(rundir.load(run.path).rows) == 3


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EACCES])
def test_the_command_line_says_it_in_one_line_with_exit_3(tmp_path, monkeypatch, capsys, code):
    def refuse(path, data):
        raise OSError(code, os.strerror(code), str(path))

    from stallbench_lib.tracking import comparison
    from stallbench_lib.tracking.commands import compare
    from synthetic_runs import noisy, write_run

    base = write_run(tmp_path / "a", {("n=1", "time_ms"): noisy(10, 5, 0.02, 1)})
    current = write_run(tmp_path / "b", {("n=1", "time_ms"): noisy(10, 5, 0.02, 2)})
    monkeypatch.setattr(compare, "atomic_write", refuse)
    assert cli.main(["compare", str(base), str(current), "--out", str(tmp_path / "out")]) == DISK_EXIT
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"stallbench: cannot write {tmp_path / 'out' / 'compare.md'}: {os.strerror(code)} "
                   f"({errno.errorcode[code]})"]


def test_out_naming_a_file_is_a_usage_error(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(UsageError, match="not a directory"):
        rundir.RunDir.create(tmp_path / "file", "r", META)


def test_runs_started_in_the_same_second_get_distinct_directories(tmp_path):
    made, barrier = [], threading.Barrier(8)

    def one():
        barrier.wait()
        made.append(rundir.RunDir.create(tmp_path, "20260101T000000Z-abc", META).path)

    threads = [threading.Thread(target=one) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(made)) == 8


def test_results_honour_the_umask(tmp_path):
    mask = os.umask(0o022)
    os.umask(mask)
    atomic.atomic_write(tmp_path / uuid.uuid4().hex, "x")
    [written] = list(tmp_path.iterdir())
    assert written.stat().st_mode & 0o777 == 0o666 & ~mask
