"""How a match time grows with the input length: linear, polynomial (fitted degree) or exponential
(fitted base per character), with the fit's quality, fitted over the top of the curve.

The length is the pumped length (curves.py subtracts the attack's fixed prefix and suffix: behind a
53-byte prefix, lengths 57 to 81 are 4 to 28 pumped bytes, a 7x range, not 1.4x). Engines change
regime: PCRE2 answers near-instantly up to a few thousand bytes, then grows. So the fit starts
where the curve stops being flat (its longest flat beginning, max < 3 x min, is the first regime,
reported with the last length before growth starts) and keeps the top two decades of what is left:
the growth a longer input would meet. A growing verdict must also hold for the median of the
pairwise slopes (Theil-Sen, on log time against log length), which one outlying point or one step
cannot move: V8's node-linear switching to its slower linear engine at the longest length is a
step (reported with where it happened and how high), not a polynomial.

Two models are fitted to (length n, median ms t), both with a constant c for the fixed cost of a
call (which flattens the small lengths of every curve; at most the curve's shortest time):

    power        t = c + a * n^k        degree k
    exponential  t = c + a * b^n        base b per character (the seed's x4 per 2 characters: b = 2)

For each c on a grid below the smallest time, log(t - c) is a straight line in log n (power) or in
n (exponential), fitted by least squares; the residuals are then measured on log t, so relative
errors count (a 1 ms miss at 1 s matters as little as 1 us at 1 ms) and the best c wins. A power fit
of degree above 8 is read as exponential (over the short lengths an exponential can be measured at,
n^12 and 1.6^n are hard to tell apart, and no pattern worth a catalogue entry is a 12th-degree
polynomial). Otherwise the exponential wins only with EXP_POINTS points at least and a residual
under EXP_MARGIN times the power fit's: over a narrow range of lengths the two fit noisy points
alike, and a polynomial read as "exp x1.02" (Java's curves, repeated-dot-star's degree 4 as x1.17)
misleads; R^2 is the winner's, on log t. A
curve that barely rises (max < 3 x min) is linear whatever the fit says.

numpy only: Debian's python3-scipy drags in Boost 1.74 (through pythran), which conflicts with
the Boost 1.81 packages the regex engines need."""
import math
from dataclasses import dataclass

import numpy as np

from ...medians import median

FLAT_RATIO = 3.0        # max/min time below which a curve (or its first regime) is called flat
TOP_DECADES = 2.0       # the fit keeps lengths within this many decades of the longest
LINEAR_DEGREE = 1.5     # a fitted degree below this is linear
MIN_BASE = 1.01         # an exponential fit with a smaller base is not exponential
MAX_DEGREE = 8.0        # a fitted degree above this is an exponential seen over a short range
NOISY_R2 = 0.9          # below this the fit is flagged as poor
STEP_SLOPE = 3.0        # a local log-log slope above this in a linear curve is a step,
STEP_RATIO = 10.0       # when the time also jumps this many times (not noise between close lengths)
MIN_GROWTH_POINTS = 3   # points past a turn that a degree or a base is read from
EXP_POINTS = 5          # points an exponential is told from a polynomial with (below a degree of MAX_DEGREE)
NOISE_MS = 0.01         # a curve whose every time is below this is the timer's and the machine's noise: linear
WIDE_SEGMENT = 4.0      # a last segment over this many times of length that rises as a power of
WIDE_DEGREE = 2.0       # this at least (and by STEP_RATIO) is growth, whatever the median says; a gentler
                        # rise there is a linear engine changing regime (Go: 0.69 ms at 2,063 bytes,
                        # 256 ms at 65,551, its backtracker giving way to its NFA: a power of 1.7)
EXP_MARGIN = 0.5        # ... when its residual is under this fraction of the power fit's
CONSTANT_GRID = [0.0, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995]  # c as a fraction of min t


