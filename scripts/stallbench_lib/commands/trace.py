"""stallbench trace: the order in which a scenario's callbacks run on stallbench's model of a Node
line and, with --node LINES, under those Node lines from JavaScript generated from the same
scenario, side by side; with several lines, a parity matrix (scenario x line).

Scenarios are JSON files (format: workloads/loop/scenario.h, docs/starvation.md); with no file
every shipped one (workloads/loop/scenarios/) runs. The model's side is the C++ tool
build/<preset>/tools/stallbench_trace, which also checks the files (bad input: one line, exit 2),
writes the JavaScript and says where Node's start-up tail can change an order. Each Node line is
compared with the model of that line (or of --model-node); the model of a line spends that line's
start-up tail before its loop wherever it can change the order, annotated or not, with or without
--node (startup_tail.py: measured among the compared Node's own runs, stored when the line was
installed, or none). A race one side gave an order of that the other never did gets more runs on
both sides until decided (trace_parity.decide), else it is "undecided", which is not agreeing; so
does a single run a side that disagrees, before it is called a disagreement.
--random N adds N programs from the random program generator. Exit 0 when every order is one the
scenario expects and Node agrees, 1 otherwise (a model run that failed, an undecided race)."""
import os
import tempfile
import time
from pathlib import Path

from .. import (
    build, common_options, node as nodejs, numbers, parallel, paths, startup_tail, trace_parity as parity,
    trace_text)
from ..browser import trace as browser_trace
from ..errors import UsageError
from ..documents import json_loads

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
                        "distinct orders are printed with their counts and odds (95%% interval)")
    p.add_argument("--node", nargs="?", const="", metavar="LINES",
                   help="also run each scenario as JavaScript under Node and compare: 26, 24,26, all, system or none; "
                        f"--node alone: the default lines (the newest pinned, plus system when present; pinned: "
                        f"{', '.join(nodejs.pinned())})")
    p.add_argument("--model-node", metavar="LINE",
                   help="the Node line the model stands for (default: each compared line's own, else the newest pinned)")
    p.add_argument("--random", type=numbers.integer_option, metavar="N",
                   help="also N random programs (1-1000) from the generator (workloads/loop/random_program.h): "
                        "deterministic programs with no expected order, for comparing with --node")
    p.add_argument("--seed", type=numbers.integer_option, metavar="S",
                   help="the random programs' series (default: a new one, printed); with --first I, programs I to I+N-1")
    p.add_argument("--first", type=numbers.integer_option, metavar="I", default=0,
                   help="the first random program's index (default 0)")
    p.add_argument("--browser", nargs="?", const="", metavar="NAME",
                   help="run page scenarios in a headless browser instead: chromium (--browser alone: the first "
                        "the family declares), firefox, or all (every installed one, with a parity matrix across them); default scenarios: every "
                        f"file in {browser_trace.SCENARIOS.relative_to(paths.ROOT)}/; docs/browser.md")
    p.add_argument("--jobs", type=numbers.integer_option, metavar="N", default=1,
                   help="with --node: compare N lines at once (default 1; more is faster, but each line's races "
                        "and start-up tail are then measured while the others run)")
    common_options.no_build(p)


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

    def __init__(self, node: nodejs.Node | None, line: str, tail: startup_tail.Tail, result: dict,
                 node_runs: list[tuple[list[dict], str]] | None):
        self.node, self.line, self.tail, self.result = node, line, tail, result
        runs = node_runs or [(None, "")] * len(result["scenarios"])
        self.node_orders = [orders for orders, _ in runs]
        self.node_errors = [error for _, error in runs]

    @property
    def title(self) -> str:
        return self.node.line if self.node else f"model {self.line}"

    def verdict(self, i: int) -> str:
        s = self.result["scenarios"][i]
        if self.node_errors[i] or s["error"]:
            return parity.FAILED
        return parity.verdict(s["expect"], s["orders"], self.node_orders[i], s["startup_race"], s["odds_modelled"])

    def unsettled(self, i: int) -> bool:
        s = self.result["scenarios"][i]
        return not (self.node_errors[i] or s["error"]) and parity.unsettled(
            s["expect"], s["orders"], self.node_orders[i], s["startup_race"], s["odds_modelled"])

    def ok(self, i: int) -> bool:
        s = self.result["scenarios"][i]
        expected = parity.as_expected(s["expect"], s["orders"])
        return (not s["error"] and expected is not False
                and (self.node is None or self.verdict(i) in (parity.AGREE, parity.RACE)))

    def decide(self, i: int, tool: Path, file: Path, script: Path, workdir: Path) -> None:
        """An unsettled verdict (an undecided race, or one run a side that disagrees): more runs of
        scenario i on both sides until it is decided or the budget ends (trace_parity.decide); both
        sides' orders then count every run."""
        s = self.result["scenarios"][i]

        def more(n: int) -> tuple[list[dict], list[dict]]:
            theirs, error = parity.node_orders(self.node, script, n)
            if error:
                raise parity.RunFailed(error)
            again = parity.tool_document(tool, "trace_run", "run", "--model-node", self.line, *self.tail.tool_args(),
                                         "--runs", str(n), str(file), tmpdir=workdir)["scenarios"][0]
            if again["error"]:
                raise parity.RunFailed(again["error"])
            return again["orders"], theirs

        try:
            s["orders"], self.node_orders[i] = parity.decide(s["expect"], s["orders"], self.node_orders[i],
                                                             s["startup_race"], more, s["odds_modelled"])
        except parity.RunFailed as e:
            self.node_errors[i] = str(e)
        s["runs"] = sum(o["count"] for o in s["orders"])


