"""sweep-pool end to end (sizes 1 and 2, a tiny mix, in C++ and in one Node line), its refusals of
bad input, and the slow-DNS reproduction through the bench binary where this machine allows a
private namespace."""
import json
import subprocess
import tempfile

import pytest

from conftest import BUILD, stallbench, stallbench_command, tree
from stallbench_lib import node as nodejs, runtimes
from stallbench_lib.probe import preload
from stallbench_lib.convert import read_record
from stallbench_lib.tidy import read_csv, validate_row

TINY = "pbkdf2:20:20000,read:50,lookup:20"


@pytest.fixture(scope="module")
def node_line():
    """One Node line to run the mix in beside C++, or None where there is none."""
    node, _ = nodejs.find()
    return node.line if node else None


@pytest.fixture(scope="module")
def tiny_sweep(tmp_path_factory, node_line):
    out = tmp_path_factory.mktemp("sweep")
    result = stallbench("sweep-pool", "--no-build", "--sizes", "1,2", "--mix", TINY, "--duration", "1",
                        "--targets", "read:500", "--slow-dns", "--node", node_line or "none", "--out", str(out))
    runs = [p for p in out.iterdir() if p.is_dir()]
    return result, runs[0] if runs else None


def test_sweep_writes_rows_for_every_size_and_class(tiny_sweep, node_line):
    result, run_dir = tiny_sweep
    assert result.returncode == 0, result.stderr
    rows = read_csv(run_dir / "results.csv")
    assert [p for r in rows for p in validate_row(r)] == []
    assert {r.status for r in rows} == {"ok"}
    assert {r.family for r in rows} == {"pool-sweep"}
    labels = ["stallbench"] + ([f"node@{node_line}"] if node_line else [])
    per_class = {(runtimes.label(r.params), r.params["pool"], r.params["class"])
                 for r in rows if "class" in r.params}
    assert per_class == {(rt, p, c) for rt in labels for p in ("1", "2") for c in ("pbkdf2", "read", "lookup")}
    assert {r.params["mix"] for r in rows if r.benchmark == "open-loop"} == {"pbkdf2@20@20000+read@50+lookup@20"}
    metrics = {r.metric for r in rows}
    for name in ("latency_p50_ms", "latency_p99_ms", "queue_wait_p50_ms", "service_p50_ms", "throughput_per_s",
                 "cpu_util", "predicted_p50_ms", "predicted_p99_ms", "unfinished", "dropped"):
        assert name in metrics, name
    cpu = [r for r in rows if r.metric == "cpu_util"]
    assert len(cpu) == 2 * len(labels) and all("class" not in r.params for r in cpu)
    # Every class of every runtime has the model's first wait for a thread, and the measured one
    # where a canary stood before every job (Node: with the canary addon). Node's queue wait and
    # service exist only where that first wait is the whole wait (pbkdf2: one trip; a lookup waits
    # again in the slow-I/O queue).
    have = {}
    for r in rows:
        p = r.params
        if "class" in p:
            have.setdefault((runtimes.label(p), p["pool"], p["class"]), set()).add(r.metric)
    canary = (BUILD / preload.ADDON).exists()
    for (runtime, _, cls), metrics in have.items():
        in_node = runtime.startswith("node@")
        assert {"predicted_pool_wait_p50_ms", "predicted_pool_wait_p99_ms"} <= metrics
        assert ({"pool_wait_p50_ms", "pool_wait_p99_ms"} <= metrics) == (canary or not in_node), (runtime, cls)
        if in_node and cls in ("pbkdf2", "lookup"):
            assert ("queue_wait_p50_ms" in metrics) == (canary and cls == "pbkdf2"), (runtime, cls)


def test_sweep_runs_slow_dns_at_each_pool_size(tiny_sweep):
    _, run_dir = tiny_sweep
    rows = [r for r in read_csv(run_dir / "results.csv") if r.metric == "max_concurrent_lookups"]
    seen = {(r.params["lookup_kind"], int(r.params["pool"])): r.value for r in rows}
    # The pool size really reached each process: ordinary work fills the pool, lookups half of it.
    assert seen[("blocking-work", 1)] == 1 and seen[("blocking-work", 2)] == 2
    if ("getaddrinfo", 2) in seen:
        assert seen[("getaddrinfo", 1)] == 1 and seen[("getaddrinfo", 2)] == 1


def test_sweep_prints_and_reports_the_recommendation(tiny_sweep, node_line):
    result, run_dir = tiny_sweep
    lines = [l for l in result.stdout.splitlines() if l.startswith("recommended pool size:")]
    assert len(lines) == (2 if node_line else 1), result.stdout
    assert "model: median absolute error of p50" in result.stdout
    report = (run_dir / "report" / "report.md").read_text()
    assert lines[0] in report
    assert "read p99 ≤ 500 ms" in report  # the given target; the others default
    assert (run_dir / "report" / "pool-sweep-latency-0.svg").exists()
    # Every runtime's first wait for a thread beside the model's, printed and reported, with the errors.
    waits = result.stdout[result.stdout.index("pool wait (a job's first wait for a thread"):].splitlines()
    assert waits[1].split()[2:] == ["stallbench"] + ([f"node@{node_line}"] if node_line else [])
    assert len([line for line in waits if line.startswith(("pbkdf2 ", "read ", "lookup "))]) == 3 * 2
    assert "Pool wait: C++, Node and the model" in report and (run_dir / "report" / "pool-sweep-pool-wait-0.svg").exists()
    meta = json.loads((run_dir / "meta.json").read_text())
    assert meta["complete"] and meta["per_process"]["pool"] == ["1", "2"] and meta["targets"] == {"read": {"ms": 500.0, "percentile": "p99"}}


