"""`stallbench json --input FILE`: a user's own JSON. Bad input (a missing file, a file over
simdjson's 4 GiB limit or over the memory available) is one line, exit 2, nothing written; any file
that can be loaded is the object of study: a malformed, truncated, empty, non-UTF-8 or too deeply
nested one is parsed, and every parser's refusal is a `rejected` row with its own message (never a
crash or a traceback); a good file is walked by every parser, with the same answer, to steady
state, and by JSON.parse on each chosen Node line."""
import resource
import shutil
import subprocess

import pytest

from conftest import BUILD, stallbench
from stallbench_lib import catalogue, runtimes
from stallbench_lib.tidy import read_csv

# The parsers this build has, as the bench declares them: each but nlohmann is optional.
PARSERS = {c for b in catalogue.describe(BUILD / "benches" / "bench_json").benchmarks if b.param("parser")
           for c in b.param("parser").choices} if (BUILD / "benches" / "bench_json").exists() else set()
QUICK = ("--no-build", "--no-report", "--repetitions", "1", "--set", "min_time_ms=20")


def _run(doc, tmp_path, *extra, node="none"):
    out = tmp_path / "out"
    result = stallbench("json", "--input", str(doc), *QUICK, "--out", str(out), "--node", node, *extra)
    rows = read_csv(next(out.iterdir()) / "results.csv") if out.exists() and any(out.iterdir()) else []
    return result, rows


