"""Family `pool` in Node (runtime=node, one cell per node_line): the rows carry the C++ cell's metrics, and the seed's
shape holds in Node: with one pool thread busy on one long pbkdf2, the file read and the lookup wait
for it, while the HTTP request and resolve4 (c-ares on the loop thread) do not; and the pool canary
says how long the read and the lookup waited for a thread."""
import pytest

from conftest import BUILD, stallbench_command
from stallbench_lib import node as nodejs, runtimes
from stallbench_lib.probe import preload
from stallbench_lib.tidy import read_csv

QUEUE_WAITS = {"fs_queue_wait_ms", "dns_queue_wait_ms"}  # from the canary addon, when the build has it


def _pool_rows(run_dir):
    return [r for r in read_csv(run_dir / "results.csv") if r.family == "pool" and r.status == "ok"]


def test_node_rows_carry_the_cpp_cells_metrics(smoke_run):
    _, run_dir = smoke_run
    rows = _pool_rows(run_dir)
    metrics = {}
    for r in rows:
        metrics.setdefault(runtimes.label(r.params), set()).add(r.metric)
    if not nodejs.find()[0]:
        pytest.skip("no Node line installed or installable here")
    node_runtimes = [runtime for runtime in metrics if runtime.startswith("node@")]
    assert node_runtimes and "stallbench" in metrics
    without = set() if (BUILD / preload.ADDON).exists() else QUEUE_WAITS
    assert QUEUE_WAITS <= metrics["stallbench"]
    for runtime in node_runtimes:
        assert metrics["stallbench"] - without <= metrics[runtime]
        assert metrics[runtime] - metrics["stallbench"] == {"resolve4_latency_ms"}


def test_in_node_the_read_waits_for_the_one_long_job_and_the_network_does_not(tmp_path):
    node, why = nodejs.find()
    if node is None:
        pytest.skip(why)
    result = stallbench_command("run", "--no-build", "--no-report", "--filter", "^pool/", "--node", node.line,
                        "--set", "pool=1", "--set", "jobs=1", "--set", "iters=1000000", "--set", "runtime=node",
                        "--set", "client=http.get", "--repetitions", "1", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    (run_dir,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    value = {r.metric: r.value for r in _pool_rows(run_dir)}
    assert value["fs_latency_ms"] >= value["pbkdf2_done_ms"]
    assert value["dns_latency_ms"] >= value["pbkdf2_done_ms"]
    assert value["tcp_latency_ms"] < value["pbkdf2_done_ms"]
    assert value["resolve4_latency_ms"] < value["pbkdf2_done_ms"]


def test_in_node_the_canary_waits_for_the_first_job_to_end_and_not_with_threads_to_spare(tmp_path):
    """Four long pbkdf2 jobs: at pool 4 the read's and the lookup's canaries wait for the first job
    to free a thread (most of its time, and not past the second job's completion: the first job's
    own completion is timed on the main thread, which may see it a moment after the freed thread
    has already started the canary, or a moment before); at pool 8 a thread is free, and the wait
    is less than half of the first job's time in the same cell. Not a fraction of a job run alone: on
    a busy machine a woken thread can wait its turn for a processor (109 ms, 0.58 of a job alone,
    once in CI), but the four jobs beside it, sharing two cores, wait for processors too."""
    node, why = nodejs.find()
    if node is None:
        pytest.skip(why)
    if not (BUILD / preload.ADDON).exists():
        pytest.skip("this build has no pool canary addon (no Node-API headers)")
    result = stallbench_command("run", "--no-build", "--no-report", "--filter", "^pool/", "--node", node.line,
                                "--set", "pool=4,8", "--set", "jobs=4", "--set", "iters=1000000", "--set", "runtime=node",
                                "--set", "client=http.get", "--repetitions", "1", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    (run_dir,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    by_pool = {}
    for r in _pool_rows(run_dir):
        by_pool.setdefault(r.params["pool"], {}).setdefault(r.metric, []).append(r.value)
    first, second = sorted(by_pool["4"]["pbkdf2_done_ms"])[:2]
    for wait in ("fs_queue_wait_ms", "dns_queue_wait_ms"):
        assert 0.5 * first <= by_pool["4"][wait][0] <= second, (wait, by_pool["4"][wait], first, second)
        assert by_pool["8"][wait][0] < 0.5 * min(by_pool["8"]["pbkdf2_done_ms"]), (wait, by_pool["8"])
