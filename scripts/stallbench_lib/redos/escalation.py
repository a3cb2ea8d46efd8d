"""The regex command's plan: for each pattern variant, lengths in increasing order, every engine at
each length (so the engines meet the machine's noise side by side). An engine whose cell at some
length did not finish (over the budget, guarded, crashed, rejected) is not run at longer lengths
of that variant: its curve is censored there, and the censoring is recorded."""
from dataclasses import dataclass, field

from ..catalogue import Benchmark
from ..plan import Cell
from ..runner import CellResult
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
    seconds: float   # the cell's wall time, process start to exit
    status: str


class Escalation:
    def __init__(self, match: Benchmark, variants: list[Variant], engines: list[str], lengths: list[int] | None,
                 nodes: tuple = (), inputs: dict[str, str] | None = None):
        """`lengths` for every variant instead of each one's own; `nodes` the Node lines of the
        engines named node@LINE; `inputs` the family's (the catalogue file, the budget)."""
        self.cells: list[Cell] = []
        for v in variants:
            for n in lengths or v.lengths:
                self.cells += [Cell(match, {"engine": e, "pattern": v.name, "length": str(n)}, nodes, dict(inputs or {}))
                               for e in engines]
        self._stops: dict[tuple[str, str], Censoring] = {}
        self.times: list[CellTime] = []

    @staticmethod
    def _key(cell: Cell) -> tuple[str, str] | None:
        return (cell.params["pattern"], cell.params["engine"]) if cell.benchmark.name == "match" else None

    def skip(self, cell: Cell) -> str | None:
        stop = self._stops.get(self._key(cell))
        if stop is None:
            return None
        stop.skipped_lengths.append(int(cell.params["length"]))
        return f"censored: {stop.status} at length {stop.at_length}"

    def finished(self, cell: Cell, result: CellResult) -> None:
        self.times.append(CellTime(cell.label(), result.seconds, result.status))
        key = self._key(cell)
        if key is not None and result.status != "ok" and key not in self._stops:
            self._stops[key] = Censoring(key[0], key[1], int(cell.params["length"]), result.status)

    def censoring(self) -> list[Censoring]:
        return sorted(self._stops.values(), key=lambda c: (c.pattern, c.engine))
