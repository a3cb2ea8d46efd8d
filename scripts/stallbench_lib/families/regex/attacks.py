"""Attacks found for you: an entry with only `regex` gets its attack input from recheck ("the
trustworthy ReDoS checker": automaton analysis plus fuzzing, it returns an attack string with its
pumps), pinned in the regex-tools npm set. When recheck calls a regex safe (or cannot tell), the
entry is timed on a long random input instead, and its `attack` says so. The same tool run
generates strings each regex matches (randexp) for the sample check.

recheck, randexp and our own attack shapes read JavaScript: an entry written in another dialect
(`dialect`: Python, Ruby, Java, Go) is read by that dialect's parser and handed to them as the
JavaScript that means the same (dialects.py); one no parser can write so is timed on a random input
and reads "uncertain (no attack)", never linear.

A verdict of recheck's fuzzer alone is not taken as it is (its "safe" is no evidence, its attack
need not be the worst): the entry is `uncertain`, recheck's automaton checker is asked again with
raised limits, and when that cannot decide either, the worst of the attacks measured on V8 is the
entry's (worst_attack.py)."""
from dataclasses import dataclass, field

from ...errors import UsageError
from ... import parallel
from . import dialects, samples, tools, worst_attack
from .patterns import ATTACKS_DISAGREE, NO_ATTACK, RANDOM_ATTACK, Pattern, Pump, with_attack
from .scan_clock import Progress

RECHECK_TIMEOUT_MS = 10_000  # recheck's own limit per regex (its default)
RETRY_TIMEOUT_MS = 2_000     # its automaton checker again, with raised limits, when its fuzzer alone decided (those
# that decided took under 0.5 s on a tree of 893 regexes; 5 s was 55 s of timeouts there that decided nothing)
PROBE = {"slow_ms": 20, "hang_ms": 1500, "budget_ms": 3000,  # the probe of candidate attacks on V8, per regex
         "ladder": worst_attack.LADDER}
GENERATED = 60               # strings generated per regex
MAX_REPEAT = 5               # randexp's cap on * and +: short strings, cheap for backtracking engines
SEED = 1
SHARE = 40                   # regexes per analyser process: a progress line per share, one process start each


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


def _resolved(pattern: Pattern, result: dict, analyser: str) -> Pattern:
    """The entry with recheck's exact attack; when recheck was uncertain, the exact one its retry
    found, else the worst attack measured; a random input when nothing grew."""
    diagnostics, retry, uncertain = result["diagnostics"], result.get("retry"), result.get("uncertain")
    if not uncertain:
        return _from_recheck(pattern, diagnostics, f"{analyser}: {_verdict(diagnostics)}")
    first = f"{analyser}: {_verdict(diagnostics)}, uncertain ({uncertain})"
    if retry and retry["status"] != "unknown":
        first += f"; with raised limits: {_verdict(retry)}"
    if retry and retry["status"] == "safe":
        return _from_recheck(pattern, retry, first)
    for candidates, where in ((result.get("native"), f" on {pattern.reference}"), (result.get("candidates"), "")):
        measured = worst_attack.worst(candidates or [], PROBE["slow_ms"])
        if measured and worst_attack.grew(measured, PROBE["slow_ms"]):
            return worst_attack.as_pattern(pattern, measured, f"{first}; worst of {len(candidates)} attacks measured"
                                                              f"{where}: {measured.shape}, {measured.expect() or 'growing'}",
                                           PROBE["slow_ms"])
    tried = len(result.get("candidates") or [])
    if diagnostics["status"] == "vulnerable" or (retry and retry["status"] == "vulnerable"):
        # recheck calls it vulnerable and nothing measured grew: a flat curve would be the flattest
        # attack's word against the analyser's, so it reads as uncertain, not linear.
        said = retry if retry and retry["status"] == "vulnerable" else diagnostics
        return _from_recheck(pattern, said, f"{first}; none of the {tried} attacks measured grew: {ATTACKS_DISAGREE}")
    return _random(pattern, False, f"{first}; " + (f"none of the {tried} attacks measured grew" if tried else
                                                  "no repeat in it to pump: nothing to measure"))


def _random(pattern: Pattern, safe: bool, attack: str) -> Pattern:
    """The entry timed on a random input: linear is expected where the analyser called it safe; else
    no attack was found, and its flat curves read as uncertain (no attack)."""
    doubt = "" if safe else f"; {NO_ATTACK}"
    return with_attack(pattern, "", [Pump("", samples.random_pump(pattern))], "", f"{attack}{doubt}; {RANDOM_ATTACK}",
                       "linear" if safe else None)


def _from_recheck(pattern: Pattern, diagnostics: dict, attack_text: str) -> Pattern:
    """The entry with recheck's attack, or a random input when it found none."""
    to_bytes = lambda text: samples.as_bytes(text, pattern.unicode)
    attack = diagnostics.get("attack")
    if diagnostics["status"] == "vulnerable" and attack and all(p["pump"] for p in attack["pumps"]):
        pumps = [Pump(to_bytes(p["prefix"] + p["pump"] * p["bias"]), to_bytes(p["pump"])) for p in attack["pumps"]]
        return with_attack(pattern, "", pumps, to_bytes(attack["suffix"]), attack_text,
                           diagnostics["complexity"]["type"])
    return _random(pattern, diagnostics["status"] == "safe", attack_text)