def _scripts(tool: Path, files: list[Path], docs: list[dict], workdir: Path) -> list[Path]:
    """Each scenario as the Node program it stands for (generated each time, never kept)."""
    scripts = []
    for i, (f, doc) in enumerate(zip(files, docs)):
        script = workdir / f"{i:03d}-{f.stem}{'.mjs' if doc['module'] == 'esm' else '.cjs'}"
        script.write_text(parity.call_tool(tool, "javascript", str(f)))
        scripts.append(script)
    return scripts


def _compare(tool: Path, files: list[Path], runs: int | None, nodes: list[nodejs.Node], model_node: str | None,
             workdir: Path, jobs: int = 1) -> list[Comparison]:
    """Each Node's runs first, with its start-up tail measured among them where it can change an order,
    then the model of its line given that tail; `jobs` lines at a time (each line's tail is measured
    among its own runs, so under the same load as they are)."""
    # Per line, whether the start-up tail can change any file's order, read from the programs (this
    # also checks every file and the time their runs take: bad input is refused before anything runs).
    races = parity.tool_document(tool, "trace_startup_race", "startup-race", *(["--runs", str(runs)] if runs else []),
                                 *map(str, files))["lines"]
    docs = [json_loads(f.read_bytes()) for f in files]
    counts = [runs or doc.get("runs", 1) for doc in docs]
    scripts = _scripts(tool, files, docs, workdir) if nodes else []

    def one_line(node: nodejs.Node | None) -> Comparison:
        line = parity.model_line(node, model_node)
        node_runs = None
        if node is None:
            tail = startup_tail.without_node(line, races[line], sum(counts))
        else:
            spread = startup_tail.Spread(node, sum(counts)) if races[line] else None
            node_runs = [parity.node_orders(node, script, n, spread.after_run if spread else None)
                         for script, n in zip(scripts, counts)]
            tail = spread.tail() if spread else startup_tail.Tail(needed=False)
        result = parity.tool_document(tool, "trace_run", "run", "--model-node", line, *tail.tool_args(),
                                      *(["--runs", str(runs)] if runs else []), *map(str, files), tmpdir=workdir)
        comparison = Comparison(node, line, tail, result, node_runs)
        for i in range(len(files) if node else 0):
            if comparison.unsettled(i):
                comparison.decide(i, tool, files[i], scripts[i], workdir)
        return comparison

    return parallel.each(one_line, nodes or [None], workers=jobs)


