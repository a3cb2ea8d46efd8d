"""The tracking pieces that run real processes: --instructions on a tiny benchmark, nightly's
shuffled rounds, the A/B knob reaching a real bench, and history over synthetic runs."""
import json
import shutil
from collections import Counter

import pytest

from conftest import BUILD, Quiet
from stallbench_lib import catalogue, cli, instructions, schedule
from stallbench_lib.plan import Cell
from synthetic_runs import MACHINE, noisy, write_run

TINY = BUILD / "tests" / "tiny_bench"


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is installed by scripts/bootstrap")
def test_instructions_same_count_twice(tmp_path):
    bench = catalogue.describe(TINY).benchmarks[0]
    assert bench.instructions
    cell = Cell(bench, {"n": "20000"})
    counts = []
    for attempt in range(2):
        raw = tmp_path / f"raw{attempt}"
        raw.mkdir()
        rows, status, _, _ = instructions.count_cell(cell, "r", raw, "tiny", 3, Quiet())
        assert status == "ok" and [r.repetition for r in rows] == [0, 1, 2]
        assert {r.metric for r in rows} == {"instructions"}
        counts.append([r.value for r in rows])
    assert counts[0] == counts[1]
    # The loop runs n times: more work, more instructions (the count covers the closure).
    raw = tmp_path / "raw-more"
    raw.mkdir()
    more, _, _, _ = instructions.count_cell(Cell(bench, {"n": "40000"}), "r", raw, "tiny", 1, Quiet())
    assert more[0].value > counts[0][0] * 1.5


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is installed by scripts/bootstrap")
@pytest.mark.parametrize("profile", ["quick", "nightly"])
def test_run_instructions_adds_counts_and_wall_times_of_each_repetition(tmp_path, monkeypatch, profile):
    """`run --instructions` on the tiny family, in one process per cell (quick) and in shuffled
    rounds (nightly): every repetition gets its instruction count and its wall time, the wall time
    being the one its own wall-time process measured (the closure returns the sum's time)."""
    build = tmp_path / "build"
    (build / "benches").mkdir(parents=True)
    (build / "benches" / "bench_tiny").symlink_to(TINY)
    monkeypatch.setenv("STALLBENCH_BUILD_DIR", str(build))
    code = cli.main(["run", "--profile", profile, "--filter", "^tiny/", "--set", "n=20000", "--repetitions", "2",
                     "--node", "none", "--no-build", "--no-report", "--instructions", "--out", str(tmp_path / "runs")])
    assert code == 0
    run = next((tmp_path / "runs").iterdir())
    meta = json.loads((run / "meta.json").read_text())
    assert meta["complete"] and meta["instruction_cells"] == {"planned": 1, "ok": 1, "failed": 0}
    assert {"instructions", "wall_ms", "sum_ms"} <= set(meta["metrics"]["tiny/sum"])
    values: dict[str, dict[int, float]] = {}
    for line in (run / "results.csv").read_text().splitlines()[1:]:
        fields = line.split(",")
        assert fields[8] == "ok", line
        values.setdefault(fields[5], {})[int(fields[4])] = float(fields[6])
    assert sorted(values["instructions"]) == sorted(values["wall_ms"]) == sorted(values["sum_ms"]) == [0, 1]
    assert all(n > 20000 for n in values["instructions"].values())
    for rep, wall in values["wall_ms"].items():
        assert wall == pytest.approx(values["sum_ms"][rep], rel=1e-9)


def test_interleaved_rounds_cover_every_cell_once_per_round():
    steps = schedule.interleaved(4, 3, seed=7)
    assert [s.round for s in steps] == [0] * 4 + [1] * 4 + [2] * 4
    for r in range(3):
        assert sorted(s.cell for s in steps if s.round == r) == [0, 1, 2, 3]
    assert all(s.repetitions == 1 for s in steps)
    assert schedule.interleaved(4, 3, seed=7) == steps
    orders = {tuple(s.cell for s in steps if s.round == r) for r in range(3)}
    assert len(orders) > 1  # shuffled afresh each round (for this seed)


def test_nightly_rounds_end_to_end(tmp_path):
    """Interleaved rounds write repetitions 0..N-1 for every cell, one process per repetition,
    and meta.json keeps the seed and every metric's declaration."""
    code = cli.main(["run", "--profile", "nightly", "--filter", "^pool/", "--set", "iters=20000", "--set", "jobs=2",
                     "--set", "pool=1,2", "--repetitions", "3", "--node", "none", "--no-build", "--no-report",
                     "--out", str(tmp_path)])
    assert code == 0
    run = next(tmp_path.iterdir())
    meta = json.loads((run / "meta.json").read_text())
    assert meta["interleave"]["rounds"] == 3 and isinstance(meta["interleave"]["seed"], int)
    assert meta["metrics"]["pool/saturation"]["pool_efficiency"]["better"] == "higher"
    assert meta["metrics"]["pool/saturation"]["cores"]["tracked"] is False
    reps = Counter()
    for line in (run / "results.csv").read_text().splitlines()[1:]:
        fields = line.split(",")
        if fields[5] == "fs_latency_ms":
            reps[(fields[3], int(fields[4]))] += 1
    assert sorted(reps) == [(p, r) for p in ("client=uv;digest=sha256;iters=20000;jobs=2;pool=1;runtime=stallbench",
                                              "client=uv;digest=sha256;iters=20000;jobs=2;pool=2;runtime=stallbench")
                            for r in range(3)]
    assert len(list((run / "raw").glob("*-round*.json"))) == 6


