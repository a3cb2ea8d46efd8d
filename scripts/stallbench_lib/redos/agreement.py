"""Correctness across engines: where engines complete they must agree on match / no match, and a
safe rewrite must answer as its original does. Two sources of answers: the run's own cells (the
attack inputs at every measured length) and regex_check on sample inputs (samples.py)."""
from collections import defaultdict
from dataclasses import dataclass, field

from ..tidy import Row
from .checker import EngineAnswers
from .patterns import SAFE_SUFFIX

MAX_SHOWN = 5  # counterexamples kept per pattern, shortest first


@dataclass
class Disagreement:
    pattern: str               # the variant: NAME or NAME.safe
    input: str                 # the input itself, or the recipe at `length` when it is long
    answers: dict[str, bool]   # engine -> matched
    length: int | None = None  # attack input length, when from a cell


@dataclass
class Counterexample:
    pattern: str               # the catalogue entry (its NAME)
    input: str
    original: bool             # what the original regex answered
    safe: bool                 # what the rewrite answered
    engines: list[str] = field(default_factory=list)


def describe_input(text: str, limit: int = 60) -> str:
    return repr(text) if len(text) <= limit else f"{text[:24]!r}…{text[-12:]!r} ({len(text):,} chars)"


def cell_answers(rows: list[Row]) -> dict[tuple[str, int], dict[str, bool]]:
    """(variant, length) -> engine -> matched, from the ok `matched` rows of match cells."""
    answers = defaultdict(dict)
    for r in rows:
        if r.benchmark == "match" and r.metric == "matched" and r.status == "ok":
            p = r.param_dict()
            answers[(p["pattern"], int(p["length"]))][p["engine"]] = r.value >= 0.5
    return dict(answers)


def cell_disagreements(rows: list[Row], render=None) -> list[Disagreement]:
    """Engines that answered differently on the same attack input. `render(variant, length)` gives
    the input's text when the catalogue is at hand."""
    found = []
    for (variant, length), by_engine in sorted(cell_answers(rows).items()):
        if len(set(by_engine.values())) > 1:
            text = render(variant, length) if render else None
            shown = describe_input(text) if text is not None else f"the attack input of length {length:,}"
            found.append(Disagreement(variant, shown, dict(sorted(by_engine.items())), length))
    return found


def cell_counterexamples(rows: list[Row], render=None) -> list[Counterexample]:
    """Lengths where a rewrite and its original, run by the same engine, answered differently."""
    answers = cell_answers(rows)
    found = []
    for (variant, length), safe_answers in sorted(answers.items()):
        if not variant.endswith(SAFE_SUFFIX):
            continue
        name = variant.removesuffix(SAFE_SUFFIX)
        original = answers.get((name, length), {})
        differing = sorted(e for e in safe_answers if e in original and original[e] != safe_answers[e])
        if differing:
            text = render(name, length) if render else None
            shown = describe_input(text) if text is not None else f"the attack input of length {length:,}"
            found.append(Counterexample(name, shown, original[differing[0]], safe_answers[differing[0]], differing))
    return found


def _decided(answer: str) -> bool:
    return answer in "01"


def sample_disagreements(variant: str, inputs: list[str], per_engine: dict[str, EngineAnswers]) -> list[Disagreement]:
    """Inputs on which engines that compiled `variant` and answered 0 or 1 disagree."""
    usable = {e: a.answers for e, a in per_engine.items() if a.rejected is None}
    found = []
    for i, text in enumerate(inputs):
        by_engine = {e: answers[i] == "1" for e, answers in usable.items() if _decided(answers[i])}
        if len(set(by_engine.values())) > 1:
            found.append(Disagreement(variant, describe_input(text), dict(sorted(by_engine.items()))))
    return found


def sample_counterexamples(name: str, inputs: list[str], original: dict[str, EngineAnswers],
                           safe: dict[str, EngineAnswers]) -> list[Counterexample]:
    """Inputs where an engine's answer for the rewrite differs from its answer for the original,
    shortest first, at most MAX_SHOWN."""
    found: dict[str, Counterexample] = {}
    for engine in original:
        a, b = original[engine], safe.get(engine)
        if a.rejected is not None or b is None or b.rejected is not None:
            continue
        for i, text in enumerate(inputs):
            if _decided(a.answers[i]) and _decided(b.answers[i]) and a.answers[i] != b.answers[i]:
                example = found.setdefault(text, Counterexample(name, describe_input(text), a.answers[i] == "1",
                                                                b.answers[i] == "1"))
                example.engines.append(engine)
    ordered = sorted(found.items(), key=lambda item: (len(item[0]), item[0]))
    return [example for _, example in ordered[:MAX_SHOWN]]
