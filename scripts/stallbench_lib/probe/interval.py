"""A 95% interval for the typical queue wait of one pool size, and for the difference between two
sizes, by a block bootstrap over one-second blocks. The input is the mean wait of each second of the
load (app_probe.per_second_means), every repetition's seconds pooled; the statistic is their median.

Why blocks: consecutive canaries see the same busy spell of the pool, so they are not independent
samples, and an interval that treated them as such would be far too narrow; resampling whole seconds
keeps that dependence. Why the median of the seconds rather than the mean of every canary: a shared
machine now and then stalls everything for a moment (measured here: one second of a sweep whose
canaries waited 36 ms on average at pool 8, where eight threads had nothing to queue behind, among
seconds of 0.2-1.6 ms), and one such second must not decide between pool sizes. The seed is fixed,
so the same samples always give the same interval, and so the same recommendation."""
import random
from dataclasses import dataclass

from ..medians import median

RESAMPLES = 2000
SEED = 20261202


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float
    seconds: int


def _resampled_medians(values: list[float], rng: random.Random) -> list[float]:
    return [median(rng.choices(values, k=len(values))) for _ in range(RESAMPLES)]


def _interval(estimate: float, resampled: list[float], seconds: int) -> Interval:
    ordered = sorted(resampled)
    return Interval(estimate, ordered[int(0.025 * RESAMPLES)], ordered[int(0.975 * RESAMPLES) - 1], seconds)


def median_interval(second_means: list[float]) -> Interval | None:
    """The median second's wait with its interval; None without samples."""
    if not second_means:
        return None
    return _interval(median(second_means), _resampled_medians(second_means, random.Random(SEED)),
                     len(second_means))


def difference_interval(a: list[float], b: list[float]) -> Interval | None:
    """The median second of `a` minus that of `b`, each resampled on its own (two runs of the program)."""
    if not a or not b:
        return None
    rng = random.Random(SEED)
    resampled = [x - y for x, y in zip(_resampled_medians(a, rng), _resampled_medians(b, rng))]
    return _interval(median(a) - median(b), resampled, min(len(a), len(b)))
