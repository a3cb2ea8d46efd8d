"""compare on synthetic result sets: the verdicts, their order, direction, exit codes, refusals."""
import csv
import subprocess

import pytest

from conftest import stallbench, tree
from stallbench_lib import cli
from synthetic_runs import MACHINE, noisy, write_run

CELL = "n=1"


def compare(tmp_path, base, current, *extra, capsys=None):
    """In-process (fast); `capsys` gives the printed output and the exit code, as a process would."""
    out = tmp_path / "out"
    code = cli.main(["compare", str(base), str(current), "--out", str(out), *extra])
    printed = capsys.readouterr() if capsys else None
    result = subprocess.CompletedProcess([], code, printed.out if printed else "", printed.err if printed else "")
    rows = list(csv.DictReader(open(out / "compare.csv"))) if (out / "compare.csv").exists() else []
    return result, {(r["params"], r["metric"]): r for r in rows}


def test_clear_regression_exits_1(tmp_path):
    """Through the real launcher, as CI calls it."""
    base = write_run(tmp_path / "base", {(CELL, "time_ms"): noisy(100, 9, 0.01, 1)})
    current = write_run(tmp_path / "cur", {(CELL, "time_ms"): noisy(120, 9, 0.01, 2)})
    result = stallbench("compare", str(base), str(current), "--out", str(tmp_path / "out"))
    rows = {(r["params"], r["metric"]): r for r in csv.DictReader(open(tmp_path / "out" / "compare.csv"))}
    assert result.returncode == 1, result.stderr
    assert rows[(CELL, "time_ms")]["verdict"] == "regressed"
    assert float(rows[(CELL, "time_ms")]["ratio"]) > 1.1
    assert "**regressed**" in result.stdout and (tmp_path / "out" / "compare.md").exists()


def test_clear_improvement_exits_0(tmp_path, capsys):
    base = write_run(tmp_path / "base", {(CELL, "time_ms"): noisy(100, 9, 0.01, 1)})
    current = write_run(tmp_path / "cur", {(CELL, "time_ms"): noisy(80, 9, 0.01, 2)})
    result, rows = compare(tmp_path, base / "results.csv", current / "results.csv", capsys=capsys)  # CSVs work too
    assert result.returncode == 0, result.stderr
    assert rows[(CELL, "time_ms")]["verdict"] == "improved"


@pytest.mark.parametrize("seed", range(5))
def test_pure_noise_is_unchanged_or_noisy(tmp_path, seed, capsys):
    base = write_run(tmp_path / "base", {(f"n={i}", "time_ms"): noisy(100, 9, 0.05, seed * 100 + i) for i in range(6)})
    current = write_run(tmp_path / "cur", {(f"n={i}", "time_ms"): noisy(100, 9, 0.05, seed * 100 + 50 + i)
                                           for i in range(6)})
    result, rows = compare(tmp_path, base, current, capsys=capsys)
    assert {r["verdict"] for r in rows.values()} <= {"unchanged", "noisy"}
    assert result.returncode == 0


def test_too_few_repetitions_is_noisy(tmp_path, capsys):
    base = write_run(tmp_path / "base", {(CELL, "time_ms"): [100, 101, 99]})
    current = write_run(tmp_path / "cur", {(CELL, "time_ms"): [200, 201, 199]})
    result, rows = compare(tmp_path, base, current, capsys=capsys)
    assert rows[(CELL, "time_ms")]["verdict"] == "noisy"
    assert "too few repetitions" in rows[(CELL, "time_ms")]["note"]
    assert result.returncode == 0


def test_direction_respected_for_higher_is_better(tmp_path, capsys):
    base = write_run(tmp_path / "base", {(CELL, "rate_mb_s"): noisy(100, 9, 0.01, 1),
                                         ("n=2", "rate_mb_s"): noisy(100, 9, 0.01, 3)})
    current = write_run(tmp_path / "cur", {(CELL, "rate_mb_s"): noisy(80, 9, 0.01, 2),     # fell: worse
                                           ("n=2", "rate_mb_s"): noisy(120, 9, 0.01, 4)})  # rose: better
    result, rows = compare(tmp_path, base, current, capsys=capsys)
    assert rows[(CELL, "rate_mb_s")]["verdict"] == "regressed"
    assert rows[("n=2", "rate_mb_s")]["verdict"] == "improved"
    assert result.returncode == 1


