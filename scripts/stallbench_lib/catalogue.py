"""What the bench binaries declare (--stallbench-describe): families and their inputs, benchmarks,
parameter grids per profile tier (and which parameters take one value per process), metrics with
units and directions. The orchestrator knows no family or parameter by name."""
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from . import children, contract, runtimes
from .errors import UsageError

DESCRIBE_TIMEOUT_S = 60  # a bench binary answering --stallbench-describe or listing its cells


@dataclass(frozen=True)
class Param:
    name: str
    values: list[str]
    smoke: list[str]
    full: list[str]
    choices: list[str]
    range: list[int] | None
    env: str    # the environment variable the harness exports a per-process value to ("": none)
    doc: str
    nightly: list[str] | None = None  # the nightly profile's grid (a binary always gives it)
    work: bool = False                # the work is proportional to it (calibrate's A/B knob scales it)
    node_values: list[str] = field(default_factory=list)  # values naming Node: one cell per chosen line, its line in node_line
    per_process: bool = False         # one value per process: the plan starts one process per value

    def grid(self, tier: str) -> list[str]:
        """The grid of a profile tier (smoke, values, nightly, full), as the binary declared it: the
        harness resolves every fallback (describe.cc)."""
        return getattr(self, tier)

    def valid_text(self) -> str:
        if self.name == runtimes.NODE_LINE:
            return "a Node line the run chose"
        if self.range:
            return f"integers {self.range[0]}-{self.range[1]}"
        if self.choices:
            return ", ".join(self.choices)
        return "any word"


@dataclass(frozen=True)
class Metric:
    name: str
    unit: str
    better: str  # "lower" or "higher"
    tracked: bool
    doc: str
    min_effect_pct: float = 0.0  # compare's minimum effect for this metric; 0: compare's default


@dataclass
class Benchmark:
    family: str
    name: str
    doc: str
    params: list[Param]
    metrics: list[Metric]
    timeout_s: float
    binary: Path
    instructions: bool = False  # CPU-bound: `run --instructions` counts its instructions under callgrind
    outcomes: tuple[str, ...] = ()  # statuses that are findings of this benchmark, not failures of the run
    missing: str = ""  # why it cannot run on this machine (a browser it drives is not installed); "" when it can
    reserves_address_space: bool = False  # its runtime cannot start under an address-space cap: cap its data instead
    shares_process: bool = False  # its cells may run one after another in one serving process (served_cells.py)
    constants: dict[str, float] = field(default_factory=dict)  # what its report reads besides rows (budget_ms)
    measured_by: str = ""  # the command that measures it (doctor) when no cell can: it has no cells (protocol 4)

    @property
    def full_name(self) -> str:
        return f"{self.family}/{self.name}"

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def metric(self, name: str) -> Metric | None:
        return next((m for m in self.metrics if m.name == name), None)


@dataclass(frozen=True)
class Input:
    """A family-wide value its own command gives on the bench's command line (a catalogue file, a
    budget): not a parameter, so in no cell's params."""
    name: str
    doc: str
    fallback: str  # the bench's value when none is given ("": none)


@dataclass
class Family:
    name: str
    doc: str
    binary: Path
    versions: dict[str, str]
    benchmarks: list[Benchmark] = field(default_factory=list)
    npm_sets: list[str] = field(default_factory=list)  # pinned npm sets its benchmarks use (installed on demand)
    os_packages: list[str] = field(default_factory=list)  # scripts/packages lists its optional parts come from
    inputs: list[Input] = field(default_factory=list)
    # What the family declares for its own command and report besides benchmarks (the regex
    # family's `engines`): table name -> rows of named fields.
    tables: dict[str, list[dict]] = field(default_factory=dict)
    declared: dict = field(default_factory=dict)  # the description as the binary wrote it (list --json)


def input_args(inputs: dict[str, str]) -> list[str]:
    """Values for a family's declared inputs as the bench binaries take them."""
    return [f"--stallbench-input={name}={value}" for name, value in inputs.items()]


def _family(data: dict, binary: Path) -> Family:
    """A checked description (contract.py's `describe`) as dataclasses: its fields by name, as the
    schema spells them."""
    family = Family(data["family"], data["doc"], binary, data["versions"], npm_sets=data["npm_sets"],
                    os_packages=data["os_packages"], inputs=[Input(**i) for i in data["inputs"]],
                    tables={name: table["rows"] for name, table in data["tables"].items()}, declared=data)
    for b in data["benchmarks"]:
        family.benchmarks.append(Benchmark(**{
            **b, "family": family.name, "binary": binary, "outcomes": tuple(b["outcomes"]),
            "params": [Param(**p) for p in b["params"]], "metrics": [Metric(**m) for m in b["metrics"]],
            "constants": {c["name"]: c["value"] for c in b["constants"]}}))
    return family


def describe(binary: Path, inputs: dict[str, str] | None = None) -> Family:
    """The family `binary` declares; `inputs` when its benchmarks depend on them (the catalogue a
    grid's choices come from)."""
    try:
        # No RLIMIT_AS (the resident cap stays): a description may start the program its family drives
        # to ask its version, and Chromium under RLIMIT_AS dies before printing it (meta.json then
        # said "unknown" for the browser every cell had just run).
        result = children.run([str(binary), "--stallbench-describe", *input_args(inputs or {})], text=True,
                              timeout_s=DESCRIBE_TIMEOUT_S, reserves_address_space=True)
    except subprocess.TimeoutExpired:
        raise UsageError(f"{binary} --stallbench-describe did not answer within {DESCRIBE_TIMEOUT_S} s")
    if result.returncode != 0:
        raise UsageError(f"{binary} --stallbench-describe failed: {result.stderr.strip() or result.returncode}")
    try:
        return _family(contract.parse(result.stdout, "describe", binary.name), binary)
    except contract.ProtocolError as e:
        raise UsageError(str(e)) from None


def load(binaries: dict[str, Path]) -> list[Family]:
    return [describe(path) for _, path in sorted(binaries.items())]


def all_benchmarks(families: list[Family]) -> list[Benchmark]:
    return [b for f in families for b in f.benchmarks]


def benchmark_declarations(benchmarks: list[Benchmark]) -> dict[str, dict]:
    """family/benchmark -> what its report reads besides the rows: each parameter's choices and
    Node values, and the constants (budgets). meta.json keeps it, so a report is drawn from the
    declarations of the binaries that made the run, not from names repeated in Python."""
    return {b.full_name: {"params": {p.name: {"choices": p.choices, "node_values": p.node_values} for p in b.params},
                          "constants": dict(b.constants)}
            for b in benchmarks}


def table_declarations(families: list[Family]) -> dict[str, list[dict]]:
    """family/table -> rows: what meta.json keeps of the families' tables, so a report reads the
    engines (and the like) of the binaries that made the run."""
    return {f"{f.name}/{name}": rows for f in families for name, rows in f.tables.items()}


def metric_declarations(benchmarks: list[Benchmark]) -> dict[str, dict[str, dict]]:
    """family/benchmark -> metric -> {unit, better, tracked, min_effect_pct}: what meta.json keeps so
    compare and history can read a run without the binaries that made it."""
    return {b.full_name: {m.name: {"unit": m.unit, "better": m.better, "tracked": m.tracked,
                                   "min_effect_pct": m.min_effect_pct} for m in b.metrics}
            for b in benchmarks}
