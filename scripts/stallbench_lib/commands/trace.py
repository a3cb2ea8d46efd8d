"""stallbench trace: the order in which a scenario's callbacks run on stallbench's model of a Node
line and, with --node LINES, under those Node lines from JavaScript generated from the same
scenario, side by side; with several lines, a parity matrix (scenario x line).

Scenarios are JSON files (format: workloads/loop/scenario.h, docs/starvation.md); with no file
every shipped one (workloads/loop/scenarios/) runs. The model's side is the C++ tool
build/<preset>/tools/stallbench_trace, which also checks the files (bad input: one line, exit 2)
and writes the JavaScript. Each Node line is compared with the model of that line (or of
--model-node), after the model has been given that Node's measured start-up tail. Exit 0 when
every order is one the scenario expects and Node agrees, 1 otherwise."""
import json
import os
import tempfile
from pathlib import Path

from .. import build, node as nodejs, numbers, paths, scenario_text, trace_parity as parity
from ..browser import trace as browser_trace
from ..errors import UsageError

NAME = "trace"
ORDER = 3
HELP = ("print the order a scenario's callbacks run in on stallbench's model of a Node line (every shipped "
        "scenario when no file is given); --node LINES: beside those Node lines, with a parity matrix")
SCENARIOS = paths.ROOT / "workloads" / "loop" / "scenarios"


def add_arguments(p):
    p.add_argument("files", nargs="*", type=Path, metavar="SCENARIO.json",
                   help=f"scenario files (default: every file in {SCENARIOS.relative_to(paths.ROOT)}/)")
    p.add_argument("--runs", type=numbers.integer_option, metavar="N",
                   help="runs per scenario, 1-1000 (default: the scenario's own `runs`: 1, more for races); "
                        "distinct orders are printed with their counts")
    p.add_argument("--node", nargs="?", const="", metavar="LINES",
                   help="also run each scenario as JavaScript under Node and compare: 26, 24,26, all, system or none; "
                        f"--node alone: the default lines (the newest pinned, plus system when present; pinned: "
                        f"{', '.join(nodejs.pinned())})")
    p.add_argument("--model-node", metavar="LINE",
                   help="the Node line the model stands for (default: each compared line's own, else the newest pinned)")
    p.add_argument("--browser", action="store_true",
                   help="run page scenarios in headless Chromium instead (default: every file in "
                        f"{browser_trace.SCENARIOS.relative_to(paths.ROOT)}/; docs/browser.md)")
    p.add_argument("--no-build", action="store_true", help="use the existing build")


def _tool(build_dir: Path) -> Path:
    tool = build_dir / "tools" / "stallbench_trace"
    if not tool.exists():
        raise UsageError(f"{tool} is not built: run without --no-build")
    return tool


def _nodes(option: str | None) -> tuple[list[nodejs.Node], str]:
    """The Nodes to compare with, and why there are none when --node gave none."""
    if option is None:
        return [], ""
    nodes = nodejs.choose(option or None)
    if nodes:
        return nodes, ""
    if option == "none" or os.environ.get("STALLBENCH_NODE") in ("", "none"):
        return [], "node disabled (STALLBENCH_NODE is empty or none)" if not option else "node disabled (--node none)"
    return [], "no Node line chosen or installable"


class Comparison:
    """One Node line (or none) beside the model of a line: the tool's result and Node's orders."""

    def __init__(self, node: nodejs.Node | None, line: str, tail: parity.Tail, result: dict):
        self.node, self.line, self.tail, self.result = node, line, tail, result
        self.node_orders: list[list[dict] | None] = [None] * len(result["scenarios"])
        self.node_errors = [""] * len(result["scenarios"])

    @property
    def title(self) -> str:
        return self.node.runtime.removeprefix("node@") if self.node else f"model {self.line}"

    def run_node(self, scripts: list[Path]) -> None:
        for i, (s, script) in enumerate(zip(self.result["scenarios"], scripts)):
            self.node_orders[i], self.node_errors[i] = parity.node_orders(self.node, script, s["runs"])

    def verdict(self, i: int) -> str:
        if self.node_errors[i]:
            return parity.FAILED
        s = self.result["scenarios"][i]
        return parity.verdict(s["expect"], s["orders"], self.node_orders[i])

    def ok(self, i: int) -> bool:
        expected = parity.as_expected(self.result["scenarios"][i]["expect"], self.result["scenarios"][i]["orders"])
        return expected is not False and (self.node is None or self.verdict(i) in (parity.AGREE, parity.RACE))


