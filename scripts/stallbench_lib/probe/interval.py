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


def mean_interval(second_means: list[float]) -> Interval | None:
    """None without samples; a single second gives an interval of one point."""
    if not second_means:
        return None
    rng = random.Random(SEED)
    n = len(second_means)
    means = sorted(sum(rng.choices(second_means, k=n)) / n for _ in range(RESAMPLES))
    return Interval(sum(second_means) / n, means[int(0.025 * RESAMPLES)], means[int(0.975 * RESAMPLES) - 1], n)