def test_calibrate_injects_work_into_the_chosen_benchmark(tmp_path):
    """The B runs really ran with more work (the harness records the knob in Google Benchmark's
    context) and the calibration report has both parts; what it detects is a measurement, not
    asserted here."""
    code = cli.main(["calibrate", "--profile", "smoke", "--repetitions", "2", "--filter", "^pool/",
                     "--inject", "pool/saturation:10", "--no-build", "--out", str(tmp_path)])
    assert code in (0, 1)
    metas = [json.loads(p.read_text()) for p in tmp_path.glob("*/meta.json")]
    roles = sorted(m["calibration"]["role"] for m in metas)
    assert roles[:2] == ["A/A first", "A/A second"] and "A/B +10%" in roles
    injected = [p for p in tmp_path.glob("*/raw/*.json") if "stallbench_inject_work_pct:saturation" in p.read_text()]
    b_runs = {m["run_id"] for m in metas if m["calibration"]["inject"]}
    assert injected and {p.parent.parent.name for p in injected} == b_runs
    report = (tmp_path / "calibration.md").read_text()
    assert "## A/A" in report and "## A/B" in report and "false regressions" in report
    # Analysing the same runs again measures nothing and gives the same report.
    (tmp_path / "calibration.md").unlink()
    assert cli.main(["calibrate", "--from", str(tmp_path)]) == code
    assert (tmp_path / "calibration.md").read_text() == report
    assert len(list(tmp_path.glob("*/meta.json"))) == len(metas)


@pytest.mark.parametrize("args, words", [
    (["--inject", "pool/saturation"], "FAMILY/BENCHMARK:PCT"),
    (["--inject", "pool/nothing:10"], "valid: pool/saturation"),
    (["--inject", "pool/saturation:0"], "FAMILY/BENCHMARK:PCT"),
])
def test_calibrate_bad_inject_is_one_line(tmp_path, capsys, args, words):
    assert cli.main(["calibrate", "--no-build", "--out", str(tmp_path / "cal"), *args]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and words in err
    assert not (tmp_path / "cal").exists()


def test_history_finds_the_regression_and_its_commits(tmp_path, capsys):
    results = tmp_path / "results"
    for night in range(16):
        centre = 100 if night < 8 else 125
        write_run(results / "runs" / f"2026010{night:02d}", {("n=1", "time_ms"): noisy(centre, 5, 0.02, night),
                                                            ("n=1", "rate_mb_s"): noisy(50, 5, 0.02, 100 + night),
                                                            ("n=2", "time_ms"): noisy(80, 5, 0.02, 200 + night)},
                  commit=f"{night:02x}" * 20, started=f"2026-01-{night + 1:02d}T00:00:00+00:00")
    write_run(results / "calibrations" / "x" / "injected", {("n=1", "time_ms"): [999.0] * 5},
              started="2026-02-01T00:00:00+00:00", meta_extra={"calibration": {"role": "A/B +10%"}})
    write_run(results / "runs" / "other-machine", {("n=1", "time_ms"): [1.0] * 5},
              machine={**MACHINE, "fingerprint": "bbbbbbbbbbbb"})
    out = tmp_path / "page"
    code = cli.main(["history", "--results", str(results), "--fingerprint", MACHINE["fingerprint"], "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0
    regression_rows = [line for line in printed.splitlines() if line.startswith("| fam/bench")]
    assert len(regression_rows) == 1 and "time_ms" in regression_rows[0]
    assert "07070707..08080808" in regression_rows[0] and "2026010" + "08" in regression_rows[0]
    assert any(line.startswith("| **overall** | 3 |") for line in printed.splitlines())  # the summary over 3 series
    html = (out / "index.html").read_text()
    assert "<table>" in html and "trend-fam-bench" in html
    assert (out / "history.md").exists() and list(out.glob("trend-*.png"))
    steady = (out / "history.md").read_text().split("## Steady series")[1]
    assert "`n=2`" in steady and "`n=1`" not in steady  # the cell that moved is plotted, the steady one listed


def test_history_without_runs_for_the_machine_is_one_line(tmp_path, capsys):
    (tmp_path / "results").mkdir()
    assert cli.main(["history", "--results", str(tmp_path / "results"), "--fingerprint", "nope"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "no complete run" in err
