"""The Mann-Whitney U test (two-sided), and how spread a sample is.

Written here rather than taken from scipy: Debian 12's python3-scipy depends on python3-pythran,
which pulls in Boost 1.74's headers, and those conflict with the Boost 1.81 packages other
families need, so apt cannot install both. The method is scipy.stats.mannwhitneyu's
`method="auto"`: the exact null distribution when there are no ties and both samples are small,
else the normal approximation with tie and continuity corrections."""
import math
import statistics
from functools import lru_cache

from ..medians import median

EXACT_LIMIT = 20  # both samples at most this long and no ties: exact distribution


@lru_cache(maxsize=None)
def _u_counts(n1: int, n2: int) -> tuple[int, ...]:
    """How many of the C(n1+n2, n1) orderings give U = 0, 1, ..., n1*n2 (for the first sample)."""
    if n1 == 0 or n2 == 0:
        return (1,)
    # The largest value belongs to sample 1 (it beats all n2 of sample 2) or to sample 2.
    with_first = _u_counts(n1 - 1, n2)
    with_second = _u_counts(n1, n2 - 1)
    counts = [0] * (n1 * n2 + 1)
    for u, c in enumerate(with_first):
        counts[u + n2] += c
    for u, c in enumerate(with_second):
        counts[u] += c
    return tuple(counts)


def _ranks(values: list[float]) -> list[float]:
    """1-based ranks, ties given the mean of the ranks they span."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def mann_whitney_p(x: list[float], y: list[float]) -> float:
    """Two-sided p-value of the hypothesis that x and y come from one distribution."""
    n1, n2 = len(x), len(y)
    if n1 == 0 or n2 == 0:
        raise ValueError("both samples need at least one value")
    combined = list(x) + list(y)
    ranks = _ranks(combined)
    u1 = sum(ranks[:n1]) - n1 * (n1 + 1) / 2
    u = max(u1, n1 * n2 - u1)
    tied = len(set(combined)) < len(combined)
    if not tied and max(n1, n2) <= EXACT_LIMIT:
        counts = _u_counts(n1, n2)
        at_least = sum(counts[math.ceil(u):])
        return min(1.0, 2 * at_least / math.comb(n1 + n2, n1))
    n = n1 + n2
    tie_term = sum(t ** 3 - t for t in (combined.count(v) for v in set(combined)))
    variance = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)))
    if variance <= 0:
        return 1.0
    z = (u - n1 * n2 / 2 - 0.5) / math.sqrt(variance)
    return min(1.0, math.erfc(max(z, 0) / math.sqrt(2)))


def benjamini_hochberg(p_values: list[float]) -> list[float]:
    """Each p-value adjusted for the number tested (Benjamini-Hochberg q-values, in the same order):
    among the comparisons with q < alpha, at most a share alpha are expected to be false. One run
    tests hundreds of metrics, so at p < 0.05 some come out significant by chance alone."""
    m = len(p_values)
    order = sorted(range(m), key=p_values.__getitem__)
    q = [1.0] * m
    smallest_after = 1.0
    for rank in range(m, 0, -1):  # from the largest p down, so q never exceeds a larger p's q
        i = order[rank - 1]
        smallest_after = min(smallest_after, p_values[i] * m / rank)
        q[i] = smallest_after
    return q


def smallest_p(n1: int, n2: int) -> float:
    """The smallest two-sided p-value any data of these sizes can give: when it is above alpha,
    no difference can be called significant, however large."""
    return min(1.0, 2 / math.comb(n1 + n2, n1))


def robust_cv(values: list[float]) -> float | None:
    """Spread relative to the median, robust to a stray repetition: 1.4826 * MAD / median (equal to
    the standard deviation over the mean for normal data)."""
    if len(values) < 2:
        return None
    centre = median(values)
    if centre == 0:
        return None
    mad = median(abs(v - centre) for v in values)
    return 1.4826 * mad / abs(centre)


def detectable_effect(cv: float, n1: int, n2: int, alpha: float = 0.05, power: float = 0.8) -> float:
    """The smallest relative change a two-sided test at `alpha` finds with this `power`, for two
    samples of these sizes with this spread (normal approximation; the rank test's efficiency
    relative to the t-test, about 0.95, changes this by under 3%)."""
    z = statistics.NormalDist().inv_cdf(1 - alpha / 2) + statistics.NormalDist().inv_cdf(power)
    return z * cv * math.sqrt(1 / n1 + 1 / n2)
