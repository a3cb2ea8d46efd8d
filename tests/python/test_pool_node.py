"""Family `pool` in Node (runtime=node@LINE): the rows carry the C++ cell's metrics, and the seed's
shape holds in Node: with one pool thread busy on one long pbkdf2, the file read and the lookup wait
for it, while the HTTP request and resolve4 (c-ares on the loop thread) do not."""
import pytest

from conftest import stallbench_command
from stallbench_lib import node as nodejs
from stallbench_lib.tidy import read_csv


def _pool_rows(run_dir):
    return [r for r in read_csv(run_dir / "results.csv") if r.family == "pool" and r.status == "ok"]


def test_node_rows_carry_the_cpp_cells_metrics(smoke_run):
    _, run_dir = smoke_run
    rows = _pool_rows(run_dir)
    metrics = {}
    for r in rows:
        metrics.setdefault(r.param_dict()["runtime"], set()).add(r.metric)
    if not nodejs.find()[0]:
        pytest.skip("no Node line installed or installable here")
    node_runtimes = [runtime for runtime in metrics if runtime.startswith("node@")]
    assert node_runtimes and "stallbench" in metrics
    for runtime in node_runtimes:
        assert metrics["stallbench"] <= metrics[runtime]
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
