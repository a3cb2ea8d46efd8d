"""Change points in a series of nightly values: E-divisive means (Matteson and James, 2014) with
its permutation test.

Why this and not the sliding-window t-test of Apache Otava / Hunter: Hunter keeps E-divisive's
search for the best split but replaces the permutation test with a t-test on that split. The
t-test's p-value ignores that the split was chosen as the best of all candidates, so Hunter needs
a very small threshold (0.001) to keep false steps out of flat noise, and with one median per
night a step can only reach that after about seven nights on each side. The permutation test
repeats the whole search on shuffled data, so its p-value already pays for the search and a
conventional threshold is honest; it also assumes nothing about the distribution (benchmark
timings are skewed and have outliers). Its cost is a few hundred searches of O(n^2) per change
point found, and a handful per series without one (the shuffles stop once "not significant" is
settled; see _significance); docs/tracking.md gives what a year of 700 series takes. The
permutations use a fixed seed, so the same history always gives the same change points. No Debian
package offers it (the R package ecp is not in Debian; Python's signal-processing-algorithms and
ruptures are not either), so it is written here with numpy.

The distance is |x - y| (E-divisive's alpha = 1). Splits leave at least `min_size` points on each
side (`history --min-segment`; history keeps outliers, runs off their level for fewer than that,
out of the series it gives here: outliers.py). After a significant split both halves are searched again (binary segmentation) until the
best candidate left is not significant."""
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..medians import median

PERMUTATIONS = 499
SEED = 20140101  # fixed: the same series always gives the same answer


@dataclass(frozen=True)
class ChangePoint:
    index: int          # the first point after the change
    p_value: float      # permutation test of the split that found it
    before: float       # median of the segment before
    after: float        # median of the segment after

    @property
    def change_pct(self) -> float | None:
        return (self.after / self.before - 1) * 100 if self.before else None


@lru_cache(maxsize=64)
def _grid(n: int, min_size: int):
    """Every usable split (tau, kappa) of n points and the weights of Q at it, computed once per
    length. With m = tau and k = kappa - tau, Q = m*k/(m+k) * (2*between/(m*k) - within_left/(m*(m-1))
    - within_right/(k*(k-1))), where, in the prefix sums P of the distance matrix, between =
    P[tau, kappa] - P[tau, tau], within_left = P[tau, tau] and within_right = P[kappa, kappa] -
    2*P[tau, kappa] + P[tau, tau]; gathered, Q = a*P[tau, kappa] - b*P[tau, tau] - c*P[kappa, kappa]."""
    tau, kappa = np.indices((n + 1, n + 1)).reshape(2, -1)
    usable = (tau >= min_size) & (kappa - tau >= min_size)
    tau, kappa = tau[usable], kappa[usable]
    m, k = tau.astype(float), (kappa - tau).astype(float)
    between, left, right = 2 / (m + k), k / ((m + k) * (m - 1)), m / ((m + k) * (k - 1))
    return tau, kappa, tau * (n + 1) + kappa, between + 2 * right, between + left + right, right


def _best_split(values: np.ndarray, min_size: int) -> tuple[int, float]:
    """The split tau that maximises the energy statistic between [0, tau) and [tau, kappa), over
    every end kappa (Matteson and James's Q(tau, kappa): the free end lets a change that is later
    undone, a regression and its fix, stand out against the segment before it)."""
    n = len(values)
    tau, kappa, flat, a, b, c = _grid(n, min_size)
    prefix = np.zeros((n + 1, n + 1))
    np.cumsum(np.abs(values[:, None] - values[None, :]), axis=0, out=prefix[1:, 1:])
    np.cumsum(prefix[1:, 1:], axis=1, out=prefix[1:, 1:])
    diagonal = np.diagonal(prefix)
    q = a * prefix.ravel()[flat] - b * diagonal[tau] - c * diagonal[kappa]
    best = int(np.argmax(q))
    return int(tau[best]), float(q[best])


def _significance(values: np.ndarray, observed_q: float, min_size: int, rng: np.random.Generator,
                  alpha: float) -> float:
    """The share of shuffled copies whose best split is at least as strong (with the +1 that keeps
    a permutation p-value from being 0). Stops as soon as the answer to "p < alpha?" is settled
    (Besag and Clifford's sequential Monte Carlo test): once enough shuffles have beaten the split,
    p cannot come back under alpha, and the p returned is then a lower bound. Flat series, most of
    a history, are settled after a handful of shuffles; a significant split still takes all of
    them, and the shuffles come from the same seeded stream, so verdicts and p-values are those of
    the full test."""
    at_least = 0
    for _ in range(PERMUTATIONS):
        _, q = _best_split(rng.permutation(values), min_size)
        at_least += q >= observed_q
        if (at_least + 1) / (PERMUTATIONS + 1) >= alpha:  # the test in detect(): settled as not significant
            break
    return (at_least + 1) / (PERMUTATIONS + 1)


def detect(series: list[float], alpha: float = 0.05, min_size: int = 3) -> list[ChangePoint]:
    """Change points of `series`, in order."""
    values = np.asarray(series, dtype=float)
    rng = np.random.default_rng(SEED)
    segments = [(0, len(values))]
    found = []
    while True:
        candidates = []
        for start, end in segments:
            if end - start < 2 * min_size or np.ptp(values[start:end]) == 0:
                continue
            part = values[start:end]
            tau, q = _best_split(part, min_size)
            candidates.append((q, start, end, tau))
        if not candidates:
            break
        q, start, end, tau = max(candidates)
        p = _significance(values[start:end], q, min_size, rng, alpha)
        if p >= alpha:
            break
        split = start + tau
        found.append(ChangePoint(split, p, median(values[start:split]), median(values[split:end])))
        segments.remove((start, end))
        segments += [(start, split), (split, end)]
    return sorted(found, key=lambda c: c.index)
