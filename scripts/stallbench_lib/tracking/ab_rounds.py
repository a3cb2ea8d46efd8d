"""The measuring part of `ab`: the cells both revisions have, run in paired rounds.

Each round visits the cells still running in a shuffled order; for each, BASE and CURRENT run back
to back, each in its own process (runner.run_cell: the same isolation, timeouts and failure rows
as `run`), the two in a random order. Whatever the machine does during those seconds (a build
next door, a frequency change) lands on both sides of the pair alike, and the random order makes
it as likely to favour one side as the other, so it cancels in the ratio instead of looking like
a change in the code. With `duet` the two processes of a round run at the same time instead (the
duet method of Bulej et al., ICPE 2020): interference that comes and goes within a second, which
back-to-back runs see on one side only, then hits both.

Adaptive rounds: a cell stops once it has the rounds a lone regression needs to survive the
correction for every metric (paired.rounds_needed) and the expected interval of each of its
tracked metrics is narrower than that metric's minimum effect; cheap, stable cells stop early and
noisy ones get the rounds, until --max-rounds or the time budget. The rule looks at |ratio|
only, never at which side was faster (see paired.py), so stopping does not bias the test. A cell
whose process fails on either side is not run again (its verdict is the failure).

Each side's rows go to a run directory of its own (results.csv, meta.json, raw/), rewritten after
every round, so the two halves stay ordinary runs that compare, export and the store read."""
import os
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from .. import children, meta as metadata
from ..catalogue import Family
from ..medians import median
from ..parameters import Params
from ..plan import Cell
from ..rundir import RunDir
from ..runner import run_cell
from ..schedule import cell_slug
from ..tidy import Row
from . import paired, samples
from .calibration import INJECT_VARIABLE
from .revisions import Side

ROLES = ("base", "current")
CellKey = tuple[str, str, str]  # family, benchmark, params


@dataclass
class Pair:
    key: CellKey
    cells: dict[str, Cell]                  # role -> that side's cell
    index: int                              # for the raw files' names
    rounds: int = 0
    failed: str = ""                        # why it is not run again
    settled: bool = False
    rows: dict[str, list[Row]] = field(default_factory=lambda: {r: [] for r in ROLES})


@dataclass
class Settings:
    min_rounds: int
    max_rounds: int
    budget_s: float
    min_effect: Callable[[str, float], float]  # (metric, declared pct) -> pct: Thresholds.min_effect
    declarations: dict[str, dict[str, dict]]
    inject: str | None = None               # FAMILY/BENCH:PCT for CURRENT only (calibration)
    duet: bool = False                      # BASE and CURRENT of a round at the same time, not back to back
    seed: int = field(default_factory=lambda: random.SystemRandom().randrange(2**31))


@dataclass
class Measured:
    pairs: list[Pair]
    runs: dict[str, RunDir]
    rounds_done: int
    budget_spent: bool
    only: dict[str, int]                    # role -> cells only that side has


class _Quiet:
    """run_cell reports repetitions to a progress display; ab prints one line per round instead."""

    def repetition(self, _):
        pass

    def tick(self):
        pass


def pair_cells(plans: dict[str, list[Cell]]) -> tuple[list[Pair], dict[str, int]]:
    keyed = {role: {(c.benchmark.family, c.benchmark.name, str(Params(c.params))): c for c in cells}
             for role, cells in plans.items()}
    common = [k for k in keyed["current"] if k in keyed["base"]]
    pairs = [Pair(k, {role: keyed[role][k] for role in ROLES}, i) for i, k in enumerate(common)]
    return pairs, {role: len(set(keyed[role]) - set(common)) for role in ROLES}


def tracked_metrics(pairs: list[Pair], declarations: dict) -> int:
    """How many cell x metric pairs will be tested: what the correction divides alpha by."""
    return sum(sum(1 for d in declarations.get(f"{p.key[0]}/{p.key[1]}", {}).values() if d.get("tracked", True))
               for p in pairs)


