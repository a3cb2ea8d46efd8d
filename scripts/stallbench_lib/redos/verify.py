"""The sample check of every pattern: its regex and safe rewrite answered by every engine on
sample inputs (samples.py), each pattern in its own regex_check process. What it finds, as plain
data for meta.json and the report: engine disagreements and the rewrite's counterexamples."""
from dataclasses import asdict
from pathlib import Path

from . import agreement, checker, samples
from .patterns import Pattern


def check_pattern(check_binary: Path, engines: list[str], pattern: Pattern) -> dict:
    inputs = samples.sample_inputs(pattern)
    regexes = [v.regex for v in pattern.variants()]
    try:
        answers = checker.run(check_binary, engines, regexes, inputs)
    except checker.CheckFailed as e:
        return {"inputs": len(inputs), "status": f"failed: {e}", "disagreements": [], "counterexamples": []}
    per_variant = [{e: answers[e][i] for e in engines} for i in range(len(regexes))]
    disagreements = []
    for variant, by_engine in zip(pattern.variants(), per_variant):
        disagreements += agreement.sample_disagreements(variant.name, inputs, by_engine)
    counterexamples = []
    if pattern.safe is not None:
        counterexamples = agreement.sample_counterexamples(pattern.name, inputs, per_variant[0], per_variant[1])
    return {"inputs": len(inputs), "status": "ok", "alphabet": "".join(samples.alphabet(pattern)),
            "disagreements": [asdict(d) for d in disagreements],
            "counterexamples": [asdict(c) for c in counterexamples]}


def check_all(check_binary: Path, engines: list[str], patterns: list[Pattern]) -> dict[str, dict]:
    return {p.name: check_pattern(check_binary, engines, p) for p in patterns}