@pytest.mark.parametrize("args, words", [
    (["--sizes", "0"], "1-1024"),
    (["--sizes", "2000"], "1-1024"),
    (["--sizes", "1,,2"], "no empty item"),
    (["--sizes", "two"], "1-1024"),
    (["--mix", "bogus:1"], "unknown class 'bogus'"),
    (["--mix", "read:abc"], "rate 'abc'"),
    (["--mix", "read"], "not a named mix"),
    (["--mix", "stat:5:10"], "stat takes no SIZE"),
    (["--mix", "read:10,read:20"], "appears twice"),
    (["--mix", "pbkdf2:10:0"], "out of range"),
    (["--mix", "pbkdf2:1:2:3"], "has 4 fields: CLASS:RATE[:SIZE]"),
    (["--duration", "0"], "1-60"),
    (["--duration", "soon"], "is not an integer"),
    (["--targets", "read"], "CLASS:MS[:PCT]"),
    (["--targets", "stat:10"], "not in the mix"),
    (["--targets", "read:-5"], "not a latency"),
    (["--targets", "read:5:p42"], "not one of p50, p95, p99, max"),
    (["--repetitions", "0"], "out of range"),
    (["--node", "19"], "not a pinned Node line"),
    (["--app", "node x.js", "--url", "http://127.0.0.1:9/"], "--mix, --slow-dns and --node are for the synthetic"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, words):
    result = stallbench_command("sweep-pool", "--no-build", "--out", str(tmp_path), "--mix", "read:10", *args)
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert words in result.stderr
    assert tree(tmp_path) == {}


def test_a_held_lookup_in_node_is_a_rejected_row(tmp_path, node_line):
    if not node_line:
        pytest.skip("no Node line installed or installable here")
    result = stallbench_command("run", "--no-build", "--no-report", "--filter", "pool-sweep/open-loop", "--node", node_line,
                        "--set", "mix=lookup@5@20", "--set", "runtime=node", "--set", "pool=2", "--set", "duration=1",
                        "--repetitions", "1", "--out", str(tmp_path))
    assert result.returncode == 1, result.stderr
    (run_dir,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    rows = read_csv(run_dir / "results.csv")
    assert {r.status for r in rows} == {"rejected"}
    assert "cannot hold a lookup" in rows[0].detail


def _slow_dns(kind: str, pool: int) -> dict | None:
    """One slow-DNS repetition through the bench binary: its values by metric (a series as a list);
    None when it has no such cell here."""
    binary = str(BUILD / "benches" / "bench_pool_sweep")
    env = {"PATH": "/usr/bin:/bin"}
    grid = ["--benchmark_filter=^slow-dns/", "--stallbench-grid=slow-dns.delay_ms=40", "--stallbench-grid=slow-dns.lookups=8",
            f"--stallbench-grid=slow-dns.lookup_kind={kind}", f"--stallbench-grid=slow-dns.pool={pool}"]
    listed = subprocess.run([binary, *grid, "--benchmark_list_tests"], capture_output=True, text=True, env=env)
    if not listed.stdout.strip():
        return None
    with tempfile.TemporaryFile("w+") as records:
        run = subprocess.run([binary, *grid, "--benchmark_repetitions=1", f"--stallbench-records-fd={records.fileno()}"],
                             pass_fds=(records.fileno(),), capture_output=True, text=True, env=env, timeout=60)
        records.seek(0)
        ends = [r for r in map(read_record, records) if r.event == "end"]
    assert ends and ends[0].status == "ok", run.stderr
    values: dict = {}
    for v in ends[0].values:
        if v.index is None:
            values[v.metric] = v.value
        else:
            values.setdefault(v.metric, []).append(v.value)
    return values


def test_slow_dns_cap_leaves_threads_for_the_read():
    with open("/etc/resolv.conf") as f:
        before = f.read()
    counters = _slow_dns("getaddrinfo", 4)
    if counters is None:
        pytest.skip("no private network namespace here (needs root and unshare): the real-lookup half cannot run")
    with open("/etc/resolv.conf") as f:
        assert f.read() == before  # the namespace's resolver never touched the host's
    assert counters["max_concurrent_lookups"] == 2  # (4 + 1) / 2
    assert counters["read_before_drain"] == 1


def test_blocking_work_contrast_starves_the_read():
    counters = _slow_dns("blocking-work", 4)
    assert counters["max_concurrent_lookups"] == 4
    # Ninth in the queue behind eight waits on four threads, the read gets a thread only once the
    # first four are done and a fifth has freed one.
    done = counters["lookup_done_ms"]
    assert len(done) == 8
    assert sum(t < counters["read_latency_ms"] for t in done) >= 5
