"""Every export read by what reads it. The gbench files go through Google Benchmark's own compare.py
(Debian's libbenchmark-tools, scripts/packages/test/tests.txt): its loader, its partition by name and
time unit, its per-entry change of real_time and cpu_time and its geometric mean. compare.py imports
two functions from scipy, which Debian 12 cannot install beside the regex and json families' Boost
(docs/tracking.md, "Why no scipy"): a stand-in module gives it numpy's geometric mean, and a
Mann-Whitney test that fails the test if compare.py ever calls it (it does only for a name that
appears twice in a file, which the export never writes).

Bencher's adapters and github-action-benchmark are not on npm in a form that parses (Bencher's are
Rust, in its API server; github-action-benchmark's npm entry is unpublished), so their readers are
the schemas in tests/python/data/export_schemas, written from their parsers' source (each schema's
$comment names the file): test_exports.py checks every format against them, and here the fields
those parsers read are checked one by one on a real smoke run's export."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from stallbench_lib import cli
from stallbench_lib.tracking import exports
from synthetic_runs import write_run

COMPARE = Path("/usr/share/benchmark/compare.py")
needs_compare = pytest.mark.skipif(not COMPARE.exists(), reason="Google Benchmark's compare.py is not installed "
                                   "(libbenchmark-tools, scripts/packages/test/tests.txt)")
STAND_IN = '''import numpy as np


def gmean(a, axis=0):
    return np.exp(np.mean(np.log(np.asarray(a, dtype=float)), axis=axis))


def mannwhitneyu(*args, **kwargs):
    raise AssertionError("compare.py ran its U test: an export held one name twice")
'''
BENCHER_UNITS = {"ps", "ns", "us", "\u03bcs", "\u00b5s", "ms", "s"}  # bencher_adapter's adapters/util.rs


def _gbench(tmp_path, name, scale):
    run = write_run(tmp_path / name, {("n=1;pool=2", "time_ms"): [10.0 * scale, 12.0 * scale, 11.0 * scale],
                                      ("n=1;pool=2", "wait_ms"): [4.0, 4.0, 4.0],
                                      ("n=1;pool=2", "rate_mb_s"): [50.0, 52.0, 51.0]})
    assert cli.main(["export", str(run), "--format", "gbench", "--out", str(tmp_path / f"{name}-out")]) == 0
    (found,) = (tmp_path / f"{name}-out" / "gbench").glob("*.json")
    return found


@needs_compare
def test_google_benchmarks_compare_py_reads_two_gbench_exports(tmp_path):
    (tmp_path / "shim" / "scipy").mkdir(parents=True)
    (tmp_path / "shim" / "scipy" / "__init__.py").write_text("")
    (tmp_path / "shim" / "scipy" / "stats.py").write_text(STAND_IN)
    base, current = _gbench(tmp_path, "base", 1.0), _gbench(tmp_path, "current", 1.25)
    dump = tmp_path / "diff.json"
    done = subprocess.run([sys.executable, str(COMPARE), "--no-color", "--dump_to_json", str(dump), "benchmarks",
                           str(base), str(current)], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": f"{tmp_path / 'shim'}:{COMPARE.parent}", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stdout + done.stderr
    report = {entry["name"]: entry for entry in json.loads(dump.read_text())}
    assert set(report) == {"fam/bench/n:1/pool:2/time_ms", "fam/bench/n:1/pool:2/wait_ms", "OVERALL_GEOMEAN"}
    (slower,) = report["fam/bench/n:1/pool:2/time_ms"]["measurements"]
    assert (slower["real_time"], slower["real_time_other"]) == (11.0, 13.75)
    assert slower["time"] == pytest.approx(0.25) and slower["cpu"] == pytest.approx(0.25)
    (same,) = report["fam/bench/n:1/pool:2/wait_ms"]["measurements"]
    assert same["time"] == same["cpu"] == 0
    assert report["fam/bench/n:1/pool:2/time_ms"]["label"] == exports.CPU_LABEL
    assert "fam/bench/n:1/pool:2/time_ms" in done.stdout and "+0.2500" in done.stdout


def test_a_real_runs_gbench_export_has_every_field_its_readers_read(smoke_run, tmp_path):
    _, run = smoke_run
    assert cli.main(["export", str(run), "--format", "gbench", "--out", str(tmp_path)]) == 0
    files = sorted((tmp_path / "gbench").glob("*.json"))
    assert files
    for path in files:
        doc = json.loads(path.read_text())
        caches = doc["context"]["caches"]  # Bencher: serde refuses a Google file without it
        assert isinstance(caches, list) and all(isinstance(c, dict) for c in caches)
        for entry in doc["benchmarks"]:
            assert 1 <= len(entry["name"]) <= 1024 and entry["time_unit"] in BENCHER_UNITS  # Bencher
            assert entry["time_unit"] in ("s", "ms", "us", "ns")                              # compare.py
            for field in ("real_time", "cpu_time", "iterations", "threads"):              # googlecpp's tooltip
                assert isinstance(entry[field], (int, float)) and entry[field] >= 0, (path.name, field)
            assert entry["cpu_time"] == entry["real_time"] and entry["label"] == exports.CPU_LABEL
