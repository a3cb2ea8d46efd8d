"""BASE against CURRENT over every tracked metric of every cell both ran, and the report of it:
a Markdown table (worst first), a CSV, and the cells where instruction counts and wall time
disagree."""
import csv
import io
from dataclasses import dataclass, field

from .. import instructions
from ..errors import UsageError
from .ranktest import benjamini_hochberg
from . import geomean, verdict_table
from .samples import Run, describe_machine
from .verdict import DEFAULT_ALPHA, DEFAULT_MIN_EFFECT_PCT, Comparison, judge, worst_first


@dataclass
class Thresholds:
    alpha: float = DEFAULT_ALPHA
    min_effect_pct: float = DEFAULT_MIN_EFFECT_PCT
    per_metric: dict[str, float] = field(default_factory=dict)  # given on the command line

    def min_effect(self, metric: str, declared: float) -> float:
        """The command line's METRIC=PCT, else the metric's own declaration, else the default."""
        return self.per_metric.get(metric) or declared or self.min_effect_pct


@dataclass
class Outcome:
    comparisons: list[Comparison]
    notes: list[str]
    alpha: float = DEFAULT_ALPHA

    @property
    def regressed(self) -> list[Comparison]:
        return [c for c in self.comparisons if c.verdict == "regressed"]

    def stays_significant(self, c: Comparison) -> bool:
        """A regression still significant once p is adjusted for how many comparisons were made (a
        failure that is new is a regression whatever the statistics)."""
        return c.verdict == "regressed" and (bool(c.kind) or (c.q_value is not None and c.q_value < self.alpha))

    @property
    def regressed_after_correction(self) -> list[Comparison]:
        return [c for c in self.regressed if self.stays_significant(c)]

    def counts(self) -> dict[str, int]:
        return {v: sum(1 for c in self.comparisons if c.verdict == v)
                for v in ("regressed", "noisy", "unchanged", "improved")}


def check_machines(base: Run, current: Run, allow_other: bool) -> None:
    """Refuses runs from different machines unless allowed (the report then lists the machines among
    the conditions that differ)."""
    if allow_other or (base.fingerprint and base.fingerprint == current.fingerprint):
        return
    raise UsageError(f"BASE ran on {describe_machine(base.meta)}, CURRENT on {describe_machine(current.meta)}: "
                     "timings from different machines are not comparable; pass --allow-other-machine to compare anyway")


def compare_runs(base: Run, current: Run, thresholds: Thresholds) -> Outcome:
    notes = base.notes + current.notes
    comparisons, untracked = [], set()
    for key in sorted(set(base.samples) & set(current.samples)):
        declared = current.declaration(key) or base.declaration(key)
        if not declared.get("tracked", True):
            untracked.add(key[3])
            continue
        better = declared.get("better", "lower")
        min_effect = thresholds.min_effect(key[3], declared.get("min_effect_pct", 0))
        comparisons.append(judge(key, base.samples[key], current.samples[key], better, min_effect, thresholds.alpha))
    _adjust_for_multiple_comparisons(comparisons)
    only_base = {k[:3] for k in base.samples} - {k[:3] for k in current.samples}
    only_current = {k[:3] for k in current.samples} - {k[:3] for k in base.samples}
    if untracked:
        notes.append(f"not tracked, so not compared: {', '.join(sorted(untracked))}")
    if only_base:
        notes.append(f"{len(only_base)} cells only in BASE (not run in CURRENT), not compared")
    if only_current:
        notes.append(f"{len(only_current)} cells only in CURRENT (new), not compared")
    base_metrics, current_metrics = {k[3] for k in base.samples}, {k[3] for k in current.samples}
    for side, missing in (("BASE", base_metrics - current_metrics), ("CURRENT", current_metrics - base_metrics)):
        if missing:
            notes.append(f"metrics only in {side}, not compared: {', '.join(sorted(missing))}")
    busy = [busy_note(run) for run in (base, current)]
    notes += [n for n in busy if n]
    for run in (base, current):
        if run.meta and not run.meta.get("complete"):
            notes.append(f"{run.run_id} is incomplete ({run.meta.get('incomplete_because') or run.meta.get('interrupted', 'stopped before the end')})")
    return Outcome(worst_first(comparisons), list(dict.fromkeys(notes)), thresholds.alpha)


def _adjust_for_multiple_comparisons(comparisons: list[Comparison]) -> None:
    """Gives every statistically judged comparison its q-value over all of them. The verdicts stay
    per comparison at alpha, so that a lone regression with as few as 9 repetitions can still be
    flagged (the smallest p of 9 against 9 is 4e-5, which no correction over a thousand metrics
    lets through); the report says how many regressions survive the correction."""
    tested = [c for c in comparisons if c.p_value is not None and not c.kind]
    for c, q in zip(tested, benjamini_hochberg([c.p_value for c in tested])):
        c.q_value = q


BUSY_LOAD_PER_CORE = 1.0  # a load average above the core count: other work competed for the CPUs


def busy_note(run: Run) -> str | None:
    """Says when a run's machine was busy with other work (load average at its start or end above
    its core count): its wall-time figures then measure the other work too."""
    machine = run.meta.get("machine", {})
    cores = machine.get("cores") or 0
    loads = [values[0] for values in (machine.get("load_average_start"), machine.get("load_average_end")) if values]
    if not cores or not loads or max(loads) <= BUSY_LOAD_PER_CORE * cores:
        return None
    return (f"**{run.run_id} ran on a busy machine** (1-minute load average {' → '.join(f'{x:.1f}' for x in loads)} "
            f"on {cores} cores): other work competed for the CPUs, so its wall-time figures are slower and noisier "
            "than the code alone makes them; instruction counts are not affected")


