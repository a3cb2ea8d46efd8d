"""The sample check of every pattern: its regex and safe rewrite answered by every engine on
sample inputs (samples.py), each pattern and engine in a regex_check process of its own (an engine
that hangs or crashes there loses only its own answers). What it finds, as plain data for
meta.json and the report: engine disagreements and the rewrite's counterexamples."""
from dataclasses import asdict
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
    return {"inputs": len(sample), "status": "ok" if not failed else "failed: " + "; ".join(failed),
            "generated": len(generated),
            "alphabet": inputs.encode(samples.as_bytes("".join(samples.alphabet(pattern)), pattern.unicode)),
            "disagreements": [asdict(d) for d in disagreements],
            "counterexamples": [asdict(c) for c in counterexamples]}


def check_all(check_binary: Path, engines: list[str], patterns: list[Pattern], generated: dict[str, list[str]],
              nodes: dict[str, str] | None = None) -> dict[str, dict]:
    """`generated`: variant name -> strings it matches."""
    return {p.name: check_pattern(check_binary, engines, p, [g for v in p.variants() for g in generated.get(v.name, [])],
                                  nodes)
            for p in patterns}