def _has_race(files: list[Path]) -> bool:
    """Whether a scenario allows several orders on some line: only a race depends on Node's start-up
    tail. (A file that does not parse has none here; the tool refuses it.)"""
    for f in files:
        try:
            doc = json.loads(f.read_bytes())
            orders = [doc.get("expect", [])] + list(doc.get("expectByLine", {}).values())
        except (ValueError, AttributeError):
            continue
        if any(isinstance(o, list) and len(o) > 1 for o in orders):
            return True
    return False


def _tail(node: nodejs.Node | None, race: bool) -> parity.Tail:
    if node is None:
        return parity.Tail(note="the model alone: --node measures Node's")
    return parity.startup_tail(node) if race else parity.Tail(note="not measured: no race among these scenarios")


def _compare(tool: Path, files: list[Path], runs: list[str], nodes: list[nodejs.Node], model_node: str | None,
             workdir: Path) -> list[Comparison]:
    comparisons = []
    race = _has_race(files)
    for node in nodes or [None]:
        line = parity.model_line(node, model_node)
        tail = _tail(node, race)
        result = json.loads(parity.call_tool(tool, "run", "--model-node", line, *parity.tail_args(tail), *runs,
                                             *map(str, files), tmpdir=workdir))
        comparisons.append(Comparison(node, line, tail, result))
    if nodes:
        scripts = []
        for s in comparisons[0].result["scenarios"]:
            script = workdir / f"{len(scripts):03d}-{Path(s['file']).stem}{'.mjs' if s['module'] == 'esm' else '.cjs'}"
            script.write_text(parity.call_tool(tool, "javascript", s["file"]))
            scripts.append(script)
        for c in comparisons:
            c.run_node(scripts)
    return comparisons


def _print_header(tool: Path, c: Comparison) -> None:
    model = c.result["model"]
    semantics = model["semantics"]
    print(f"model:   Node {model['line']} (libuv {model['libuv']}): {semantics[0]}")
    for text in semantics[1:] + [c.tail.describe()]:
        print(scenario_text.wrapped(text, "         ", "           "))
    if c.node:
        phase = parity.call_tool(tool, "timer-phase", c.node.libuv).strip()
        print(f"node:    {c.node.version} on libuv {c.node.libuv}" + (f" ({c.node.runtime})" if c.node.line == nodejs.SYSTEM else "")
              + f": {phase}")


def _print_distinct(who: str, orders: list[dict], runs: int, indent: str = "   ") -> None:
    n = len(orders)
    print(f"{indent}{who}: {n} distinct order{'s' if n != 1 else ''} in {runs} run{'s' if runs != 1 else ''}")
    for o in sorted(orders, key=lambda o: -o["count"]):
        print(f"{indent}  {o['count']:>4}×  " + " → ".join(o["order"]))


def _print_columns(ours: list[str], theirs: list[str] | None, left: str, right: str) -> None:
    width = max([len(left)] + [len(x) for x in ours]) + 2
    if theirs is None:
        for i, label in enumerate(ours, 1):
            print(f"   {i:>2}  {label}")
        return
    print(f"       {left:<{width}}{right}")
    for i in range(max(len(ours), len(theirs))):
        a = ours[i] if i < len(ours) else ""
        b = theirs[i] if i < len(theirs) else ""
        print(f"   {i + 1:>2} {' ' if a == b else '≠'} {a:<{width}}{b}")


def _print_expectation(s: dict) -> None:
    expected = parity.as_expected(s["expect"], s["orders"])
    if expected is True:
        print("   order: as expected" + (" (one of the allowed orders)" if len(s["expect"]) > 1 else ""))
    elif expected is False:
        print("   order: NOT as expected; expected " + " or ".join(" → ".join(e) for e in s["expect"]))


def _print_scenario(c: Comparison, i: int) -> None:
    """One scenario, the model beside at most one Node, in full."""
    s = c.result["scenarios"][i]
    scenario_text.print_intro(s, s["module"])
    theirs = c.node_orders[i]
    left = f"model of Node {c.line}"
    right = f"node {c.node.version}" if c.node else ""
    if len(s["orders"]) == 1 and (theirs is None or len(theirs) <= 1):
        if s["runs"] > 1:
            print(f"   every run of {s['runs']} gave the same order" + (" on both" if theirs else ""))
        _print_columns(s["orders"][0]["order"], theirs[0]["order"] if theirs else None, left, right)
    else:
        _print_distinct(left, s["orders"], s["runs"])
        if theirs:
            _print_distinct(right, theirs, s["runs"])
    _print_expectation(s)
    if c.node:
        text = c.verdict(i)
        if text == parity.FAILED:
            print(f"   node: failed: {c.node_errors[i]}")
        elif text == parity.RACE:
            print("   node: agree: a race, and every order either side gave is one the scenario allows; "
                  "how often each wins differs (see its analysis)")
        else:
            print(f"   node: {text}")


