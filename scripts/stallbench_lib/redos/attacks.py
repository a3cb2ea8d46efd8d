"""Attacks found for you: an entry with only `regex` gets its attack input from recheck ("the
trustworthy ReDoS checker": automaton analysis plus fuzzing, it returns an attack string with its
pumps), pinned in the regex-tools npm set. When recheck calls a regex safe (or cannot tell), the
entry is timed on a long random input instead, and its `attack` says so. The same tool run
generates strings each regex matches (randexp) for the sample check."""
from dataclasses import dataclass, field

from ..errors import UsageError
from . import samples, tools
from .patterns import RANDOM_ATTACK, Pattern, Pump, with_attack

RECHECK_TIMEOUT_MS = 10_000  # recheck's own limit per regex (its default)
GENERATED = 60               # strings generated per regex
MAX_REPEAT = 5               # randexp's cap on * and +: short strings, cheap for backtracking engines
SEED = 1


@dataclass
class Analysis:
    patterns: list[Pattern]                                     # every attack filled in
    generated: dict[str, list[str]] = field(default_factory=dict)  # variant name -> strings it matches (text)
    recheck: dict[str, dict] = field(default_factory=dict)     # pattern name -> recheck's verdict, when asked
    notes: list[str] = field(default_factory=list)             # what could not be done, one line each


def _verdict(diagnostics: dict) -> str:
    if diagnostics["status"] == "vulnerable":
        return diagnostics["complexity"]["summary"]
    if diagnostics["status"] == "safe":
        return "safe"
    error = diagnostics.get("error") or {}
    return f"unknown ({error.get('kind', '?')}" + (f": {error['message']}" if error.get("message") else "") + ")"


def _resolved(pattern: Pattern, diagnostics: dict, analyser: str) -> Pattern:
    """The entry with recheck's attack, or a random input when it found none."""
    to_bytes = lambda text: samples.as_bytes(text, pattern.unicode)
    verdict = _verdict(diagnostics)
    attack = diagnostics.get("attack")
    if diagnostics["status"] == "vulnerable" and attack and all(p["pump"] for p in attack["pumps"]):
        pumps = [Pump(to_bytes(p["prefix"] + p["pump"] * p["bias"]), to_bytes(p["pump"])) for p in attack["pumps"]]
        return with_attack(pattern, "", pumps, to_bytes(attack["suffix"]), f"{analyser}: {verdict}",
                           diagnostics["complexity"]["type"])
    expect = "linear" if diagnostics["status"] == "safe" else None
    return with_attack(pattern, "", [Pump("", samples.random_pump(pattern))], "",
                       f"{analyser}: {verdict}; {RANDOM_ATTACK}", expect)


def analyse(patterns: list[Pattern]) -> Analysis:
    """Attacks for the entries that have none, and generated strings for every regex. Without the
    tools, an entry that needs an attack is a UsageError; the sample check only loses its
    generated strings (a note says so)."""
    variants = [v for p in patterns for v in p.variants()]
    asks = [not v.pattern.pumps and not v.is_safe for v in variants]
    request = {"regexes": [{"source": v.regex, "flags": v.pattern.flags, "attack": ask} for v, ask in zip(variants, asks)],
               "generated": GENERATED, "max_repeat": MAX_REPEAT, "seed": SEED, "timeout_ms": RECHECK_TIMEOUT_MS}
    timeout_s = 60 + sum(asks) * (2 * RECHECK_TIMEOUT_MS / 1000 + 5) + len(variants)  # automaton, then fuzz
    try:
        reply = tools.run("analyse.js", request, timeout_s)
    except tools.ToolFailed as e:
        needing = [p.name for p in patterns if not p.pumps]
        if needing:
            raise UsageError(f"pattern {needing[0]!r} has no attack (no pump) and recheck could not run: {e}") from None
        return Analysis(patterns, notes=[f"sample check without strings generated from the regexes: {e}"])
    analysis = Analysis([])
    by_pattern = {}
    for v, ask, result in zip(variants, asks, reply["results"]):
        analysis.generated[v.name] = result["generated"]
        if ask:
            by_pattern[v.pattern.name] = result["diagnostics"]
            analysis.recheck[v.pattern.name] = {"analyser": reply["recheck"], "verdict": _verdict(result["diagnostics"])}
    analysis.patterns = [_resolved(p, by_pattern[p.name], reply["recheck"]) if p.name in by_pattern else p
                         for p in patterns]
    return analysis
