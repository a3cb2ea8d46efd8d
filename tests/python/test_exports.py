"""export: every format validated against its schema (tests/python/data/export_schemas: Bencher's
published BMF schema; github-action-benchmark's BenchmarkResult; Google Benchmark's JSON reporter),
plus what the dashboards' adapters rely on: unique names, the right direction file, counters kept,
and a failed cell never arriving as a number."""
import json

import jsonschema
import pytest

from conftest import DATA
from stallbench_lib import cli
from synthetic_runs import write_run

SCHEMAS = DATA / "export_schemas"


@pytest.fixture
def run_with_a_failure(tmp_path):
    return write_run(tmp_path / "run", {
        ("n=1;pool=2", "time_ms"): [10.0, 12.0, 11.0],
        ("n=1;pool=2", "rate_mb_s"): [50.0, 52.0, 51.0],
        ("n=1;pool=2", "cores"): [2.0, 2.0, 2.0],
        ("n=2;pool=2", "rate_mb_s"): [40.0, 41.0, 39.0],
    }, failures={("n=2;pool=2", "time_ms"): "guarded"})


def _export(run, fmt, out):
    assert cli.main(["export", str(run), "--format", fmt, "--out", str(out)]) == 0
    return out / fmt


def _validate(doc, schema):
    jsonschema.validate(doc, json.loads((SCHEMAS / f"{schema}.schema.json").read_text()))


def _omitted(out):
    text = (out / "OMITTED.md").read_text()
    assert "fam/bench `n=2;pool=2` time_ms: guarded" in text


def test_bmf(run_with_a_failure, tmp_path):
    out = _export(run_with_a_failure, "bmf", tmp_path / "bmf")
    doc = json.loads((out / "bmf.json").read_text())
    _validate(doc, "bmf")
    assert doc["fam/bench/n=1;pool=2"]["time_ms"] == {"value": 11.0, "lower_value": 10.0, "upper_value": 12.0}
    assert "cores" not in doc["fam/bench/n=1;pool=2"]  # not tracked
    assert list(doc["fam/bench/n=2;pool=2"]) == ["rate_mb_s"]  # the guarded time is left out, not 0
    _omitted(out)


def test_gab_one_file_per_direction(run_with_a_failure, tmp_path):
    out = _export(run_with_a_failure, "gab", tmp_path / "gab")
    smaller, bigger = (json.loads((out / name).read_text()) for name in ("smaller.json", "bigger.json"))
    for doc in (smaller, bigger):
        _validate(doc, "gab")
        assert len({e["name"] for e in doc}) == len(doc)
    assert [e["name"] for e in smaller] == ["fam/bench/n=1;pool=2 time_ms"]
    assert sorted(e["name"] for e in bigger) == ["fam/bench/n=1;pool=2 rate_mb_s", "fam/bench/n=2;pool=2 rate_mb_s"]
    assert smaller[0]["value"] == 11.0 and smaller[0]["unit"] == "ms"
    _omitted(out)


def test_gbench_one_file_per_cell_with_unique_names(run_with_a_failure, tmp_path):
    out = _export(run_with_a_failure, "gbench", tmp_path / "gbench")
    files = sorted(out.glob("*.json"))
    assert [f.name for f in files] == ["fam-bench-n=1_pool=2.json"]  # the other cell has no time left to show
    doc = json.loads(files[0].read_text())
    _validate(doc, "gbench")
    (entry,) = doc["benchmarks"]
    assert entry["name"] == "fam/bench/n:1/pool:2/time_ms" and entry["real_time"] == 11.0
    assert entry["rate_mb_s"] == 51.0 and entry["stallbench_repetitions"] == 3  # counters kept
    _omitted(out)


@pytest.mark.parametrize("fmt", ["bmf", "gab", "gbench"])
def test_a_real_smoke_run_exports_valid_files(smoke_run, tmp_path, fmt):
    _, run = smoke_run
    out = _export(run, fmt, tmp_path / fmt)
    names = []
    for path in sorted(out.glob("*.json")):
        doc = json.loads(path.read_text())
        _validate(doc, fmt)
        names += list(doc) if fmt == "bmf" else [e["name"] for e in (doc if fmt == "gab" else doc["benchmarks"])]
    assert names and len(names) == len(set(names))


@pytest.mark.parametrize("args", [["none", "--format", "bmf"], ["run", "--format", "bmf,csv"]])
def test_bad_export_input_is_one_line(run_with_a_failure, tmp_path, capsys, args):
    assert cli.main(["export", str(tmp_path / args[0]), *args[1:], "--out", str(tmp_path / "out")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1 and not (tmp_path / "out").exists()
