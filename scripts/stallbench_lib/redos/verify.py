"""The sample check of every pattern: its regex and safe rewrite answered by every engine on
sample inputs (samples.py), each pattern and engine in a regex_check process of its own (an engine
that hangs or crashes there loses only its own answers). What it finds: per pattern, plain data for
meta.json and the report (how many inputs, how many disagreements, which engines fall back on
which variant and why, the rewrite's counterexamples), and every engine disagreement, for the
judgement and disagreements.csv."""
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import agreement, checker, inputs, samples
from .patterns import Pattern


def check_pattern(check_binary: Path, engines: list[str], pattern: Pattern, generated: list[str] = (),
                  nodes: dict[str, str] | None = None) -> dict:
    """`generated`: strings the regexes match (text), from attacks.analyse."""
    sample = samples.sample_inputs(pattern, generated)
    regexes = [(v.regex, pattern.flags) for v in pattern.variants()]
    answers, failed = {}, []
    for engine in engines:
        try:
            answers.update(checker.run(check_binary, [engine], regexes, sample, nodes))
        except checker.CheckFailed as e:
            failed.append(f"{engine} {e}")
    per_variant = [{e: answers[e][i] for e in answers} for i in range(len(regexes))]
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
            "generated": len(generated),
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
    found = SampleCheck()
    for p in patterns:
        checked = check_pattern(check_binary, engines, p, [g for v in p.variants() for g in generated.get(v.name, [])],
                                nodes)
        found.disagreements += checked["disagreements"]
        found.per_pattern[p.name] = {**checked, "disagreements": len(checked["disagreements"])}
    return found


def fallbacks(per_pattern: dict[str, dict]) -> dict[str, dict[str, str]]:
    """variant -> engine -> why it falls back, from the sample check's summaries (meta.json's)."""
    return {variant: found for summary in per_pattern.values() for variant, found in summary.get("fallbacks", {}).items()}
