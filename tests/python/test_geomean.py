"""The one summary number: geometric means per family and overall, directions applied, against a
hand computation; the paired interval from the rounds; the line in compare's output."""
import math

import numpy as np
import pytest

from stallbench_lib.tracking import ab_verdict, geomean
from stallbench_lib.tracking.changepoint import ChangePoint
from stallbench_lib.tracking.series import Point, Series
from stallbench_lib.tracking.samples import Sample
from stallbench_lib.tracking.verdict import Comparison
from test_compare import CELL, compare
from synthetic_runs import noisy, write_run


def _comparison(family, metric, ratio, better="lower", kind=""):
    return Comparison((family, "bench", "n=1", metric), "ms", better, 5, 5, 1.0, ratio, ratio,
                      None if ratio is None else (ratio - 1) * 100, 0.5, 1.0, 1.0, 5.0, "unchanged", kind, "")


def test_geomean_per_family_and_overall_is_the_hand_computation():
    comparisons = [
        _comparison("a", "time_ms", 1.10),
        _comparison("a", "ops_per_s", 0.80, better="higher"),  # 20% fewer per second: worse by 1/0.8 = 1.25
        _comparison("b", "time_ms", 0.90),
        _comparison("b", "p99_ms", None, kind="became timeout"),  # a failure has no ratio: the table says it
        _comparison("b", "instructions", 2.0),  # counted apart: a CPU-bound cell would count twice
    ]
    summary = geomean.summarise(comparisons)
    assert summary["overall"].ratio == pytest.approx((1.10 * 1.25 * 0.90) ** (1 / 3))
    assert summary["overall"].metrics == 3
    assert summary["families"]["a"].ratio == pytest.approx(math.sqrt(1.10 * 1.25))
    assert summary["families"]["b"].ratio == pytest.approx(0.90)
    assert summary["families"]["b"].change_pct == pytest.approx(-10.0)
    assert summary["overall"].ci_low_pct is None  # independent samples: no interval claimed
    counted = geomean.summarise(comparisons, instructions=True)
    assert counted["overall"].ratio == pytest.approx(2.0) and counted["overall"].metrics == 1
    assert geomean.summarise([_comparison("a", "time_ms", None, kind="still crashed")]) == {}


def _paired(key, rounds, better="lower"):
    base = Sample("ms", [b for b, _ in rounds], {})
    current = Sample("ms", [c for _, c in rounds], {})
    return ab_verdict.measure(key, "ms", base, current, rounds, better, 5.0, 0.05)


def test_the_paired_geomean_is_the_mean_of_the_table_estimates_and_its_interval_holds_it():
    rng = np.random.default_rng(7)
    slower = [(b, b * 1.2 * math.exp(rng.normal(0, 0.02))) for b in rng.uniform(90, 110, 12)]
    faster_is_worse = [(b, b / 1.1 * math.exp(rng.normal(0, 0.02))) for b in rng.uniform(90, 110, 12)]
    steady = [(b, b) for b in rng.uniform(90, 110, 12)]
    rounds = {("a", "x", "n=1", "time_ms"): slower, ("a", "x", "n=1", "ops_per_s"): faster_is_worse,
              ("b", "y", "n=1", "time_ms"): steady}
    comparisons = [_paired(k, v, "higher" if k[3] == "ops_per_s" else "lower") for k, v in rounds.items()]
    summary = geomean.summarise_paired(comparisons, rounds, seed=1)
    logs = [math.log(comparisons[0].ratio), -math.log(comparisons[1].ratio), math.log(comparisons[2].ratio)]
    overall = summary["overall"]
    assert overall.ratio == pytest.approx(math.exp(sum(logs) / 3)) and overall.metrics == 3
    assert overall.ci_low_pct <= overall.change_pct <= overall.ci_high_pct
    a = summary["families"]["a"]
    assert 0 < a.ci_low_pct <= a.change_pct <= a.ci_high_pct  # both of a's metrics got worse, every round
    b = summary["families"]["b"]
    assert b.ci_low_pct == b.change_pct == b.ci_high_pct == 0  # no change in any round: nothing to draw
    assert geomean.summarise_paired(comparisons, rounds, seed=1) == summary  # the seed makes it repeatable


def test_compare_prints_the_geomean_of_its_metrics(tmp_path, capsys):
    base = write_run(tmp_path / "base", {(CELL, "time_ms"): noisy(100, 9, 0.01, 1),
                                         ("n=2", "time_ms"): noisy(100, 9, 0.01, 3)})
    current = write_run(tmp_path / "cur", {(CELL, "time_ms"): noisy(120, 9, 0.01, 2),
                                           ("n=2", "time_ms"): noisy(100, 9, 0.01, 4)})
    result, rows = compare(tmp_path, base, current, capsys=capsys)
    ratios = [float(rows[(p, "time_ms")]["ratio"]) for p in (CELL, "n=2")]
    expected = math.sqrt(ratios[0] * ratios[1])
    overall = next(line for line in result.stdout.splitlines() if line.startswith("| **overall**"))
    assert f"{expected:.4f}" in overall and f"{(expected - 1) * 100:+.2f}%" in overall


def _series(family, metric, medians, better="lower", change_at=None):
    s = Series((family, "bench", "n=1", metric), "ms", better, 5.0)
    s.points = [Point(None, [m]) for m in medians]
    if change_at is not None:
        s.change_points = [ChangePoint(change_at, 0.001, medians[change_at - 1], medians[change_at])]
    return s


def test_historys_geomean_is_the_last_run_against_its_current_segment():
    series = [
        _series("a", "time_ms", [100, 101, 99, 110]),                    # 110 / median(100, 101, 99) = 1.1089
        _series("a", "ops_per_s", [50, 50, 40, 40, 40, 32], "higher", change_at=2),  # against 40 (the new level)
        _series("b", "time_ms", [7]),                                    # one night: nothing to compare with
    ]
    summary = geomean.of_last_run(series)
    expected = [110 / 100, 40 / 32]
    assert summary["overall"].ratio == pytest.approx(math.sqrt(expected[0] * expected[1]))
    assert summary["overall"].metrics == 2 and list(summary["families"]) == ["a"]
