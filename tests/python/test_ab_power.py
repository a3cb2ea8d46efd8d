"""No verdict without power: a paired A/B whose rounds end before every gated metric could see its
minimum effect is `inconclusive` (exit 4), never a pass — on synthetic verdicts, and on real
processes between tiny builds where CURRENT does four times the work but the rounds are capped
below what any p-value under alpha needs (3 paired rounds cannot go below p = 0.25)."""
import json

import numpy as np

from conftest import BUILD, ROOT, stallbench
from stallbench_lib.tracking import ab_verdict, bisection, power
from stallbench_lib.tracking.comparison import Outcome
from stallbench_lib.tracking.samples import Sample

TINY = BUILD / "tests" / "tiny_bench"


def _measured(name, pairs, min_effect=5.0):
    key = ("fam", "bench", "n=1", name)
    base, current = (Sample("ms", [p[i] for p in pairs], {}) for i in (0, 1))
    return ab_verdict.measure(key, "ms", base, current, pairs, "lower", min_effect, 0.05)


def _decided(*comparisons):
    return ab_verdict.decide(list(comparisons), 0.05, []).comparisons


def test_too_few_rounds_for_any_p_under_alpha_is_blind_whatever_the_change():
    (slower,) = _decided(_measured("time_ms", [(100, 400)] * 4))  # 4x slower every round, 4 rounds
    assert slower.verdict == "noisy" and power.is_blind(slower, 0.05)
    record = power.blind([slower], 0.05)
    assert record["detectable_pct"] is None and record["rounds"] == 4
    assert "4 rounds cannot reach p < 0.05" in power.sentence(record)
    assert power.exit_code(False, record) == power.INCONCLUSIVE_EXIT not in (0, 1)


def test_a_spread_too_wide_for_the_minimum_effect_is_blind_and_says_what_it_could_see():
    rng = np.random.default_rng(3)
    wild = list(zip(100 * rng.lognormal(0, 0.4, 12), 100 * rng.lognormal(0, 0.4, 12)))
    steady = [(100.0 + i, 100.0 + i) for i in range(12)]
    wide, flat = _decided(_measured("wide_ms", wild), _measured("flat_ms", steady))
    by_name = {c.key[3]: c for c in (wide, flat)}
    assert by_name["flat_ms"].verdict == "unchanged" and not power.is_blind(by_name["flat_ms"], 0.05)
    assert by_name["wide_ms"].verdict == "noisy" and by_name["wide_ms"].detectable_pct > 5
    record = power.blind([wide, flat], 0.05)
    assert record["metrics"] == 1 and record["gated"] == 2 and record["worst"].endswith("/wide_ms")
    assert record["detectable_pct"] == round(by_name["wide_ms"].detectable_pct, 2)
    assert f"{record['detectable_pct']:+.1f}%" in power.sentence(record)


def test_a_regression_found_is_a_verdict_even_beside_a_blind_metric():
    assert power.exit_code(True, {"metrics": 1}) == 1 and power.verdict(True, {"metrics": 1}) == "regressed"
    assert power.exit_code(False, None) == 0 and power.verdict(False, None) == "passed"


def test_with_the_instructions_gate_a_counted_cells_wall_time_cannot_make_it_inconclusive():
    wall = _measured("time_ms", [(100, 400)] * 4)   # blind, but its cell is gated on its count
    count = _measured("instructions", [])
    count.verdict, wall.verdict = "unchanged", "noisy"
    outcome = Outcome([wall, count], [], 0.05)
    assert power.blind(ab_verdict.gated(outcome, True), 0.05) is None
    assert power.blind(ab_verdict.gated(outcome, False), 0.05)["worst"].endswith("/time_ms")


def test_a_bisect_whose_first_step_could_not_see_is_inconclusive_not_nothing_to_bisect():
    line = [bisection.Commit(c * 40, c) for c in "abc"]
    found = bisection.Bisection(line)
    found.confirm(bisection.Step(0, 2, line[2], bisection.NOISY))
    assert not found.confirmed and found.result == "inconclusive"
    cleared = bisection.Bisection(line)
    cleared.confirm(bisection.Step(0, 2, line[2], bisection.UNCHANGED))
    assert cleared.result == "nothing to bisect"


def _tiny_build(path):
    (path / "benches").mkdir(parents=True)
    (path / "benches" / "bench_tiny").symlink_to(TINY)
    return path


def test_a_known_regression_with_rounds_too_few_to_see_it_is_inconclusive(tmp_path):
    """CURRENT's loop does four times the work (+300%, the A/B knob); three rounds at most (the budget
    too short by construction, not by a clock) cannot give any p under 0.05."""
    base, current = _tiny_build(tmp_path / "a"), _tiny_build(tmp_path / "b")
    out = tmp_path / "ab"
    result = stallbench("ab", str(base), str(current), "--set", "n=2000000", "--node", "none", "--min-rounds", "3",
                        "--max-rounds", "3", "--inject", "tiny/sum:300", "--out", str(out))
    summary = json.loads((out / "ab.json").read_text())
    assert result.returncode == summary["exit"] == power.INCONCLUSIVE_EXIT, result.stderr
    assert summary["verdict"] == "inconclusive" and summary["counts"]["regressed"] == 0
    record = summary["inconclusive"]
    assert record["worst"].startswith("tiny/sum/") and record["rounds"] == 3 and record["detectable_pct"] is None
    first = (out / "ab.md").read_text().split("\n")[2]  # after the title: the verdict
    assert first.startswith("**inconclusive:") and "3 rounds cannot reach p < 0.05" in first and "exit 4" in first
    assert set(summary["time"]) == {"builds", "callgrind", "rounds"} and summary["time"]["callgrind"] == 0
    assert (ROOT / summary["current"]["run_dir"] / "results.csv").exists()
