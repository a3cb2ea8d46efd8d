"""One cell's metric, BASE against CURRENT: medians, ratio, Mann-Whitney p-value, spread, and a
verdict, exactly one of `improved`, `regressed`, `unchanged`, `noisy`.

- A cell whose repetitions newly failed (timeout, crashed, rejected, guarded, error) is
  `regressed`, its `kind` saying what it became; one that failed and no longer does is `improved`.
- Fewer repetitions than can reach `alpha` at all (two against two, three against three): `noisy`.
- p < alpha and a change of at least the minimum effect in the worse direction: `regressed`; in
  the better direction: `improved`. p < alpha with a smaller change: `unchanged` (real but too
  small to matter).
- p >= alpha: `noisy` when the change reaches the minimum effect or the spread is too large to
  have seen a change of that size (the detectable effect exceeds it); `unchanged` otherwise."""
from dataclasses import dataclass

from ..medians import median
from .ranktest import detectable_effect, mann_whitney_p, robust_cv, smallest_p
from .samples import Key, Sample

VERDICTS = ("regressed", "noisy", "unchanged", "improved")  # worst first
DEFAULT_MIN_EFFECT_PCT = 5.0
DEFAULT_ALPHA = 0.05


@dataclass
class Comparison:
    key: Key
    unit: str
    better: str
    base_n: int
    current_n: int
    base_median: float | None
    current_median: float | None
    ratio: float | None         # current median / base median
    change_pct: float | None    # (ratio - 1) * 100, signed
    p_value: float | None
    cv_pct: float | None        # robust CV of the side with fewer repetitions (the noisier on a tie)
    detectable_pct: float | None
    min_effect_pct: float
    verdict: str
    kind: str                   # what changed: "", "became timeout", "recovered from crashed", ...
    note: str
    q_value: float | None = None  # p adjusted for every comparison of the run (Benjamini-Hochberg)

    @property
    def worse_pct(self) -> float:
        """The change in the worse direction (negative when it got better)."""
        if self.change_pct is None:
            return 0.0
        return self.change_pct if self.better == "lower" else -self.change_pct


@dataclass(frozen=True)
class FailureVerdict:
    """A metric one side could not measure: the verdict, its kind in words, and the status it names."""
    verdict: str  # regressed, improved, unchanged
    kind: str     # "became timeout", "recovered from crashed", "still guarded"
    status: str   # the failure status (a key of Sample.failures)

    def apply(self, c: "Comparison", base: Sample, current: Sample) -> "Comparison":
        c.verdict, c.kind = self.verdict, self.kind
        c.note = (current.failures or base.failures)[self.status]
        return c


def failure_verdict(base: Sample, current: Sample) -> FailureVerdict | None:
    new = [s for s in current.failures if s not in base.failures]
    if new:
        return FailureVerdict("regressed", f"became {new[0]}", new[0])
    if base.failures and not current.failures:
        status = next(iter(base.failures))
        return FailureVerdict("improved", f"recovered from {status}", status)
    if current.failures:
        status = next(iter(current.failures))
        return FailureVerdict("unchanged", f"still {status}", status)
    return None


def judge(key: Key, base: Sample, current: Sample, better: str, min_effect_pct: float,
          alpha: float = DEFAULT_ALPHA) -> Comparison:
    n1, n2 = len(base.values), len(current.values)
    b_med = median(base.values) if n1 else None
    c_med = median(current.values) if n2 else None
    ratio = c_med / b_med if b_med and c_med is not None else None
    change = (ratio - 1) * 100 if ratio is not None else None
    if n1 != n2:
        cv = robust_cv(base.values if n1 < n2 else current.values)
    else:  # equal sizes: the noisier side, so one quiet side does not hide a noisy one
        cv = max((x for x in (robust_cv(base.values), robust_cv(current.values)) if x is not None), default=None)
    mde = detectable_effect(cv, n1, n2, alpha) * 100 if cv is not None and n1 and n2 else None
    p = mann_whitney_p(base.values, current.values) if n1 and n2 else None
    c = Comparison(key, current.unit or base.unit, better, n1, n2, b_med, c_med, ratio, change, p,
                   cv * 100 if cv is not None else None, mde, min_effect_pct, "", "", "")
    failure = failure_verdict(base, current)
    if failure:
        return failure.apply(c, base, current)
    if n1 < 2 or n2 < 2 or smallest_p(n1, n2) > alpha:
        c.verdict, c.note = "noisy", f"too few repetitions ({n1} and {n2}) for any difference to reach p < {alpha:g}"
        return c
    if change is None:
        c.verdict, c.note = "noisy", "base median is 0: no ratio"
        return c
    big = abs(change) >= min_effect_pct
    if p < alpha and big:
        c.verdict = "regressed" if c.worse_pct > 0 else "improved"
    elif p < alpha:
        c.verdict, c.note = "unchanged", f"significant, but under the {min_effect_pct:g}% minimum effect"
    elif big or (mde is not None and mde > min_effect_pct):
        c.verdict = "noisy"
        c.note = (f"a {abs(change):.1f}% change that p={p:.2g} does not confirm" if big else
                  f"too much spread to see a {min_effect_pct:g}% change (detectable: {mde:.1f}%)")
    else:
        c.verdict = "unchanged"
    return c


def worst_first(comparisons: list[Comparison]) -> list[Comparison]:
    """Regressions first (failures before slowdowns, larger before smaller), then noisy, unchanged
    and improved."""
    def order(c: Comparison):
        return (VERDICTS.index(c.verdict), 0 if c.kind.startswith("became") else 1, -c.worse_pct, c.key)
    return sorted(comparisons, key=order)