def disagreements(comparisons: list[Comparison]) -> list[str]:
    """Cells where the instruction count and the repetition's wall time tell different stories:
    one moved (improved or regressed) and the other did not move the same way."""
    by_cell: dict[tuple, dict[str, Comparison]] = {}
    for c in comparisons:
        if c.key[3] in (instructions.INSTRUCTIONS, instructions.WALL):
            by_cell.setdefault(c.key[:3], {})[c.key[3]] = c
    lines = []
    for cell, pair in sorted(by_cell.items()):
        ins, wall = pair.get(instructions.INSTRUCTIONS), pair.get(instructions.WALL)
        if ins is None or wall is None or ins.verdict == wall.verdict:
            continue
        if {ins.verdict, wall.verdict} <= {"unchanged", "noisy"}:
            continue
        lines.append(f"{cell[0]}/{cell[1]} `{cell[2]}`: instructions {_signed(ins.change_pct)} ({ins.verdict}), "
                     f"wall time {_signed(wall.change_pct)} ({wall.verdict})")
    return lines


def _signed(pct: float | None) -> str:
    return verdict_table.signed_pct(pct) or "–"


# The verdict table's columns for a Mann-Whitney comparison of two runs' repetitions.
COLUMNS = ["verdict", "benchmark", "params", "metric", "base", "current", "ratio", "change", "p", "q", "cv", "detectable",
           "min effect", "n", "note"]
SPREAD_DIGITS = 1  # as the verdicts' notes quote the detectable effect


def markdown(outcome: Outcome, base: Run, current: Run, thresholds: Thresholds, differ: list[str], gate: bool) -> str:
    """`differ`: the conditions that differ between the runs (conditions.differences); `gate`: whether
    a regression fails the exit code anyway (--gate)."""
    counts = outcome.counts()
    lines = [f"# stallbench compare: {base.run_id} → {current.run_id}", "",
             f"{counts['regressed']} regressed, {counts['noisy']} noisy, {counts['unchanged']} unchanged, "
             f"{counts['improved']} improved (Mann–Whitney U, two-sided, alpha {thresholds.alpha:g}; minimum effect "
             f"{thresholds.min_effect_pct:g}% unless a metric says otherwise). Medians over repetitions; `cv` is the "
             "robust spread (1.4826·MAD/median) of the side with fewer repetitions (the noisier side when both have "
             "as many); `detectable` the change this spread lets the test find 80% of the time; `q` the p-value "
             "adjusted for every comparison made here (Benjamini–Hochberg).", ""]
    tested = sum(1 for c in outcome.comparisons if c.q_value is not None)
    if outcome.regressed and tested > 1:
        kept = len(outcome.regressed_after_correction)
        lines += [f"Of the {counts['regressed']} regressions, **{kept} {'is' if kept == 1 else 'are'} still "
                  f"significant** (q < {thresholds.alpha:g}) after correcting for the {tested} comparisons: testing "
                  f"that many metrics at p < {thresholds.alpha:g}, a few come out significant by chance alone. A "
                  "regression that does not stay significant is worth a second run before anyone acts on it.", ""]
    if differ:
        lines += ["**The two runs were measured under different conditions**, so a change below may come from them "
                  "rather than from the code:", ""] + [f"- {d}" for d in differ] + [""]
        lines += [f"The exit code is {'**1 on a regression anyway** (--gate)' if gate else '0 whatever the verdicts'}: "
                  "per-cell verdicts of runs measured apart under different conditions are not a gate; gate with "
                  "`stallbench ab BASE CURRENT`, whose paired rounds share the conditions (docs/tracking.md).", ""]
    for instructions, what in ((False, "the measured metrics' ratios of medians"),
                               (True, "the instruction counts' ratios of medians")):
        if summary_table := geomean.markdown(geomean.summarise(outcome.comparisons, instructions), what):
            lines += [summary_table]
    lines += [f"- {n}" for n in outcome.notes] + ([""] if outcome.notes else [])
    disagree = disagreements(outcome.comparisons)
    if disagree:
        lines += ["**Instructions and wall time disagree** (instruction counts are deterministic; wall time also "
                  "moves with the machine's load, caches and scheduling):", ""]
        lines += [f"- {d}" for d in disagree] + [""]
    lines.append(verdict_table.markdown(outcome.comparisons, COLUMNS, SPREAD_DIGITS))
    return "\n".join(lines)


CSV_COLUMNS = ["family", "benchmark", "params", "metric", "unit", "better", "base_n", "current_n", "base_median",
               "current_median", "ratio", "change_pct", "p_value", "q_value", "cv_pct", "detectable_pct", "min_effect_pct",
               "verdict", "kind", "note"]


def to_csv(outcome: Outcome, extra: tuple[str, ...] = ()) -> str:
    """CSV_COLUMNS of every comparison, then the `extra` attributes (empty where a comparison has none)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS + list(extra))
    for c in outcome.comparisons:
        row = [*c.key, c.unit, c.better, c.base_n, c.current_n, c.base_median, c.current_median, c.ratio,
               c.change_pct, c.p_value, c.q_value, c.cv_pct, c.detectable_pct, c.min_effect_pct, c.verdict, c.kind, c.note,
               *(getattr(c, name, None) for name in extra)]
        writer.writerow(["" if v is None else v for v in row])
    return out.getvalue()
