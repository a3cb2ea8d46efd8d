"""Change points in a series of nightly values: E-divisive means (Matteson and James, 2014) with
its permutation test.

Why this and not the sliding-window t-test of Apache Otava / Hunter: Hunter keeps E-divisive's
search for the best split but replaces the permutation test with a t-test on that split. The
t-test's p-value ignores that the split was chosen as the best of all candidates, so Hunter needs
a very small threshold (0.001) to keep false steps out of flat noise, and with one median per
night a step can only reach that after about seven nights on each side. The permutation test
repeats the whole search on shuffled data, so its p-value already pays for the search and a
conventional threshold is honest; it also assumes nothing about the distribution (benchmark
timings are skewed and have outliers). Its cost, a few hundred searches of O(n^2), is nothing for
series of nightly runs. The permutations use a fixed seed, so the same history always gives the
same change points. No Debian package offers it (the R package ecp is not in Debian; Python's
signal-processing-algorithms and ruptures are not either), so it is written here with numpy.

The distance is |x - y| (E-divisive's alpha = 1). Splits leave at least `min_size` points on each
side. After a significant split both halves are searched again (binary segmentation) until the
best candidate left is not significant."""
from dataclasses import dataclass

import numpy as np

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


def _best_split(distances: np.ndarray, min_size: int) -> tuple[int, float]:
    """The split tau that maximises the energy statistic between [0, tau) and [tau, kappa), over
    every end kappa (Matteson and James's Q(tau, kappa): the free end lets a change that is later
    undone, a regression and its fix, stand out against the segment before it):
    Q = m*k/(m+k) * (2*mean between - mean within left - mean within right)."""
    n = distances.shape[0]
    prefix = np.zeros((n + 1, n + 1))
    prefix[1:, 1:] = distances.cumsum(0).cumsum(1)
    tau, kappa = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    usable = (tau >= min_size) & (kappa - tau >= min_size)
    tau, kappa = tau[usable], kappa[usable]
    m, k = tau.astype(float), (kappa - tau).astype(float)
    within_left = prefix[tau, tau]
    between = prefix[tau, kappa] - within_left
    within_right = prefix[kappa, kappa] - 2 * prefix[tau, kappa] + within_left
    energy = 2 * between / (m * k) - within_left / (m * (m - 1)) - within_right / (k * (k - 1))
    q = m * k / (m + k) * energy
    best = int(np.argmax(q))
    return int(tau[best]), float(q[best])


def _significance(values: np.ndarray, observed_q: float, min_size: int, rng: np.random.Generator) -> float:
    """The share of shuffled copies whose best split is at least as strong (with the +1 that keeps
    a permutation p-value from being 0)."""
    at_least = 0
    for _ in range(PERMUTATIONS):
        shuffled = rng.permutation(values)
        _, q = _best_split(np.abs(shuffled[:, None] - shuffled[None, :]), min_size)
        at_least += q >= observed_q
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
            tau, q = _best_split(np.abs(part[:, None] - part[None, :]), min_size)
            candidates.append((q, start, end, tau))
        if not candidates:
            break
        q, start, end, tau = max(candidates)
        p = _significance(values[start:end], q, min_size, rng)
        if p >= alpha:
            break
        split = start + tau
        found.append(ChangePoint(split, p, float(np.median(values[start:split])), float(np.median(values[split:end]))))
        segments.remove((start, end))
        segments += [(start, split), (split, end)]
    return sorted(found, key=lambda c: c.index)
