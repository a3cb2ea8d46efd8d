"""sweep-pool --app: the example login service driven at two pool sizes gives rows and a
recommendation; a program that exits, never answers or listens elsewhere than 127.0.0.1, and a URL
that is not 127.0.0.1, are refused with one line and exit 2, nothing written."""
import os
import re
import socket

import pytest

from conftest import ROOT, stallbench_command, tree
from stallbench_lib.tidy import read_csv

EXAMPLE = ROOT / "workloads" / "pool_sweep" / "app" / "login_server.js"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_example_app_at_two_pool_sizes_gives_rows_and_a_recommendation(tmp_path, node_path):
    port = _free_port()
    result = stallbench_command("sweep-pool", "--app", f"{node_path} {EXAMPLE} {port}", "--url", f"http://127.0.0.1:{port}/login",
                        "--sizes", "1,2", "--duration", "2", "--rate", "4", "--repetitions", "2", "--no-report",
                        "--no-build", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "recommended pool size:" in result.stdout
    assert "waited for threads" in result.stdout and "per request" in result.stdout  # Little's law, measured inside
    order = [line.split("UV_THREADPOOL_SIZE=")[1].split()[0] for line in result.stderr.splitlines() if "] app " in line]
    assert order == ["1", "2", "2", "1"]  # rounds whose order alternates
    (run_dir,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    rows = read_csv(run_dir / "results.csv")
    assert {r.status for r in rows} == {"ok"}
    by_pool, seconds = {}, {}
    for r in rows:
        by_pool.setdefault(r.params["pool"], {})[r.metric] = r.value
        if r.metric == "queue_wait_second_mean_ms":
            seconds.setdefault(r.params["pool"], []).append(r.value)
    assert set(by_pool) == {"1", "2"}
    for pool, metrics in by_pool.items():
        assert metrics["completed"] + metrics["errors"] + metrics["unfinished"] == 8  # 4/s for 2 s
        assert metrics["errors"] == 0
        assert 0 < metrics["latency_p50_ms"] <= metrics["latency_p99_ms"] <= metrics["latency_max_ms"]
        assert metrics["app_rss_peak_mb"] > 0 and metrics["app_cpu_util"] > 0
        assert metrics.get("app_core_wait_threads", 0) >= 0 and (("app_core_wait_threads" in metrics)
                                                                 is os.path.exists("/proc/self/schedstat"))
        # the pool probe, inside the program: its queue wait and loop, one mean wait per second of load
        assert metrics["canaries"] > 0 and 0 <= metrics["queue_wait_p50_ms"] <= metrics["queue_wait_p99_ms"]
        assert 0 <= metrics["loop_utilization"] <= 1 and metrics["loop_delay_p99_ms"] >= 0
        # libuv's own counters: how busy its threads were, and Little's law per request at the rate sent
        assert 0 <= metrics["pool_utilization"] <= 1 and metrics["pool_wait_per_request_ms"] >= 0
        assert 2 <= len(seconds[pool]) <= 6  # about 2 seconds of load per repetition
    # docs/pool-sweep.md names the params the rows have (and says they have no class)
    documented = re.search(r"benchmark `app`,\s+params\s+((?:`\w+`,?\s+)+)and\s+no\s+`class`",
                           (ROOT / "docs" / "pool-sweep.md").read_text())
    assert documented, "docs/pool-sweep.md no longer says which params the --app rows have"
    assert {key for r in rows for key in r.params} == set(re.findall(r"`(\w+)`", documented.group(1)))
    assert sorted(p.name for p in (run_dir / "raw").iterdir()) == [
        "probe-pool1-rep0.jsonl", "probe-pool1-rep1.jsonl", "probe-pool2-rep0.jsonl", "probe-pool2-rep1.jsonl"]


def _program(node_path: str, code: str) -> str:
    return f"{node_path} -e \"{code}\""


@pytest.mark.parametrize("case, words", [
    ("exits", "exited with code 3 before"),
    ("never answers", "never answered"),
    ("listens elsewhere", "listens on 127.0.0.2"),
    ("not loopback", "only http://127.0.0.1:PORT/PATH is accepted"),
    ("no such program", "is not an executable file or a command on PATH"),
])
def test_a_bad_app_is_refused_with_one_line_and_nothing_written(tmp_path, node_path, case, words):
    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    serve = "require('http').createServer((q, s) => s.end('ok'))"
    app = {
        "exits": _program(node_path, "process.exit(3)"),
        "never answers": _program(node_path, "setInterval(() => {}, 1000)"),
        "listens elsewhere": _program(node_path, f"{serve}.listen({port}, '127.0.0.1'); {serve}.listen({port}, '127.0.0.2')"),
        "not loopback": _program(node_path, "0"),
        "no such program": "stallbench-no-such-program --serve",
    }[case]
    if case == "not loopback":
        url = f"http://localhost:{port}/"
    # --no-build: the suite's tree is built, and a build's progress line is not the refusal.
    result = stallbench_command("sweep-pool", "--no-build", "--app", app, "--url", url, "--sizes", "1,2", "--duration", "1",
                        "--ready-timeout", "2", "--out", str(tmp_path / "out"))
    assert result.returncode == 2, result.stderr
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert tree(tmp_path) == {}