def _cell(c: Comparison, i: int) -> str:
    """A matrix cell: agree, DISAGREE, failed, or for a race how many runs gave the first allowed
    order on the model and on Node."""
    text = c.verdict(i)
    if text != parity.RACE:
        return text
    s = c.result["scenarios"][i]
    first = s["expect"][0]
    return f"race {parity.share(s['orders'], first)} | {parity.share(c.node_orders[i], first)}"


def _print_matrix(comparisons: list[Comparison]) -> None:
    scenarios = comparisons[0].result["scenarios"]
    name_width = max(len(s["name"]) for s in scenarios) + 2
    cells = [[_cell(c, i) for c in comparisons] for i in range(len(scenarios))]
    width = max([len(c.title) for c in comparisons] + [len(x) for row in cells for x in row]) + 2
    print("\nparity: each Node line beside the model of that line (race: runs giving the scenario's first allowed "
          "order, model | Node)")
    print(" " * name_width + "".join(f"{c.title:<{width}}" for c in comparisons))
    for s, row in zip(scenarios, cells):
        print(f"{s['name']:<{name_width}}" + "".join(f"{x:<{width}}" for x in row))
    deterministic = [i for i, s in enumerate(scenarios) if len(s["expect"]) <= 1]
    for c in comparisons:
        agree = sum(c.verdict(i) == parity.AGREE for i in deterministic)
        print(f"  {c.title}: {agree} of {len(deterministic)} deterministic scenarios agree "
              f"({100 * agree / max(len(deterministic), 1):.0f}%)")


def _print_lines(c: Comparison, i: int) -> None:
    """One scenario on one of several lines: its verdict, and the distributions when they differ."""
    s = c.result["scenarios"][i]
    text = c.verdict(i)
    print(f"   {c.title}: {text}" + (f": {c.node_errors[i]}" if c.node_errors[i] else ""))
    if text in (parity.RACE, parity.DISAGREE):
        _print_distinct(f"model of Node {c.line}", s["orders"], s["runs"], "      ")
        _print_distinct(f"node {c.node.version}", c.node_orders[i], s["runs"], "      ")
    if parity.as_expected(s["expect"], s["orders"]) is False:
        print(f"      model of Node {c.line}: NOT as expected; expected " + " or ".join(" → ".join(e) for e in s["expect"]))


def _files(args) -> list[Path]:
    files = list(args.files)
    # `--node SCENARIO.json`: --node alone, then a file.
    if args.node and (args.node.endswith(".json") or Path(args.node).is_file()):
        files.insert(0, Path(args.node))
        args.node = ""
    files = files or sorted(SCENARIOS.glob("*.json"))
    if not files:
        raise UsageError(f"no scenario files given and none in {SCENARIOS}")
    for f in files:
        if not f.is_file():
            raise UsageError(f"{f}: no such file (a scenario is a JSON file; shipped ones are in {SCENARIOS})")
    return files


def run(args) -> int:
    if args.browser:
        return browser_trace.run(args)
    if args.runs is not None and not 1 <= args.runs <= 1000:
        raise UsageError(f"--runs {args.runs} is out of range: valid values are 1-1000")
    files = _files(args)
    parity.model_line(None, args.model_node)  # a bad --model-node is refused before anything runs
    nodes, why_not = _nodes(args.node)
    tool = _tool(paths.build_dir() if args.no_build else build.ensure_built())
    runs = ["--runs", str(args.runs)] if args.runs is not None else []
    with tempfile.TemporaryDirectory(prefix="stallbench-trace-") as tmp:
        comparisons = _compare(tool, files, runs, nodes, args.model_node, Path(tmp))
    for c in comparisons:
        _print_header(tool, c)
    if why_not:
        print(f"note: {why_not}; showing stallbench's orders only")
    total = len(comparisons[0].result["scenarios"])
    if len(comparisons) == 1:
        for i in range(total):
            _print_scenario(comparisons[0], i)
    else:
        for i in range(total):
            scenario = comparisons[0].result["scenarios"][i]
            scenario_text.print_intro(scenario, scenario["module"])
            for c in comparisons:
                _print_lines(c, i)
        _print_matrix(comparisons)
    failures = sum(not all(c.ok(i) for c in comparisons) for i in range(total))
    print(f"\n{total} scenario{'s' if total != 1 else ''}: {total - failures} as expected"
          + (" and agreeing with node" if nodes else "") + (f", {failures} NOT" if failures else ""))
    return 1 if failures else 0