def _measured(candidates: list[dict] | None) -> list[dict] | None:
    """What meta.json keeps of the measured attacks: each one's shape, where it was slow or hung."""
    if candidates is None:
        return None
    return [{"shape": c["shape"], "points": c["points"], "over": c["over"]} for c in candidates]


def dealt(count: int, size: int = SHARE) -> list[list[int]]:
    """`count` regexes' indexes dealt into shares of at most `size`, every share taking each next
    one in turn: a tree lists a file's regexes together, and one file's can each cost recheck seconds
    (ua-parser-js's 30 user-agent regexes, 2 to 9 s each, on a tree of 893), which in one share ran
    alone on one core at the end of the step."""
    shares = -(-count // size)
    return [list(range(k, count, shares)) for k in range(shares)]


def _analysed(regexes: list[dict]) -> dict:
    """analyse.js's reply for every regex, in their order, its work shared out over the machine's
    cores (`dealt`: one analyser per share, as many at once as there are cores), so that a tree's
    hundreds of regexes show their progress; ToolFailed when a share failed."""
    tools.ensure_installed()  # once, before the shares run side by side
    tools.tool_node()
    indexes = dealt(len(regexes))
    shares = [[regexes[i] for i in share] for share in indexes]
    progress = Progress("attacks", len(regexes), "regexes analysed")

    def one(share: list[dict]) -> dict:
        request = {"regexes": share, "generated": GENERATED, "max_repeat": MAX_REPEAT, "seed": SEED,
                   "timeout_ms": RECHECK_TIMEOUT_MS, "retry_timeout_ms": RETRY_TIMEOUT_MS, "probe": PROBE}
        # Per regex asked: the automaton checker, then the fuzzer, the retry and the probe at the worst.
        per_regex_s = (2 * RECHECK_TIMEOUT_MS + RETRY_TIMEOUT_MS + PROBE["budget_ms"] + PROBE["hang_ms"]) / 1000 + 5
        reply = tools.run("analyse.js", request, 60 + sum(r["attack"] for r in share) * per_regex_s + len(share))
        progress.advance(len(share))
        return reply

    replies = parallel.each(one, shares)
    results: list = [None] * len(regexes)
    for share, reply in zip(indexes, replies):
        for i, result in zip(share, reply["results"]):
            results[i] = result
    return {"recheck": replies[0]["recheck"], "results": results} if replies else {"recheck": "", "results": []}


def analyse(patterns: list[Pattern], native=None) -> Analysis:
    """Attacks for the entries that have none, and generated strings for every regex. Without the
    tools, an entry that needs an attack is a UsageError; the sample check only loses its
    generated strings (a note says so). `native` (native_probe.OwnEngines), when given, measures the
    candidate attacks of the entries whose reference engine is not V8 on that engine: their worst
    there is the one chosen, when it grew."""
    every = [v for p in patterns for v in p.variants()]
    written = {v.name: _as_javascript(v) for v in every}
    unreadable = {v.pattern.name: written[v.name] for v in every if isinstance(written[v.name], str) and not v.is_safe}
    variants = [v for v in every if not isinstance(written[v.name], str)]
    asks = [not v.pattern.pumps and not v.is_safe for v in variants]
    regexes = [{"source": written[v.name][0], "flags": written[v.name][1], "attack": ask,
                "native": ask and native is not None and native.wants(v.pattern)} for v, ask in zip(variants, asks)]
    try:
        reply = _analysed(regexes)
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
            by_pattern[v.pattern.name] = result
            analysis.recheck[v.pattern.name] = {"analyser": reply["recheck"], "verdict": _verdict(result["diagnostics"]),
                                                "uncertain": result.get("uncertain"),
                                                "candidates": _measured(result.get("candidates")),
                                                "ms": result.get("ms")}
    wanted = {name: (p, result["candidates"]) for p in patterns if (name := p.name) in by_pattern
              and (result := by_pattern[name]).get("candidates") and p.reference is not None}
    if native is not None and wanted:
        for name, candidates in native.measure(wanted).items():
            by_pattern[name]["native"] = candidates
            analysis.recheck[name]["on_own_engine"] = _measured(candidates)
    for name, why in unreadable.items():
        analysis.recheck[name] = {"analyser": reply["recheck"], "verdict": f"not read: {why}", "uncertain": why,
                                  "candidates": None}
    analysis.patterns = [_resolved(p, by_pattern[p.name], reply["recheck"]) if p.name in by_pattern
                         else _random(p, False, f"no attack generator reads it: {unreadable[p.name]}")
                         if p.name in unreadable and not p.pumps else p for p in patterns]
    return analysis


def _as_javascript(variant) -> tuple[str, str] | str:
    """The variant's regex as the JavaScript the attack generators read (dialects.py), or why none can."""
    try:
        return dialects.to_javascript(variant.regex, variant.pattern.flags, variant.pattern.dialect)
    except dialects.Unreadable as e:
        return f"{variant.pattern.dialect} regex: {e}"
