"""Growth classification on synthetic curves: the shapes, the fitted degree and base, noise, and
the verdict a curve gets from how it ended."""
import random

import pytest

from stallbench_lib.redos.curves import curves
from stallbench_lib.redos.growth import classify
from stallbench_lib.tidy import Row

EXP_LENGTHS = [12, 16, 20, 22, 24, 26, 28]
LONG_LENGTHS = [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000]


def noisy(values, spread, seed=7):
    rng = random.Random(seed)
    return [v * rng.uniform(1 - spread, 1 + spread) for v in values]


def test_exponential_base_two_like_the_seed():
    # The seed's x4 per 2 characters, on top of a fixed call cost.
    growth = classify(EXP_LENGTHS, [0.002 + 1e-3 * 2 ** (n - 12) for n in EXP_LENGTHS])
    assert growth.kind == "exponential"
    assert growth.base == pytest.approx(2.0, rel=0.05)
    assert growth.r2 > 0.99


def test_exponential_golden_ratio():
    lengths = [16, 20, 24, 28, 32, 36]
    growth = classify(lengths, [1e-4 * 1.618 ** n for n in lengths])
    assert growth.kind == "exponential" and growth.base == pytest.approx(1.618, rel=0.05)


def test_quadratic():
    growth = classify(LONG_LENGTHS, [0.001 + 1e-6 * n * n for n in LONG_LENGTHS])
    assert growth.kind == "polynomial" and growth.degree == pytest.approx(2.0, abs=0.15)


def test_quartic_is_polynomial_not_exponential():
    lengths = [16, 32, 64, 128, 256]
    growth = classify(lengths, [0.001 + 1e-9 * n ** 4 for n in lengths])
    assert growth.kind == "polynomial" and growth.degree == pytest.approx(4.0, abs=0.3)


def test_linear_with_call_overhead():
    lengths = [12, 16, 20, 24, 28, 32, 1024, 65536]
    assert classify(lengths, [1e-4 + 1e-8 * n for n in lengths]).kind == "linear"
    assert classify(LONG_LENGTHS, [0.0005 + 1e-5 * n for n in LONG_LENGTHS]).kind == "linear"


@pytest.mark.parametrize("seed", range(5))
def test_noisy_curves_keep_their_class(seed):
    linear = classify(LONG_LENGTHS, noisy([0.0005 + 1e-5 * n for n in LONG_LENGTHS], 0.3, seed))
    quadratic = classify(LONG_LENGTHS, noisy([1e-6 * n * n for n in LONG_LENGTHS], 0.3, seed))
    exponential = classify(EXP_LENGTHS, noisy([1e-3 * 2 ** (n - 12) for n in EXP_LENGTHS], 0.3, seed))
    assert linear.kind == "linear"
    assert quadratic.kind == "polynomial" and 1.7 < quadratic.degree < 2.3
    assert exponential.kind == "exponential" and 1.8 < exponential.base < 2.2


def test_flat_noise_is_linear_without_a_fit_quality():
    growth = classify(LONG_LENGTHS, noisy([1e-4] * len(LONG_LENGTHS), 0.4))
    assert growth.kind == "linear" and growth.r2 is None


def test_too_few_points():
    assert classify([20, 22], [1.0, 4.0]).kind == "unknown"


def _rows(engine, points, stop=None):
    rows = [Row("r", "regex", "match", f"engine={engine};length={n};pattern=p", 0, "match_ms", t, "ms", "ok", "")
            for n, t in points]
    if stop:
        n, status, detail = stop
        rows.append(Row("r", "regex", "match", f"engine={engine};length={n};pattern=p", 0, "match_ms", None, "ms",
                        status, detail))
    return rows


def test_verdict_from_how_the_curve_ended():
    exp = [(n, 1e-3 * 2 ** (n - 12)) for n in EXP_LENGTHS]
    found = curves(_rows("std", exp, (30, "timeout", "repetition 0 exceeded 1.05 s"))
                   + _rows("boost", exp[:2], (20, "guarded", "error_complexity: ..."))
                   + _rows("re2", [], (12, "rejected", "invalid escape sequence: \\1"))
                   + _rows("node", exp[:1], (16, "timeout", "repetition 0 exceeded 1.05 s")))
    assert found[("p", "std")].verdict == "exponential"
    assert found[("p", "std")].stop.length == 30
    assert found[("p", "boost")].verdict == "guarded"
    assert found[("p", "re2")].verdict == "rejected"
    assert found[("p", "node")].verdict == "timeout"
    assert "timeout at 30" in found[("p", "std")].describe()