@dataclass(frozen=True)
class Growth:
    kind: str                 # linear, polynomial, exponential, growing (too few points past a turn), or unknown
                              # (fewer than 3 points)
    degree: float | None      # the power model's exponent
    base: float | None        # the exponential model's base per character
    r2: float | None          # of the chosen model, on log t
    points: int
    flat_until: int | None = None    # the first regime: flat up to this length, growth after it
    flat_ms: float | None = None     # the flat regime's level (its median time)
    fitted_span: float | None = None  # longest / shortest length of the points fitted
    step_at: int | None = None       # a linear curve's largest jump: the length after it
    step_ratio: float | None = None  # and how many times slower it got there
    median_slope: float | None = None  # set when the least-squares fit was overruled (Theil-Sen degree)
    growth_from: int = 0             # index of the first point past a turn (0: no turn)

    @property
    def noisy(self) -> bool:
        return self.r2 is not None and self.r2 < NOISY_R2

    def describe(self) -> str:
        if self.kind == "exponential":
            text = f"exponential, x{self.base:.2f} per char"
        elif self.kind == "polynomial":
            text = f"polynomial, degree {self.degree:.1f}"
        elif self.kind == "linear" and self.median_slope is not None:
            text = f"linear (median slope {self.median_slope:.2f})"
        elif self.kind == "linear":
            text = "linear" if self.r2 is not None else "linear (flat)"
        elif self.kind == "growing":
            return (f"growing: {self.points - self.growth_from} point{'s' * (self.points - self.growth_from > 1)} past the "
                    f"turn, too few to read a degree or a base from (at least {MIN_GROWTH_POINTS})")
        else:
            return f"unknown ({self.points} points)"
        if self.r2 is not None:
            text += f" (R² {self.r2:.2f}{', poor fit' if self.noisy else ''})"
        if self.kind == "polynomial" and self.fitted_span is not None and self.fitted_span < 10:
            text += f" over a narrow range ({self.fitted_span:.1f}x)"
        if self.step_at is not None:
            text += f", with a step: x{self.step_ratio:.0f} at {self.step_at:,}"
        return text

    def regime_text(self, offset: int = 0) -> str:
        """'flat (~3.1 µs) up to 4,096, then ' when the curve changed regime; lengths shifted by offset."""
        if self.flat_until is None:
            return ""
        return f"flat (~{self.flat_ms:.3g} ms) up to {self.flat_until + offset:,}, then "


def _fit(x: np.ndarray, t: np.ndarray, call_ms: float) -> tuple[float, float]:
    """Best (rss on log t, slope) of log(t - c) = intercept + slope * x over the grid of c, a
    fraction of `call_ms` (0: no constant)."""
    log_t = np.log(t)
    best = (math.inf, 0.0)
    for fraction in CONSTANT_GRID if call_ms > 0 else [0.0]:
        c = fraction * call_ms
        slope, intercept = np.polyfit(x, np.log(t - c), 1)
        slope = max(float(slope), 0.0)  # times do not fall with length; a negative slope is noise
        predicted = np.log(c + np.exp(intercept + slope * x))
        rss = float(np.sum((predicted - log_t) ** 2))
        if rss < best[0]:
            best = (rss, slope)
    return best


def _median_slope(x: np.ndarray, y: np.ndarray) -> float:
    """Theil-Sen: the median of the slopes between every pair of points."""
    i, j = np.triu_indices(len(x), k=1)
    return median((y[j] - y[i]) / (x[j] - x[i]))


def _flat_end(t: np.ndarray) -> int:
    """Index of the last point of the curve's longest flat beginning."""
    end = 0
    while end + 1 < len(t) and t[:end + 2].max() < FLAT_RATIO * t[:end + 2].min():
        end += 1
    return end


def _growth_start(t: np.ndarray) -> int:
    """Index where the fitted part begins: after a flat first regime of two points or more; else 0."""
    flat_end = _flat_end(t)
    return flat_end + 1 if flat_end >= 1 else 0


def _step(log_n: np.ndarray, log_t: np.ndarray) -> dict:
    """A linear curve's largest jump between neighbours, when it is a step: where and how high."""
    jumps = np.diff(log_t) / np.diff(log_n)
    at = int(np.argmax(jumps)) + 1
    ratio = float(np.exp(log_t[at] - log_t[at - 1]))
    if jumps.max() <= STEP_SLOPE or ratio < STEP_RATIO:
        return {}
    return {"step_at": int(round(np.exp(log_n[at]))), "step_ratio": ratio}


