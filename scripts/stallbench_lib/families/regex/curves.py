"""From a run's match rows to one curve per engine x pattern (time against length, up to the first
cell that did not finish) and its verdict: `wrong answers` when the engine's answers differ from
the reference (agreement.judge: its times are not classified), `disputed answers` when it disagreed
with another engine and nothing could decide which is right (not classified either), else linear,
polynomial, exponential or growing (growth.py, fitted on the pumped length: the input length less
the attack's fixed parts), or the status that ended the curve when too little finished to fit
(guarded, crashed, timeout), or rejected; an automaton (an engine linear by construction: RE2,
Hyperscan, Go, Rust) that a scan checked at one length only is linear when that check finished. A
fitted curve that then stopped keeps its fit and shows
where it stopped. A length measured more than once (refine.py repeats cells the machine's noise
could have made grow) counts its fastest cell: load only ever adds time.

A curve that ends in a timeout, or in a guard that counts steps (Boost's error_complexity, PCRE2's
match limit), grew faster than its input there unless growing in proportion from its last finished
point would already have reached the limit: such a curve is never `linear` (Tika's header regex on
Java: 0.012 ms up to 35 ms, then over its budget at the next length, once read linear). It reads
`growing` when the fit saw no growth of its own, and the refinement measures below the stop. A
guard that fires on stack depth (Java's StackOverflowError, V8's RangeError, a JIT stack) proves
nothing about time: a linear pattern reaches it on a long input."""
import re
from collections import defaultdict
from dataclasses import dataclass, field, replace

from ... import runtimes
from ...tidy import Row
from .growth import Growth, classify

DEFINING_STOPS = ("rejected", "error")  # these are the verdict, whatever came before
STEP_GUARDS = ("error_complexity", "match limit")  # guards that count backtracking steps, not stack depth
LIMIT = re.compile(r"(?:exceeded|over) ([0-9.]+) s")  # the time limit a timeout's detail names
MARGIN = 2.0  # a stop proves growth when growing in proportion would have stayed this far below the limit
WRONG = "wrong answers"
DISPUTED = "disputed answers"


@dataclass
class Stop:
    length: int
    status: str
    detail: str


@dataclass
class Curve:
    variant: str
    engine: str
    points: list[tuple[int, float]]  # (length, fastest match_ms) of the finished cells below the stop
    stop: Stop | None                 # the first cell that did not finish
    growth: Growth
    offset: int = 0                   # the attack's fixed bytes: pumped length = length - offset
    wrong: dict | None = None         # the first wrong answer, when the engine answered wrongly
    fallback: str | None = None       # why the engine ran it with another algorithm (node-linear backtracking)
    disputed: dict | None = None      # an undecided disagreement it took part in (its first input)
    measured: dict[int, list[float]] = field(default_factory=dict)  # length -> every cell's match_ms
    doubt: str | None = None          # why a flat curve proves nothing (patterns.DOUBTS): its verdict then
    automaton: bool = False           # the engine is linear by construction (its kind in the engine table)
    measured_as: str | None = None    # the engine whose measurement this is: it fell back to that one's algorithm

    @property
    def by_construction(self) -> bool:
        """Too few points to fit, every one finished, on an engine linear by construction."""
        return self.automaton and bool(self.points) and not self.stop and self.growth.kind == "unknown"

    def stop_proves_growth(self) -> bool:
        """Whether the curve's end says it grew faster than its input (the module's docstring)."""
        stop = self.stop
        if stop is None or not (stop.status == "timeout" or stop.status == "guarded"
                                and any(g in stop.detail for g in STEP_GUARDS)):
            return False
        limit = LIMIT.search(stop.detail)
        pumped = [(n - self.offset, t) for n, t in self.points if n > self.offset]
        if limit is None or not pumped:
            return True  # a step guard, or a timeout with nothing finished before it
        n, t = pumped[-1]
        return t * (stop.length - self.offset) / n * MARGIN < float(limit.group(1)) * 1000

    @property
    def verdict(self) -> str:
        if self.wrong:
            return WRONG
        if self.disputed:
            return DISPUTED
        if self.stop and (not self.points or self.stop.status in DEFINING_STOPS):
            return self.stop.status
        if self.stop and self.growth.kind == "unknown":
            return self.stop.status  # too few points to fit before it stopped
        if self.growth.kind == "linear" and self.stop_proves_growth():
            return "growing"
        if self.by_construction:
            return "linear"  # an automaton needs no attack to be linear
        if self.doubt and self.growth.kind in ("linear", "unknown"):
            return self.doubt
        return self.growth.kind

    def describe(self) -> str:
        """'exponential, x2.01 per char (R² 1.00); timeout at 30' and the like."""
        verdict = self.verdict
        stop = f"{self.stop.status} at {self.stop.length:,}" if self.stop else ""
        if verdict == WRONG:
            w = self.wrong
            return (f"wrong answers: {'match' if w['answer'] else 'no match'} on {w['input']} where {w['by']} says "
                    f"{'match' if w['reference'] else 'no match'} ({w['inputs']} input{'s' * (w['inputs'] > 1)})")
        if verdict == DISPUTED:
            d = self.disputed
            return (f"disputed answers: engines disagreed on {d['inputs']} input{'s' * (d['inputs'] > 1)} (e.g. "
                    f"{d['input']}) and neither a reference nor a majority could say which is right")
        if self.by_construction:
            n, ms = self.points[-1]
            return f"linear by construction (an automaton), checked at {n:,} ({ms:.4g} ms)"
        fell = (f"; fell back: {self.fallback}" if self.fallback else "") + (
            f"; measured as {self.measured_as}, whose algorithm it ran" if self.measured_as else "")
        again = self.spread()
        noise = f"; measured again, the same length up to x{again:.1f} apart" if again else ""
        if verdict == self.doubt:
            return f"{verdict}: {self.growth.describe()} on an input that is no known attack{fell}"
        if verdict == "growing" and self.growth.kind == "linear":
            n, t = self.points[-1]
            return (f"grew faster than its input: {t:.3g} ms at {n:,}, then {stop} (in proportion it would have "
                    f"taken {t * (self.stop.length - self.offset) / max(n - self.offset, 1):.3g} ms)" + noise + fell)
        if verdict in ("linear", "polynomial", "exponential", "growing", "unknown"):
            return (self.growth.regime_text(self.offset) + self.growth.describe() + (f"; {stop}" if stop else "")
                    + noise + fell)
        text = stop
        if self.points and self.growth.kind != "unknown":
            text += f" (before: {self.growth.describe()})"
        return text + fell

    def time_at(self, length: int) -> float | None:
        return dict(self.points).get(length)

    def spread(self) -> float | None:
        """The largest slowest-over-fastest ratio of a length measured more than once (the machine's
        noise, seen side by side with the growth); None when no length was."""
        ratios = [max(v) / max(min(v), 1e-9) for v in self.measured.values() if len(v) > 1]
        return max(ratios) if ratios else None