def test_worst_first_and_untracked_left_out(tmp_path, capsys):
    base = write_run(tmp_path / "base", {("n=1", "time_ms"): noisy(100, 9, 0.01, 1),
                                         ("n=2", "time_ms"): noisy(100, 9, 0.01, 2),
                                         ("n=3", "time_ms"): noisy(100, 9, 0.01, 3),
                                         ("n=1", "cores"): [2] * 9})
    current = write_run(tmp_path / "cur", {("n=1", "time_ms"): noisy(80, 9, 0.01, 4),
                                           ("n=2", "time_ms"): noisy(150, 9, 0.01, 5),
                                           ("n=3", "time_ms"): noisy(110, 9, 0.01, 6),
                                           ("n=1", "cores"): [1] * 9})
    result, rows = compare(tmp_path, base, current, capsys=capsys)
    order = [line.split("|")[3].strip() for line in result.stdout.splitlines() if line.startswith("| ") and "`n=" in line]
    assert order == ["`n=2`", "`n=3`", "`n=1`"]
    assert ("n=1", "cores") not in rows


def test_cells_that_fail_are_regressions_of_their_own_kind(tmp_path, capsys):
    base = write_run(tmp_path / "base", {("n=1", "time_ms"): noisy(100, 9, 0.01, 1),
                                         ("n=2", "time_ms"): noisy(100, 9, 0.01, 2)},
                     failures={("n=3", "time_ms"): "crashed"})
    current = write_run(tmp_path / "cur", {("n=1", "time_ms"): noisy(100, 9, 0.01, 3),
                                           ("n=3", "time_ms"): noisy(100, 9, 0.01, 4)},
                        failures={("n=2", "time_ms"): "timeout"})
    result, rows = compare(tmp_path, base, current, capsys=capsys)
    assert (rows[("n=2", "time_ms")]["verdict"], rows[("n=2", "time_ms")]["kind"]) == ("regressed", "became timeout")
    assert (rows[("n=3", "time_ms")]["verdict"], rows[("n=3", "time_ms")]["kind"]) == ("improved", "recovered from crashed")
    assert result.returncode == 1
    first = next(line for line in result.stdout.splitlines() if line.startswith("| ") and "`n=" in line)
    assert "became timeout" in first


def test_min_effect_and_alpha_options(tmp_path, capsys):
    base = write_run(tmp_path / "base", {(CELL, "time_ms"): noisy(100, 9, 0.005, 1)})
    current = write_run(tmp_path / "cur", {(CELL, "time_ms"): noisy(103, 9, 0.005, 2)})
    assert compare(tmp_path, base, current, capsys=capsys)[1][(CELL, "time_ms")]["verdict"] == "unchanged"  # under 5%
    assert compare(tmp_path, base, current, "--min-effect", "2", capsys=capsys)[1][(CELL, "time_ms")]["verdict"] == "regressed"
    assert compare(tmp_path, base, current, "--min-effect", "time_ms=1", capsys=capsys)[1][(CELL, "time_ms")]["verdict"] == "regressed"


def test_other_machine_refused_unless_allowed(tmp_path, capsys):
    base = write_run(tmp_path / "base", {(CELL, "time_ms"): noisy(100, 9, 0.01, 1)})
    other = {**MACHINE, "fingerprint": "bbbbbbbbbbbb", "cpu_model": "Other CPU"}
    current = write_run(tmp_path / "cur", {(CELL, "time_ms"): noisy(100, 9, 0.01, 2)}, machine=other)
    before = tree(tmp_path)
    result, _ = compare(tmp_path, base, current, capsys=capsys)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Other CPU" in result.stderr and "--allow-other-machine" in result.stderr
    assert tree(tmp_path) == before
    result, rows = compare(tmp_path, base, current, "--allow-other-machine", capsys=capsys)
    assert result.returncode == 0 and "different conditions" in result.stdout and "- machine: BASE Test CPU" in result.stdout