def paired_values(base: list[Row], current: list[Row]) -> dict[tuple, list[tuple[float, float]]]:
    """(family, benchmark, params, metric) -> (base, current) per round both sides measured; a metric
    with several values in one repetition counts by their median, as in compare."""
    per_side = []
    for rows in (base, current):
        found: dict[tuple, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
        for r in rows:
            if r.status == "ok":
                found[samples.key_of(r)][r.repetition].append(r.value)
        per_side.append(found)
    result = {}
    for key in per_side[0].keys() & per_side[1].keys():
        b, c = per_side[0][key], per_side[1][key]
        result[key] = [(median(b[i]), median(c[i])) for i in sorted(b.keys() & c.keys())]
    return result


def _settled(pair: Pair, settings: Settings) -> bool:
    if pair.rounds < settings.min_rounds:
        return False
    for key, values in paired_values(pair.rows["base"], pair.rows["current"]).items():
        declared = settings.declarations.get(f"{key[0]}/{key[1]}", {}).get(key[3], {})
        if not declared.get("tracked", True):
            continue
        limit = settings.min_effect(key[3], declared.get("min_effect_pct", 0))
        if paired.expected_width_pct(paired.log_ratios(values)) >= limit:
            return False
    return True


def _run_side(pair: Pair, role: str, run: RunDir, settings: Settings) -> None:
    cell = pair.cells[role]
    name = f"{cell_slug(pair.index, cell)}-round{pair.rounds:03d}"
    env = {**os.environ, INJECT_VARIABLE: settings.inject} if role == "current" and settings.inject else None
    result = run_cell(cell, run.run_id, run.raw, name, 1, _Quiet(), env=env)
    for row in result.rows:
        row.repetition = pair.rounds
    pair.rows[role] += result.rows
    run.rows += result.rows
    if result.status != "ok" and not pair.failed:
        pair.failed = f"{role}: {result.status}: {result.detail}"


def _run_pair(pair: Pair, order: list[str], runs: dict[str, RunDir], settings: Settings) -> None:
    """Back to back in `order`, or (duet) both at once, started in `order`. A duet's threads are
    daemons: if ab is stopped, their exit takes the two processes down (PR_SET_PDEATHSIG)."""
    if not settings.duet:
        for role in order:
            _run_side(pair, role, runs[role], settings)
        return
    threads = [children.thread(_run_side, pair, role, runs[role], settings) for role in order]
    for thread in threads:
        thread.join()


def create_runs(sides: dict[str, Side], families: dict[str, list[Family]], out, base_meta: dict) -> dict[str, RunDir]:
    from ..execute import run_meta

    runs = {}
    for role in ROLES:
        side = sides[role]
        meta = run_meta(families[role], side.build, base_meta)
        meta["git"] = side.git
        meta["ab"] = {**meta.get("ab", {}), "side": role, "given": side.given}
        runs[role] = RunDir.create(out / role, f"{metadata.new_run_id(side.git, base_meta.get('shard'))}-{role}", meta)
    return runs


def measure(pairs: list[Pair], runs: dict[str, RunDir], settings: Settings) -> tuple[int, bool]:
    """Runs the rounds; returns how many rounds ran and whether the budget ended them."""
    shuffler = random.Random(settings.seed)
    deadline = time.monotonic() + settings.budget_s
    started = time.monotonic()
    budget_spent = False
    rounds = 0
    while rounds < settings.max_rounds:
        active = [p for p in pairs if not p.settled and not p.failed]
        if not active:
            break
        shuffler.shuffle(active)
        for pair in active:
            if time.monotonic() > deadline:
                budget_spent = True
                break
            order = list(ROLES)
            shuffler.shuffle(order)
            _run_pair(pair, order, runs, settings)
            pair.rounds += 1
            pair.settled = not pair.failed and _settled(pair, settings)
        for run in runs.values():
            run.add([])  # rewrites results.csv with every row so far
            run.save()
        rounds += 1
        left = sum(1 for p in pairs if not p.settled and not p.failed)
        print(f"stallbench: ab: round {rounds}: {len(active)} cells ran, {left} still running, "
              f"{sum(p.settled for p in pairs)} settled, {sum(bool(p.failed) for p in pairs)} failed · "
              f"{(time.monotonic() - started) / 60:.1f} min", file=sys.stderr, flush=True)
        if budget_spent:
            break
    return rounds, budget_spent


INSTRUCTION_REPETITIONS = 5  # deterministic counts: 5 against 5 can reach p < 0.01 (Mann-Whitney)


def count_instructions(pairs: list[Pair], runs: dict[str, RunDir], settings: Settings) -> int:
    """After the rounds: the CPU-bound cells of both sides again under callgrind (instructions.py),
    INSTRUCTION_REPETITIONS each, beside the wall times. Returns how many cells were counted."""
    from .. import instructions

    chosen = [p for p in pairs if p.cells["current"].benchmark.instructions and not p.failed]
    for k, pair in enumerate(chosen, 1):
        for role in ROLES:
            run, cell = runs[role], pair.cells[role]
            instructions.declare(run.meta["metrics"], [cell])
            if role == "current" and settings.inject:  # one process at a time here: the environment is ours
                os.environ[INJECT_VARIABLE] = settings.inject
            try:
                rows, _, _, _ = instructions.count_cell(cell, run.run_id, run.raw, cell_slug(pair.index, cell),
                                                        INSTRUCTION_REPETITIONS, _Quiet())
            finally:
                os.environ.pop(INJECT_VARIABLE, None)
            pair.rows[role] += rows
            run.rows += rows
        print(f"stallbench: ab: instructions counted for {k}/{len(chosen)} cells", file=sys.stderr, flush=True)
    return len(chosen)


def failed_on_both_sides(pairs: list[Pair]) -> list[str]:
    """"FAMILY/BENCH PARAMS: STATUS: DETAIL" for each cell neither side could measure: no verdict can
    come from it (it is `unchanged`, still failing), so a report says so rather than lose it quietly."""
    found = []
    for pair in pairs:
        failed = {role: [r for r in pair.rows[role] if r.status != "ok"] for role in ROLES}
        if all(failed.values()):
            row = failed["current"][0]
            found.append(f"{pair.key[0]}/{pair.key[1]} {pair.key[2]}: {row.status}: {row.detail}")
    return found


def finish(runs: dict[str, RunDir], pairs: list[Pair], rounds: int, budget_spent: bool, settings: Settings) -> None:
    for run in runs.values():
        run.meta.update(ended_at=metadata.now_iso(), complete=True)
        run.meta["machine"]["load_average_end"] = list(os.getloadavg())
        run.meta["cells"] = {"planned": len(pairs), "ok": sum(1 for p in pairs if not p.failed),
                             "failed": sum(1 for p in pairs if p.failed), "findings": 0}
        run.meta["ab"].update(rounds=rounds, budget_spent=budget_spent, min_rounds=settings.min_rounds,
                              max_rounds=settings.max_rounds, seed=settings.seed)
        run.add([])
        run.save()
