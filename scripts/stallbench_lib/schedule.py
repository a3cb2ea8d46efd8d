"""The order cells run in. Each step is one process of one cell (runner.py).

Sequential (smoke, quick, full): a step per cell, all its repetitions in one process.

Interleaved (nightly): a step per cell and repetition, in rounds: round r runs repetition r of
every cell, the cells in an order shuffled afresh each round. A slow spell of a shared machine
(a build next door, thermal throttling) then lands on a different cell each time instead of on
every repetition of one cell, so it widens the spread, which the significance test sees, rather
than shifting a median, which it cannot. Google Benchmark's --benchmark_enable_random_interleaving
does the same inside one process; it does not apply here, where a process holds one cell (the
price of the isolation: a cell's setup runs again each round, outside the measured repetition).
The seed is kept in meta.json so the order can be replayed."""
import random
from dataclasses import dataclass

from .plan import Cell
from .rundir import slug


@dataclass(frozen=True)
class Step:
    cell: int                # index into the plan
    repetitions: int         # run in this process
    round: int | None = None # interleaved: the repetition index this step's rows get


def sequential(cells: int, repetitions: int) -> list[Step]:
    return [Step(i, repetitions) for i in range(cells)]


def interleaved(cells: int, repetitions: int, seed: int) -> list[Step]:
    shuffler = random.Random(seed)
    steps = []
    for r in range(repetitions):
        order = list(range(cells))
        shuffler.shuffle(order)
        steps += [Step(i, 1, r) for i in order]
    return steps


def cell_slug(index: int, cell: Cell) -> str:
    """The stem of a cell's files in raw/: its place in the plan, benchmark and parameters."""
    return slug(f"{index + 1:04d}-{cell.benchmark.family}-{cell.benchmark.name}-" +
                "-".join(f"{k}={v}" for k, v in cell.params.items()))


def step_slug(step: Step, cell: Cell) -> str:
    """The stem of one step's files in raw/ (Google Benchmark's JSON, the log): its cell's, and its
    round when the cells run in rounds."""
    return cell_slug(step.cell, cell) + ("" if step.round is None else f"-round{step.round:03d}")
