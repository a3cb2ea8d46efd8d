"""stallbench doctor: its verdict on small programs (one blocks the loop, one saturates the pool, one
does neither, one keeps the pool busy with work split into many short jobs), watched and driven, and
on an idle program while other processes keep every core busy; what it writes; and the programs it
refuses with one line and exit 2 (not Node, exits at once, a Node without Node-API 8, a rate of 0),
nothing written, no process left."""
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import BUILD, DATA, ROOT, stallbench_command, tree
from stallbench_lib import node as nodejs
from stallbench_lib.families.doctor.commands.doctor import request_line
from stallbench_lib.probe import preload
from stallbench_lib.tidy import read_csv

PROGRAMS = DATA / "doctor"


@pytest.fixture(scope="module")
def node_path():
    if preload.find(BUILD) is None:
        pytest.skip(f"the pool probe is not built: {preload.missing_reason(BUILD)}")
    return nodejs.resolve([list(nodejs.pinned())[-1]])[0].path


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _doctor(*args, env=None, timeout=180, command="doctor"):
    full = {**os.environ, "STALLBENCH_BUILD_DIR": str(BUILD), "PYTHONPATH": str(ROOT / "scripts"), **(env or {})}
    return subprocess.run([sys.executable, "-m", "stallbench_lib", command, "--no-build", *args], capture_output=True,
                          text=True, timeout=timeout, env=full)


