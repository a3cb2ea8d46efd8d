"""The smoke profile's results.csv keeps the same rows across changes to the C++ <-> Python contract:
the same (family, benchmark, params, metric, status) keys as a stored expectation, values aside.

The expectation, data/smoke_row_keys.csv, was made from a smoke run of the code before the
per-repetition records replaced Google Benchmark's counters and the stderr protocol (issue 17). It
holds one placeholder line, `LINE`, for a Node cell's line (`node_line=LINE`): the test compares it
with every line the run chose. A key marked `series` belongs to a metric reported as a series (one
value per stall, per probe, per frame): how many values a repetition has is a measurement (a cell
sees a stall on a busy machine and none on a calm one), so a series' key may be missing, or appear
for a stored cell that had none (the browser family's INP and input-delay keys are marked so too: a
repetition whose clicks reached the page in a backlog has none); every other key must be there, and
no other key may appear. It
was made as root with Chromium installed (so the
browser family and slow-dns's real lookups ran); where this machine lacks one, those keys are left
out. The keys of starvation/random_parity were added by hand with that benchmark (issue 24); the
file was regenerated when the browser family gained its `browser` parameter and the web-vitals
metrics (issue 29: the smoke grid runs Chromium only); nlohmann's worker cell left it with that
grid (issue 35); protocol 5 moved a Node cell's line from its value (`runtime=node@LINE`) into its
own parameter (`node_line=LINE;runtime=node`), and the file was rewritten so (issue 37), every key
else the same.
Regenerate it after a deliberate change to the smoke grid or to a benchmark's metrics:

    scripts/stallbench run --profile smoke --no-report --out /tmp/smoke
    PYTHONPATH=scripts:tests/python /usr/bin/python3 tests/python/test_smoke_rows.py /tmp/smoke/<run-id>

This reuses the session's smoke run (conftest.smoke_run): it adds no run of its own."""
import contextlib
import csv
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from conftest import BUILD, DATA
from stallbench_lib import build, catalogue, runtimes
from stallbench_lib.convert import read_record
from stallbench_lib.tidy import read_csv

EXPECTED = DATA / "smoke_row_keys.csv"
COLUMNS = ["family", "benchmark", "params", "metric", "status"]
PLACEHOLDER = "LINE"


def series_metrics(run_dir: Path) -> set[tuple[str, str, str]]:
    """(family, benchmark, metric) of every metric the run reported as a series: its Google Benchmark
    counters are named metric#i (the harness's display names in the raw JSON); a cell run in a
    serving process has no such JSON, and its log's records give its values' places instead."""
    found = set()
    for path in (run_dir / "raw").glob("*.json"):
        doc = json.loads(path.read_text())
        family = doc["context"]["stallbench_family"]
        for entry in doc["benchmarks"]:
            benchmark = entry["name"].split("/")[0]
            found |= {(family, benchmark, key.split("#")[0].split("@")[0]) for key in entry if "#" in key}
    return found | _served_series(run_dir)


def _served_series(run_dir: Path) -> set[tuple[str, str, str]]:
    """The same from served cells' logs: the request line (`REPETITIONS BENCH.NAME=VALUE ...`), then
    the cell's records; the family is its rows' in results.csv."""
    families = {(r.benchmark, frozenset(r.params.items())): r.family for r in read_csv(run_dir / "results.csv")}
    found = set()
    for path in (run_dir / "raw").glob("*.log"):
        request, *records = path.read_text().splitlines() or [""]
        grid = request.split()[1:]
        if request.startswith("$ ") or not grid:  # a process's own log, or a cell's in a process of its own
            continue
        benchmark = grid[0].split(".", 1)[0]
        family = families.get((benchmark, frozenset(tuple(g.split(".", 1)[1].split("=", 1)) for g in grid)))
        for line in records:
            with contextlib.suppress(ValueError):
                found |= {(family, benchmark, v.metric) for v in read_record(line).values if v.index is not None}
    return found


def row_keys(run_dir: Path) -> set[tuple[str, ...]]:
    """The run's row keys, each chosen Node line written as the placeholder."""
    lines = [n["line"] for n in json.loads((run_dir / "meta.json").read_text())["nodes"]]
    keys = set()
    for r in read_csv(run_dir / "results.csv"):
        params = r.params
        if runtimes.node_line(params) in lines:
            params = params.with_values(**{runtimes.NODE_LINE: PLACEHOLDER})
        keys.add((r.family, r.benchmark, str(params), r.metric, r.status))
    return keys


