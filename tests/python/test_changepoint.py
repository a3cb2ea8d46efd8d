"""Change points on synthetic series, and the rank test against a brute-force oracle."""
import itertools
import math
import random

import pytest

from stallbench_lib.tracking import changepoint
from stallbench_lib.tracking.changepoint import detect
from stallbench_lib.tracking.ranktest import mann_whitney_p, smallest_p


def flat(n, seed, centre=100.0, sd=3.0):
    rng = random.Random(seed)
    return [rng.gauss(centre, sd) for _ in range(n)]


@pytest.mark.parametrize("seed", range(4))
def test_finds_a_step(seed):
    series = flat(15, seed) + flat(15, seed + 100, centre=112)
    found = detect(series, alpha=0.01)
    assert [c.index for c in found] == [15]
    assert found[0].after > found[0].before


def test_finds_two_steps_in_order():
    series = flat(12, 1) + flat(12, 2, centre=115) + flat(12, 3, centre=100)
    assert [c.index for c in detect(series, alpha=0.01)] == [12, 24]


@pytest.mark.parametrize("seed", range(8))
def test_no_false_step_in_flat_noise(seed):
    assert detect(flat(30, 1000 + seed), alpha=0.01) == []


def test_short_and_constant_series_have_none():
    assert detect([1.0, 2.0, 3.0]) == []
    assert detect([5.0] * 20) == []


def test_same_series_same_answer():
    series = flat(10, 7) + flat(10, 8, centre=108)
    assert detect(series) == detect(series)


def _oracle_p(x, y):
    """Two-sided exact permutation p-value of the rank-sum statistic, by enumeration."""
    values = list(x) + list(y)
    ranks = {v: sum(1 for w in values if w < v) + (sum(1 for w in values if w == v) + 1) / 2 for v in values}
    n1, n = len(x), len(values)
    centre = n1 * (n + 1) / 2
    observed = abs(sum(ranks[v] for v in x) - centre)
    splits = list(itertools.combinations(range(n), n1))
    extreme = sum(1 for s in splits if abs(sum(ranks[values[i]] for i in s) - centre) >= observed - 1e-9)
    return extreme / len(splits)


@pytest.mark.parametrize("x, y", [
    ([1, 2, 3], [4, 5, 6]),
    ([1, 4, 7, 9], [2, 3, 5, 6, 8]),
    ([10.5, 3.2, 8.8, 1.1, 7.7], [2.2, 9.9, 4.4, 6.6]),
    ([5, 6, 7, 8, 9, 10], [1, 2, 3, 4, 11, 12]),
])
def test_rank_test_matches_enumeration(x, y):
    assert mann_whitney_p(x, y) == pytest.approx(_oracle_p(x, y), rel=1e-9)


def test_rank_test_with_ties_is_close_to_enumeration():
    x, y = [1, 1, 2, 2, 3, 3, 4], [3, 4, 4, 5, 5, 6, 6]
    assert mann_whitney_p(x, y) == pytest.approx(_oracle_p(x, y), abs=0.01)


def test_smallest_p():
    assert smallest_p(3, 3) == pytest.approx(0.1)
    assert smallest_p(9, 9) == pytest.approx(2 / math.comb(18, 9))


def _every_permutation_p(values, observed_q, min_size, rng):
    """The permutation test without stopping early: all PERMUTATIONS shuffles, every time."""
    at_least = sum(changepoint._best_split(rng.permutation(values), min_size)[1] >= observed_q
                   for _ in range(changepoint.PERMUTATIONS))
    return (at_least + 1) / (changepoint.PERMUTATIONS + 1)


@pytest.mark.parametrize("seed", range(6))
def test_stopping_the_shuffles_early_gives_the_same_change_points(seed, monkeypatch):
    rng = random.Random(seed)
    series = flat(20, seed) + flat(rng.choice((10, 20)), seed + 50, centre=100 + rng.choice((0, 4, 8, 15)))
    for alpha in (0.01, 0.05):
        early = detect(series, alpha=alpha)
        with monkeypatch.context() as patched:
            patched.setattr(changepoint, "_significance", lambda v, q, m, r, a: _every_permutation_p(v, q, m, r))
            full = detect(series, alpha=alpha)
        assert [(c.index, c.p_value) for c in early] == [(c.index, c.p_value) for c in full]