CONDITIONS = [
    ("load apart", {"machine": {**MACHINE, "load_average_start": [0.1, 0, 0], "load_average_end": [0.2, 0, 0]}},
     {"machine": {**MACHINE, "load_average_start": [1.9, 0, 0], "load_average_end": [1.8, 0, 0]}},
     "- load: BASE 0.05 → 0.10, CURRENT 0.95 → 0.90 per core (1-minute load average at start → end; the two runs"),
    ("load moved", {"machine": {**MACHINE, "load_average_start": [0.2, 0, 0], "load_average_end": [2.4, 0, 0]}},
     {"machine": {**MACHINE, "load_average_start": [0.2, 0, 0], "load_average_end": [2.4, 0, 0]}},
     "other work started or stopped during BASE and CURRENT"),
    ("build type", {"build_type": "Release"}, {"build_type": "Debug"}, "- build type: BASE Release, CURRENT Debug"),
    ("node", {"nodes": [{"line": "22", "version": "v22.1.0"}]}, {"nodes": [{"line": "22", "version": "v22.2.0"}]},
     "- Node: BASE 22 v22.1.0, CURRENT 22 v22.2.0"),
    ("compiler", {"versions": {"compiler": "gcc 12.2.0", "stallbench": "git 1"}},
     {"versions": {"compiler": "gcc 13.1.0", "stallbench": "git 2"}}, "- versions: compiler gcc 12.2.0 → gcc 13.1.0"),
]


@pytest.mark.parametrize("what, base_meta, current_meta, said", CONDITIONS, ids=[c[0] for c in CONDITIONS])
def test_a_regression_between_runs_under_different_conditions_informs_unless_gated(
        tmp_path, capsys, what, base_meta, current_meta, said):
    """The same clear regression: exit 1 when the conditions match (test_clear_regression_exits_1),
    exit 0 with the differences said above the table when they do not, exit 1 again with --gate."""
    machine = lambda meta: meta.pop("machine", MACHINE)  # noqa: E731
    base_meta, current_meta = dict(base_meta), dict(current_meta)
    base = write_run(tmp_path / "base", {(CELL, "time_ms"): noisy(100, 9, 0.01, 1)}, machine=machine(base_meta),
                     meta_extra=base_meta)
    current = write_run(tmp_path / "cur", {(CELL, "time_ms"): noisy(120, 9, 0.01, 2)}, machine=machine(current_meta),
                        meta_extra=current_meta)
    result, rows = compare(tmp_path, base, current, capsys=capsys)
    assert rows[(CELL, "time_ms")]["verdict"] == "regressed"
    assert result.returncode == 0 and said in result.stdout and "0 whatever the verdicts" in result.stdout
    assert "stallbench git" not in result.stdout  # the code under test is not a condition of the measurement
    gated, _ = compare(tmp_path, base, current, "--gate", capsys=capsys)
    assert gated.returncode == 1 and said in gated.stdout and "1 on a regression anyway" in gated.stdout


@pytest.mark.parametrize("args, words", [
    (["--alpha", "1.5"], "between 0 and 1"),
    (["--min-effect", "x"], "percentage"),
    (["--min-effect", "bad name=3"], "METRIC=PCT"),
])
def test_bad_options_are_one_line(tmp_path, args, words, capsys):
    base = write_run(tmp_path / "base", {(CELL, "time_ms"): [1.0] * 9})
    result, _ = compare(tmp_path, base, base, *args, capsys=capsys)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1 and words in result.stderr
    assert not (tmp_path / "out").exists()


