"""The sample check of every pattern: its regex and safe rewrite answered by every engine on
sample inputs (samples.py), one regex_check process per engine for the whole catalogue, as many
engines at once as the machine has cores; an engine whose process hangs or crashes is asked again
one pattern at a time, so it loses only that pattern's answers. What it finds: per pattern, plain data for
meta.json and the report (how many inputs, how many disagreements, which engines fall back on
which variant and why, the rewrite's counterexamples), and every engine disagreement, for the
judgement and disagreements.csv."""
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ... import parallel
from . import agreement, checker, inputs, samples
from .patterns import Pattern
from .scan_clock import Progress


PROGRESS_FROM = 50      # patterns: a sample check this large says how far it is
BATCH_TIMEOUT_S = 60     # one engine's process for the whole catalogue: this, plus PER_PATTERN_S per pattern
PER_PATTERN_S = 2


def _answers(check_binary: Path, engine: str, patterns: list[Pattern], sample: dict[str, list[str]],
             nodes: dict[str, str] | None) -> tuple[dict[str, list], list[str]]:
    """pattern name -> the engine's EngineAnswers per variant, and the patterns it failed on."""
    regexes = [(v.regex, p.flags) for p in patterns for v in p.variants()]
    own = [sample[p.name] for p in patterns for _ in p.variants()]
    try:
        flat = checker.run(check_binary, [engine], regexes, [], nodes,
                           BATCH_TIMEOUT_S + PER_PATTERN_S * len(patterns), own)[engine]
        found, at = {}, 0
        for p in patterns:
            found[p.name], at = flat[at:at + len(p.variants())], at + len(p.variants())
        return found, []
    except checker.CheckFailed:
        if len(patterns) == 1:
            raise
    found, failed = {}, []
    for p in patterns:  # one pattern at a time: the one that hangs or crashes the engine loses its answers alone
        try:
            found.update(_answers(check_binary, engine, [p], sample, nodes)[0])
        except checker.CheckFailed as e:
            failed.append(f"{p.name}: {engine} {e}")
    return found, failed


def _judged(pattern: Pattern, sample: list[str], per_engine: dict[str, list], failed: list[str],
            generated: int) -> dict:
    per_variant = [{e: answers[i] for e, answers in per_engine.items()} for i in range(len(pattern.variants()))]
    disagreements = []
    for variant, by_engine in zip(pattern.variants(), per_variant):
        disagreements += agreement.sample_disagreements(variant.name, sample, by_engine)
    counterexamples = []
    if pattern.safe is not None:
        counterexamples = agreement.sample_counterexamples(pattern.name, sample, per_variant[0], per_variant[1])
    fallbacks = {variant.name: {e: a.fallback for e, a in by_engine.items() if a.fallback}
                 for variant, by_engine in zip(pattern.variants(), per_variant)}
    return {"inputs": len(sample), "status": "ok" if not failed else "failed: " + "; ".join(failed),
            "fallbacks": {variant: found for variant, found in fallbacks.items() if found},
            "generated": generated,
            "alphabet": inputs.encode(samples.as_bytes("".join(samples.alphabet(pattern)), pattern.unicode)),
            "disagreements": disagreements,
            "counterexamples": [asdict(c) for c in counterexamples]}


@dataclass
class SampleCheck:
    per_pattern: dict[str, dict] = field(default_factory=dict)  # name -> inputs, status, disagreements (a count), ...
    disagreements: list[agreement.Disagreement] = field(default_factory=list)


def check_all(check_binary: Path, engines: list[str], patterns: list[Pattern], generated: dict[str, list[str]],
              nodes: dict[str, str] | None = None) -> SampleCheck:
    """`generated`: variant name -> strings it matches."""
    made = {p.name: [g for v in p.variants() for g in generated.get(v.name, [])] for p in patterns}
    sample = {p.name: samples.sample_inputs(p, made[p.name]) for p in patterns}

    # Each engine's end said, with the time left, when the check is long enough to need it (a tree).
    progress = Progress("sample check", len(engines), "engines", every_s=0 if len(patterns) >= PROGRESS_FROM else math.inf)

    def ask(engine):
        try:
            return _answers(check_binary, engine, patterns, sample, nodes)
        except checker.CheckFailed as e:
            return {}, [f"{patterns[0].name}: {engine} {e}"]
        finally:
            progress.advance()

    answered = dict(zip(engines, parallel.each(ask, engines)))
    found = SampleCheck()
    for p in patterns:
        per_engine = {e: by_pattern[p.name] for e, (by_pattern, _) in answered.items() if p.name in by_pattern}
        failed = [f.split(": ", 1)[1] for _, fails in answered.values() for f in fails if f.startswith(f"{p.name}: ")]
        checked = _judged(p, sample[p.name], per_engine, failed, len(made[p.name]))
        found.disagreements += checked["disagreements"]
        found.per_pattern[p.name] = {**checked, "disagreements": len(checked["disagreements"])}
    return found


def check_pattern(check_binary: Path, engines: list[str], pattern: Pattern, generated: list[str] = (),
                  nodes: dict[str, str] | None = None) -> dict:
    """One pattern's sample check; `generated`: strings its regexes match (text), from attacks.analyse.
    Its disagreements are listed (not counted)."""
    one = check_all(check_binary, engines, [pattern], {pattern.name: list(generated)}, nodes)
    return {**one.per_pattern[pattern.name], "disagreements": one.disagreements}


def fallbacks(per_pattern: dict[str, dict]) -> dict[str, dict[str, str]]:
    """variant -> engine -> why it falls back, from the sample check's summaries (meta.json's)."""
    return {variant: found for summary in per_pattern.values() for variant, found in summary.get("fallbacks", {}).items()}