FELL_BACK = "it said so when it ran (fell_back)"  # the why when only the rows tell


def disputed_engines(unresolved: list[dict]) -> dict[str, dict[str, dict]]:
    """variant -> engine -> the undecided disagreement it took part in (agreement.judge's groups)."""
    found: dict[str, dict[str, dict]] = {}
    for group in unresolved:
        for engine in group["answers"]:
            found.setdefault(group["pattern"], {}).setdefault(engine, group)
    return found


def curves(rows: list[Row], offsets: dict[str, int] | None = None, wrong: dict[str, dict[str, dict]] | None = None,
           fallbacks: dict[str, dict[str, str]] | None = None,
           unresolved: list[dict] | None = None, doubts: dict[str, str | None] | None = None,
           automata: frozenset[str] = frozenset(),
           measured_as: dict[tuple[str, str], str] | None = None) -> dict[tuple[str, str], Curve]:
    """(variant, engine) -> Curve, from the match benchmark's rows (any number of repetitions).
    `offsets`: variant -> fixed bytes of its attack; `wrong`: variant -> engine -> first wrong answer;
    `fallbacks`: variant -> engine -> why it fell back (the rows' fell_back say that it did);
    `unresolved`: the disagreements nothing decided (agreement.judge), whose engines are disputed;
    `doubts`: variant -> why its flat curves prove nothing (patterns.doubt_of);
    `automata`: the engines linear by construction (engines.Engines.automata);
    `measured_as`: (variant, engine) -> the engine that ran it the same way (engines.Engines.measured_as):
    a pair with no rows of its own (a scan measured that engine once for both) gets that one's curve."""
    offsets, wrong, fallbacks, doubts = offsets or {}, wrong or {}, fallbacks or {}, doubts or {}
    disputed = disputed_engines(unresolved or [])
    times = defaultdict(lambda: defaultdict(list))
    failures = defaultdict(dict)
    fell_back = set()
    for r in rows:
        if r.benchmark == "match" and r.metric == "fell_back" and r.status == "ok" and r.value >= 0.5:
            fell_back.add((r.params["pattern"], runtimes.label(r.params, "engine")))
        if r.benchmark != "match" or r.metric != "match_ms":
            continue
        p = r.params
        key, length = (p["pattern"], runtimes.label(p, "engine")), int(p["length"])
        if r.status == "ok":
            times[key][length].append(r.value)
        else:
            failures[key].setdefault(length, Stop(length, r.status, r.detail))
    found = {}
    for key in sorted(set(times) | set(failures)):
        stop = min(failures[key].values(), key=lambda s: s.length) if failures[key] else None
        measured = {n: v for n, v in times[key].items() if stop is None or n < stop.length}
        points = sorted((n, min(v)) for n, v in measured.items())
        offset = offsets.get(key[0], 0)
        pumped = [(n - offset, t) for n, t in points if n > offset]
        growth = classify([n for n, _ in pumped], [t for _, t in pumped])
        why = fallbacks.get(key[0], {}).get(key[1]) or (FELL_BACK if key in fell_back else None)
        found[key] = Curve(key[0], key[1], points, stop, growth, offset, wrong.get(key[0], {}).get(key[1]), why,
                           disputed.get(key[0], {}).get(key[1]), measured, doubts.get(key[0]), key[1] in automata)
    for key, same in (measured_as or {}).items():
        if key not in found and (key[0], same) in found:
            found[key] = replace(found[(key[0], same)], engine=key[1], wrong=wrong.get(key[0], {}).get(key[1]),
                                 fallback=fallbacks.get(key[0], {}).get(key[1]),
                                 disputed=disputed.get(key[0], {}).get(key[1]), measured_as=same)
    return found


def largest_common_length(per_engine: dict[str, Curve]) -> int | None:
    """The largest length every engine that compiled the pattern finished (rejections excluded)."""
    running = [c for c in per_engine.values() if not (c.stop and c.stop.status == "rejected" and not c.points)]
    if not running:
        return None
    common = set.intersection(*(set(n for n, _ in c.points) for c in running))
    return max(common) if common else None