@pytest.mark.parametrize("program, verdict", [
    ("blocks_the_loop", "loop blocked"),
    ("saturates_the_pool", "pool saturated"),
    ("does_neither", "neither"),
])
def test_the_verdict_on_three_programs_watched(tmp_path, node_path, program, verdict):
    result = _doctor("--app", f"{node_path} {PROGRAMS / program}.js {_port()}", "--duration", "4", "--no-report",
                     "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"doctor: {verdict}"), result.stdout
    (run,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    meta = json.loads((run / "meta.json").read_text())
    assert meta["doctor"]["verdict"] == verdict and meta["complete"] is True
    rows = {r.metric: r.value for r in read_csv(run / "results.csv")}
    assert rows["verdict_loop_blocked"] == (verdict == "loop blocked")
    assert rows["verdict_pool_saturated"] == (verdict == "pool saturated")
    assert (run / "raw" / "probe.jsonl").stat().st_size > 0
    assert "next: " in result.stdout


def test_driven_it_reports_the_requests_beside_what_the_probe_saw(tmp_path, node_path):
    port = _port()
    result = _doctor("--app", f"{node_path} {PROGRAMS / 'saturates_the_pool.js'} {port}", "--url",
                     f"http://127.0.0.1:{port}/", "--rate", "5", "--duration", "3", "--out", str(tmp_path),
                     env={"UV_THREADPOOL_SIZE": "2"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("doctor: pool saturated") and "UV_THREADPOOL_SIZE=2" in result.stdout
    assert "--sizes 1,2,4,8" in result.stdout  # the next step tries larger pools
    (run,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    rows = {r.metric: r for r in read_csv(run / "results.csv")}
    assert rows["latency_p50_ms"].value > 0 and rows["canaries"].value > 0
    assert dict(rows["latency_p50_ms"].params) == {"mode": "driven", "pool": "2", "rate": "5"}
    meta = json.loads((run / "meta.json").read_text())  # the declaration of benches/doctor.cc, not Python's
    declared = meta["metrics"]["doctor/program"]
    assert set(rows) <= set(declared) and all(declared[m]["unit"] == r.unit for m, r in rows.items())
    assert set(meta["benchmarks"]["doctor/program"]["params"]) == {"pool", "mode", "rate"}
    assert (run / "report" / "doctor-timeline-0.png").exists()
    # the report's header says which command ran, from when to when (no profile: a doctor has none)
    assert meta["started_at"] < meta["ended_at"]
    header = (run / "report" / "report.md").read_text().split("\n\n")[1]
    assert "None" not in header and "scripts/stallbench doctor" in header, header


def test_the_commands_benchmarks_are_declared_by_the_binaries_and_listed(tmp_path):
    listed = stallbench_command("list", "--no-build", "--json")
    assert listed.returncode == 0, listed.stderr
    measured = {f"{f['family']}/{b['name']}": b["measured_by"] for f in json.loads(listed.stdout)["families"]
                for b in f["benchmarks"] if b["measured_by"]}
    assert measured == {"doctor/program": "doctor", "doctor/probe-cost": "probe-cost",
                        "pool-sweep/app": "sweep-pool --app"}
    refused = stallbench_command("run", "--no-build", "--filter", "^doctor/", "--out", str(tmp_path))
    assert refused.returncode == 2 and "`stallbench doctor`" in refused.stderr, refused.stderr


@pytest.mark.parametrize("pool, verdict", [("1", "pool saturated"), ("4", "neither")])
def test_work_split_into_many_short_jobs_saturates_one_thread_not_four(tmp_path, node_path, pool, verdict):
    result = _doctor("--app", f"{node_path} {PROGRAMS / 'chunks_the_pool.js'} {_port()}", "--duration", "4", "--no-report",
                     "--out", str(tmp_path), env={"UV_THREADPOOL_SIZE": pool})
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"doctor: {verdict}"), result.stdout
    assert "of its jobs waited for a thread" in result.stdout


def test_an_idle_pool_on_a_machine_other_processes_keep_busy_is_neither(tmp_path, node_path):
    # Two spinners per core, each in a session of its own, killed whatever happens.
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
                for _ in range(2 * len(os.sched_getaffinity(0)))]
    try:
        port = _port()
        result = _doctor("--app", f"{node_path} {PROGRAMS / 'does_neither.js'} {port}", "--url",
                         f"http://127.0.0.1:{port}/", "--rate", "20", "--duration", "4", "--no-report", "--out",
                         str(tmp_path))
    finally:
        for spinner in spinners:
            os.killpg(spinner.pid, signal.SIGKILL)
            spinner.wait()
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("doctor: neither"), result.stdout
    # libuv's counters were read, and no job of the program's waited for a thread. How busy the
    # threads were is not asked: under the spinners what little the program ran on them read 1% in
    # one run of three (a brand-new machine's Release tests, 2026-12-06), which is still idle.
    assert "busy with the program's jobs; on average 0.00 of its jobs waited for a thread" in result.stdout


def test_a_percentile_the_load_generator_did_not_give_is_a_dash_not_0():
    line = request_line({"latency_p50_ms": 10006.0, "throughput_per_s": 1.2, "offered_per_s": 20.0})
    assert line == "requests: median 10,006 ms, p99 – ms, 1.2/s answered of 20.0/s sent"


@pytest.mark.parametrize("command", ["doctor", "sweep-pool", "probe-cost"])
def test_a_rate_of_0_is_refused_with_the_rates_that_are_valid(tmp_path, command):
    result = _doctor("--app", "node x.js", "--url", "http://127.0.0.1:9/", "--rate", "0", "--out", str(tmp_path),
                     command=command)
    assert result.returncode == 2
    assert "--rate 0 is out of range: a rate is more than 0 and at most 10000" in result.stderr, result.stderr
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_ends_the_watch_with_a_verdict_and_no_process_left(tmp_path, node_path):
    full = {**os.environ, "STALLBENCH_BUILD_DIR": str(BUILD), "PYTHONPATH": str(ROOT / "scripts")}
    program = f"{PROGRAMS / 'does_neither.js'} {_port()}"
    proc = subprocess.Popen([sys.executable, "-m", "stallbench_lib", "doctor", "--no-build", "--no-report", "--app",
                             f"{node_path} {program}", "--out", str(tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=full)
    deadline = time.monotonic() + 60
    seen = ""
    while "watching" not in seen and time.monotonic() < deadline:
        seen += proc.stderr.readline()
    time.sleep(2)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0 and out.startswith("doctor: neither"), out
    assert "watch ended by SIGINT" in out
    assert program not in subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout


@pytest.mark.parametrize("case, words", [
    ("not node", "loaded no pool probe: it is not a Node program"),
    ("exits at once", "before the probe saw anything to judge"),
    ("node-api 7", "has Node-API 7; the probe needs Node-API 8"),
    ("no such program", "is not an executable file or a command on PATH"),
    ("out is a file", "not a directory"),
    ("out cannot be made", "runs cannot be written there"),
])
def test_a_program_it_cannot_diagnose_is_one_line_and_exit_2(tmp_path, node_path, case, words):
    out = tmp_path / "out"
    env = {}
    app = {
        "not node": f"{sys.executable} -c \"import time; time.sleep(30)\"",
        "exits at once": f"{node_path} -e 0",
        "node-api 7": f"{node_path} {PROGRAMS / 'does_neither.js'} {_port()}",
        "no such program": "stallbench-no-such-program",
        "out is a file": f"{node_path} {PROGRAMS / 'does_neither.js'} {_port()}",
        "out cannot be made": f"{node_path} {PROGRAMS / 'does_neither.js'} {_port()}",
    }[case]
    if case == "node-api 7":
        old = tmp_path / "old_napi.cjs"
        old.write_text("Object.defineProperty(process, 'versions', { value: { ...process.versions, napi: '7' } });\n")
        env["NODE_OPTIONS"] = f'--require "{old}"'
    if case == "out is a file":
        out.write_text("")
    if case == "out cannot be made":
        out = Path("/proc/stallbench-no-such-folder/out")  # no directory can be made under /proc
    before = tree(tmp_path)
    result = _doctor("--app", app, "--duration", "3", "--out", str(out), env=env)
    assert result.returncode == 2, result.stderr
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert tree(tmp_path) == before
