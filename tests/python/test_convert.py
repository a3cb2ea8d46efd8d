import json

from conftest import DATA
from stallbench_lib.catalogue import Benchmark, Metric
from stallbench_lib.convert import failure_rows, rows_from_counters, rows_from_gbench, split_status

METRICS = [Metric(n, "ms", "lower", True, "") for n in
           ("pbkdf2_done_ms", "fs_latency_ms", "dns_latency_ms", "tcp_latency_ms", "pbkdf2_alone_ms")]
METRICS += [Metric("pool_efficiency", "ratio", "higher", True, ""), Metric("cores", "count", "lower", False, "")]
BENCH = Benchmark("pool", "saturation", "", [], METRICS, 60, None)
PARAMS = {"jobs": "2", "iters": "1000", "digest": "sha256", "pool": "2"}


def test_repetitions_become_rows_and_aggregates_are_dropped():
    rows = rows_from_gbench(json.loads((DATA / "gbench_pool.json").read_text()), "r1", BENCH, PARAMS)
    assert {r.repetition for r in rows} == {0, 1}
    per_rep = [r for r in rows if r.repetition == 0]
    assert [r.metric for r in per_rep].count("pbkdf2_done_ms") == 2  # one row per job
    assert len(per_rep) == 2 + 6
    assert all(r.status == "ok" and r.value is not None for r in rows)
    assert rows[0].params == "digest=sha256;iters=1000;jobs=2;pool=2"
    assert {r.unit for r in rows if r.metric == "pool_efficiency"} == {"ratio"}


def test_series_keep_job_order():
    rows = rows_from_counters({"pbkdf2_done_ms#10": 3.0, "pbkdf2_done_ms#2": 2.0, "pbkdf2_done_ms#0": 1.0,
                               "real_time": 9.0}, "r", BENCH, PARAMS, 0)
    assert [r.value for r in rows] == [1.0, 2.0, 3.0]


def test_subcases_add_their_parameters():
    counters = {"fs_latency_ms@class=read": 2.0, "fs_latency_ms@class=stat": 1.0, "fs_latency_ms": 3.0,
                "pbkdf2_done_ms@class=read#1": 5.0, "pbkdf2_done_ms@class=read#0": 4.0, "unknown_ms@class=x": 1.0}
    rows = rows_from_counters(counters, "r", BENCH, PARAMS, 0)
    by_params = {(r.metric, r.params, r.value) for r in rows}
    assert ("fs_latency_ms", "class=read;digest=sha256;iters=1000;jobs=2;pool=2", 2.0) in by_params
    assert ("fs_latency_ms", "class=stat;digest=sha256;iters=1000;jobs=2;pool=2", 1.0) in by_params
    assert ("fs_latency_ms", "digest=sha256;iters=1000;jobs=2;pool=2", 3.0) in by_params
    assert [r.value for r in rows if r.metric == "pbkdf2_done_ms"] == [4.0, 5.0]
    assert len(rows) == 5


def test_failed_repetitions_carry_status_and_detail():
    rows = rows_from_gbench(json.loads((DATA / "gbench_error.json").read_text()), "r1", BENCH, PARAMS)
    assert len(rows) == 2 * len(METRICS)
    assert {r.status for r in rows} == {"error"}
    assert all(r.value is None and r.detail.startswith("mkstemp") for r in rows)


def test_status_prefixes():
    assert split_status("rejected: RE2 does not support backreferences") == ("rejected", "RE2 does not support backreferences")
    assert split_status("guarded: error_complexity") == ("guarded", "error_complexity")
    assert split_status("something odd") == ("error", "something odd")
    assert split_status("ok: sneaky") == ("error", "ok: sneaky")
    assert len(failure_rows("r", BENCH, PARAMS, 3, "timeout", "too slow")) == len(METRICS)