def test_not_a_run_is_refused(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    result, _ = compare(tmp_path, tmp_path / "empty", tmp_path / "empty", capsys=capsys)
    assert result.returncode == 2 and "not a run directory" in result.stderr


def test_instructions_and_wall_time_disagreeing_is_said(tmp_path, capsys):
    from stallbench_lib.tracking import samples as loaded
    from stallbench_lib.tracking.comparison import Thresholds, compare_runs, disagreements

    counts = {"unit": "instructions", "better": "lower", "tracked": True, "min_effect_pct": 0.5}
    wall = {"unit": "ms", "better": "lower", "tracked": True, "min_effect_pct": 0.0}
    extra = {"metrics": {"fam/bench": {"instructions": counts, "wall_ms": wall}}}
    base = write_run(tmp_path / "base", {(CELL, "instructions"): [1e9 + i for i in range(9)],
                                         (CELL, "wall_ms"): noisy(100, 9, 0.01, 1)}, meta_extra=extra)
    current = write_run(tmp_path / "cur", {(CELL, "instructions"): [1.03e9 + i for i in range(9)],
                                           (CELL, "wall_ms"): noisy(100, 9, 0.01, 2)}, meta_extra=extra)
    outcome = compare_runs(loaded.load(base), loaded.load(current), Thresholds())
    said = disagreements(outcome.comparisons)
    assert len(said) == 1 and "instructions +3.00% (regressed)" in said[0] and "wall time" in said[0]
    result, _ = compare(tmp_path, base, current, capsys=capsys)
    assert "Instructions and wall time disagree" in result.stdout


def test_a_busy_machine_is_said(tmp_path, capsys):
    busy = {**MACHINE, "load_average_start": [5.2, 3.0, 1.0], "load_average_end": [7.9, 6.0, 3.0]}
    base = write_run(tmp_path / "base", {(CELL, "time_ms"): noisy(100, 9, 0.01, 1)},
                     machine={**MACHINE, "load_average_start": [0.3, 0.2, 0.1]})
    current = write_run(tmp_path / "cur", {(CELL, "time_ms"): noisy(100, 9, 0.01, 2)}, machine=busy)
    result, _ = compare(tmp_path, base, current, capsys=capsys)
    assert "cur ran on a busy machine** (1-minute load average 5.2 → 7.9 on 2 cores)" in result.stdout
    assert "base ran on a busy machine" not in result.stdout


def test_benjamini_hochberg_matches_its_definition():
    """q of each p: the smallest m * p_(k) / k over the p-values at least as large (k their rank)."""
    from stallbench_lib.tracking.ranktest import benjamini_hochberg
    p = [0.04, 0.001, 0.03, 0.5, 0.012, 0.04]
    m = len(p)
    ranked = sorted(p)
    expected = [min(1.0, min(m * ranked[k] / (k + 1) for k in range(m) if ranked[k] >= x)) for x in p]
    assert benjamini_hochberg(p) == pytest.approx(expected)
    assert benjamini_hochberg([0.2]) == [0.2]


def test_a_marginal_regression_among_many_metrics_does_not_stay_significant(tmp_path, capsys):
    steps = [100 + 2 * i for i in range(9)]  # medians 108 -> 115 (+6.5%), p about 0.02: significant alone
    flat = {(f"n={i}", "time_ms"): steps for i in range(30)}
    base = write_run(tmp_path / "base", {("cell=marginal", "time_ms"): steps, ("cell=clear", "time_ms"): noisy(100, 9, 0.01, 1),
                                         **flat})
    current = write_run(tmp_path / "cur", {("cell=marginal", "time_ms"): [x + 7 for x in steps],
                                           ("cell=clear", "time_ms"): noisy(130, 9, 0.01, 2), **flat})
    result, rows = compare(tmp_path, base, current, capsys=capsys)
    marginal, clear = rows[("cell=marginal", "time_ms")], rows[("cell=clear", "time_ms")]
    assert marginal["verdict"] == clear["verdict"] == "regressed" and result.returncode == 1
    assert float(marginal["p_value"]) < 0.05 <= float(marginal["q_value"])
    assert float(clear["q_value"]) < 0.05
    assert "Of the 2 regressions, **1 is still significant**" in result.stdout
