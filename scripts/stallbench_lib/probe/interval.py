"""A 95% interval for the mean queue wait, by a block bootstrap over one-second blocks: the input is
the mean wait of each second of the load (app_probe.per_second_means), every repetition's seconds
pooled. Consecutive canaries see the same busy spell of the pool, so they are not independent
samples, and an interval that treated them as such would be far too narrow; resampling whole
seconds keeps that dependence. The seed is fixed, so the same samples always give the same interval
(and so the same recommendation)."""
import random
from dataclasses import dataclass

RESAMPLES = 2000
SEED = 20261202


@dataclass(frozen=True)
class Interval:
    mean: float
    low: float
    high: float
    seconds: int


def _resampled_means(values: list[float], rng: random.Random) -> list[float]:
    n = len(values)
    return [sum(rng.choices(values, k=n)) / n for _ in range(RESAMPLES)]


def _interval(estimate: float, resampled: list[float], seconds: int) -> Interval:
    ordered = sorted(resampled)
    return Interval(estimate, ordered[int(0.025 * RESAMPLES)], ordered[int(0.975 * RESAMPLES) - 1], seconds)


def mean_interval(second_means: list[float]) -> Interval | None:
    """None without samples; a single second gives an interval of one point."""
    if not second_means:
        return None
    return _interval(sum(second_means) / len(second_means), _resampled_means(second_means, random.Random(SEED)),
                     len(second_means))


def difference_interval(a: list[float], b: list[float]) -> Interval | None:
    """The mean of `a` minus the mean of `b`, each resampled on its own (two runs of the program)."""
    if not a or not b:
        return None
    rng = random.Random(SEED)
    resampled = [x - y for x, y in zip(_resampled_means(a, rng), _resampled_means(b, rng))]
    return _interval(sum(a) / len(a) - sum(b) / len(b), resampled, min(len(a), len(b)))
