"""The regex command's plan: for each pattern variant, lengths in increasing order, every engine at
each length (so the engines meet the machine's noise side by side). An engine whose cell at some
length did not finish (over the budget, guarded, crashed, rejected) is not run at longer lengths
of that variant: its curve is censored there, and the censoring is recorded. Once every planned
cell has run, the curves are refined (refine.py): lengths inside a turn too few points passed,
and a second measurement of the cells of a growth verdict the machine's noise could have made."""
from dataclasses import dataclass, field

from ... import runtimes
from ...catalogue import Benchmark
from ...plan import Cell
from ...runner import CellResult
from ...tidy import Row
from . import refine
from .curves import curves
from .patterns import Variant


@dataclass
class Censoring:
    pattern: str
    engine: str
    at_length: int
    status: str
    skipped_lengths: list[int] = field(default_factory=list)


@dataclass
class CellTime:
    label: str
    seconds: float   # the cell's wall time, its first repetition's start (the runtime started) to exit
    status: str


class Escalation:
    def __init__(self, match: Benchmark, variants: list[Variant], engines: list[str], lengths: list[int] | None,
                 nodes: tuple = (), inputs: dict[str, str] | None = None, only: set[tuple[str, str]] | None = None):
        """`lengths` for every variant instead of each one's own; `nodes` the Node lines of the
        engines named node@LINE (each cell carries its line as node_line); `inputs` the family's (the catalogue file, the budget); `only` the
        (variant, engine) pairs to escalate (default: all)."""
        self._cell = lambda variant, engine, n: Cell(match, {**runtimes.params_of(engine, "engine"), "pattern": variant,
                                                             "length": str(n)}, nodes, dict(inputs or {}))
        self.cells: list[Cell] = [self._cell(v.name, e, n) for v in variants for n in v.ladder(lengths)
                                  for e in engines if only is None or (v.name, e) in only]
        self._offsets = {v.name: v.pattern.fixed for v in variants}
        self._whole = {v.name: v.pattern.whole for v in variants}
        self._stops: dict[tuple[str, str], Censoring] = {}
        self._rows: list[Row] = []
        self._passes = 0
        self.times: list[CellTime] = []
        self.refined: list[dict] = []  # what the refinement passes added, for meta.json

    @staticmethod
    def _key(cell: Cell) -> tuple[str, str] | None:
        return (cell.params["pattern"], runtimes.label(cell.params, "engine")) if cell.benchmark.name == "match" else None

    def skip(self, cell: Cell) -> str | None:
        stop = self._stops.get(self._key(cell))
        if stop is None or int(cell.params["length"]) < stop.at_length:  # a refinement inside the curve runs
            return None
        stop.skipped_lengths.append(int(cell.params["length"]))
        return f"censored: {stop.status} at length {stop.at_length}"

    def finished(self, cell: Cell, result: CellResult) -> None:
        # What the budget covers: from the first repetition's start (the engine's runtime started) to exit.
        self.times.append(CellTime(cell.label(), result.seconds - result.startup_s, result.status))
        key = self._key(cell)
        if key is not None:
            self._rows += result.rows
        length = int(cell.params["length"]) if key is not None else 0
        if key is not None and result.status != "ok" and (key not in self._stops or length < self._stops[key].at_length):
            # A refinement below the stop that fails moves it: longer refinements are then skipped.
            skipped = self._stops[key].skipped_lengths if key in self._stops else []
            self._stops[key] = Censoring(key[0], key[1], length, result.status, skipped)

    def more(self) -> list[tuple[Cell, int | None]]:
        """The refinement's cells, with the repetition index their rows get (None: a new length)."""
        if self._passes >= refine.PASSES:
            return []
        self._passes += 1
        extra = []
        for (variant, engine), curve in sorted(curves(self._rows, self._offsets).items()):
            measured = {n for n, _ in curve.points}
            for n in sorted({self._whole[variant](n) for n in refine.turn_lengths(curve)} - measured
                            - {curve.stop.length if curve.stop else None}):
                extra.append((self._cell(variant, engine, n), None))
                self.refined.append({"pattern": variant, "engine": engine, "length": n, "why": "inside the turn"})
            for n in refine.repeat_lengths(curve):
                extra.append((self._cell(variant, engine, n), len(curve.measured[n])))
                self.refined.append({"pattern": variant, "engine": engine, "length": n,
                                     "why": f"measured again: {curve.verdict} from one measurement per length"})
        return extra

    def censoring(self) -> list[Censoring]:
        return sorted(self._stops.values(), key=lambda c: (c.pattern, c.engine))
