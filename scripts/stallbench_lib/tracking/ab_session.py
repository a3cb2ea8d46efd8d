"""One paired A/B, from two built sides to the verdict of every tracked metric: the cells both
sides have (the grid's), their paired rounds (ab_rounds) into a run directory per side, and the
verdicts decided together (ab_verdict). `ab` runs one; `bisect` one per step, narrowed by a Focus
to the cells and metrics of the regression it follows."""
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .. import build, catalogue, instructions, npm_sets
from ..catalogue import Family
from ..errors import UsageError
from ..execute import end_interrupted
from ..plan import make_plan, select
from ..profiles import Profile
from ..rundir import RunDir
from . import ab_rounds, ab_verdict, paired
from .ab_rounds import CellKey, Pair, Settings
from .comparison import Outcome, Thresholds
from .revisions import Side
from .samples import samples_from_rows
from .verdict import judge, worst_first


@dataclass(frozen=True)
class Grid:
    """The cells asked for: a profile's grid after --filter and --set, with these Node lines."""
    profile: Profile
    filter: str | None
    sets: dict[str, list[str]]
    nodes: tuple = ()


@dataclass(frozen=True)
class Rounds:
    """How long the rounds go on and what is judged at their end."""
    limits: Thresholds                  # alpha and the minimum effects
    min_rounds: int | None              # None: what a lone regression needs to survive the correction
    max_rounds: int
    budget_minutes: float               # for the rounds, builds not counted
    inject: str | None = None           # FAMILY/BENCH:PCT for CURRENT only (calibration)
    duet: bool = False
    instructions: bool = False          # count the CPU-bound cells' instructions after the rounds
    least_rounds: int = 1               # the default min_rounds is at least this (bisect's steps)
    settle_share: float = 1.0           # a cell stops once its expected interval is narrower than this
                                        # share of the minimum effect (ab_rounds: 1)


@dataclass(frozen=True)
class Focus:
    """Part of the grid: the cells kept and the metrics judged (None: all of them). Metrics left out
    are neither waited for by the adaptive rounds nor counted by the correction."""
    cells: frozenset[CellKey] | None = None
    metrics: frozenset[str] | None = None
    # A sharded ab (--shard K/N): this machine's part of the pairs, and the `shard` record for its
    # meta.json. The minimum rounds stay those of the whole group: the merge corrects over all of it.
    split: Callable[[list[Pair]], tuple[list[Pair], dict]] | None = None


@dataclass
class Session:
    outcome: Outcome
    pairs: list[Pair]
    runs: dict[str, RunDir]
    settings: Settings
    rounds: int
    budget_spent: bool
    minutes: float                      # the rounds, the instruction counts and the verdicts
    callgrind_minutes: float            # of which counting instructions under callgrind
    per_round: dict                     # (family, benchmark, params, metric) -> (base, current) per round


def families_of(sides: dict[str, Side]) -> dict[str, list[Family]]:
    return {role: catalogue.load(build.bench_binaries(side.build)) for role, side in sides.items()}


def _plans(sides, families, grid: Grid, notes) -> dict:
    plans = {"current": make_plan(families["current"], grid.profile, grid.filter, grid.sets, grid.nodes)}
    try:
        plans["base"] = make_plan(families["base"], grid.profile, grid.filter, grid.sets, grid.nodes)
    except UsageError as e:  # a benchmark or parameter BASE predates: its cells are CURRENT's alone
        plans["base"] = []
        notes.append(f"BASE {sides['base'].given}: {e}")
    return plans


def _focused(declarations: dict, metrics: frozenset[str] | None) -> dict:
    """The declarations with every metric outside `metrics` untracked."""
    if metrics is None:
        return declarations
    return {bench: {name: {**d, "tracked": d.get("tracked", True) and name in metrics} for name, d in found.items()}
            for bench, found in declarations.items()}


def _pairs(sides, families, grid: Grid, focus: Focus, notes) -> tuple[list[Pair], dict]:
    """The cells both sides have (within the focus) and the metric declarations of both sides."""
    pairs, only = ab_rounds.pair_cells(_plans(sides, families, grid, notes))
    if focus.cells is not None:
        pairs = [p for p in pairs if p.key in focus.cells]
    if not pairs:
        raise UsageError(f"BASE and CURRENT have no cell in common for this profile and filter "
                         f"({only['base']} cells only in BASE, {only['current']} only in CURRENT)")
    notes += [f"{n} cells only in {role.upper()}, not compared" for role, n in only.items() if n]
    declared = {**catalogue.metric_declarations(catalogue.all_benchmarks(families["base"])),
                **catalogue.metric_declarations(catalogue.all_benchmarks(families["current"]))}
    declarations = _focused(declared, focus.metrics)
    if focus.metrics is not None and not ab_rounds.tracked_metrics(pairs, declarations):
        tracked = sorted({name for p in pairs for name, d in declared.get(f"{p.key[0]}/{p.key[1]}", {}).items()
                          if d.get("tracked", True)})
        raise UsageError(f"no cell compared tracks the metric {', '.join(sorted(focus.metrics))} "
                         f"(valid: {', '.join(tracked) or 'none: these cells track no metric'})")
    return pairs, declarations


