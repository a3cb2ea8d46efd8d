"""One cell's metric in a paired A/B run: the per-round log ratios summarised (paired.py) and a
verdict, one of compare's four.

The verdicts of a run are decided together: every p-value is adjusted for all the metrics tested
(Benjamini-Hochberg), and only the adjusted value, q, can make a regression. On a night when
nothing changed every regression would be false, so the share of false ones among those found
(what the correction bounds by alpha) is then the chance that the night fails at all: the exit
code's false-alarm rate is at most alpha, however many metrics are tracked. The correction holds
for independent tests and for positively dependent ones (Benjamini and Yekutieli, 2001), which is
how the metrics of one cell move together. Requiring the change to reach the minimum effect too
only removes alarms.

- A cell whose process newly failed is `regressed` (what it became), as in compare.
- `regressed` / `improved`: q < alpha and the estimated change at least the minimum effect.
- `unchanged`: q < alpha with a smaller change (real but small), or the whole confidence interval
  of the change within +-minimum effect (nothing that matters can hide in it).
- `noisy`: otherwise; the interval still reaches past the minimum effect (more rounds would tell)."""
import math
from dataclasses import dataclass

from . import paired
from ..instructions import INSTRUCTIONS
from .comparison import Outcome
from .ranktest import benjamini_hochberg
from .samples import Key, Sample
from .verdict import Comparison, failure_verdict, worst_first
from ..medians import median

CONFIDENCE = 0.95


@dataclass
class PairedComparison(Comparison):
    ci_low_pct: float | None = None   # the change's confidence interval (Hodges-Lehmann), %
    ci_high_pct: float | None = None


def measure(key: Key, unit: str, base: Sample, current: Sample, pairs: list[tuple[float, float]], better: str,
            min_effect_pct: float, alpha: float) -> PairedComparison:
    """The statistics of one metric; its verdict waits for `decide` (it needs every p-value)."""
    d = paired.log_ratios(pairs)
    n = len(d)
    c = PairedComparison(key, unit, better, n, n, None, None, None, None, None, None, None, min_effect_pct, "", "", "")
    failure = failure_verdict(base, current)
    if failure:
        return failure.apply(c, base, current)
    if n == 0:
        c.verdict, c.note = "noisy", "no round with a value on both sides"
        return c
    c.base_median = median(b for b, _ in pairs)
    c.current_median = median(x for _, x in pairs)
    estimate, low, high = paired.hodges_lehmann(d, CONFIDENCE)
    c.ratio, c.change_pct = math.exp(estimate), paired.as_pct(estimate)
    c.ci_low_pct = None if low is None else paired.as_pct(low)
    c.ci_high_pct = None if high is None else paired.as_pct(high)
    c.p_value = paired.signed_rank_p(d)
    c.cv_pct = paired.robust_sd(d) * 100
    c.detectable_pct = paired.detectable_pct(d, alpha)
    return c


def decide(comparisons: list[PairedComparison], alpha: float, notes: list[str]) -> Outcome:
    tested = [c for c in comparisons if c.p_value is not None and not c.kind and not c.verdict]
    for c, q in zip(tested, benjamini_hochberg([c.p_value for c in tested])):
        c.q_value = q
        _verdict(c, alpha, len(tested))
    return Outcome(worst_first(comparisons), notes, alpha)


def _verdict(c: PairedComparison, alpha: float, tests: int) -> None:
    big = abs(c.change_pct) >= c.min_effect_pct
    inside = (c.ci_low_pct is not None and c.ci_high_pct is not None
              and -c.min_effect_pct < c.ci_low_pct and c.ci_high_pct < c.min_effect_pct)
    if paired.smallest_p(c.base_n) > alpha:
        c.verdict, c.note = "noisy", f"{c.base_n} rounds cannot reach p < {alpha:g}"
    elif c.q_value < alpha and big:
        c.verdict = "regressed" if c.worse_pct > 0 else "improved"
    elif c.q_value < alpha:
        c.verdict, c.note = "unchanged", f"significant, but under the {c.min_effect_pct:g}% minimum effect"
    elif inside:
        c.verdict = "unchanged"
    else:
        c.verdict = "noisy"
        c.note = (f"p={c.p_value:.2g} does not survive the correction for {tests} metrics" if c.p_value < alpha else
                  f"the interval reaches past ±{c.min_effect_pct:g}%")


def gated(outcome: Outcome, instructions_gate: bool) -> list:
    """The comparisons whose regression fails the exit code: every one, or with the instructions
    gate, the instruction counts' and those of cells without counts (a counted cell's wall times are
    then reported, not gated: load moves them, the counts move with the code)."""
    if not instructions_gate:
        return list(outcome.comparisons)
    counted = {c.key[:3] for c in outcome.comparisons if c.key[3] == INSTRUCTIONS}
    return [c for c in outcome.comparisons if c.key[3] == INSTRUCTIONS or c.key[:3] not in counted]


def gate(outcome: Outcome, instructions_gate: bool) -> list:
    """The regressions that fail the exit code (`gated`); with the instructions gate a note says how
    many wall-time regressions of counted cells are reported only."""
    regressed = outcome.regressed
    if not instructions_gate:
        return regressed
    chosen = {id(c) for c in gated(outcome, True)}
    gating = [c for c in regressed if id(c) in chosen]
    counted = {c.key[:3] for c in outcome.comparisons if c.key[3] == INSTRUCTIONS}
    reported = len(regressed) - len(gating)
    outcome.notes.append(f"the exit code is gated on instruction counts for the {len(counted)} cells that have them "
                         "(--instructions-gate), on wall time for the others"
                         + (f"; {reported} wall-time regressions of counted cells are reported, not gated"
                            if reported else ""))
    return gating