@dataclass
class Expectation:
    required: set[tuple[str, ...]]      # every key but a series'
    stored: set[tuple[str, ...]]
    series: set[tuple[str, str, str]]   # (family, benchmark, metric) reported as a series
    cells: set[tuple[str, str, str]]    # (family, benchmark, params) of every stored key

    def unexpected(self, found: set[tuple[str, ...]]) -> list[tuple[str, ...]]:
        return sorted(k for k in found if k not in self.stored
                      and not ((k[0], k[1], k[3]) in self.series and k[:3] in self.cells))


def expectation(benchmarks: list[catalogue.Benchmark], run_dir: Path) -> Expectation:
    """The stored keys this machine can produce: a benchmark that declares itself missing here (no
    Chromium) has no rows, nor have slow-dns's real lookups without root (no private namespace). The
    series are the stored ones and the run's own."""
    missing = {(b.family, b.name) for b in benchmarks if b.missing}
    with open(EXPECTED, newline="") as f:
        stored = [(tuple(r[c] for c in COLUMNS), r["series"] == "1") for r in csv.DictReader(f)]
    here = [(k, series) for k, series in stored if k[:2] not in missing
            and (os.geteuid() == 0 or "lookup_kind=getaddrinfo" not in k[2].split(";"))]
    series = {(k[0], k[1], k[3]) for k, is_series in here if is_series} | series_metrics(run_dir)
    return Expectation({k for k, is_series in here if not is_series}, {k for k, _ in here}, series,
                       {k[:3] for k, _ in here})


def test_smoke_rows_match_the_stored_expectation(smoke_run):
    _, run_dir = smoke_run
    benchmarks = catalogue.all_benchmarks(catalogue.load(build.bench_binaries(BUILD)))
    found = row_keys(run_dir)
    expected = expectation(benchmarks, run_dir)
    assert sorted(expected.required - found) == [] and expected.unexpected(found) == []


# The shards' part of the smoke grid: three families (json, pool, pool-sweep) of 19 cells, enough for
# three shards of several cells each; the whole grid is the unsplit run's test above (a second whole run here cost 46 s of
# processor time).
SHARDED = "^(pool|json)"


def test_the_smoke_profile_in_three_shards_merges_to_the_same_rows(tmp_path):
    """`run --shard K/3` three times, merged: the row keys of the unsplit run, as above."""
    from conftest import stallbench

    for k in (1, 2, 3):
        result = stallbench("run", "--profile", "smoke", "--filter", SHARDED, "--no-build", "--no-report",
                            "--out", str(tmp_path / "shards"), "--shard", f"{k}/3", "--group", "smoke3", timeout=900,
                            env={"STALLBENCH_STORE": ""})
        assert result.returncode in (0, 1), result.stderr  # 1: a failed cell, which the rows name like any other
    merged = stallbench("merge", str(tmp_path / "shards"), "--out", str(tmp_path / "merged"), "--no-report")
    assert "merged:  3 of 3 shards" in merged.stdout, merged.stderr
    run_dir = tmp_path / "merged" / "smoke3"
    benchmarks = catalogue.all_benchmarks(catalogue.load(build.bench_binaries(BUILD)))
    sharded = {(b.family, b.name) for b in benchmarks if re.search(SHARDED, b.full_name)}
    found = row_keys(run_dir)
    expected = expectation(benchmarks, run_dir)
    required = {k for k in expected.required if k[:2] in sharded}
    assert {k[0] for k in required} == {"json", "pool", "pool-sweep"}, required
    assert sorted(required - found) == [] and expected.unexpected(found) == []


def _regenerate(run_dir: Path) -> None:
    series = series_metrics(run_dir)
    with open(EXPECTED, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(COLUMNS + ["series"])
        writer.writerows([*key, int((key[0], key[1], key[3]) in series)] for key in sorted(row_keys(run_dir)))
    print(f"{EXPECTED}: written from {run_dir}")


if __name__ == "__main__":
    _regenerate(Path(sys.argv[1]))
