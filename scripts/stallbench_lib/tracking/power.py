"""No verdict without power: a paired A/B whose rounds ended (at --max-rounds or the budget) before
every gated metric could see a change of its minimum effect says so, instead of passing.

A gated metric (one whose regression would fail the exit code: ab_verdict.gated) is *blind* when
its verdict is `noisy` and these rounds could not have found a change of its minimum effect: the
change they find 80% of the time at alpha (its `detectable` column) is larger than the minimum
effect, or is unknown, or the rounds are too few for any p-value under alpha at all (5 paired
rounds cannot go below 2/2^5 = 0.0625). A metric that ended `unchanged` or `improved` answered the
question, whatever its detectable effect; one that is `noisy` with enough power is the ordinary
noisy (a change near the minimum effect that the test does not confirm), not a blind one.

When nothing regressed and any gated metric is blind, the verdict is `inconclusive` and the exit
code INCONCLUSIVE_EXIT: not 0 (a gate that could not see must not say "pass") and not 1 (nothing
was shown to be slower). A regression found is a verdict whatever else was blind: exit 1."""
import math

from . import paired, ranktest
from .ab_verdict import PairedComparison
from .verdict import Comparison

INCONCLUSIVE_EXIT = 4
INCONCLUSIVE = "inconclusive"


def _p_floor(c: Comparison) -> float:
    """The smallest p-value this many values can give."""
    if isinstance(c, PairedComparison):
        return paired.smallest_p(c.base_n)
    return ranktest.smallest_p(c.base_n, c.current_n)


def is_blind(c: Comparison, alpha: float) -> bool:
    if c.verdict != "noisy" or c.kind:
        return False
    return (c.detectable_pct is None or c.detectable_pct > c.min_effect_pct or _p_floor(c) > alpha)


def _reach(c: Comparison, alpha: float) -> float:
    """What these rounds could detect, for ordering: infinite when no p-value under alpha was possible."""
    return math.inf if c.detectable_pct is None or _p_floor(c) > alpha else c.detectable_pct


def blind(gated: list[Comparison], alpha: float) -> dict | None:
    """ab.json's `inconclusive` record when any gated metric is blind (None otherwise): how many of
    the gated metrics, and the one that could see least, with the change it could have detected."""
    found = [c for c in gated if is_blind(c, alpha)]
    if not found:
        return None
    worst = max(found, key=lambda c: _reach(c, alpha))
    reach = _reach(worst, alpha)
    return {"metrics": len(found), "gated": len(gated), "worst": "/".join(worst.key),
            "detectable_pct": None if math.isinf(reach) else round(reach, 2),
            "min_effect_pct": worst.min_effect_pct, "rounds": worst.base_n, "alpha": alpha}


def sentence(record: dict) -> str:
    """One line for ab.md, bisect and the pull-request comment: what could not be seen, and why."""
    could = (f"the smallest change it could have detected was {record['detectable_pct']:+.1f}%"
             if record["detectable_pct"] is not None else
             f"{record['rounds']} rounds cannot reach p < {record['alpha']:g}, so it could have detected no change")
    return (f"inconclusive: the rounds ended before {record['metrics']} of {record['gated']} gated metrics could "
            f"see a change of their minimum effect; for `{record['worst']}` {could} "
            f"(minimum effect {record['min_effect_pct']:g}%)")


def verdict(regressed: bool, record: dict | None) -> str:
    return "regressed" if regressed else INCONCLUSIVE if record else "passed"


def exit_code(regressed: bool, record: dict | None) -> int:
    return 1 if regressed else INCONCLUSIVE_EXIT if record else 0
