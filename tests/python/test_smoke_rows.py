"""The smoke profile's results.csv keeps the same rows across changes to the C++ <-> Python contract:
the same (family, benchmark, params, metric, status) keys as a stored expectation, values aside.

The expectation, data/smoke_row_keys.csv, was made from a smoke run of the code before the
per-repetition records replaced Google Benchmark's counters and the stderr protocol (issue 17). It
holds one placeholder line, `LINE`, for the Node line in a value such as `node@26`: the test expands
it to every line the run chose. It was made as root with Chromium installed (so the browser family
and slow-dns's real lookups ran); where this machine lacks one, those keys are left out. Regenerate it
after a deliberate change to the smoke grid or to a benchmark's metrics:

    scripts/stallbench run --profile smoke --no-report --out /tmp/smoke
    PYTHONPATH=scripts:tests/python /usr/bin/python3 tests/python/test_smoke_rows.py /tmp/smoke/<run-id>

This reuses the session's smoke run (conftest.smoke_run): it adds no run of its own."""
import csv
import json
import os
import sys
from pathlib import Path

from conftest import BUILD, DATA
from stallbench_lib import build, catalogue
from stallbench_lib.tidy import read_csv

EXPECTED = DATA / "smoke_row_keys.csv"
COLUMNS = ["family", "benchmark", "params", "metric", "status"]
PLACEHOLDER = "LINE"


def _node_params(benchmarks: list[catalogue.Benchmark]) -> dict[tuple[str, str], dict[str, list[str]]]:
    """(family, benchmark) -> parameter -> its values naming Node (the ones that take @LINE)."""
    return {(b.family, b.name): {p.name: p.node_values for p in b.params if p.node_values} for b in benchmarks}


def _with_line(params: str, node_params: dict[str, list[str]], old: str, new: str) -> str:
    parts = []
    for item in params.split(";"):
        key, _, value = item.partition("=")
        base, at, line = value.partition("@")
        if at and line == old and base in node_params.get(key, ()):
            value = f"{base}@{new}"
        parts.append(f"{key}={value}")
    return ";".join(parts)


def row_keys(run_dir: Path, benchmarks: list[catalogue.Benchmark]) -> set[tuple[str, ...]]:
    """The run's row keys, each chosen Node line written as the placeholder."""
    lines = [n["line"] for n in json.loads((run_dir / "meta.json").read_text())["nodes"]]
    node_params = _node_params(benchmarks)
    keys = set()
    for r in read_csv(run_dir / "results.csv"):
        params = r.params
        for line in lines:
            params = _with_line(params, node_params.get((r.family, r.benchmark), {}), line, PLACEHOLDER)
        keys.add((r.family, r.benchmark, params, r.metric, r.status))
    return keys


def expected_keys(benchmarks: list[catalogue.Benchmark]) -> set[tuple[str, ...]]:
    """The stored keys this machine can produce: a benchmark that declares itself missing here (no
    Chromium) has no rows, nor have slow-dns's real lookups without root (no private namespace)."""
    missing = {(b.family, b.name) for b in benchmarks if b.missing}
    with open(EXPECTED, newline="") as f:
        rows = [tuple(r[c] for c in COLUMNS) for r in csv.DictReader(f)]
    return {k for k in rows if k[:2] not in missing
            and (os.geteuid() == 0 or "lookup_kind=getaddrinfo" not in k[2].split(";"))}


def test_smoke_rows_match_the_stored_expectation(smoke_run):
    _, run_dir = smoke_run
    benchmarks = catalogue.all_benchmarks(catalogue.load(build.bench_binaries(BUILD)))
    found, expected = row_keys(run_dir, benchmarks), expected_keys(benchmarks)
    assert sorted(expected - found) == [] and sorted(found - expected) == []


def _regenerate(run_dir: Path) -> None:
    benchmarks = catalogue.all_benchmarks(catalogue.load(build.bench_binaries(BUILD)))
    with open(EXPECTED, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows(sorted(row_keys(run_dir, benchmarks)))
    print(f"{EXPECTED}: written from {run_dir}")


if __name__ == "__main__":
    _regenerate(Path(sys.argv[1]))
