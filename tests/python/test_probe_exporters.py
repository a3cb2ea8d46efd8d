"""The probe in production: its OpenTelemetry exporter on a real SDK MeterProvider (the pinned
@opentelemetry/sdk-metrics, its in-memory exporter) records every instrument with its unit, waits
told apart into waits for a thread and for a core; and both exporters of the complete example in
docs/probe.md, prom-client's and the OpenTelemetry SDK's Prometheus exporter, scraped by a real
Prometheus on 127.0.0.1 (exporters_in_prometheus.py)."""
import json
import os
import shutil
import subprocess

import pytest

from conftest import BUILD, DATA
from stallbench_lib import node as nodejs
from stallbench_lib.errors import UsageError
from stallbench_lib.probe import preload

import exporters_in_prometheus as prometheus


@pytest.fixture(scope="module")
def exporters():
    if preload.find(BUILD) is None:
        pytest.skip(f"the pool probe is not built: {preload.missing_reason(BUILD)}")
    try:
        return nodejs.tool_modules("exporters")
    except UsageError as e:
        pytest.skip(f"the exporters' npm packages cannot be had: {e}")


def _metrics_table(node_path: str) -> dict:
    code = f"console.log(JSON.stringify(require({json.dumps(str(BUILD / 'probe' / 'probe_metrics.cjs'))}).METRICS))"
    return json.loads(subprocess.run([node_path, "-e", code], capture_output=True, text=True, check=True).stdout)


def test_the_opentelemetry_exporter_records_every_instrument_on_the_sdk(tmp_path, exporters):
    node = nodejs.resolve([list(nodejs.pinned())[-1]])[0]
    probe = preload.find(BUILD)
    env = {**preload.environment(probe, tmp_path / "probe.jsonl"), "NODE_PATH": str(exporters), "UV_THREADPOOL_SIZE": "2"}
    result = subprocess.run([node.path, str(DATA / "probe" / "otel_in_memory.js"), str(probe.parent), "3"], env=env,
                            capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.strip().splitlines()[-1])
    table = _metrics_table(node.path)
    assert set(found) == {m["otel"] for m in table.values()}
    for m in table.values():
        assert found[m["otel"]]["unit"] == m["unit"]
        assert found[m["otel"]]["type"] == ("HISTOGRAM" if m["kind"] == "histogram" else "OBSERVABLE_GAUGE")
    waits = {p["attributes"]["stallbench.waited_for"]: p["count"] for p in found["stallbench.pool.queue.wait"]["points"]}
    assert waits.get("thread", 0) > 0  # four pbkdf2 jobs on two threads: canaries found every thread busy
    (delay,), (held,) = found["stallbench.eventloop.delay"]["points"], found["stallbench.eventloop.held"]["points"]
    assert delay["count"] == held["count"] > 0
    assert found["stallbench.pool.threads"]["points"][0]["value"] == 2
    assert found["stallbench.pool.queue.wait_per_request"]["points"][0]["value"] >= 0
    assert 0 <= found["stallbench.pool.utilization"]["points"][0]["value"] <= 1


def test_a_real_prometheus_scrapes_both_exporters_of_the_example(exporters):
    if not shutil.which("prometheus") and not os.path.exists(prometheus.PROMETHEUS):
        pytest.skip("no Prometheus here (Debian package prometheus, listed in scripts/packages/test/tests.txt)")
    with prometheus.scene() as live:
        live.drive(6)
        for job in ("prom-client", "opentelemetry"):  # a scrape after the load ended
            before = len(live.query(f'up{{job="{job}"}} == 1'))
            assert before == 1, job
        threads = live.query('stallbench_pool_threads{job="prom-client"}')
        assert [float(r["value"][1]) for r in threads] == [2.0]
        by_kind = {r["metric"]["waited_for"]: float(r["value"][1])
                   for r in live.query('stallbench_pool_queue_wait_seconds_count{job="prom-client"}')}
        assert by_kind.get("thread", 0) > 0
        assert float(live.query('stallbench_eventloop_held_seconds_count{job="prom-client"}')[0]["value"][1]) > 0
        otel = live.query('{job="opentelemetry", __name__=~"stallbench_pool_queue_wait.*_count", '
                          'stallbench_waited_for="thread"}')
        assert otel and float(otel[0]["value"][1]) > 0
        assert live.query('{job="opentelemetry", __name__=~"stallbench_pool_utilization.*"}')


def test_prometheus_shows_a_gauge_only_while_it_has_a_value(exporters):
    # prom-client shows an unlabelled gauge never set as 0: an unreadable pool would read as idle.
    node = nodejs.resolve([list(nodejs.pinned())[-1]])[0]
    result = subprocess.run([node.path, str(DATA / "probe" / "prometheus_gauges.js"), str(BUILD / "probe")],
                            env={**os.environ, "NODE_PATH": str(exporters)}, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    unreadable, with_requests, without_requests = json.loads(result.stdout)
    pool_gauges = {"stallbench_pool_utilization_ratio", "stallbench_pool_queue_length", "stallbench_pool_threads"}
    assert unreadable == []
    assert set(with_requests) == pool_gauges | {"stallbench_pool_queue_wait_per_request_seconds"}
    assert set(without_requests) == pool_gauges
