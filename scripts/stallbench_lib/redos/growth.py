"""How a match time grows with the input length: linear, polynomial (fitted degree) or exponential
(fitted base per character), with the fit's quality.

Two models are fitted to (length n, median ms t), both with a constant c for the fixed cost of a
call (which flattens the small lengths of every curve):

    power        t = c + a * n^k        degree k
    exponential  t = c + a * b^n        base b per character (the seed's x4 per 2 characters: b = 2)

For each c on a grid below the smallest time, log(t - c) is a straight line in log n (power) or in
n (exponential), fitted by least squares; the residuals are then measured on log t, so relative
errors count (a 1 ms miss at 1 s matters as little as 1 us at 1 ms) and the best c wins. The model
with the smaller residual wins, except that a degree above 8 is read as exponential (over the
short lengths an exponential can be measured at, n^12 and 1.6^n are hard to tell apart, and no
pattern worth a catalogue entry is a 12th-degree polynomial); R^2 is the winner's, on log t. A
curve that barely rises (max < 3 x min) is linear whatever the fit says.

numpy only: Debian's python3-scipy drags in Boost 1.74 (through pythran), which conflicts with
the Boost 1.81 packages the regex engines need."""
import math
from dataclasses import dataclass

import numpy as np

FLAT_RATIO = 3.0        # max/min time below which a curve is called flat (linear)
LINEAR_DEGREE = 1.5     # a fitted degree below this is linear
MIN_BASE = 1.01         # an exponential fit with a smaller base is not exponential
MAX_DEGREE = 8.0        # a fitted degree above this is an exponential seen over a short range
NOISY_R2 = 0.9          # below this the fit is flagged as poor
CONSTANT_GRID = [0.0, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995]  # c as a fraction of min t


@dataclass(frozen=True)
class Growth:
    kind: str                 # linear, polynomial, exponential, or unknown (fewer than 3 points)
    degree: float | None      # the power model's exponent
    base: float | None        # the exponential model's base per character
    r2: float | None          # of the chosen model, on log t
    points: int

    @property
    def noisy(self) -> bool:
        return self.r2 is not None and self.r2 < NOISY_R2

    def describe(self) -> str:
        if self.kind == "exponential":
            text = f"exponential, x{self.base:.2f} per char"
        elif self.kind == "polynomial":
            text = f"polynomial, degree {self.degree:.1f}"
        elif self.kind == "linear":
            text = "linear" if self.r2 is not None else "linear (flat)"
        else:
            return f"unknown ({self.points} points)"
        if self.r2 is not None:
            text += f" (R² {self.r2:.2f}{', poor fit' if self.noisy else ''})"
        return text


def _fit(x: np.ndarray, t: np.ndarray, use_constant: bool) -> tuple[float, float]:
    """Best (rss on log t, slope) of log(t - c) = intercept + slope * x over the grid of c."""
    log_t = np.log(t)
    best = (math.inf, 0.0)
    for fraction in CONSTANT_GRID if use_constant else [0.0]:
        c = fraction * float(t.min())
        slope, intercept = np.polyfit(x, np.log(t - c), 1)
        slope = max(float(slope), 0.0)  # times do not fall with length; a negative slope is noise
        predicted = np.log(c + np.exp(intercept + slope * x))
        rss = float(np.sum((predicted - log_t) ** 2))
        if rss < best[0]:
            best = (rss, slope)
    return best


def classify(lengths: list[int], times_ms: list[float]) -> Growth:
    """`lengths` ascending, `times_ms` their median times (all finished cells of one curve)."""
    points = len(lengths)
    if points < 3:
        return Growth("unknown", None, None, None, points)
    n = np.asarray(lengths, dtype=float)
    t = np.maximum(np.asarray(times_ms, dtype=float), 1e-9)
    use_constant = points >= 4  # a third parameter needs a fourth point
    rss_pow, degree = _fit(np.log(n), t, use_constant)
    rss_exp, beta = _fit(n, t, use_constant)
    base = math.exp(min(beta, 50.0))
    log_t = np.log(t)
    tss = float(np.sum((log_t - log_t.mean()) ** 2))

    def r2(rss):
        return 1 - rss / tss if tss > 0 else 1.0

    if t.max() < FLAT_RATIO * t.min():  # nothing to fit: R^2 would measure noise
        return Growth("linear", degree, base, None, points)
    if base >= MIN_BASE and (rss_exp < rss_pow or degree > MAX_DEGREE):
        return Growth("exponential", degree, base, r2(rss_exp), points)
    kind = "linear" if degree < LINEAR_DEGREE else "polynomial"
    return Growth(kind, degree, base, r2(rss_pow), points)