def _grows_at_the_end(n: np.ndarray, t: np.ndarray) -> bool:
    """A last segment over a wide span of lengths whose rise is a power between WIDE_DEGREE and
    STEP_SLOPE and at least STEP_RATIO times: the curve grows there (one point past the turn); a
    step is steeper over a short span (V8 switching engines between 32,761 and 65,529 bytes)."""
    span, rise = n[-1] / n[-2], t[-1] / t[-2]
    slope = math.log(rise) / math.log(span) if span > 1 and rise > 0 else 0.0
    return span >= WIDE_SEGMENT and rise >= STEP_RATIO and WIDE_DEGREE <= slope <= STEP_SLOPE


def classify(lengths: list[int], times_ms: list[float]) -> Growth:
    """`lengths` ascending (pumped lengths), `times_ms` their median times (all finished cells of
    one curve)."""
    points = len(lengths)
    if points < 3:
        return Growth("unknown", None, None, None, points)
    n_all = np.asarray(lengths, dtype=float)
    # A longer input does not take less time; load and warm-up only add it. Each time is therefore at
    # most the fastest at any longer length: a slow first match (Java's JIT, 0.10 ms at 10 bytes
    # before 0.03 ms at 14) once made every pair of short points look flat and a curve that rose
    # x2,700 over 24x of lengths read linear.
    measured = np.maximum(np.asarray(times_ms, dtype=float), 1e-9)
    t_all = np.minimum.accumulate(measured[::-1])[::-1]
    if t_all.max() < FLAT_RATIO * t_all.min() or t_all.max() < NOISE_MS:  # nothing to fit: R^2 would measure noise
        return Growth("linear", None, None, None, points)
    start = _growth_start(t_all)
    regime = {"flat_until": int(n_all[start - 1]), "flat_ms": median(measured[:start])} if start else {}
    if start and points - start < MIN_GROWTH_POINTS:
        # Past the turn too few points for a degree: its slope from the last flat point says whether
        # the curve grows faster than the input at all.
        slope = _median_slope(np.log(n_all[start - 1:]), np.log(t_all[start - 1:]))
        if slope < LINEAR_DEGREE:
            return Growth("linear", None, None, None, points, median_slope=slope)
        return Growth("growing", None, None, None, points, **regime, growth_from=start)
    segment_log_n, segment_log_t = np.log(n_all[start:]), np.log(t_all[start:])
    median_slope = _median_slope(segment_log_n, segment_log_t)
    keep = np.arange(points) >= start
    top = keep & (n_all >= n_all.max() / 10 ** TOP_DECADES)
    n, t = (n_all[top], t_all[top]) if top.sum() >= 3 else (n_all[keep], t_all[keep])
    span = float(n.max() / n.min())
    # The constant is the fixed cost of a call, so it is at most the curve's shortest time, not the
    # fitted part's: past a turn from 45 ns, four points of PCRE2's quadratic (12 to 450 ms, 1.5x
    # apart at load) took c = 0.99 x 12 ms and read degree 3.2 at R^2 1.00.
    call_ms = float(t_all[0]) if len(n) >= 4 else 0.0  # a third parameter needs a fourth point
    rss_pow, degree = _fit(np.log(n), t, call_ms)
    rss_exp, beta = _fit(n, t, call_ms)
    base = math.exp(min(beta, 50.0))
    log_t = np.log(t)
    tss = float(np.sum((log_t - log_t.mean()) ** 2))

    def r2(rss):
        return 1 - rss / tss if tss > 0 else 1.0

    if median_slope < LINEAR_DEGREE:
        if _grows_at_the_end(n_all, t_all):  # Java's 0.1 ms at 42 bytes, then 290 ms at 1,026: growth
            return Growth("growing", None, None, None, points, flat_until=int(n_all[-2]),
                          flat_ms=median(measured[:-1]), growth_from=points - 1)
        return Growth("linear", degree, base, None, points, fitted_span=span, median_slope=median_slope,
                      **_step(segment_log_n, segment_log_t))  # the rise is one point or one step
    clearly_exponential = len(n) >= EXP_POINTS and rss_exp < EXP_MARGIN * rss_pow
    if base >= MIN_BASE and (degree > MAX_DEGREE or clearly_exponential):
        return Growth("exponential", degree, base, r2(rss_exp), points, **regime, fitted_span=span, growth_from=start)
    if degree < LINEAR_DEGREE:
        return Growth("linear", degree, base, r2(rss_pow), points, fitted_span=span)
    return Growth("polynomial", degree, base, r2(rss_pow), points, **regime, fitted_span=span, growth_from=start)
