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
for the engines that stay linear. An attack that got slow at its first round, whose pumps each repeat
a shorter text as often (recheck's fuzzer pumps `0000000000` into Tika's header regex, 188 ms on Java
at one round), is pumped by those shorter texts: the same inputs and those between them, so that the
study has lengths below the one round that was already slow."""
import math
from dataclasses import dataclass, replace

from . import samples
from .growth import classify
from .patterns import Pattern, Pump, with_attack

LADDER = (8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192)  # the probe's pumped lengths (node/probe.js)
LONGEST = 65_536  # pumped bytes: where linear engines show they stay linear
BETWEEN = 6       # study lengths between the probe's last fast rung and its first slow one


@dataclass(frozen=True)
class Measured:
    shape: str
    pumps: list[dict]        # [{before, pump}] as text
    suffix: str
    points: list[tuple[int, float]]  # (pumped bytes, ms on V8), ascending
    over: int | None         # pumped bytes at which one match outlasted the probe's hang limit

    @classmethod
    def from_reply(cls, c: dict) -> "Measured":
        return cls(c["shape"], c["pumps"], c["suffix"], sorted((int(n), float(t)) for n, t in c["points"]),
                   c["over"]).pumped_whole()

    def pumped_whole(self) -> "Measured":
        """The attack with the rounds of its pumps that its text before them already holds counted as
        pumped: recheck's attack on ^(?:a{2,40})+$, 40 a's before a pump of 80 (`a` once finer), was
        slow at its first rung, so its study had no length short enough to finish and the pattern read
        `timeout` where the same inputs pumped from nothing read exponential. Its points move by those
        bytes, so the study's lengths reach below them."""
        rounds = min(_rounds_ending(p["before"], p["pump"]) for p in self.pumps) if self.pumps else 0
        if rounds == 0:
            return self
        moved = rounds * sum(len(p["pump"]) for p in self.pumps)
        pumps = [{**p, "before": p["before"][:len(p["before"]) - rounds * len(p["pump"])]} for p in self.pumps]
        return replace(self, pumps=pumps, points=[(n + moved, t) for n, t in self.points],
                       over=self.over + moved if self.over else self.over)

    def severity(self, slow_ms: float) -> tuple:
        """Smaller is worse: the first input length (its texts before the pumps included) at which a
        match took slow_ms (or hung), then the largest rise from fastest to slowest."""
        slow = [n for n, t in self.points if t >= slow_ms] + ([self.over] if self.over else [])
        times = [t for _, t in self.points]
        rise = max(times) / max(min(times), 1e-9) if times else 1.0
        before = sum(len(p["before"]) for p in self.pumps)
        return (min(slow) + before if slow else float("inf"), -rise)

    def expect(self) -> str | None:
        kind = classify([n for n, _ in self.points], [t for _, t in self.points]).kind
        if kind in ("polynomial", "exponential"):
            return kind
        return "exponential" if kind == "growing" or self.over else None

    def lengths(self, fixed: int, slow_ms: float) -> tuple[int, ...]:
        """The study's lengths: the probe's rungs (LADDER in whole rounds of the pumps) up to the first
        that got slow or hung, BETWEEN more between it and the last rung a fast match reached (the
        first rung when none did), one rung beyond it, and LONGEST. They depend on the probe's times only through which rung got slow (a factor of two),
        not on the lengths it measured inside a jump: a curve whose growth three timing-chosen
        lengths carried read polynomial in one run and exponential in the next."""
        rungs = ladder(sum(len(p["pump"]) for p in self.pumps))
        slow = [n for n, t in self.points if t >= slow_ms] + ([self.over] if self.over else [])
        measured = [n for n, _ in self.points]
        top = min((r for r in rungs if any(n <= r for n in slow)), default=max((r for r in rungs if r in measured),
                                                                            default=rungs[0]))
        # The rung the turn starts from: the longest one a fast match reached; with none (the attack
        # hung at its first round), the shortest, so the lengths between span the whole climb.
        fast = [n for n, t in self.points if t < slow_ms]
        below = max((r for r in rungs if r < top and any(n >= r for n in fast)),
                    default=min((r for r in rungs if r < top), default=max(top // 2, 1)))
        between = {round(below * (top / below) ** (k / (BETWEEN + 1))) for k in range(1, BETWEEN + 1)}
        return tuple(fixed + n for n in sorted({r for r in rungs if r <= top} | between | {2 * top, LONGEST}))


    def finer(self, slow_ms: float) -> "Measured":
        """The attack in rounds of the shortest texts its pumps repeat (each the same number of times)
        when it got slow at its first round; else itself."""
        rungs = ladder(sum(len(p["pump"]) for p in self.pumps))
        slow = [n for n, t in self.points if t >= slow_ms] + ([self.over] if self.over else [])
        if not any(n <= rungs[0] for n in slow):
            return self
        roots = [_root(p["pump"]) for p in self.pumps]
        times = math.gcd(*(count for _, count in roots))
        if times < 2:
            return self
        pumps = [{**p, "pump": root * (count // times)} for p, (root, count) in zip(self.pumps, roots)]
        return replace(self, pumps=pumps).pumped_whole()


def _rounds_ending(before: str, pump: str) -> int:
    """How many copies of `pump` `before` ends with."""
    rounds = 0
    while pump and before.endswith(pump * (rounds + 1)):
        rounds += 1
    return rounds


def _root(text: str) -> tuple[str, int]:
    """The shortest text that `text` repeats, and how many times."""
    for size in range(1, len(text) // 2 + 1):
        if len(text) % size == 0 and text[:size] * (len(text) // size) == text:
            return text[:size], len(text) // size
    return text, 1


def ladder(period: int) -> list[int]:
    """LADDER's pumped lengths in whole rounds of a `period`-byte pump, rounded as node/probe.js does."""
    return sorted({max(1, math.floor(n / max(period, 1) + 0.5)) * max(period, 1) for n in LADDER})


def worst(candidates: list[dict], slow_ms: float) -> Measured | None:
    """The worst measured candidate (Measured.severity: the first to get slow or hang, then the
    steepest rise); None when none was measured."""
    measured = [Measured.from_reply(c) for c in candidates if c["points"] or c["over"]]
    return min(measured, key=lambda m: m.severity(slow_ms)) if measured else None


def grew(m: Measured, slow_ms: float) -> bool:
    return m.severity(slow_ms)[0] != float("inf") or m.expect() is not None


def as_pattern(pattern: Pattern, m: Measured, attack: str, slow_ms: float) -> Pattern:
    """The entry with the measured attack, its expected growth and (unless it has its own) the
    probe's lengths."""
    m = m.finer(slow_ms)
    to_bytes = lambda text: samples.as_bytes(text, pattern.unicode)
    pumps = [Pump(to_bytes(p["before"]), to_bytes(p["pump"])) for p in m.pumps]
    found = with_attack(pattern, "", pumps, to_bytes(m.suffix), attack, m.expect())
    return found if pattern.lengths else replace(found, lengths=m.lengths(found.fixed, slow_ms))
