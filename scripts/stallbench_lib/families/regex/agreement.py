"""Correctness across engines: where engines complete they must agree on match / no match, and a
safe rewrite must answer as its original does. Two sources of answers: the run's own cells (the
attack inputs at every measured length) and regex_check on sample inputs (samples.py).

Where engines disagree, the reference decides who is wrong: the entry's `reference` engine (V8
for JavaScript-sourced patterns), or another engine of its implementation when the reference itself
gave no answer (node-linear for node: one V8, one semantics), else the majority of the implementations that answered (the
engine table says which engines share one: pcre2 and pcre2-jit, every V8 engine and Node line). An
engine that answers otherwise has `wrong answers` on that pattern: its timings are not classified.
A disagreement with no majority stays unresolved."""
import csv
import io
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ... import runtimes
from ...tidy import Row
from .checker import EngineAnswers
from .engines import Engines
from .inputs import shown as shown_input
from .patterns import SAFE_SUFFIX

MAX_SHOWN = 5  # counterexamples kept per pattern and direction, shortest first


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


def cell_answers(rows: list[Row]) -> dict[tuple[str, int], dict[str, bool]]:
    """(variant, length) -> engine -> matched, from the ok `matched` rows of match cells."""
    answers = defaultdict(dict)
    for r in rows:
        if r.benchmark == "match" and r.metric == "matched" and r.status == "ok":
            p = r.params
            answers[(p["pattern"], int(p["length"]))][runtimes.label(p, "engine")] = r.value >= 0.5
    return dict(answers)


def cell_disagreements(rows: list[Row], render=None) -> list[Disagreement]:
    """Engines that answered differently on the same attack input. `render(variant, length)` gives
    the input's text when the catalogue is at hand."""
    found = []
    for (variant, length), by_engine in sorted(cell_answers(rows).items()):
        if len(set(by_engine.values())) > 1:
            text = render(variant, length) if render else None
            shown = shown_input(text) if text is not None else f"the attack input of length {length:,}"
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
            shown = shown_input(text) if text is not None else f"the attack input of length {length:,}"
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
            found.append(Disagreement(variant, shown_input(text), dict(sorted(by_engine.items()))))
    return found


def sample_counterexamples(name: str, inputs: list[str], original: dict[str, EngineAnswers],
                           safe: dict[str, EngineAnswers]) -> list[Counterexample]:
    """Inputs where an engine's answer for the rewrite differs from its answer for the original,
    shortest first, at most MAX_SHOWN in each direction."""
    found: dict[str, Counterexample] = {}
    for engine in original:
        a, b = original[engine], safe.get(engine)
        if a.rejected is not None or b is None or b.rejected is not None:
            continue
        for i, text in enumerate(inputs):
            if _decided(a.answers[i]) and _decided(b.answers[i]) and a.answers[i] != b.answers[i]:
                example = found.setdefault(text, Counterexample(name, shown_input(text), a.answers[i] == "1",
                                                                b.answers[i] == "1"))
                example.engines.append(engine)
    ordered = sorted(found.items(), key=lambda item: (len(item[0]), item[0]))
    # Each direction apart: "the rewrite refuses what the original accepted" and the converse.
    return [example for direction in (True, False)
            for example in [e for _, e in ordered if e.original == direction][:MAX_SHOWN]]


def _most_common(answers: list[bool]) -> bool | None:
    counts = Counter(answers).most_common()
    return counts[0][0] if len(counts) == 1 or counts[0][1] > counts[1][1] else None


def reference_answer(answers: dict[str, bool], reference: str | None, engines: Engines) -> tuple[bool | None, str]:
    """The right answer and who says so: the reference engine's implementation when one of its
    engines answered (node-linear speaks for V8 when node itself ran out of time: the same
    semantics), else the majority of implementations (each voting with its own engines' majority);
    None when there is none."""
    if reference is not None:
        said = [a for e, a in answers.items() if engines.implementation(e) == engines.implementation(reference)]
        if said and _most_common(said) is not None:
            return _most_common(said), reference
    by_family = defaultdict(list)
    for engine, answer in answers.items():
        by_family[engines.implementation(engine)].append(answer)
    votes = [v for v in (_most_common(a) for a in by_family.values()) if v is not None]
    return _most_common(votes), "majority"


@dataclass
class Judgement:
    wrong: dict[str, dict[str, dict]] = field(default_factory=dict)  # variant -> engine -> first wrong input, count
    unresolved: list[dict] = field(default_factory=list)  # per variant and split of engines: first input, count


def judge(disagreements: list[Disagreement], references: dict[str, str | None], engines: Engines) -> Judgement:
    """Which engines answered wrongly, per variant, with the first input and how many (one entry
    per variant x engine, however many inputs); disagreements no reference can decide, grouped by
    variant and the engines that answered. `references`: variant -> reference or None."""
    found = Judgement()
    unresolved: dict[tuple, dict] = {}
    for d in disagreements:
        right, by = reference_answer(d.answers, references.get(d.pattern), engines)
        if right is None:
            group = unresolved.setdefault((d.pattern, tuple(sorted(d.answers))),
                                          {"pattern": d.pattern, "input": d.input, "answers": d.answers, "inputs": 0})
            group["inputs"] += 1
            continue
        for engine, answer in d.answers.items():
            if answer != right:
                entry = found.wrong.setdefault(d.pattern, {}).setdefault(
                    engine, {"input": d.input, "answer": answer, "reference": right, "by": by, "inputs": 0})
                entry["inputs"] += 1
    found.unresolved = list(unresolved.values())
    return found


def _said(answer: bool) -> str:
    return "match" if answer else "no match"


def finding_lines(wrong: dict[str, dict[str, dict]], unresolved: list[dict]) -> list[str]:
    """One line per variant x engine that answered wrongly, one per group of disagreements no
    reference can decide: a count and one example each (every input is in disagreements.csv)."""
    lines = []
    for variant, by_engine in wrong.items():
        for engine, w in by_engine.items():
            lines.append(f"WRONG ANSWERS: {engine} on {variant}: {w['inputs']:,} input{'s' * (w['inputs'] != 1)}, e.g. "
                         f"{_said(w['answer'])} on {w['input']} where {w['by']} says {_said(w['reference'])}: "
                         "not classified")
    for u in unresolved:
        lines.append(f"DISAGREEMENT on {u['pattern']}, no reference or majority to decide: {u['inputs']:,} "
                     f"input{'s' * (u['inputs'] != 1)}, e.g. {u['input']}: "
                     + ", ".join(f"{e} {_said(a)}" for e, a in sorted(u["answers"].items())))
    return lines


CSV_COLUMNS = ["pattern", "attack_length", "input", "answers", "right_answer", "decided_by", "wrong_engines"]


def csv_text(disagreements: list[Disagreement], references: dict[str, str | None], engines: Engines) -> str:
    """Every disagreement, one row per input: the run directory's disagreements.csv."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for d in disagreements:
        right, by = reference_answer(d.answers, references.get(d.pattern), engines)
        writer.writerow([d.pattern, "" if d.length is None else d.length, d.input,
                         ";".join(f"{e}={int(a)}" for e, a in sorted(d.answers.items())),
                         "" if right is None else int(right), by if right is not None else "",
                         ";".join(sorted(e for e, a in d.answers.items() if right is not None and a != right))])
    return out.getvalue()
