"""`stallbench json --input FILE`: a user's own JSON. Bad input (a missing file, a file over
simdjson's 4 GiB limit or over the memory available) is one line, exit 2, nothing written; a
malformed or truncated file is parsed, and every parser's refusal is a `rejected` row naming its
byte offset; a good file is walked by every parser, with the same answer."""
import os
import resource
import subprocess

from conftest import BUILD, stallbench
from stallbench_lib.tidy import read_csv

PARSERS = {"simdjson-dom", "simdjson-ondemand", "nlohmann", "rapidjson", "boost-json"}


def _one_line_refusal(result, words, out):
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert words in result.stderr, result.stderr
    assert not out.exists() or list(out.iterdir()) == []


def test_missing_file(tmp_path):
    out = tmp_path / "out"
    result = stallbench("json", "--input", str(tmp_path / "nope.json"), "--no-build", "--out", str(out))
    _one_line_refusal(result, "no such file", out)


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

    result = subprocess.run([str(BUILD / "benches" / "bench_json"), "--benchmark_list_tests"],
                            env={**os.environ, "STALLBENCH_JSON_INPUT": str(big)}, capture_output=True, text=True,
                            preexec_fn=limit_memory)
    assert result.returncode == 2, result.stderr
    assert "of memory available" in result.stderr and "refused before parsing" in result.stderr


def test_truncated_file_gives_each_parsers_error_and_offset(tmp_path):
    doc = tmp_path / "orders.json"
    doc.write_text('[{"orderId":0,"quantity":2,"status":"Paid"},{"orderId":1,"quantity":2,"status":"Pa')
    out = tmp_path / "out"
    result = stallbench("json", "--input", str(doc), "--no-build", "--no-report", "--out", str(out),
                        "--repetitions", "1")
    assert result.returncode == 1, result.stderr  # the run finished; its cells failed
    rows = read_csv(next(out.iterdir()) / "results.csv")
    assert {r.status for r in rows} == {"rejected"}
    details = {r.param_dict()["parser"]: r.detail for r in rows}
    assert set(details) == PARSERS
    size = doc.stat().st_size
    for parser, detail in details.items():
        assert detail.startswith(parser + ": "), detail
        assert f"at byte {size}" in detail, detail  # every parser stops at the end, inside the string


def test_good_file_is_walked_alike_by_every_parser(tmp_path):
    doc = tmp_path / "mine.json"
    doc.write_text('{"books":[{"title":"Dune","price":9.99,"tags":["sf","\\u00e7\\u00f6l"]},{"title":null}]}')
    out = tmp_path / "out"
    result = stallbench("json", "--input", str(doc), "--no-build", "--no-report", "--out", str(out),
                        "--repetitions", "1", "--set", "mode=inline,worker")
    assert result.returncode == 0, result.stderr
    rows = read_csv(next(out.iterdir()) / "results.csv")
    assert {r.status for r in rows} == {"ok"}
    values = {(r.param_dict()["parser"], r.param_dict()["mode"]): r.value for r in rows if r.metric == "values"}
    assert set(values) == {(p, m) for p in PARSERS for m in ("inline", "worker")}
    assert set(values.values()) == {10.0}


def test_unknown_parser_is_refused(tmp_path):
    doc = tmp_path / "mine.json"
    doc.write_text("[]")
    out = tmp_path / "out"
    result = stallbench("json", "--input", str(doc), "--no-build", "--out", str(out), "--set", "parser=yyjson")
    _one_line_refusal(result, "valid values are simdjson-dom", out)
