"""What a curve still needs before its verdict can stand, planned once the escalation has run
(Escalation.more), at most PASSES times:

- a turn with too few points past it (growth.py's `growing`: flat up to 2,049, then two lengths,
  read as degree 5.8 before) gets lengths inside it: the geometric middles of the lengths from the
  last flat one to where the curve ended (its stop included when it ran out of budget);
- a curve that ran out of budget or into the engine's guard before three lengths finished (an
  exponential climbs from nothing to over the budget between two lengths), or whose fit read flat
  while its stop says it grew (curves.py), gets three lengths between its last finished one (or its
  shortest input) and that stop;
- a growth verdict the machine's noise could have made (a poor or narrow fit, a turn with few points
  past it or a degree near linear past it, a low degree read from fast matches; an exponential of
  poor fit) gets each of its lengths measured once more, the engines side by side again; the curve
  then counts each length's fastest cell (load only adds time) and shows the spread beside the
  growth (curves.py).

Pure functions of a Curve: the tests drive them with synthetic curves."""

from .curves import Curve
from .growth import LINEAR_DEGREE, NOISY_R2

PASSES = 2              # refinement rounds after the escalation: a turn refined, then its new points repeated
STOPS = ("timeout", "guarded")  # a curve ended by these before it could be read gets lengths below the stop
BETWEEN = 3             # lengths added between a curve's last finished length and its stop
WEAK_DEGREE = 2.5       # a polynomial below this degree, read from matches all faster than FAST_MS,
FAST_MS = 5.0           # is measured again before it stands (load can double a fast match's time)
CLEAR_R2 = 0.98         # ... and one whose fit is worse than this
NARROW_SPAN = 10.0      # ... or fitted over less than this many times of lengths
# ... or read past a turn (flat, then growing) from fewer than TURN_POINTS points, or to a degree within
# NEAR_LINEAR of linear. Past a turn is the usual shape of a polynomial attack (a call's fixed cost
# first): of a tree's 1,140 polynomial curves, 1,032 had one, with 4 to 33 points past it and a
# clear fit over a wide span. Measured again, their degrees moved by a median 0.007 and at most 0.27,
# and one verdict changed (degree 1.6 to linear): repeating them was about 44% of the escalation's time
# (the 893-regex tree, docs/regex.md).
TURN_POINTS = 5
NEAR_LINEAR = 0.3
DECIDING_MS = 100.0     # how far an undecided scan curve goes (every curve's stop, before the 25 ms one)


def _between(low: int, high: int, offset: int, count: int) -> list[int]:
    """`count` lengths between low and high, geometric on pumped bytes."""
    a, b = max(low - offset, 1), high - offset
    return [round(a * (b / a) ** (k / (count + 1))) + offset for k in range(1, count + 1)]


def turn_lengths(curve: Curve) -> list[int]:
    """Lengths inside a turn that has too few points past it, or below a stop that came before the
    curve could be read; [] when it has enough points."""
    growth, measured = curve.growth, [n for n, _ in curve.points]
    stopped = curve.stop is not None and curve.stop.status in STOPS
    # Stopped before it could be read: too few points to fit, or a flat fit its stop says is wrong.
    unread = stopped and (curve.verdict in STOPS or growth.kind == "linear" and curve.stop_proves_growth())
    if growth.kind == "growing" and growth.flat_until is not None:
        edges = [n for n in measured if n >= growth.flat_until + curve.offset]
        edges += [curve.stop.length] if stopped and curve.stop.status == "timeout" else []
        found = [m for low, high in zip(edges, edges[1:]) for m in _between(low, high, curve.offset, 1)]
    elif unread:
        found = _between(measured[-1] if measured else curve.offset + 1, curve.stop.length, curve.offset, BETWEEN)
    else:
        return []
    low = measured[-1] if unread and measured else 0
    return sorted({m for m in found if m not in measured and m > low and (not curve.stop or m < curve.stop.length)})


def below_slow(curve: Curve, slow_ms: float) -> list[int]:
    """Lengths below the slowest point of a curve that passed `slow_ms` before three lengths finished
    (a scan's escalation stops there, where a cell would have run out of budget): BETWEEN lengths
    between the point before it (or the shortest input) and it."""
    measured = [n for n, _ in curve.points]
    if len(measured) >= 3 or not measured or curve.points[-1][1] < slow_ms:
        return []
    low = measured[-2] if len(measured) > 1 else curve.offset + 1
    return [m for m in _between(low, measured[-1], curve.offset, BETWEEN) if m not in measured and m > low]


def undecided(curve: Curve) -> bool:
    """A scan's curve that reached its stop (summary.SLOW_MS) with a degree within NEAR_LINEAR of
    linear: its class is not decided yet, and its escalation goes on to DECIDING_MS. Cut at 25 ms,
    curves that turn late read lower (Java's, past its JIT: degree 2.07 to 100 ms, 1.54 to 25 ms)."""
    degree = curve.growth.degree
    return degree is not None and abs(degree - LINEAR_DEGREE) < NEAR_LINEAR and curve.stop is None


def weak(curve: Curve) -> bool:
    """A growth verdict that noise could have made (see the module's docstring)."""
    growth = curve.growth
    if curve.verdict == "polynomial":
        fast = max((t for _, t in curve.points), default=0) < FAST_MS
        turn_in_doubt = growth.flat_until is not None and (growth.points - growth.growth_from < TURN_POINTS
                                                            or growth.degree < LINEAR_DEGREE + NEAR_LINEAR)
        return ((growth.degree < WEAK_DEGREE and fast) or (growth.r2 or 0) < CLEAR_R2
                or turn_in_doubt or (growth.fitted_span or 0) < NARROW_SPAN)
    return curve.verdict == "exponential" and (growth.r2 or 0) < NOISY_R2


def repeat_lengths(curve: Curve) -> list[int]:
    """The lengths of a weak verdict measured only once so far."""
    if not weak(curve):
        return []
    return [n for n, _ in curve.points if len(curve.measured.get(n, [])) < 2]
