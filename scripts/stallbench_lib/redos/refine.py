"""What a curve still needs before its verdict can stand, planned once the escalation has run
(Escalation.more), at most PASSES times:

- a turn with too few points past it (growth.py's `growing`: flat up to 2,049, then two lengths,
  read as degree 5.8 before) gets lengths inside it: the geometric middles of the lengths from the
  last flat one to where the curve ended (its stop included when it ran out of budget);
- a growth verdict the machine's noise could have made (a polynomial of low degree, a poor or
  narrow fit, a turn; an exponential of poor fit) gets each of its lengths measured once more, the
  engines side by side again; the curve then counts each length's fastest cell (load only adds
  time) and shows the spread beside the growth (curves.py).

Pure functions of a Curve: the tests drive them with synthetic curves."""
import math

from .curves import Curve
from .growth import NOISY_R2

PASSES = 2              # refinement rounds after the escalation: a turn refined, then its new points repeated
WEAK_DEGREE = 2.5       # a polynomial below this degree is measured again before it stands
CLEAR_R2 = 0.98         # ... and one whose fit is worse than this
NARROW_SPAN = 10.0      # ... or fitted over less than this many times of lengths


def turn_lengths(curve: Curve) -> list[int]:
    """Lengths inside a turn that has too few points past it; [] when it has enough."""
    growth = curve.growth
    if growth.kind != "growing" or growth.flat_until is None:
        return []
    measured = [n for n, _ in curve.points]
    edges = [n for n in measured if n >= growth.flat_until + curve.offset]
    if curve.stop and curve.stop.status == "timeout":
        edges.append(curve.stop.length)
    middles = []
    for low, high in zip(edges, edges[1:]):
        pumped = math.sqrt((low - curve.offset) * (high - curve.offset))  # geometric, on pumped bytes
        middle = round(pumped) + curve.offset
        if low < middle < high and middle not in measured:
            middles.append(middle)
    return middles


def weak(curve: Curve) -> bool:
    """A growth verdict that noise could have made (see the module's docstring)."""
    growth = curve.growth
    if curve.verdict == "polynomial":
        return (growth.degree < WEAK_DEGREE or (growth.r2 or 0) < CLEAR_R2 or growth.flat_until is not None
                or (growth.fitted_span or 0) < NARROW_SPAN)
    return curve.verdict == "exponential" and (growth.r2 or 0) < NOISY_R2


def repeat_lengths(curve: Curve) -> list[int]:
    """The lengths of a weak verdict measured only once so far."""
    if not weak(curve):
        return []
    return [n for n, _ in curve.points if len(curve.measured.get(n, [])) < 2]