def verdicts(pairs, declarations, limits: Thresholds, notes) -> tuple[Outcome, dict]:
    """Wall-time metrics by their paired rounds; instruction counts, measured apart and deterministic,
    by compare's rank test in their own family (so the exit code's false-alarm rate is at most
    alpha per family). Also returns every metric's (base, current) per round, for the geomean."""
    measured, counted, per_round = [], [], {}
    for pair in pairs:
        base, current = (samples_from_rows(pair.rows[role]) for role in ab_rounds.ROLES)
        values = ab_rounds.paired_values(pair.rows["base"], pair.rows["current"])
        per_round.update(values)
        for key in sorted(base.keys() & current.keys()):
            declared = {**instructions.DECLARATIONS, **declarations.get(f"{key[0]}/{key[1]}", {})}.get(key[3], {})
            if not declared.get("tracked", True):
                continue
            better, limit = declared.get("better", "lower"), limits.min_effect(key[3], declared.get("min_effect_pct", 0))
            if key[3] == instructions.INSTRUCTIONS:
                counted.append(judge(key, base[key], current[key], better, limit, limits.alpha))
            else:
                measured.append(ab_verdict.measure(key, current[key].unit or base[key].unit, base[key], current[key],
                                                   values.get(key, []), better, limit, limits.alpha))
    outcome = ab_verdict.decide(measured, limits.alpha, notes)
    if counted:
        notes.append(f"instruction counts ({len(counted)} cells): compare's Mann–Whitney test on "
                     f"{ab_rounds.INSTRUCTION_REPETITIONS} counts a side, their own family of tests")
        outcome.comparisons = worst_first(outcome.comparisons + counted)
    return outcome, per_round


def run(sides: dict[str, Side], families: dict[str, list[Family]], grid: Grid, rules: Rounds, out: Path,
        meta: dict, notes: list[str], focus: Focus = Focus()) -> Session:
    """The paired rounds of BASE and CURRENT into out/base and out/current (their meta.json gets
    `meta` beside the grid), and the verdicts. Exit 2 (UsageError) before anything is written when
    the sides have no cell in common; 130/143 when interrupted, keeping the rounds done."""
    for listed in families.values():  # as `run` does: the sets the selected families need, into the checkout's folder
        npm_sets.provide(listed, select(listed, grid.filter))
    pairs, declarations = _pairs(sides, families, grid, focus, notes)
    min_rounds = rules.min_rounds or max(rules.least_rounds, paired.rounds_needed(
        ab_rounds.tracked_metrics(pairs, declarations), rules.limits.alpha))
    part = {}
    if focus.split:
        pairs, record = focus.split(pairs)
        part = {"shard": record}
    limits, share = rules.limits, rules.settle_share
    settling = limits.min_effect if share == 1 else lambda metric, declared: share * limits.min_effect(metric, declared)
    settings = Settings(min(min_rounds, rules.max_rounds), rules.max_rounds, rules.budget_minutes * 60,
                        settling, declarations, rules.inject, rules.duet)
    runs = ab_rounds.create_runs(sides, families, out, {
        "profile": grid.profile.name, "filter": grid.filter, "sets": grid.sets,
        "nodes": [n.meta() for n in grid.nodes], **meta, **part})
    started = time.monotonic()
    counting = 0.0
    try:
        rounds, spent = ab_rounds.measure(pairs, runs, settings)
        if rules.instructions:
            counting = time.monotonic()
            ab_rounds.count_instructions(pairs, runs, settings)
            counting = time.monotonic() - counting
    except KeyboardInterrupt as stop:
        end_interrupted(list(runs.values()), stop, f"{out} keeps the finished rounds; both runs are marked incomplete")
    ab_rounds.finish(runs, pairs, rounds, spent, settings)
    if spent:
        unsettled = sum(1 for p in pairs if not p.settled and not p.failed)
        notes.append(f"the {rules.budget_minutes:g}-minute budget ended the rounds with {unsettled} cells not yet settled")
    if unmeasured := ab_rounds.failed_on_both_sides(pairs):
        notes.append(f"**{len(unmeasured)} cells failed on both sides**, so nothing about them is compared: "
                     + "; ".join(unmeasured[:5]) + (" …" if len(unmeasured) > 5 else ""))
    outcome, per_round = verdicts(pairs, declarations, rules.limits, notes)
    return Session(outcome, pairs, runs, settings, rounds, spent, (time.monotonic() - started) / 60, counting / 60,
                   per_round)
