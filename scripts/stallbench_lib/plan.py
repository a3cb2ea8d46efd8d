"""From a profile, a filter and --set overrides to the list of cells to run, one process each.

The grid product and which combinations are valid are the bench binary's business: it is asked
for its cells (--stallbench-cells, a JSON document of the protocol, contract.py), once per
combination of its per-process parameters' values (each process takes one), so a grid is declared
once, in C++. Values are validated by the binary too; its one-line complaint becomes ours."""
import itertools
import re
import subprocess
import sys
from dataclasses import dataclass, field

from . import children, contract, runtimes
from .catalogue import DESCRIBE_TIMEOUT_S, Benchmark, Family, all_benchmarks, input_args
from .errors import UsageError
from .node import Node
from .profiles import Profile
from .parameters import Params


def node_args(nodes: tuple[Node, ...]) -> list[str]:
    """The chosen Node lines as the bench binaries take them: a parameter value naming Node becomes
    one cell per line (runtime=node;node_line=26)."""
    return [f"--stallbench-node={n.line}={n.path}" for n in nodes]


@dataclass
class Cell:
    benchmark: Benchmark
    params: dict[str, str]  # every parameter, per-process ones included
    nodes: tuple[Node, ...] = ()  # the Node lines chosen for the run
    inputs: dict[str, str] = field(default_factory=dict)  # the family's inputs given by its command

    @property
    def key(self) -> str:
        """The cell as its rows name it, one string: 'family/benchmark k=v;k=v'."""
        return f"{self.benchmark.full_name} {Params(self.params)}"

    def label(self) -> str:
        """As the progress shows it: a Node cell's line beside its value, as a person writes it (runtime=node@26)."""
        node = {p.name for p in self.benchmark.params if p.node_values}
        shown = " ".join(f"{k}={runtimes.label(self.params, k) if k in node else v}" for k, v in self.params.items()
                         if k != runtimes.NODE_LINE)
        return f"{self.benchmark.full_name} {shown}"

    @property
    def runs_node(self) -> bool:
        """A Node cell (it has a node_line): its work runs in a Node child."""
        return runtimes.NODE_LINE in self.params

    def grid_args(self) -> list[str]:
        return [f"--stallbench-grid={self.benchmark.name}.{k}={v}" for k, v in self.params.items()] + \
            node_args(self.nodes) + input_args(self.inputs)


def parse_sets(sets: list[str]) -> dict[str, list[str]]:
    parsed = {}
    for item in sets:
        name, eq, values = item.partition("=")
        if not eq or not name or not values or "" in values.split(","):
            raise UsageError(f"--set {item!r}: expected KEY=V1,V2,... with no empty value")
        parsed[name] = values.split(",")
    return parsed


def filter_regex(pattern: str) -> re.Pattern:
    """--filter's regular expression, or one line saying why it is none (before anything is built)."""
    try:
        return re.compile(pattern)
    except re.error as e:
        raise UsageError(f"--filter {pattern!r} is not a valid regular expression: {e}")


def select(families: list[Family], pattern: str | None) -> list[Benchmark]:
    """The benchmarks whose cells this plan can run, narrowed by --filter: not those a command of
    their own measures (doctor's, sweep-pool --app's), which have no cells."""
    everything = all_benchmarks(families)
    benchmarks = [b for b in everything if not b.measured_by]
    if pattern is None:
        return benchmarks
    regex = filter_regex(pattern)
    chosen = [b for b in benchmarks if regex.search(b.full_name)]
    elsewhere = [f"{b.full_name} (`stallbench {b.measured_by}`)" for b in everything
                 if b.measured_by and regex.search(b.full_name)]
    if not chosen and elsewhere:
        raise UsageError(f"--filter {pattern!r} matches only benchmarks measured by a command of their own: "
                         f"{', '.join(elsewhere)}")
    if not chosen:
        known = ", ".join(b.full_name for b in benchmarks)
        raise UsageError(f"--filter {pattern!r} matches no benchmark (known: {known})")
    return chosen