def _random_files(tool: Path, args, folder: Path) -> tuple[list[Path], str]:
    """The --random programs, written into `folder`, and the line that says which they are."""
    if args.random is None:
        return [], ""
    seed = args.seed if args.seed is not None else int(time.time()) % 1_000_000
    folder.mkdir()
    out = parity.call_tool(tool, "random", "--seed", str(seed), "--first", str(args.first), "--count", str(args.random),
                           "--out", str(folder))
    return ([Path(line) for line in out.splitlines() if line],
            f"random programs: {args.random} of series {seed} from index {args.first} (the same programs again: "
            f"--random {args.random} --seed {seed} --first {args.first})")


def _files(args) -> list[Path]:
    files = list(args.files)
    # `--node SCENARIO.json`: --node alone, then a file.
    if args.node and (args.node.endswith(".json") or Path(args.node).is_file()):
        files.insert(0, Path(args.node))
        args.node = ""
    if args.random is not None:
        return files  # the random programs are written once the tool is built
    files = files or sorted(SCENARIOS.glob("*.json"))
    if not files:
        raise UsageError(f"no scenario files given and none in {SCENARIOS}")
    for f in files:
        if not f.is_file():
            raise UsageError(f"{f}: no such file (a scenario is a JSON file; shipped ones are in {SCENARIOS})")
    return files


def run(args) -> int:
    if args.browser is not None:
        if args.node is not None or args.model_node is not None:
            raise UsageError("--browser cannot be combined with --node or --model-node: page scenarios run in "
                             "a browser, Node's under Node")
        browser, files = args.browser, args.files
        if browser.endswith(".json"):  # `--browser SCENARIO.json ...`: the file is a scenario, the browser the default
            browser, files = "", [Path(browser), *files]
        for f in files:  # checked (one line, exit 2) before anything is built or started
            if f.is_file():
                browser_trace.scenarios.load(f)
        return browser_trace.run(files, args.runs, browser, paths.build_dir() if args.no_build else build.ensure_built())
    if args.runs is not None and not 1 <= args.runs <= 1000:
        raise UsageError(f"--runs {args.runs} is out of range: valid values are 1-1000")
    if not 1 <= args.jobs <= 16:
        raise UsageError(f"--jobs {args.jobs} is out of range: valid values are 1-16")
    if args.random is not None and not 1 <= args.random <= 1000:
        raise UsageError(f"--random {args.random} is out of range: valid values are 1-1000")
    for name in ("seed", "first"):
        if (getattr(args, name) or 0) < 0:
            raise UsageError(f"--{name} {getattr(args, name)} is out of range: valid values are 0 and up")
    files = _files(args)
    parity.model_line(None, args.model_node)  # a bad --model-node is refused before anything runs
    nodes, why_not = _nodes(args.node)
    tool = _tool(paths.build_dir() if args.no_build else build.ensure_built())
    with tempfile.TemporaryDirectory(prefix="stallbench-trace-") as tmp:
        generated, which = _random_files(tool, args, Path(tmp) / "random")
        comparisons = _compare(tool, files + generated, args.runs, nodes, args.model_node, Path(tmp), args.jobs)
        trace_text.print_all(tool, comparisons, which, why_not, {str(f) for f in generated})
    total = len(comparisons[0].result["scenarios"])
    failures = sum(not all(c.ok(i) for c in comparisons) for i in range(total))
    undecided = sum(any(c.node and c.verdict(i) == parity.UNDECIDED for c in comparisons) for i in range(total))
    print(f"\n{total} scenario{'s' if total != 1 else ''}: {total - failures} as expected"
          + (" and agreeing with node" if nodes else "") + (f", {failures} NOT" if failures else "")
          + (f" ({undecided} of them undecided races)" if undecided else ""))
    return 1 if failures else 0