def _bench_refusals(doc, *args):
    """bench_json's own cells for `doc` in one process (cheaper than a run; a crash of any cell fails
    the whole process): cell name -> error message."""
    import json
    result = subprocess.run([str(BUILD / "benches" / "bench_json"), "--benchmark_format=json",
                             "--stallbench-grid=input.min_time_ms=1", "--stallbench-grid=input-node.min_time_ms=1",
                             f"--stallbench-input=input={doc}", *args], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr  # no cell crashed
    return {b["name"]: b.get("error_message", "") for b in json.loads(result.stdout)["benchmarks"]}


def _rejected_by_every_parser(result, rows):
    assert result.returncode == 1, result.stderr  # the run finished; its cells failed
    assert "Traceback" not in result.stderr
    assert {r.status for r in rows} == {"rejected"}
    details = {r.params["parser"]: r.detail for r in rows}
    assert set(details) == PARSERS
    for parser, detail in details.items():
        assert detail.startswith(parser + ": "), detail
    return details


def _one_line_refusal(result, words, out):
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert words in result.stderr, result.stderr
    assert not out.exists() or list(out.iterdir()) == []


def test_missing_file(tmp_path):
    out = tmp_path / "out"
    result = stallbench("json", "--input", str(tmp_path / "nope.json"), "--no-build", "--out", str(out))
    _one_line_refusal(result, "No such file or directory", out)


def test_file_over_simdjson_limit_is_refused_before_parsing(tmp_path):
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(5 * 1024 ** 3)  # sparse: no disk used
    out = tmp_path / "out"
    result = stallbench("json", "--input", str(huge), "--no-build", "--out", str(out))
    _one_line_refusal(result, "4 GiB document limit", out)
    assert "refused before parsing" in result.stderr


def test_file_over_available_memory_is_refused_before_parsing(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(3 * 1024 ** 3)  # under simdjson's limit, over the 2 GiB this process may use

    def limit_memory():
        resource.setrlimit(resource.RLIMIT_AS, (2 * 1024 ** 3, 2 * 1024 ** 3))

    result = subprocess.run([str(BUILD / "benches" / "bench_json"), "--benchmark_list_tests",
                             f"--stallbench-input=input={big}"], capture_output=True, text=True, preexec_fn=limit_memory)
    assert result.returncode == 2, result.stderr
    assert "of memory available" in result.stderr and "refused before parsing" in result.stderr


def test_truncated_file_gives_each_parsers_error_and_offset(tmp_path):
    doc = tmp_path / "orders.json"
    doc.write_text('[{"orderId":0,"quantity":2,"status":"Paid"},{"orderId":1,"quantity":2,"status":"Pa')
    details = _rejected_by_every_parser(*_run(doc, tmp_path))
    size = doc.stat().st_size
    for detail in details.values():
        assert f"at byte {size}" in detail, detail  # every parser stops at the end, inside the string


def test_empty_file_is_rejected_by_every_parser(tmp_path):
    doc = tmp_path / "empty.json"
    doc.write_bytes(b"")
    refusals = _bench_refusals(doc, "--benchmark_filter=^input/")
    assert {name.split("/")[1] for name in refusals} == {f"parser:{p}" for p in PARSERS}
    assert all(message.startswith("rejected: ") for message in refusals.values()), refusals


def test_file_that_is_not_utf8_is_rejected_by_every_parser_with_a_printable_message(tmp_path):
    doc = tmp_path / "latin1.json"
    doc.write_bytes(b'{"city":"K\xf6ln","note":"\xff"}')
    details = _rejected_by_every_parser(*_run(doc, tmp_path))
    assert all(detail.isprintable() for detail in details.values()), details
    assert "\\xF6" in details["nlohmann"]  # it quotes the byte it choked on: written out, not raw


def test_nesting_100000_deep_is_rejected_by_every_parser_never_a_crash(tmp_path):
    doc = tmp_path / "deep.json"
    doc.write_text("[" * 100_000 + "]" * 100_000)
    refusals = _bench_refusals(doc, "--benchmark_filter=^input/", "--stallbench-grid=input.mode=inline,worker")
    assert len(refusals) == 2 * len(PARSERS)
    for name, message in refusals.items():
        # each parser's own depth error, or the adapter's limit where it has none
        assert message.startswith("rejected: ") and "deep" in message, (name, message)


def test_good_file_is_walked_alike_by_every_parser_to_steady_state(tmp_path):
    doc = tmp_path / "mine.json"
    doc.write_text('{"books":[{"title":"Dune","price":9.99,"tags":["sf","\\u00e7\\u00f6l"]},{"title":null}]}')
    result, rows = _run(doc, tmp_path, "--set", "mode=inline,worker")
    assert result.returncode == 0, result.stderr
    assert {r.status for r in rows} == {"ok"}
    values = {(r.params["parser"], r.params["mode"]): r.value for r in rows if r.metric == "values"}
    assert set(values) == {(p, m) for p in PARSERS for m in ("inline", "worker")}
    assert set(values.values()) == {10.0}
    assert all(r.value > 1 for r in rows if r.metric == "steady_iterations")
    assert {r.params["numbers"] for r in rows if r.params["parser"] == "rapidjson-fast"} <= {"fast"}
    assert all(r.value > 0 for r in rows if r.metric == "adapter_overhead_ratio")


@pytest.mark.skipif(shutil.which("node") is None, reason="no node on PATH")
def test_json_parse_runs_per_chosen_node_line(tmp_path):
    doc = tmp_path / "mine.json"
    doc.write_text('{"books":[{"title":"Dune","price":9.99,"tags":["sf","\\u00e7\\u00f6l"]},{"title":null}]}')
    result, rows = _run(doc, tmp_path, "--set", "parser=nlohmann", node="system")
    assert result.returncode == 0, result.stderr
    node = [r for r in rows if r.benchmark == "input-node"]
    assert {runtimes.label(r.params) for r in node} == {"node@system"}
    assert {r.value for r in node if r.metric == "values"} == {10.0}
    assert all(r.value > 1 for r in node if r.metric == "steady_iterations")
    doc.write_text('{"books":[')
    refusals = _bench_refusals(doc, "--benchmark_filter=^input-node/", f"--stallbench-node=system={shutil.which('node')}")
    assert [m.split(" (")[0] for m in refusals.values()] == ["rejected: node@system"]
    assert all("SyntaxError" in m for m in refusals.values()), refusals


def test_unknown_parser_is_refused(tmp_path):
    doc = tmp_path / "mine.json"
    doc.write_text("[]")
    out = tmp_path / "out"
    result = stallbench("json", "--input", str(doc), "--no-build", "--out", str(out), "--set", "parser=yyjson",
                        "--node", "none")
    _one_line_refusal(result, "valid values are ", out)
    assert "nlohmann" in result.stderr
    assert "--filter" not in result.stderr  # an option `json` does not have