def _cells(benchmark: Benchmark, grids: dict[str, list[str]], nodes: tuple[Node, ...],
           inputs: dict[str, str]) -> list[dict[str, str]]:
    """The parameter values of every cell the binary would run with these grids."""
    args = [str(benchmark.binary), f"--stallbench-cells={benchmark.name}", *node_args(nodes), *input_args(inputs)]
    # An empty grid is the node_line's: every chosen line, so it is not given.
    args += [f"--stallbench-grid={benchmark.name}.{k}={','.join(v)}" for k, v in grids.items() if v]
    try:
        result = children.run(args, text=True, timeout_s=DESCRIBE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise UsageError(f"{benchmark.binary} did not list its cells within {DESCRIBE_TIMEOUT_S} s")
    if result.returncode != 0:
        complaint = result.stderr.strip().splitlines()
        raise UsageError(complaint[-1] if complaint else f"{benchmark.binary} refused the grid")
    try:
        return contract.parse(result.stdout, "cells", benchmark.binary.name)["cells"]
    except contract.ProtocolError as e:
        raise UsageError(str(e)) from None


def _scope_of(key: str) -> tuple[str, str]:
    """'pool' -> ('', 'pool'); 'report.mode' -> ('report', 'mode'); 'json/parse.mode' -> ('json/parse', 'mode')."""
    scope, _, name = key.rpartition(".")
    return scope, name


def _in_scope(scope: str, b: Benchmark) -> bool:
    return scope in ("", b.family, b.full_name)


def sets_for(b: Benchmark, sets: dict[str, list[str]]) -> dict[str, list[str]]:
    """The --set grids that apply to `b`: KEY, FAMILY.KEY or FAMILY/BENCHMARK.KEY, the most specific
    winning, so `--set mode=...` can be narrowed to one family when two use the name."""
    chosen = {}
    for key in sorted(sets, key=lambda k: (k.count("."), k.count("/"))):
        scope, name = _scope_of(key)
        if _in_scope(scope, b) and b.param(name) is not None:
            chosen[name] = sets[key]
    return chosen


def _runnable(benchmarks: list[Benchmark]) -> list[Benchmark]:
    """The benchmarks that can run on this machine; the others are named in one line per family."""
    skipped: dict[str, tuple[str, list[str]]] = {}
    for b in benchmarks:
        if b.missing:
            skipped.setdefault(b.family, (b.missing, []))[1].append(b.name)
    for family, (why, names) in skipped.items():
        print(f"stallbench: {family}: skipped ({', '.join(names)}): {why}", file=sys.stderr)
    return [b for b in benchmarks if not b.missing]


def _check_keys(benchmarks: list[Benchmark], sets: dict[str, list[str]]) -> None:
    for key in sets:
        scope, name = _scope_of(key)
        if not any(_in_scope(scope, b) and b.param(name) is not None for b in benchmarks):
            known = sorted({p.name for b in benchmarks if _in_scope(scope, b) for p in b.params})
            where = f" in {scope}" if scope else ""
            raise UsageError(f"--set {key}: unknown parameter{where} for the selected benchmarks "
                             f"(valid: {', '.join(known) or 'none'})")


def _cells_of(b: Benchmark, profile: Profile, sets: dict[str, list[str]], nodes: tuple[Node, ...],
              narrow_with: str | None, inputs: dict[str, str] | None) -> list[Cell]:
    grids = {p.name: p.grid(profile.tier) for p in b.params} | sets_for(b, sets)
    per_process = [p.name for p in b.params if p.per_process]
    in_process = {k: v for k, v in grids.items() if k not in per_process}
    cells = []
    for combo in itertools.product(*(grids[name] for name in per_process)):
        one_process = {name: [value] for name, value in zip(per_process, combo)}
        try:
            listed = _cells(b, {**in_process, **one_process}, nodes, inputs or {})
        except UsageError as refused:
            hint = (f" (for {b.full_name}; narrow it with {narrow_with.format(family=b.family)})"
                    if sets and narrow_with else "")
            raise UsageError(f"{refused}{hint}") from None
        cells += [Cell(b, params, nodes, dict(inputs or {})) for params in listed]
    return cells


def make_plan(families: list[Family], profile: Profile, pattern: str | None, sets: dict[str, list[str]],
              nodes: tuple[Node, ...] = (), narrow_with: str | None = None,
              inputs: dict[str, str] | None = None) -> list[Cell]:
    """The cells of the chosen benchmarks. When a benchmark refuses a --set value, `narrow_with` says
    how the calling command lets its user aim the value at one family (None: it has no such option,
    so its users are not told to use one). `inputs`: the family's inputs, from its own command."""
    benchmarks = select(families, pattern)
    _check_keys(benchmarks, sets)
    cells = [cell for b in _runnable(benchmarks) for cell in _cells_of(b, profile, sets, nodes, narrow_with, inputs)]
    if not cells:
        raise UsageError("nothing to run: every combination of the grid was ruled out by the benchmarks' "
                         "own rules (a value that only pairs with another, or a runtime such as node that "
                         "is missing); see `stallbench list`")
    return cells


def check_sets(families: list[Family], profile: Profile, pattern: str | None, sets: dict[str, list[str]],
               nodes: tuple[Node, ...] = (), narrow_with: str | None = None) -> None:
    """What make_plan would refuse of the --set grids that can be told before a family's packages are
    installed (`run` installs them only after this): a key no selected benchmark has, and a value that a
    benchmark able to run already refuses. One still missing its packages is judged by the plan made
    once they are in."""
    benchmarks = select(families, pattern)
    _check_keys(benchmarks, sets)
    for b in benchmarks:
        if not b.missing and sets_for(b, sets):  # one no --set applies to refuses none
            _cells_of(b, profile, sets, nodes, narrow_with, None)
