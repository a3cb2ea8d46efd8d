"""When recheck's verdict is not exact (its fuzzer alone decided, or nothing did) and its automaton
checker does not call the pattern safe with raised limits, analyse.js measures the attacks on V8,
each over a ladder of pumped lengths (node/probe.js): the retry's exact attack when it found one,
the fuzzer's, and attacks of our own from the pattern's structure (node/attack_shapes.js). The
worst of them is the entry's attack: the one whose match first takes the probe's slow time (or
outlasted its hang limit), else the one that grew the most. An attack that got slow or hung always
outranks one that stayed fast, however readable the fast one's curve (ssri 8.0.0: recheck's
exponential attack hung past 1.5 s at 32 bytes and lost to a flat one, and the regex read linear);
the study then measures below where it hung (refine.py). Its growth (growth.py, on the probe's
points) is the entry's `expect`, and its lengths are the probe's, one rung beyond, and 65,536 bytes
for the engines that stay linear."""
from dataclasses import dataclass, replace

from . import samples
from .growth import classify
from .patterns import Pattern, Pump, with_attack

LONGEST = 65_536  # pumped bytes: where linear engines show they stay linear


@dataclass(frozen=True)
class Measured:
    shape: str
    pumps: list[dict]        # [{before, pump}] as text
    suffix: str
    points: list[tuple[int, float]]  # (pumped bytes, ms on V8), ascending
    over: int | None         # pumped bytes at which one match outlasted the probe's hang limit

    @classmethod
    def from_reply(cls, c: dict) -> "Measured":
        return cls(c["shape"], c["pumps"], c["suffix"], sorted((int(n), float(t)) for n, t in c["points"]), c["over"])

    def severity(self, slow_ms: float) -> tuple:
        """Smaller is worse: the first length at which a match took slow_ms (or hung), then the
        largest rise from fastest to slowest."""
        slow = [n for n, t in self.points if t >= slow_ms] + ([self.over] if self.over else [])
        times = [t for _, t in self.points]
        rise = max(times) / max(min(times), 1e-9) if times else 1.0
        return (min(slow) if slow else float("inf"), -rise)

    def expect(self) -> str | None:
        kind = classify([n for n, _ in self.points], [t for _, t in self.points]).kind
        if kind in ("polynomial", "exponential"):
            return kind
        return "exponential" if kind == "growing" or self.over else None

    def lengths(self, fixed: int) -> tuple[int, ...]:
        measured = [n for n, _ in self.points] + ([self.over] if self.over else [])
        pumped = sorted(set(measured) | {2 * max(measured, default=8), LONGEST})
        return tuple(fixed + n for n in pumped)


def worst(candidates: list[dict], slow_ms: float) -> Measured | None:
    """The worst measured candidate (Measured.severity: the first to get slow or hang, then the
    steepest rise); None when none was measured."""
    measured = [Measured.from_reply(c) for c in candidates if c["points"] or c["over"]]
    return min(measured, key=lambda m: m.severity(slow_ms)) if measured else None


def grew(m: Measured, slow_ms: float) -> bool:
    return m.severity(slow_ms)[0] != float("inf") or m.expect() is not None


def as_pattern(pattern: Pattern, m: Measured, attack: str) -> Pattern:
    """The entry with the measured attack, its expected growth and (unless it has its own) the
    probe's lengths."""
    to_bytes = lambda text: samples.as_bytes(text, pattern.unicode)
    pumps = [Pump(to_bytes(p["before"]), to_bytes(p["pump"])) for p in m.pumps]
    found = with_attack(pattern, "", pumps, to_bytes(m.suffix), attack, m.expect())
    return found if pattern.lengths else replace(found, lengths=m.lengths(found.fixed))
