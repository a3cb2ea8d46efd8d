"""Families `json` and `report` in the smoke run, end to end: every planned cell measured, every
answer checked by the bench (a wrong one would be an error row), the shapes the seed shows, the
report's plots rendered. Timings are not asserted here, only order and shape."""
import json
from collections import defaultdict

from conftest import BUILD
from stallbench_lib import runtimes
from stallbench_lib.tidy import read_csv


def _rows(run_dir, family):
    return [r for r in read_csv(run_dir / "results.csv") if r.family == family]


def _by_rep(rows, benchmark, metric):
    """params -> repetition -> first value of `metric`."""
    out = defaultdict(dict)
    for r in rows:
        if r.benchmark == benchmark and r.metric == metric and r.status == "ok":
            out[r.params].setdefault(r.repetition, r.value)
    return out


def test_json_smoke_cells(smoke_run):
    result, run_dir = smoke_run
    assert result.returncode == 0, result.stderr
    rows = _rows(run_dir, "json")
    parse = [r for r in rows if r.benchmark == "parse"]
    modes = {r.params["mode"] for r in parse}
    assert modes == {"inline", "worker", "incremental", "ndjson"}
    assert {r.params["parser"] for r in parse} == {"simdjson-ondemand", "nlohmann"}
    # Off the loop the modes are compared on the parser that runs in all of them.
    assert {r.params["parser"] for r in parse if r.params["mode"] != "inline"} == {"simdjson-ondemand"}
    for metric in ("parse_ms", "parse_mb_s", "first_parse_ms", "loop_delay_max_ms", "loop_delay_p99_ms",
                   "stall_max_ms", "health_max_ms", "health_p99_ms", "rss_growth_mb", "memcpy_mb_s"):
        assert any(r.metric == metric for r in parse), metric
    nodes = json.loads((run_dir / "meta.json").read_text())["nodes"]
    node_cells = {runtimes.label(r.params) for r in rows if r.benchmark == "node-parse"}
    assert node_cells == {n["runtime"] for n in nodes}  # one cell per chosen Node line, none without


def test_json_walk_smoke_cells(smoke_run):
    """Every shape's walk matched the generator's answer (else the cell failed), ran more than once at
    steady state, and has its adapter overhead against the library's reference walk."""
    _, run_dir = smoke_run
    walk = [r for r in _rows(run_dir, "json") if r.benchmark == "walk"]
    assert {r.status for r in walk} == {"ok"}
    assert {(r.params["parser"], r.params["shape"]) for r in walk} == {
        (p, s) for p in ("simdjson-ondemand", "nlohmann") for s in ("tweets", "coordinates")}
    assert all(r.value > 1 for r in walk if r.metric == "walk_iterations")
    assert all(r.value > 0 for r in walk if r.metric in ("adapter_overhead_ratio", "walk_mb_s", "reference_mb_s"))
    assert (run_dir / "report" / "json-walk-256.png").exists()


def test_inline_parse_stalls_for_at_least_the_parse(smoke_run):
    _, run_dir = smoke_run
    rows = _rows(run_dir, "json")
    parse_ms = _by_rep(rows, "parse", "parse_ms")
    stall = _by_rep(rows, "parse", "stall_max_ms")
    inline = [p for p in parse_ms if p["mode"] == "inline"]
    assert inline
    for params in inline:
        for rep, ms in parse_ms[params].items():
            assert stall[params][rep] >= ms, (params, rep)


def test_incremental_takes_many_turns(smoke_run):
    _, run_dir = smoke_run
    turns = _by_rep(_rows(run_dir, "json"), "parse", "turns")
    for params, reps in turns.items():
        expected = 20 if params["mode"] in ("incremental", "ndjson") else 1  # 20,000 / 1,000
        assert set(reps.values()) == {expected}, params


def test_report_modes_same_revenue(smoke_run):
    _, run_dir = smoke_run
    rows = _rows(run_dir, "report")
    revenue = {r.value for r in rows if r.metric == "revenue"}
    assert len(revenue) == 1
    modes = {r.params["mode"] for r in rows if r.benchmark == "price-report"}
    assert modes == {"inline", "chunked", "worker", "worker-pool"}
    meters = [r for r in rows if r.benchmark == "meters" and r.metric == "stall_sized_ms"]
    assert len(meters) == 2 * 5  # two repetitions, five stalls each


def test_stall_reports_render(smoke_run):
    _, run_dir = smoke_run
    report = run_dir / "report"
    for stem in ("json-throughput-orders-20000", "json-timeline-orders-20000", "json-health-cdf-orders-20000",
                 "report-timeline-2000000", "report-health-cdf-2000000", "report-chunk-tradeoff-2000000"):
        assert (report / f"{stem}.png").exists() and (report / f"{stem}.svg").exists(), stem
    text = (report / "report.md").read_text()
    assert "same revenue" in text and "Calibrating the instruments" in text


def test_node_parse_runs_once_per_chosen_node_line():
    """json/node-parse has no cells without a Node line, one per line given; Node's version is the
    orchestrator's to record (meta.json's `nodes`), not the bench binary's."""
    import subprocess

    binary = str(BUILD / "benches" / "bench_json")
    env = {"PATH": "/nonexistent"}
    listed = subprocess.run([binary, "--benchmark_list_tests"], env=env, capture_output=True, text=True)
    assert listed.returncode == 0 and "parse/" in listed.stdout and "node-parse" not in listed.stdout
    lines = ["--stallbench-node=24=/nonexistent/node24", "--stallbench-node=26=/nonexistent/node26"]
    listed = subprocess.run([binary, "--benchmark_list_tests", "--benchmark_filter=^node-parse/", *lines],
                            env=env, capture_output=True, text=True)
    names = [t for t in listed.stdout.split() if "runtime:" in t]
    assert [n.split("runtime:")[1].split("/")[0] for n in names] == ["node", "node"]
    assert [n.split("node_line:")[1].split("/")[0] for n in names] == ["24", "26"]
    described = subprocess.run([binary, "--stallbench-describe"], env=env, capture_output=True, text=True)
    assert '"node"' not in json.loads(described.stdout)["versions"]
