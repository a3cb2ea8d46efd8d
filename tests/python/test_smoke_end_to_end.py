"""The smoke profile end to end: it runs, its CSV follows the schema, its report renders, and an
interrupted run keeps its finished cells, says it is incomplete and leaves earlier runs alone."""
import json
import re
import signal
import subprocess
import time
import os

from conftest import BUILD, ROOT, tree
from stallbench_lib.tidy import read_csv, validate_row


def test_smoke_run_completes(smoke_run):
    result, run_dir = smoke_run
    assert result.returncode == 0, result.stderr
    assert "results:" in result.stdout and "report:" in result.stdout
    assert re.search(r"\[\s*1/\d+\]", result.stderr)  # progress was shown ("[ 1/14]" once there are 10 or more)


def test_smoke_csv_follows_the_schema(smoke_run):
    _, run_dir = smoke_run
    all_rows = read_csv(run_dir / "results.csv")
    assert all_rows
    assert [p for r in all_rows for p in validate_row(r)] == []
    assert {r.run_id for r in all_rows} == {run_dir.name}
    assert {r.status for r in all_rows} == {"ok"}
    # Other families and benchmarks have their own tests: wherever saturation is declared among them.
    rows = [r for r in all_rows if r.family == "pool" and r.benchmark == "saturation"]
    pools = {r.params["pool"] for r in rows}
    assert pools == {"1", "4"}  # one process per pool size, each recorded
    for params in {r.params for r in rows}:  # every cell: one completion per job in each repetition
        jobs = int(params["jobs"])
        per_rep = [r for r in rows if r.metric == "pbkdf2_done_ms" and r.repetition == 0 and r.params == params]
        assert len(per_rep) == jobs, params


def test_smoke_meta_is_complete(smoke_run):
    _, run_dir = smoke_run
    meta = json.loads((run_dir / "meta.json").read_text())
    assert meta["complete"] is True
    assert meta["machine"]["cores"] >= 1 and meta["machine"]["fingerprint"]
    assert {"libuv", "openssl", "compiler", "google-benchmark"} <= set(meta["versions"])
    assert meta["build_type"] == "Release"
    assert {"1", "4"} <= set(meta["per_process"]["pool"])  # one process per value, each recorded
    assert meta["command_line"][:2] == ["scripts/stallbench", "run"]
    cells = {r.params for r in read_csv(run_dir / "results.csv") if r.benchmark == "saturation"}
    assert len(list((run_dir / "raw").glob("*-pool-saturation-*.json"))) == len(cells)  # one per cell (C++, each Node line)


def test_smoke_cells_of_a_benchmark_that_shares_its_process_ran_in_one(smoke_run):
    # The regex family's cells (and the browser's, where a browser is installed) went to one serving
    # process per family: no Google Benchmark JSON of theirs, every cell's records in its own log.
    _, run_dir = smoke_run
    raw = run_dir / "raw"
    rows = read_csv(run_dir / "results.csv")
    for family in ("regex", "browser"):
        cells = {(r.benchmark, r.params) for r in rows if r.family == family}
        if not cells:  # no browser on this machine
            continue
        logs = list(raw.glob(f"*-{family}-*.log"))
        again = sum(p.read_text().count("run again") for p in logs)  # a machine too busy for a cell's budget
        assert (raw / f"served-{family}.log").read_text().count("$ ") == 1 + again, family
        assert not list(raw.glob(f"*-{family}-*.json")) and len(logs) == len(cells), family


def test_smoke_report_renders(smoke_run):
    _, run_dir = smoke_run
    report = run_dir / "report"
    assert (report / "report.md").exists() and (report / "index.html").exists()
    assert list(report.glob("pool-timeline-*.png")) and (report / "pool-latency-vs-size.svg").exists()
    page = (report / "index.html").read_text()
    assert "<img" in page and "<table>" in page


def _wait_for(predicate, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def _interrupt_run(tmp_path, sig):
    """Starts a two-cell run whose second cell is long, signals it once the first cell is in."""
    earlier = tmp_path / "earlier-run"
    earlier.mkdir()
    (earlier / "meta.json").write_text('{"complete": true}\n')
    before = tree(tmp_path)
    env = {**os.environ, "STALLBENCH_BUILD_DIR": str(BUILD)}
    proc = subprocess.Popen([str(ROOT / "scripts" / "stallbench"), "run", "--no-build", "--no-report",
                             "--out", str(tmp_path), "--filter", "^pool/saturation$", "--set", "pool=1", "--set", "jobs=4",
                             "--set", "iters=20000,20000000", "--repetitions", "1"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    run_dirs = lambda: [p for p in tmp_path.iterdir() if p.name != "earlier-run"]
    assert _wait_for(lambda: run_dirs() and (run_dirs()[0] / "results.csv").exists(), 60)
    proc.send_signal(sig)
    proc.communicate(timeout=60)
    assert tree(earlier) == {k.removeprefix("earlier-run/"): v for k, v in before.items()}
    return proc, run_dirs()[0]


def test_ctrl_c_keeps_finished_cells_and_marks_incomplete(tmp_path):
    proc, run_dir = _interrupt_run(tmp_path, signal.SIGINT)
    assert proc.returncode == 130
    meta = json.loads((run_dir / "meta.json").read_text())
    assert meta["complete"] is False and meta["interrupted"] == "SIGINT"
    rows = read_csv(run_dir / "results.csv")
    assert {r.params["iters"] for r in rows} == {"20000"}
    assert not list(run_dir.rglob("*.tmp"))


def test_kill_leaves_the_run_marked_incomplete(tmp_path):
    proc, run_dir = _interrupt_run(tmp_path, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    assert json.loads((run_dir / "meta.json").read_text())["complete"] is False
    # The cell's process died with the orchestrator (PR_SET_PDEATHSIG), not left running. Only this
    # run's cells count (their command lines name its directory): the machine may be running others.
    ours = lambda: [line for line in subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout.splitlines()
                    if "bench_pool" in line and str(tmp_path) in line]
    assert _wait_for(lambda: not ours(), 10)
