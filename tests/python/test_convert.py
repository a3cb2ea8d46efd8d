"""Repetition records -> tidy rows: the reader of the harness's records (convert.read_record), and the
contract itself, read from what a real bench binary writes."""
import json
import subprocess

import pytest

from conftest import BUILD
from stallbench_lib.catalogue import Benchmark, Metric
from stallbench_lib import contract
from stallbench_lib.contract import PROTOCOL
from stallbench_lib.convert import failure_rows, read_record, rows_from_record

METRICS = [Metric(n, "ms", "lower", True, "") for n in
           ("pbkdf2_done_ms", "fs_latency_ms", "dns_latency_ms", "tcp_latency_ms", "pbkdf2_alone_ms")]
METRICS += [Metric("pool_efficiency", "ratio", "higher", True, ""), Metric("cores", "count", "lower", False, "")]
BENCH = Benchmark("pool", "saturation", "", [], METRICS, 60, None)
PARAMS = {"jobs": "2", "iters": "1000", "digest": "sha256", "pool": "2"}


def record(rep=0, status="ok", detail="", values=(), **extra) -> str:
    return json.dumps({"protocol": PROTOCOL, "event": "end", "rep": rep, "status": status, "detail": detail,
                       "wall_ms": 1.0 if status == "ok" else None, "callgrind_dump": f"rep {rep}",
                       "values": [{"metric": m, "index": i, "subcase": s, "value": v} for m, i, s, v in values],
                       **extra})


def test_an_ended_repetition_becomes_its_rows_in_the_harness_order():
    line = record(1, values=[("cores", None, {}, 2), ("pbkdf2_done_ms", 0, {}, 1.0), ("pbkdf2_done_ms", 1, {}, 2.0),
                             ("pool_efficiency", None, {}, 0.9)])
    rows = rows_from_record(read_record(line), "r1", BENCH, PARAMS)
    assert [(r.metric, r.value) for r in rows] == [("cores", 2), ("pbkdf2_done_ms", 1.0), ("pbkdf2_done_ms", 2.0),
                                                   ("pool_efficiency", 0.9)]
    assert {r.repetition for r in rows} == {1} and {r.status for r in rows} == {"ok"}
    assert dict(rows[0].params) == {"digest": "sha256", "iters": "1000", "jobs": "2", "pool": "2"}
    assert {r.unit for r in rows if r.metric == "pool_efficiency"} == {"ratio"}


def test_subcases_add_their_parameters():
    line = record(values=[("fs_latency_ms", None, {}, 3.0), ("fs_latency_ms", None, {"class": "read"}, 2.0),
                          ("fs_latency_ms", None, {"class": "stat"}, 1.0)])
    rows = rows_from_record(read_record(line), "r", BENCH, PARAMS)
    assert [(str(r.params), r.value) for r in rows] == [("digest=sha256;iters=1000;jobs=2;pool=2", 3.0),
                                                   ("class=read;digest=sha256;iters=1000;jobs=2;pool=2", 2.0),
                                                   ("class=stat;digest=sha256;iters=1000;jobs=2;pool=2", 1.0)]


def test_a_failed_repetition_is_one_row_per_declared_metric_with_its_status():
    rows = rows_from_record(read_record(record(2, "rejected", "RE2 does not support backreferences")), "r", BENCH,
                            PARAMS)
    assert len(rows) == len(METRICS)
    assert {(r.status, r.detail, r.value, r.repetition) for r in rows} == {
        ("rejected", "RE2 does not support backreferences", None, 2)}
    assert len(failure_rows("r", BENCH, PARAMS, 3, "timeout", "too slow")) == len(METRICS)


def test_a_start_record_carries_only_its_repetition():
    started = read_record(json.dumps({"protocol": PROTOCOL, "event": "start", "rep": 4}))
    assert (started.event, started.rep, started.values) == ("start", 4, ())


@pytest.mark.parametrize("line, words", [
    ("not json", "malformed"),
    (json.dumps([1]), "start_record: expected object"),
    (json.dumps({"protocol": 1, "event": "start", "rep": 0}), "speaks stallbench protocol 1"),
    (json.dumps({"version": 1, "event": "start", "rep": 0}), "speaks stallbench protocol None"),
    (record(status="ok", wall_ms=None), "wall_ms None"),
    (json.dumps({"protocol": PROTOCOL, "event": "stop", "rep": 0}), 'start_record.event: expected "start"'),
    (record(status="okay"), "end_record.status: \"okay\" is not one of ok, timeout"),
    (record(values=[("x", "0", {}, 1)]), "end_record.values[0].index: expected integer or null"),
    (record(values=[("x", None, {"class": 1}, 1)]), "end_record.values[0].subcase.class: expected string"),
    (json.dumps({"protocol": PROTOCOL, "event": "end", "rep": 0}), "end_record: missing status"),
])
def test_what_is_not_a_record_is_refused_in_one_line(line, words):
    with pytest.raises(ValueError) as refused:
        read_record(line)
    assert words in str(refused.value) and "\n" not in str(refused.value)


def test_an_undeclared_metric_is_refused():
    with pytest.raises(ValueError, match="not declared"):
        rows_from_record(read_record(record(values=[("unknown_ms", None, {}, 1.0)])), "r", BENCH, PARAMS)


def test_what_a_bench_binary_writes_is_what_the_reader_reads(tmp_path):
    """The contract across the two languages: the fixture bench's records, as written, read back."""
    path = tmp_path / "records.jsonl"
    with open(path, "w") as f:
        done = subprocess.run([str(BUILD / "tests" / "tiny_pool_bench"), "--stallbench-grid=spread.pool=2",
                               "--stallbench-grid=jobs=3", "--benchmark_repetitions=2",
                               f"--stallbench-records-fd={f.fileno()}"], pass_fds=(f.fileno(),),
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = path.read_text().splitlines()
    records = [read_record(line) for line in lines]
    assert [(r.event, r.rep) for r in records] == [("start", 0), ("end", 0), ("start", 1), ("end", 1)]
    for line, r in zip(lines, records):  # and every line is what contract/protocol.schema.json declares
        contract.check(json.loads(line), f"{r.event}_record", "tiny_pool_bench")
    ended = records[1]
    assert ended.wall_ms > 0 and ended.callgrind_dump and ended.callgrind_dump != records[3].callgrind_dump
    assert ended.status == "ok" and [v.index for v in ended.values if v.metric == "job_done_ms"] == [0, 1, 2]
    assert [(v.metric, v.index, v.subcase) for v in ended.values][-1] == ("most_running", None, {})
